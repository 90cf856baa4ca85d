export const APP_VERSION = '6.0.0';

export const profiles = ['user', 'admin', 'supervisor'] as const;
export type Profile = (typeof profiles)[number];

export const companyStatuses = ['active', 'overdue', 'suspended', 'cancelled'] as const;
export type CompanyStatus = (typeof companyStatuses)[number];

export const recurrences = ['MENSAL', 'BIMESTRAL', 'TRIMESTRAL', 'SEMESTRAL', 'ANUAL'] as const;
export type Recurrence = (typeof recurrences)[number];
export const recurrenceMonths: Record<Recurrence, number> = {
  MENSAL: 1,
  BIMESTRAL: 2,
  TRIMESTRAL: 3,
  SEMESTRAL: 6,
  ANUAL: 12,
};

// A date some months later; the 31st plus one month is the last day of the shorter month.
export const addMonths = (date: Date, months: number) => {
  const next = new Date(date);
  const day = next.getDate();
  next.setDate(1);
  next.setMonth(next.getMonth() + months);
  const lastDay = new Date(next.getFullYear(), next.getMonth() + 1, 0).getDate();
  next.setDate(Math.min(day, lastDay));
  return next;
};

// An agent's presence (issue 36): online while a socket of theirs is open and in use, away after
// inactivity or by choice, offline by choice or when the last socket closed. `availability` is the
// agent's own choice (online = available), the presence what the platform makes of it.
export const presences = ['online', 'away', 'offline'] as const;
export type Presence = (typeof presences)[number];

// How a queue hands its waiting conversations to its agents: not at all (they accept them), in
// turn, or to the agent with the fewest open conversations.
export const routingModes = ['off', 'round_robin', 'balanced'] as const;
export type RoutingMode = (typeof routingModes)[number];

// The promises of a queue's SLA policy (issue 36): the first answer by a person, each next answer
// after the contact writes again, and the resolution, each a number of (business) minutes.
export const slaKinds = ['firstResponse', 'nextResponse', 'resolution'] as const;
export type SlaKind = (typeof slaKinds)[number];

export const ticketStatuses = ['pending', 'open', 'closed'] as const;
export type TicketStatus = (typeof ticketStatuses)[number];

export const mediaTypes = [
  'chat',
  'image',
  'audio',
  'video',
  'application',
  'locationMessage',
  'vcard',
  'call_log',
] as const;
export type MediaType = (typeof mediaTypes)[number];

// Why a received message's file was not kept (the message itself always is).
export const mediaErrors = ['ERR_WAPP_DOWNLOAD_MEDIA', 'ERR_STORAGE_QUOTA_EXCEEDED'] as const;
export type MediaError = (typeof mediaErrors)[number];

export const connectionStatuses = [
  'qrcode',
  'PAIRING',
  'OPENING',
  'CONNECTED',
  'DISCONNECTED',
  'TIMEOUT',
] as const;
export type ConnectionStatus = (typeof connectionStatuses)[number];

export const providers = ['beta', 'cloud', 'simulator'] as const;
export type Provider = (typeof providers)[number];

export const allTicketValues = ['enabled', 'desabled'] as const;

export const campaignStatuses = [
  'INATIVA',
  'PROGRAMADA',
  'EM_ANDAMENTO',
  'CANCELADA',
  'FINALIZADA',
] as const;

export const integrationTypes = ['dialogflow', 'n8n', 'webhook', 'typebot'] as const;

export const invoiceStatuses = ['paid', 'open', 'expired'] as const;

// SPEC §9: warnings start this many days before the due date.
export const DUE_WARNING_DAYS = 5;

// SPEC §9 sign-up defaults.
export const SIGNUP_DEFAULTS = {
  recurrence: 'MENSAL' as Recurrence,
  status: 'active' as CompanyStatus,
  campaignsEnabled: false,
  planId: 7,
  trialDays: 7,
};

export const CONNECTION_DEFAULTS = {
  maxUseBotQueues: 3,
  timeUseBotQueues: 0,
  expiresTicket: 0,
  provider: 'beta' as Provider,
};

export const weekdays = [
  { weekday: 'Lunes', weekdayEn: 'monday' },
  { weekday: 'Martes', weekdayEn: 'tuesday' },
  { weekday: 'Miércoles', weekdayEn: 'wednesday' },
  { weekday: 'Jueves', weekdayEn: 'thursday' },
  { weekday: 'Viernes', weekdayEn: 'friday' },
  { weekday: 'Sábado', weekdayEn: 'saturday' },
  { weekday: 'Domingo', weekdayEn: 'sunday' },
] as const;

export type ScheduleSlot = {
  weekday: string;
  weekdayEn: string;
  startTime: string;
  endTime: string;
};

// SPEC §9 default service hours: Mon–Fri 08:00–18:00, Sat 08:00–12:00, Sun closed.
export const defaultSchedules = (): ScheduleSlot[] =>
  weekdays.map(({ weekday, weekdayEn }) => {
    if (weekdayEn === 'saturday')
      return { weekday, weekdayEn, startTime: '08:00', endTime: '12:00' };
    if (weekdayEn === 'sunday') return { weekday, weekdayEn, startTime: '00:00', endTime: '00:00' };
    return { weekday, weekdayEn, startTime: '08:00', endTime: '18:00' };
  });

// SPEC §9: the three advertised plans, seeded on first start.
export const advertisedPlans = [
  // Basic advertises no AI agents (useOpenAi off; its AI limits are then moot); queues 0 is
  // "unlimited departments". Plus: 1 AI agent, Premium: 3, each with 2,000 answers a month,
  // and 2 and 6 million tokens a month for everything AI does for them. Storage
  // grows with the price.
  {
    name: 'Basic',
    users: 2,
    connections: 1,
    queues: 5,
    aiAgents: 0,
    aiMessages: 0,
    aiTokens: 0,
    value: 39,
    useOpenAi: false,
    storageMb: 5120,
  },
  {
    name: 'Plus',
    users: 2,
    connections: 1,
    queues: 8,
    aiAgents: 1,
    aiMessages: 2000,
    aiTokens: 2_000_000,
    value: 99,
    useOpenAi: true,
    storageMb: 20480,
  },
  {
    name: 'Premium',
    users: 4,
    connections: 3,
    queues: 0,
    aiAgents: 3,
    aiMessages: 2000,
    aiTokens: 6_000_000,
    value: 149,
    useOpenAi: true,
    storageMb: 51200,
  },
] as const;

// A plan's stored files (MB) when nobody says otherwise: new plans and plans older than the limit.
export const DEFAULT_PLAN_STORAGE_MB = 5120;
export const MB = 1024 * 1024;

// A plan limit of 0 means unlimited.
export const isWithinLimit = (limit: number, current: number) => limit <= 0 || current < limit;

// A company past its due date is overdue even if its stored status still says active.
export const effectiveCompanyStatus = (
  company: { status: CompanyStatus; dueDate: Date | string | null },
  now: Date = new Date(),
): CompanyStatus => {
  if (company.status !== 'active' || !company.dueDate) return company.status;
  return new Date(company.dueDate).getTime() < now.getTime() ? 'overdue' : 'active';
};
