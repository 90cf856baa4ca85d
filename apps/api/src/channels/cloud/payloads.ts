import { z } from 'zod';
import { isReactionEmoji, type MediaType } from '@atendi/shared';
import type { Ack, ChannelEvent, InboundMessage } from '../driver';
import { normalizeNumber } from '../numbers';

// Converts Cloud API webhook payloads (Meta's documented shapes) into channel events. Pure: no I/O.
// Schemas are loose objects: Meta adds fields over time and those must never break intake; only the
// fields read here are checked.

const graphError = z.looseObject({
  code: z.number().optional(),
  title: z.string().optional(),
  message: z.string().optional(),
  error_data: z.looseObject({ details: z.string().optional() }).optional(),
});

const media = z.looseObject({
  id: z.string().min(1),
  mime_type: z.string().optional(),
  caption: z.string().optional(),
  filename: z.string().optional(),
});

const sharedContact = z.looseObject({
  name: z
    .looseObject({
      formatted_name: z.string().optional(),
      first_name: z.string().optional(),
      last_name: z.string().optional(),
    })
    .optional(),
  phones: z
    .array(
      z.looseObject({
        phone: z.string().optional(),
        wa_id: z.string().optional(),
        type: z.string().optional(),
      }),
    )
    .optional(),
  emails: z.array(z.looseObject({ email: z.string().optional() })).optional(),
  org: z.looseObject({ company: z.string().optional() }).optional(),
});

const reply = z.looseObject({ id: z.string().optional(), title: z.string() });

const message = z.looseObject({
  from: z.string().min(1),
  id: z.string().min(1),
  timestamp: z.union([z.string().regex(/^\d+$/), z.number().int().nonnegative()]),
  type: z.string().min(1),
  context: z.looseObject({ id: z.string().optional(), from: z.string().optional() }).optional(),
  text: z.looseObject({ body: z.string() }).optional(),
  image: media.optional(),
  sticker: media.optional(),
  audio: media.optional(),
  voice: media.optional(),
  video: media.optional(),
  document: media.optional(),
  location: z
    .looseObject({
      latitude: z.coerce.number(),
      longitude: z.coerce.number(),
      name: z.string().optional(),
      address: z.string().optional(),
    })
    .optional(),
  contacts: z.array(sharedContact).optional(),
  interactive: z
    .looseObject({
      type: z.string().optional(),
      button_reply: reply.optional(),
      list_reply: reply.optional(),
    })
    .optional(),
  button: z.looseObject({ text: z.string(), payload: z.string().optional() }).optional(),
  // No emoji (or an empty one): the contact took their reaction back.
  reaction: z
    .looseObject({ message_id: z.string().min(1), emoji: z.string().optional() })
    .optional(),
  errors: z.array(graphError).optional(),
});

const status = z.looseObject({
  id: z.string().min(1),
  status: z.string().min(1),
  errors: z.array(graphError).optional(),
});

const value = z.looseObject({
  metadata: z.looseObject({ phone_number_id: z.string().min(1) }).optional(),
  contacts: z
    .array(
      z.looseObject({
        wa_id: z.string().optional(),
        profile: z.looseObject({ name: z.string().optional() }).optional(),
      }),
    )
    .optional(),
  messages: z.array(message).optional(),
  statuses: z.array(status).optional(),
});

const payloadSchema = z.looseObject({
  object: z.string(),
  entry: z.array(
    z.looseObject({
      // The WhatsApp Business Account (account-level notifications name no phone number id).
      id: z.string().optional(),
      changes: z.array(z.looseObject({ field: z.string().optional(), value })).default([]),
    }),
  ),
});

