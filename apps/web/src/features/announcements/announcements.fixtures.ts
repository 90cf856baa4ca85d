import { act } from '@testing-library/react';
import { getSocket } from '../../api/socket';
import type { FakeSocket } from '../../test/fake-socket';
import { jsonResponse } from '../../test/fixtures';
import type { Announcement, AnnouncementEvent } from './announcements.api';

let nextId = 1;

export const makeAnnouncement = (overrides: Partial<Announcement> = {}): Announcement => {
  const id = overrides.id ?? nextId++;
  return {
    id,
    title: `Anuncio ${id}`,
    text: `Texto del anuncio ${id}`,
    priority: 3,
    status: true,
    mediaName: null,
    mediaUrl: null,
    createdAt: '2025-03-10T12:00:00.000Z',
    updatedAt: '2025-03-10T12:00:00.000Z',
    ...overrides,
  };
};

export const pageOf = (records: Announcement[], hasMore = false, count = records.length) =>
  jsonResponse(200, { records, count, hasMore });

// Delivers a server event inside act, which also runs TanStack Query's batched notifications (a
// microtask in tests, see test/setup.ts) so that the screen shows the result.
export const receiveAnnouncementEvent = async (event: AnnouncementEvent, companyId = 1) => {
  const socket = getSocket() as unknown as FakeSocket;
  await act(async () => {
    socket.receive(`company-${companyId}-announcement`, event);
  });
};

export const requestsOf = (fetchMock: { mock: { calls: unknown[][] } }) =>
  fetchMock.mock.calls.map(([url, init]) => {
    const parsed = new URL(String(url));
    return {
      method: (init as RequestInit).method ?? 'GET',
      path: parsed.pathname,
      query: Object.fromEntries(parsed.searchParams),
      body: (init as RequestInit).body,
    };
  });
