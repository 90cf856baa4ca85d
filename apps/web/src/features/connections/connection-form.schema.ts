import { z } from 'zod';
import { CONNECTION_DEFAULTS, providers, type WhatsappInput } from '@atendi/shared';
import { requiredName } from '../../lib/form-rules';
import { scheduleRowsFor, scheduleRowsSchema } from '../../lib/schedules';
import type { Connection } from './connections.api';

// The limits of whatsappSchema (packages/shared), with messages that are i18n keys.
const MAX_MINUTES = 525600;
const MAX_BOT_QUEUE_USES = 1000;
const MAX_CLOUD_FIELD = 500;

const text = z.string().max(5000, 'connections.validation.tooLong');
const wholeNumber = (max: number, message: string) =>
  z
    .string()
    .trim()
    .refine((value) => /^\d+$/.test(value) && Number(value) <= max, message);
const cloudText = z.string().trim().max(MAX_CLOUD_FIELD, 'connections.validation.cloudTooLong');

export const connectionFormSchema = (hasSavedAccessToken: boolean) =>
  z
    .object({
      name: requiredName,
      isDefault: z.boolean(),
      provider: z.enum(providers),
      queueIds: z.array(z.number()),
      greetingMessage: text,
      complationMessage: text,
      outOfHoursMessage: text,
      ratingMessage: text,
      transferQueueId: z.string(),
      // Blank: never transfer.
      timeToTransfer: z
        .string()
        .trim()
        .refine(
          (value) => value === '' || (/^\d+$/.test(value) && Number(value) <= MAX_MINUTES),
          'connections.validation.minutes',
        ),
      expiresTicket: wholeNumber(MAX_MINUTES, 'connections.validation.minutes'),
      expiresInactiveMessage: text,
      timeUseBotQueues: wholeNumber(MAX_MINUTES, 'connections.validation.minutes'),
      maxUseBotQueues: wholeNumber(MAX_BOT_QUEUE_USES, 'connections.validation.maxUseBotQueues'),
      promptId: z.string(),
      integrationId: z.string(),
      schedules: scheduleRowsSchema('connections.validation.time'),
      cloudPhoneNumberId: cloudText,
      cloudAccessToken: cloudText,
      cloudAppSecret: cloudText,
      cloudVerifyToken: cloudText,
      cloudApiBaseUrl: cloudText,
      cloudBusinessAccountId: cloudText,
    })
    .superRefine((values, ctx) => {
      const issue = (path: keyof typeof values, message: string) =>
        ctx.addIssue({ code: 'custom', path: [path], message });
      // SPEC §5 (as for queues): with more than one queue the bot needs a greeting to offer them.
      if (values.queueIds.length > 1 && !values.greetingMessage.trim()) {
        issue('greetingMessage', 'connections.validation.greetingRequired');
      }
      if (values.provider !== 'cloud') return;
      if (!values.cloudPhoneNumberId) issue('cloudPhoneNumberId', 'validation.required');
      else if (!/^\d{1,40}$/.test(values.cloudPhoneNumberId)) {
        issue('cloudPhoneNumberId', 'connections.validation.digitsOnly');
      }
      if (!values.cloudAccessToken && !hasSavedAccessToken) {
        issue('cloudAccessToken', 'validation.required');
      }
      if (values.cloudBusinessAccountId && !/^\d{1,40}$/.test(values.cloudBusinessAccountId)) {
        issue('cloudBusinessAccountId', 'connections.validation.digitsOnly');
      }
      if (values.cloudApiBaseUrl && !z.url().safeParse(values.cloudApiBaseUrl).success) {
        issue('cloudApiBaseUrl', 'connections.validation.url');
      }
    });

export type ConnectionFormValues = z.infer<ReturnType<typeof connectionFormSchema>>;
export type ConnectionFormField = keyof ConnectionFormValues;

export type ConnectionTab = 'general' | 'tickets' | 'hours' | 'cloud';

