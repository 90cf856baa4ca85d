import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import webPush from 'web-push';
import { z } from 'zod';
import {
  canSeeTicket,
  languageOr,
  pushPreferenceDefaults,
  type Language,
  type PushKind,
  type PushPayload,
} from '@atendi/shared';
import type { AppDeps } from '../../deps';
import type { Db } from '../../db/client';
import {
  contacts,
  messages,
  pushSubscriptions,
  queues,
  tickets,
  userQueues,
  users,
} from '../../db/schema';
import type { EventOf } from '../../events/domain-events';
import { enqueueJobsFrom, jobQueue, PermanentJobError, type QueueOptions } from '../../jobs/queue';
import { refusalIn } from '../../platform/outbound';
import { ticketViewer } from '../tickets';
import { preferencesOf } from './push.service';

// Issue 41: Web Push to an agent's devices. What happened is heard by recorders, in the transaction
// that makes it true, which queue one `push.send` job per device that should hear of it (a device of
// a user who chose that kind of push: push_preferences, defaults when absent):
// - a contact's message on a conversation someone holds → the holder (newMessage);
// - a conversation given to someone who did not take it themselves → them (assigned, or transferred
//   when another agent held it);
// - a conversation that starts waiting in a queue (pending, nobody's, past the queue bot, AI agents and
//   integrations) → the queue's members who chose waitingInQueues;
// - an SLA deadline about to pass (modules/sla's warning) → the holder (slaWarning).
// A job's ref is its kind, device and ticket, and a ref has one live job (skipLiveRefs): a burst of
// messages gives one push, which reads the newest message when it is sent.
// The job checks again when it runs (the queue may have waited, the facts changed): the user is of
// the ticket's company, may still see it (their queues now), still holds it (or, waiting pushes, it
// still waits in one of their queues), still wants that kind of push, and does not have its chat open
// (a socket of theirs in its room, on any node). Then the payload — the contact's name and a short
// preview, nothing else — is encrypted for the device (RFC 8291, aes128gcm) and signed (VAPID) by
// web-push and POSTed through the outbound guard. A push service answering 404 or 410 no longer has
// the subscription: it is deleted. 429 and 5xx are retried by the queue; other refusals are final.

const PUSH_QUEUE = 'push.send';
const pushKinds = [
  'newMessage',
  'assigned',
  'transferred',
  'waitingInQueues',
  'slaWarning',
] as const;
export const pushQueue = jobQueue(
  PUSH_QUEUE,
  z.object({
    subscriptionId: z.number().int(),
    ticketId: z.number().int(),
    kind: z.enum(pushKinds),
  }),
);
type PushJob = z.infer<typeof pushQueue.payload>;

const PREFERENCE_COLUMN: Record<PushKind, string> = {
  newMessage: 'new_message',
  assigned: 'assigned',
  transferred: 'transferred',
  waitingInQueues: 'waiting_in_queues',
  slaWarning: 'sla_warning',
};

// Jobs for the devices of the users `who` selects (its rows have `user_id`), of the ticket's company,
// for those who want pushes of `kind`. Answers the queue to wake when it queued any.
const queuePushes = async (tx: Db, ticketId: number, kind: PushKind, who: SQL) => {
  const wants = sql.raw(
    `coalesce(p.${PREFERENCE_COLUMN[kind]}, ${String(pushPreferenceDefaults[kind])})`,
  );
  const inserted = await enqueueJobsFrom(
    tx,
    pushQueue,
    {
      from: sql`from ${tickets} t
        join (${who}) w on true
        join ${pushSubscriptions} s on s.user_id = w.user_id and s.company_id = t.company_id
        left join push_preferences p on p.user_id = w.user_id
        where t.id = ${ticketId} and ${wants}`,
      payload: sql`jsonb_build_object('subscriptionId', s.id, 'ticketId', t.id, 'kind', ${kind}::text)`,
      ref: sql`${`push:${kind}:`} || s.id || ':' || t.id`,
      companyId: sql`t.company_id`,
    },
    { skipLiveRefs: true },
  );
  return inserted.length ? PUSH_QUEUE : undefined;
};

// A contact's message on a conversation someone holds (a recorder of message.created).
export const pushContactMessage = async (tx: Db, event: EventOf<'message.created'>) => {
  if (event.author !== 'contact' || event.fromMe) return undefined;
  // The raiser knows the ticket has nobody: no statement.
  if (event.ticket && (event.ticket.userId === null || event.ticket.status === 'closed'))
    return undefined;
  return queuePushes(
    tx,
    event.ticketId,
    'newMessage',
    sql`select t2.user_id from ${tickets} t2 where t2.id = ${event.ticketId}
          and t2.user_id is not null and t2.status <> 'closed'`,
  );
};

