import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getSocket } from '../../api/socket';
import type { FakeSocket } from '../../test/fake-socket';
import { jsonResponse, makeAuth, stubApi } from '../../test/fixtures';
import { renderPage } from '../../test/render-page';
import { listOf, makeTicket, messagesOf } from './tickets.fixtures';
import { TicketsPage } from './tickets-page';

const ticket = makeTicket({ id: 7 });

const typing = (event: string, payload: Record<string, unknown>) =>
  act(() => {
    (getSocket() as unknown as FakeSocket).receive(event, {
      ticketId: 7,
      chatJid: '5215512345678@s.whatsapp.net',
      who: '5215512345678@s.whatsapp.net',
      typing: true,
      ...payload,
    });
  });

const isShown = () => screen.queryByText('escribiendo…') !== null;

afterEach(() => {
  vi.useRealTimers();
});

describe('typing indicator', () => {
  it('shows while the contact types and goes out 5 s after the last event or at once on stop', async () => {
    stubApi({
      'GET /tickets': () => listOf([]),
      [`GET /tickets/u/${ticket.uuid}`]: () => jsonResponse(200, ticket),
      'GET /messages/7': () => messagesOf(ticket, []),
    });
    renderPage(<TicketsPage />, `/tickets/${ticket.uuid}`, makeAuth(), {
      route: '/tickets/:ticketId?',
    });
    await screen.findByText('Resolver');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });

    // Another chat's typing is not this one's.
    typing('wa:typing', { ticketId: 8 });
    expect(isShown()).toBe(false);

    typing('wa:typing', {});
    expect(isShown()).toBe(true);
    act(() => vi.advanceTimersByTime(4000));
    // A new event starts the 5 s again.
    typing('wa:typing', {});
    act(() => vi.advanceTimersByTime(4900));
    expect(isShown()).toBe(true);
    act(() => vi.advanceTimersByTime(200));
    expect(isShown()).toBe(false);

    // typing false clears it without waiting.
    typing('wa:typing', {});
    expect(isShown()).toBe(true);
    typing('wa:typing', { typing: false });
    expect(isShown()).toBe(false);
  });
});
