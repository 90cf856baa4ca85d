import { z } from 'zod';
import { languages } from './languages';

// Issue 41, Web Push: an agent opts in per device (the browser's PushSubscription, sent as the
// browser gives it: endpoint and keys) and chooses which conversations reach them on their devices.

// PushSubscription.toJSON(): the push service's address and the browser's keys (base64url): its P-256
// public key and the 16-byte authentication secret the payload is encrypted for (RFC 8291).
export const pushSubscriptionSchema = z.object({
  endpoint: z.string().trim().min(1).max(2000),
  keys: z.object({
    p256dh: z.string().trim().min(1).max(200),
    auth: z.string().trim().min(1).max(100),
  }),
  // How the user will recognise the device (the browser's name); the user agent when absent.
  device: z.string().trim().max(200).optional(),
  // The language the device's pushes are written in: the app's on that device (Spanish if absent).
  language: z.enum(languages).optional(),
});
export type PushSubscriptionInput = z.input<typeof pushSubscriptionSchema>;

export const pushSubscriptionViewSchema = z.object({
  endpoint: z.string(),
  device: z.string(),
  createdAt: z.string(),
});

// A device's language chosen again in its app.
export const pushLanguageSchema = z.object({
  endpoint: z.string().trim().min(1).max(2000),
  language: z.enum(languages),
});

export const pushEndpointQuery = z.object({ endpoint: z.string().trim().min(1).max(2000) });

export const vapidPublicKeySchema = z.object({ publicKey: z.string() });

// What a user hears of on their devices: a contact's message on a conversation of theirs, a
// conversation assigned or transferred to them, a conversation waiting in one of their queues (off
// unless chosen: a busy queue would ring all day), an SLA deadline of theirs about to pass.
export const pushPreferencesSchema = z.object({
  newMessage: z.boolean(),
  assigned: z.boolean(),
  transferred: z.boolean(),
  waitingInQueues: z.boolean(),
  slaWarning: z.boolean(),
});
export type PushPreferences = z.infer<typeof pushPreferencesSchema>;
export type PushKind = keyof PushPreferences;

export const pushPreferenceDefaults: PushPreferences = {
  newMessage: true,
  assigned: true,
  transferred: true,
  waitingInQueues: false,
  slaWarning: true,
};

// What the service worker shows (apps/web/public/push-sw.js): clicking it opens `url`; a newer
// notification of the same `tag` (the conversation) replaces the older one.
export const pushPayloadSchema = z.object({
  title: z.string(),
  body: z.string(),
  url: z.string(),
  tag: z.string(),
  kind: z.enum(['newMessage', 'assigned', 'transferred', 'waitingInQueues', 'slaWarning']),
});
export type PushPayload = z.infer<typeof pushPayloadSchema>;