// A conversation given to someone, or newly waiting in a queue (a recorder of ticket.changed).
export const pushTicketChange = async (tx: Db, event: EventOf<'ticket.changed'>) => {
  const { before, after } = event;
  if (after.status === 'closed') return undefined;
  if (after.userId && after.userId !== before?.userId && after.userId !== event.byUserId)
    return queuePushes(
      tx,
      event.ticketId,
      before?.userId ? 'transferred' : 'assigned',
      sql`select ${after.userId}::int as user_id`,
    );
  const waits = (s: typeof after | null) =>
    !!s &&
    s.status === 'pending' &&
    s.userId === null &&
    s.queueId !== null &&
    !s.chatbot &&
    !s.promptId &&
    !s.integrationId;
  if (waits(after) && !(waits(before) && before!.queueId === after.queueId))
    return queuePushes(
      tx,
      event.ticketId,
      'waitingInQueues',
      sql`select uq.user_id from ${userQueues} uq where uq.queue_id = ${after.queueId}
            and uq.user_id is distinct from ${event.byUserId}`,
    );
  return undefined;
};

// An SLA deadline of someone's conversation about to pass (a recorder of ticket.sla).
export const pushSlaWarning = async (tx: Db, event: EventOf<'ticket.sla'>) => {
  if (event.state !== 'warning' || event.userId === null) return undefined;
  return queuePushes(tx, event.ticketId, 'slaWarning', sql`select ${event.userId}::int as user_id`);
};

const PREVIEW_CHARS = 120;

// What a push says, in the language of the device it goes to.
const TITLES: Record<Language, Record<PushKind, (contact: string, queue: string) => string>> = {
  es: {
    newMessage: (contact) => contact,
    assigned: (contact) => `Conversación asignada: ${contact}`,
    transferred: (contact) => `Conversación transferida: ${contact}`,
    waitingInQueues: (contact, queue) => `Esperando en ${queue}: ${contact}`,
    slaWarning: (contact) => `SLA por vencer: ${contact}`,
  },
  en: {
    newMessage: (contact) => contact,
    assigned: (contact) => `Conversation assigned: ${contact}`,
    transferred: (contact) => `Conversation transferred: ${contact}`,
    waitingInQueues: (contact, queue) => `Waiting in ${queue}: ${contact}`,
    slaWarning: (contact) => `SLA about to break: ${contact}`,
  },
  'pt-BR': {
    newMessage: (contact) => contact,
    assigned: (contact) => `Conversa atribuída: ${contact}`,
    transferred: (contact) => `Conversa transferida: ${contact}`,
    waitingInQueues: (contact, queue) => `Aguardando em ${queue}: ${contact}`,
    slaWarning: (contact) => `SLA prestes a vencer: ${contact}`,
  },
};

// A message without text, by its kind (the push shows no media).
const MEDIA: Record<Language, Partial<Record<string, string>>> = {
  es: {
    image: '📷 Imagen',
    audio: '🎤 Audio',
    video: '🎥 Video',
    application: '📄 Documento',
    locationMessage: '📍 Ubicación',
    vcard: '👤 Contacto',
  },
  en: {
    image: '📷 Photo',
    audio: '🎤 Audio',
    video: '🎥 Video',
    application: '📄 Document',
    locationMessage: '📍 Location',
    vcard: '👤 Contact',
  },
  'pt-BR': {
    image: '📷 Foto',
    audio: '🎤 Áudio',
    video: '🎥 Vídeo',
    application: '📄 Documento',
    locationMessage: '📍 Localização',
    vcard: '👤 Contato',
  },
};

// Seconds a push service keeps a push for a device that is off; a deadline warning is stale sooner.
const TTL_SECONDS: Record<PushKind, number> = {
  newMessage: 3600,
  assigned: 3600,
  transferred: 3600,
  waitingInQueues: 3600,
  slaWarning: 900,
};

type Deps = Pick<AppDeps, 'db' | 'config' | 'outbound' | 'realtime'>;

