import type { ConnectionStatus, MediaType, Provider, ScheduleSlot } from './constants';

// A connection as the API answers it. Cloud API secrets are never sent back: only whether they are set.
export type WhatsappView = {
  id: number;
  name: string;
  status: ConnectionStatus;
  isDefault: boolean;
  qrcode: string;
  // Set while a pairing code (instead of a QR) is waiting to be typed on the phone.
  pairingCode: string;
  retries: number;
  number: string;
  provider: Provider;
  greetingMessage: string;
  complationMessage: string;
  outOfHoursMessage: string;
  ratingMessage: string;
  // The external API token; only users who may edit connections see it (null for others).
  token: string | null;
  promptId: number | null;
  integrationId: number | null;
  transferQueueId: number | null;
  timeToTransfer: number | null;
  expiresTicket: number;
  expiresInactiveMessage: string;
  timeUseBotQueues: number;
  maxUseBotQueues: number;
  schedules: ScheduleSlot[];
  queues: { id: number; name: string; color: string }[];
  queueIds: number[];
  cloudPhoneNumberId: string | null;
  cloudVerifyToken: string | null;
  cloudApiBaseUrl: string | null;
  hasCloudAccessToken: boolean;
  hasCloudAppSecret: boolean;
  createdAt: string;
  updatedAt: string;
};

// SPEC §3: a session update carries id, status, updatedAt, qrcode, retries.
export type WhatsappSessionView = Pick<
  WhatsappView,
  'id' | 'status' | 'updatedAt' | 'qrcode' | 'pairingCode' | 'retries' | 'number'
>;

// Live events: company-{id}-whatsapp and company-{id}-whatsappSession.
export type WhatsappEvent =
  | { action: 'update' | 'create'; whatsapp: WhatsappView }
  | { action: 'delete'; whatsappId: number };
export type WhatsappSessionEvent = { action: 'update'; session: WhatsappSessionView };

// What the platform sent through a simulator connection (GET /simulator/{id}/outbound).
export type SimulatorOutboundView = {
  id: string;
  to: string;
  body: string;
  mediaType: MediaType;
  fileName: string | null;
  quotedId: string | null;
  ack: number;
  createdAt: string;
};

// SPEC §2 App shell: the connections menu item shows '!' while any session is in one of these.
const attentionStatuses: readonly ConnectionStatus[] = [
  'qrcode',
  'PAIRING',
  'DISCONNECTED',
  'TIMEOUT',
  'OPENING',
];
export const needsAttention = (status: ConnectionStatus) => attentionStatuses.includes(status);

// SPEC §4 Connection status: which session buttons a status shows.
export type SessionAction = 'showQr' | 'tryAgain' | 'newQr' | 'connecting' | 'disconnect';
export const sessionActions = (status: ConnectionStatus): SessionAction[] => {
  switch (status) {
    case 'qrcode':
      return ['showQr'];
    case 'DISCONNECTED':
      return ['tryAgain', 'newQr'];
    case 'OPENING':
      return ['connecting'];
    case 'CONNECTED':
    case 'PAIRING':
    case 'TIMEOUT':
      return ['disconnect'];
  }
};
