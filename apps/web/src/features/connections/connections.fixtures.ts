import { act } from '@testing-library/react';
import { defaultSchedules, type WhatsappEvent, type WhatsappSessionView } from '@atendi/shared';
import { getSocket } from '../../api/socket';
import type { FakeSocket } from '../../test/fake-socket';
import type { Connection } from './connections.api';

export const makeConnection = (overrides: Partial<Connection> = {}): Connection => ({
  id: 1,
  name: 'Ventas',
  status: 'CONNECTED',
  isDefault: false,
  qrcode: '',
  pairingCode: '',
  retries: 0,
  number: '5215512345678',
  provider: 'beta',
  greetingMessage: '',
  complationMessage: '',
  outOfHoursMessage: '',
  ratingMessage: '',
  token: 'tok-123',
  promptId: null,
  integrationId: null,
  transferQueueId: null,
  timeToTransfer: null,
  expiresTicket: 0,
  expiresInactiveMessage: '',
  timeUseBotQueues: 0,
  maxUseBotQueues: 3,
  schedules: defaultSchedules(),
  queues: [],
  queueIds: [],
  cloudPhoneNumberId: null,
  cloudVerifyToken: null,
  cloudApiBaseUrl: null,
  cloudBusinessAccountId: null,
  hasCloudAccessToken: false,
  hasCloudAppSecret: false,
  cloudQualityRating: null,
  cloudMessagingLimit: null,
  createdAt: '2025-03-04T09:05:00',
  updatedAt: '2025-03-04T09:05:00',
  ...overrides,
});

export const sessionOf = (
  connection: Connection,
  overrides: Partial<WhatsappSessionView> = {},
): WhatsappSessionView => ({
  id: connection.id,
  status: connection.status,
  updatedAt: connection.updatedAt,
  qrcode: connection.qrcode,
  pairingCode: connection.pairingCode,
  retries: connection.retries,
  number: connection.number,
  cloudQualityRating: connection.cloudQualityRating,
  cloudMessagingLimit: connection.cloudMessagingLimit,
  ...overrides,
});

// Delivers a server event inside act, which also runs TanStack Query's batched notifications (a
// microtask in tests, see test/setup.ts) so that the screen shows the result.
const receive = async (event: string, payload: unknown) => {
  const socket = getSocket() as unknown as FakeSocket;
  await act(async () => {
    socket.receive(event, payload);
  });
};

export const receiveSession = (session: WhatsappSessionView, companyId = 1) =>
  receive(`company-${companyId}-whatsappSession`, { action: 'update', session });

export const receiveWhatsapp = (event: WhatsappEvent, companyId = 1) =>
  receive(`company-${companyId}-whatsapp`, event);

export const bodyOf = (init: RequestInit) =>
  JSON.parse(String(init.body)) as Record<string, unknown>;