// The payload for the job, or null when it should not be sent (any more).
const payloadFor = async (
  deps: Deps,
  job: PushJob,
  subscription: typeof pushSubscriptions.$inferSelect,
): Promise<PushPayload | null> => {
  const [row] = await deps.db
    .select({
      ticket: tickets,
      contactName: contacts.name,
      contactNumber: contacts.number,
      queueName: queues.name,
    })
    .from(tickets)
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .leftJoin(queues, eq(queues.id, tickets.queueId))
    .where(eq(tickets.id, job.ticketId));
  const [user] = await deps.db
    .select({
      id: users.id,
      companyId: users.companyId,
      profile: users.profile,
      super: users.super,
    })
    .from(users)
    .where(eq(users.id, subscription.userId));
  if (!row || !user) return null;
  const { ticket } = row;
  // Never another company's conversation, whoever the device belongs to now.
  if (user.companyId !== ticket.companyId || subscription.companyId !== ticket.companyId)
    return null;
  if (ticket.status === 'closed') return null;
  const preferences = await preferencesOf(deps.db, user.id);
  if (!preferences[job.kind]) return null;
  const viewer = await ticketViewer(deps.db, {
    userId: user.id,
    profile: user.profile,
    isSuper: user.super,
  });
  if (!canSeeTicket(viewer, ticket)) return null;
  if (job.kind === 'waitingInQueues') {
    // Still waiting, and in one of their queues now (a user taken out of the queue hears no more).
    if (ticket.status !== 'pending' || ticket.userId !== null) return null;
    if (ticket.queueId === null || !viewer.queueIds.includes(ticket.queueId)) return null;
  } else if (ticket.userId !== user.id) return null;
  // They are looking at it.
  if ((await deps.realtime.chatViewers(ticket.companyId, ticket.id)).includes(user.id)) return null;
  const [last] = await deps.db
    .select({ body: messages.body, mediaType: messages.mediaType })
    .from(messages)
    .where(and(eq(messages.ticketId, ticket.id), eq(messages.fromMe, false)))
    .orderBy(desc(messages.id))
    .limit(1);
  const language = languageOr(subscription.language);
  const preview = last ? last.body.trim() || (MEDIA[language][last.mediaType] ?? '') : '';
  const contact = row.contactName || row.contactNumber;
  return {
    title: TITLES[language][job.kind](contact, row.queueName ?? ''),
    body: preview.length > PREVIEW_CHARS ? `${preview.slice(0, PREVIEW_CHARS - 1)}…` : preview,
    url: `/tickets/${ticket.uuid}`,
    tag: `ticket-${ticket.uuid}`,
    kind: job.kind,
  };
};

const send = async (deps: Deps, log: FastifyBaseLogger, job: PushJob) => {
  const [subscription] = await deps.db
    .select()
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.id, job.subscriptionId));
  if (!subscription) return;
  const payload = await payloadFor(deps, job, subscription);
  if (!payload) return;
  const { vapid } = deps.config;
  const request = webPush.generateRequestDetails(
    {
      endpoint: subscription.endpoint,
      keys: { p256dh: subscription.p256dh, auth: subscription.auth },
    },
    JSON.stringify(payload),
    {
      vapidDetails: vapid,
      contentEncoding: 'aes128gcm',
      TTL: TTL_SECONDS[job.kind],
      urgency: job.kind === 'waitingInQueues' ? 'normal' : 'high',
      // A push service keeps only the newest undelivered push of a topic: one per conversation.
      topic: `t${job.ticketId}`,
    },
  );
  // fetch counts the body itself.
  const headers = Object.fromEntries(
    Object.entries(request.headers).filter(([name]) => name.toLowerCase() !== 'content-length'),
  ) as Record<string, string>;
  let response: Response;
  try {
    response = await deps.outbound.fetch(request.endpoint, {
      method: 'POST',
      headers,
      body: request.body,
      signal: AbortSignal.timeout(10_000),
    });
  } catch (error) {
    await markFailure(deps.db, subscription.id);
    const refusal = refusalIn(error);
    if (refusal) throw new PermanentJobError(refusal.message);
    throw error;
  }
  await response.body?.cancel();
  const where = and(
    eq(pushSubscriptions.id, subscription.id),
    eq(pushSubscriptions.endpoint, subscription.endpoint),
  );
  if (response.ok) {
    await deps.db
      .update(pushSubscriptions)
      .set({ lastSuccessAt: sql`now()` })
      .where(where);
    return;
  }
  // The browser unsubscribed, or the subscription expired: it will never take a push again.
  if (response.status === 404 || response.status === 410) {
    await deps.db.delete(pushSubscriptions).where(where);
    log.info(
      { subscriptionId: subscription.id, status: response.status },
      'push subscription gone',
    );
    return;
  }
  await markFailure(deps.db, subscription.id);
  const message = `The push service answered ${response.status}`;
  if (response.status === 429 || response.status >= 500) throw new Error(message);
  throw new PermanentJobError(message);
};

const markFailure = (db: Db, id: number) =>
  db
    .update(pushSubscriptions)
    .set({ lastFailureAt: sql`now()` })
    .where(eq(pushSubscriptions.id, id));

// How a push is sent (background.ts runs the queue).
export const pushWorker = (deps: Deps, log: FastifyBaseLogger): QueueOptions<PushJob> => ({
  handle: (job) => send(deps, log, job.payload),
  maxAttempts: 5,
  keepDoneMs: 24 * 3600_000,
  keepFailedMs: 7 * 24 * 3600_000,
  onFailed: async (job, error) => {
    log.warn(
      { ...job.payload, reason: error instanceof Error ? error.message : String(error) },
      'push given up',
    );
  },
});