// Account-level notifications (issue 39: number health), as Meta documents their values.
const metaWord = z.string().regex(/^[A-Z0-9_]{1,40}$/);
const qualityValue = z.looseObject({
  display_phone_number: z.string().min(1).max(40),
  event: metaWord,
  current_limit: metaWord.optional(),
});
const accountValue = z.looseObject({
  phone_number: z.string().max(40).optional(),
  event: metaWord,
  ban_info: z.looseObject({ waba_ban_state: metaWord.optional() }).optional(),
});
const templateValue = z.looseObject({
  event: metaWord,
  message_template_id: z.union([z.string().max(40), z.number().int()]),
  message_template_name: z.string().max(512).optional(),
  message_template_language: z.string().max(20).optional(),
  reason: z.string().max(500).nullish(),
});

export type AccountUpdate =
  | { kind: 'quality'; phoneNumber: string; event: string; currentLimit?: string }
  | { kind: 'account'; phoneNumber?: string; event: string; banState?: string }
  | {
      kind: 'template';
      templateId: string;
      name?: string;
      language?: string;
      event: string;
      reason?: string;
    };

// The account-level notifications of a payload (quality and tier, account, template status), by
// WhatsApp Business Account, in payload order. Values that do not look like Meta's are skipped.
export const accountUpdatesOf = (
  payload: unknown,
): { businessAccountId: string; updates: AccountUpdate[] }[] => {
  const groups = new Map<string, AccountUpdate[]>();
  for (const entry of parse(payload)) {
    if (!entry.id) continue;
    const updates = groups.get(entry.id) ?? [];
    for (const change of entry.changes) {
      if (change.field === 'phone_number_quality_update') {
        const v = qualityValue.safeParse(change.value);
        if (v.success)
          updates.push({
            kind: 'quality',
            phoneNumber: normalizeNumber(v.data.display_phone_number),
            event: v.data.event,
            ...(v.data.current_limit ? { currentLimit: v.data.current_limit } : {}),
          });
      } else if (change.field === 'account_update') {
        const v = accountValue.safeParse(change.value);
        if (v.success)
          updates.push({
            kind: 'account',
            ...(v.data.phone_number ? { phoneNumber: normalizeNumber(v.data.phone_number) } : {}),
            event: v.data.event,
            ...(v.data.ban_info?.waba_ban_state
              ? { banState: v.data.ban_info.waba_ban_state }
              : {}),
          });
      } else if (change.field === 'message_template_status_update') {
        const v = templateValue.safeParse(change.value);
        if (v.success)
          updates.push({
            kind: 'template',
            templateId: String(v.data.message_template_id),
            ...(v.data.message_template_name ? { name: v.data.message_template_name } : {}),
            ...(v.data.message_template_language
              ? { language: v.data.message_template_language }
              : {}),
            event: v.data.event,
            ...(v.data.reason ? { reason: v.data.reason } : {}),
          });
      }
    }
    if (updates.length) groups.set(entry.id, updates);
  }
  return [...groups].map(([businessAccountId, updates]) => ({ businessAccountId, updates }));
};

type CloudMessage = z.infer<typeof message>;
type CloudValue = z.infer<typeof value>;

// A rating or tier as Meta names them (GREEN, TIER_1K): anything else is not kept.
export const healthValue = (value: unknown): string | undefined =>
  typeof value === 'string' && /^[A-Z0-9_]{1,40}$/.test(value) ? value : undefined;

// A payload that is not a Cloud API webhook: the caller answers 400 or records the row as failed.
export class WebhookPayloadError extends Error {}