// Which tab holds each field, to show the first one a save refused.
export const tabOfField: Record<ConnectionFormField, ConnectionTab> = {
  name: 'general',
  isDefault: 'general',
  provider: 'general',
  queueIds: 'general',
  greetingMessage: 'general',
  complationMessage: 'general',
  outOfHoursMessage: 'general',
  ratingMessage: 'general',
  transferQueueId: 'tickets',
  timeToTransfer: 'tickets',
  expiresTicket: 'tickets',
  expiresInactiveMessage: 'tickets',
  timeUseBotQueues: 'tickets',
  maxUseBotQueues: 'tickets',
  promptId: 'tickets',
  integrationId: 'tickets',
  schedules: 'hours',
  cloudPhoneNumberId: 'cloud',
  cloudAccessToken: 'cloud',
  cloudAppSecret: 'cloud',
  cloudVerifyToken: 'cloud',
  cloudApiBaseUrl: 'cloud',
  cloudBusinessAccountId: 'cloud',
};

const idText = (id: number | null | undefined) =>
  id === null || id === undefined ? '' : String(id);
const idOrNull = (value: string) => (value === '' ? null : Number(value));

// A new connection starts with SPEC §9's defaults and the default service hours.
export const connectionFormDefaults = (connection: Connection | null): ConnectionFormValues => ({
  name: connection?.name ?? '',
  isDefault: connection?.isDefault ?? false,
  provider: connection?.provider ?? CONNECTION_DEFAULTS.provider,
  queueIds: connection?.queueIds ?? [],
  greetingMessage: connection?.greetingMessage ?? '',
  complationMessage: connection?.complationMessage ?? '',
  outOfHoursMessage: connection?.outOfHoursMessage ?? '',
  ratingMessage: connection?.ratingMessage ?? '',
  transferQueueId: idText(connection?.transferQueueId),
  timeToTransfer: idText(connection?.timeToTransfer),
  expiresTicket: String(connection?.expiresTicket ?? CONNECTION_DEFAULTS.expiresTicket),
  expiresInactiveMessage: connection?.expiresInactiveMessage ?? '',
  timeUseBotQueues: String(connection?.timeUseBotQueues ?? CONNECTION_DEFAULTS.timeUseBotQueues),
  maxUseBotQueues: String(connection?.maxUseBotQueues ?? CONNECTION_DEFAULTS.maxUseBotQueues),
  promptId: idText(connection?.promptId),
  integrationId: idText(connection?.integrationId),
  schedules: scheduleRowsFor(connection?.schedules) as ConnectionFormValues['schedules'],
  // The secrets are write-only: their inputs start empty and stay out of the payload unless typed.
  cloudPhoneNumberId: connection?.cloudPhoneNumberId ?? '',
  cloudAccessToken: '',
  cloudAppSecret: '',
  cloudVerifyToken: connection?.cloudVerifyToken ?? '',
  cloudApiBaseUrl: connection?.cloudApiBaseUrl ?? '',
  cloudBusinessAccountId: connection?.cloudBusinessAccountId ?? '',
});

// Cloud API fields travel only for a cloud connection; a secret only when one was typed.
const cloudPayload = (values: ConnectionFormValues) =>
  values.provider === 'cloud'
    ? {
        cloudPhoneNumberId: values.cloudPhoneNumberId,
        cloudVerifyToken: values.cloudVerifyToken || null,
        cloudApiBaseUrl: values.cloudApiBaseUrl || null,
        // Where the number's message templates are read from; empty: none yet.
        cloudBusinessAccountId: values.cloudBusinessAccountId || null,
        ...(values.cloudAccessToken ? { cloudAccessToken: values.cloudAccessToken } : {}),
        ...(values.cloudAppSecret ? { cloudAppSecret: values.cloudAppSecret } : {}),
      }
    : {};

export const toConnectionPayload = (values: ConnectionFormValues): WhatsappInput => ({
  name: values.name,
  isDefault: values.isDefault,
  provider: values.provider,
  queueIds: values.queueIds,
  greetingMessage: values.greetingMessage,
  complationMessage: values.complationMessage,
  outOfHoursMessage: values.outOfHoursMessage,
  ratingMessage: values.ratingMessage,
  transferQueueId: idOrNull(values.transferQueueId),
  timeToTransfer: values.timeToTransfer === '' ? null : Number(values.timeToTransfer),
  expiresTicket: Number(values.expiresTicket),
  expiresInactiveMessage: values.expiresInactiveMessage,
  timeUseBotQueues: Number(values.timeUseBotQueues),
  maxUseBotQueues: Number(values.maxUseBotQueues),
  promptId: idOrNull(values.promptId),
  integrationId: idOrNull(values.integrationId),
  schedules: values.schedules,
  ...cloudPayload(values),
});