const describeIssues = (error: z.ZodError) =>
  error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join('.') || 'payload'}: ${issue.message}`)
    .join('; ');

const parse = (payload: unknown) => {
  const parsed = payloadSchema.safeParse(payload);
  if (!parsed.success)
    throw new WebhookPayloadError(
      `Not a WhatsApp webhook payload (${describeIssues(parsed.error)})`,
    );
  // Other Meta products (pages, Instagram) post other objects; none of them concern a connection.
  return parsed.data.object === 'whatsapp_business_account' ? parsed.data.entry : [];
};

// The phone number ids a payload concerns, without validating the messages themselves (the webhook
// route needs them to find the connections and their app secrets before anything else).
export const phoneNumberIdsOf = (payload: unknown): string[] => {
  const ids = new Set<string>();
  for (const entry of parse(payload))
    for (const change of entry.changes) {
      const id = change.value.metadata?.phone_number_id;
      if (id) ids.add(id);
    }
  return [...ids];
};

const mediaTypes: Record<string, MediaType> = {
  image: 'image',
  sticker: 'image',
  audio: 'audio',
  voice: 'audio',
  video: 'video',
  document: 'application',
};

// The Graph media id of a message's file, as kept in InboundMessage.raw.
export const mediaIdOf = (raw: Record<string, unknown> | undefined): string | undefined => {
  const type = typeof raw?.type === 'string' ? raw.type : undefined;
  const file = type && mediaTypes[type] ? raw?.[type] : undefined;
  const id = (file as { id?: unknown } | undefined)?.id;
  return typeof id === 'string' ? id : undefined;
};

const vcardEscape = (text: string) => text.replace(/([\\;,])/g, '\\$1').replace(/\n/g, '\\n');

const toVcard = (contact: z.infer<typeof sharedContact>) => {
  const name = contact.name ?? {};
  const formatted =
    name.formatted_name ?? ([name.first_name, name.last_name].filter(Boolean).join(' ') || '');
  const lines = [
    'BEGIN:VCARD',
    'VERSION:3.0',
    `N:${vcardEscape(name.last_name ?? '')};${vcardEscape(name.first_name ?? formatted)};;;`,
    `FN:${vcardEscape(formatted)}`,
  ];
  if (contact.org?.company) lines.push(`ORG:${vcardEscape(contact.org.company)}`);
  for (const phone of contact.phones ?? []) {
    const number = phone.phone ?? (phone.wa_id ? `+${phone.wa_id}` : '');
    if (!number) continue;
    // waid= is how WhatsApp marks the number that has an account; the clients read it back.
    const waid = phone.wa_id ? `;waid=${normalizeNumber(phone.wa_id)}` : '';
    lines.push(`TEL;type=${(phone.type ?? 'CELL').toUpperCase()}${waid}:${number}`);
  }
  for (const email of contact.emails ?? [])
    if (email.email) lines.push(`EMAIL:${vcardEscape(email.email)}`);
  lines.push('END:VCARD');
  return lines.join('\n');
};

const missing = (msg: CloudMessage, part: string): never => {
  throw new WebhookPayloadError(`Message ${msg.id} of type ${msg.type} has no ${part}`);
};

// What a message says, in the platform's terms; undefined for types this version does not know
// (reactions are not messages: eventsOf reports them on the message they react to).
const contentOf = (
  msg: CloudMessage,
): Pick<InboundMessage, 'body' | 'mediaType' | 'media'> | undefined => {
  const fileType = mediaTypes[msg.type];
  if (fileType) {
    const file =
      (msg[msg.type as keyof CloudMessage] as z.infer<typeof media> | undefined) ??
      missing(msg, msg.type);
    return {
      body: file.caption ?? '',
      mediaType: fileType,
      media: { fileName: file.filename, mimetype: file.mime_type },
    };
  }
  switch (msg.type) {
    case 'text':
      return { body: (msg.text ?? missing(msg, 'text')).body, mediaType: 'chat' };
    case 'location': {
      const place = msg.location ?? missing(msg, 'location');
      // First line "lat,lng" (what the map link is built from), then the place's name and address.
      const body = [`${place.latitude},${place.longitude}`, place.name, place.address]
        .filter(Boolean)
        .join('\n');
      return { body, mediaType: 'locationMessage' };
    }
    case 'contacts':
      return {
        body: (msg.contacts ?? missing(msg, 'contacts')).map(toVcard).join('\n'),
        mediaType: 'vcard',
      };
    case 'interactive': {
      const chosen = msg.interactive?.button_reply ?? msg.interactive?.list_reply;
      return { body: (chosen ?? missing(msg, 'button or list reply')).title, mediaType: 'chat' };
    }
    case 'button':
      return { body: (msg.button ?? missing(msg, 'button')).text, mediaType: 'chat' };
    case 'unsupported': {
      // Polls, view-once media and the like: the agent still learns that the customer wrote.
      const error = msg.errors?.[0];
      return {
        body: `[${error?.title ?? 'Unsupported message type'}]`,
        mediaType: 'chat',
      };
    }
    default:
      return undefined;
  }
};

const errorText = (errors: z.infer<typeof graphError>[] | undefined) => {
  const error = errors?.[0];
  if (!error) return 'The message could not be delivered';
  const title = error.title ?? error.message ?? 'Delivery failed';
  const details = error.error_data?.details;
  return `${title}${error.code !== undefined ? ` (${error.code})` : ''}${details && details !== title ? `: ${details}` : ''}`;
};

const acks: Record<string, Ack> = { sent: 2, delivered: 3, read: 4, failed: 0 };

const eventsOf = (v: CloudValue): ChannelEvent[] => {
  const events: ChannelEvent[] = [];
  for (const msg of v.messages ?? []) {
    if (msg.type === 'reaction') {
      const reaction = msg.reaction ?? missing(msg, 'reaction');
      const emoji = reaction.emoji ?? '';
      // Anything but one emoji (or none) is not a reaction WhatsApp shows: nothing to show here.
      if (emoji && !isReactionEmoji(emoji)) continue;
      events.push({
        type: 'reaction',
        providerId: reaction.message_id,
        from: normalizeNumber(msg.from),
        fromMe: false,
        emoji,
        timestamp: new Date(Number(msg.timestamp) * 1000),
      });
      continue;
    }
    const content = contentOf(msg);
    if (!content) continue;
    const from = normalizeNumber(msg.from);
    const contacts = v.contacts ?? [];
    const profile =
      contacts.find((c) => c.wa_id && normalizeNumber(c.wa_id) === from) ??
      (contacts.length === 1 ? contacts[0] : undefined);
    const inbound: InboundMessage = {
      providerId: msg.id,
      from,
      body: content.body,
      mediaType: content.mediaType,
      isGroup: false,
      fromMe: false,
      timestamp: new Date(Number(msg.timestamp) * 1000),
      raw: msg,
    };
    if (content.media) inbound.media = content.media;
    if (profile?.profile?.name) inbound.contactName = profile.profile.name;
    if (msg.context?.id) inbound.quotedId = msg.context.id;
    events.push({ type: 'message', message: inbound });
  }
  for (const st of v.statuses ?? []) {
    const ack = acks[st.status];
    // Other statuses ('deleted', 'warning') say nothing about delivery.
    if (ack === undefined) continue;
    events.push(
      ack === 0
        ? { type: 'ack', providerId: st.id, ack, error: errorText(st.errors) }
        : { type: 'ack', providerId: st.id, ack },
    );
  }
  return events;
};

// Every event of a payload, grouped by the phone number (connection) it concerns, in payload order.
// Throws WebhookPayloadError for a payload that is not a Cloud API webhook.
export const mapWebhook = (
  payload: unknown,
): { phoneNumberId: string; events: ChannelEvent[] }[] => {
  const groups = new Map<string, ChannelEvent[]>();
  for (const entry of parse(payload))
    for (const change of entry.changes) {
      const id = change.value.metadata?.phone_number_id;
      // Account-level notifications (templates, quality) have no phone number and no chat events.
      if (!id) continue;
      const events = eventsOf(change.value);
      groups.set(id, [...(groups.get(id) ?? []), ...events]);
    }
  return [...groups].map(([phoneNumberId, events]) => ({ phoneNumberId, events }));
};
