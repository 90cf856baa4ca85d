import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { MESSAGE_MEDIA_MAX_BYTES } from '@atendi/shared';
import { contacts, integrationSessions, messages, type FlowBubble } from '../../db/schema';
import { PermanentJobError, type Job, type JobOutcome } from '../../jobs/queue';
import { mediaTypeOf, mimetypeOf, queueOutgoing, type OutgoingMedia } from '../messages';
import {
  applyStep,
  recordDelivery,
  type FlowDeps,
  type IntegrationRow,
  type TicketRow,
} from './flow-tickets';
import {
  choicesText,
  continueChat,
  startChat,
  TypebotError,
  type TypebotTurn,
} from './typebot-adapter';

// A Typebot flow conversing with a contact. Each message of the contact is one turn of the
// ticket's `integration.turn` job (one at a time per ticket, in order):
// 1. the turn asks Typebot (startChat for a new, expired or restarted session, continueChat otherwise)
//    and stores the answer's bubbles in the ticket's integration_sessions row, with the message it
//    answers, before sending anything: a retried job never asks Typebot twice for one message;
// 2. each run of the job then sends the next bubble and, while bubbles remain, answers that it goes on
//    after typebotDelayMessage (the job is due again; no process sleeps), so the contact reads them
//    paced and the next message of the contact waits for this turn to finish;
// 3. a flow that waits on no input has ended: after its last bubble the ticket waits in its queue.
// Keywords: typebotKeywordFinish ends the flow at once; typebotKeywordRestart sends the restart
// message and starts the flow over. A message the flow cannot take (no text; a choice not offered) is
// answered with typebotUnknownMessage when the integration has one.

type Payload = { ticketId: number; messageId: number | null };
type Session = typeof integrationSessions.$inferSelect;

const sameWord = (text: string, keyword: string) =>
  Boolean(keyword.trim()) && text.trim().toLowerCase() === keyword.trim().toLowerCase();

// "2" or "soporte" for the options ["Ventas", "Soporte"]: the option's text, as Typebot matches it.
const chosen = (text: string, choices: string[]) => {
  const answer = text.trim();
  if (/^\d{1,2}$/.test(answer)) return choices[Number(answer) - 1];
  return choices.find((choice) => choice.toLowerCase() === answer.toLowerCase());
};

// Options go under the question they answer (the last text bubble), or alone.
const withChoices = (bubbles: FlowBubble[], choices: string[]): FlowBubble[] => {
  if (!choices.length) return bubbles;
  const list = choicesText(choices);
  const last = bubbles.at(-1);
  if (last && 'text' in last)
    return [...bubbles.slice(0, -1), { text: `${last.text}\n\n${list}`.slice(0, 4096) }];
  return [...bubbles, { text: list }];
};

// One call to Typebot, recorded among the integration's deliveries.
const talk = async (
  deps: FlowDeps,
  job: Job<Payload>,
  ticket: TicketRow,
  integration: IntegrationRow,
  event: 'typebot.startChat' | 'typebot.continueChat',
  call: () => Promise<TypebotTurn>,
) => {
  const started = Date.now();
  const record = (status: number | null, ok: boolean, error: string | null, replies?: string[]) =>
    recordDelivery(deps, ticket, integration, {
      messageId: job.payload.messageId,
      event,
      attempt: job.attempts,
      status,
      ok,
      durationMs: Date.now() - started,
      error,
      replies,
    });
  try {
    const turn = await call();
    await record(
      200,
      true,
      null,
      turn.bubbles.flatMap((bubble) => ('text' in bubble ? [bubble.text] : [])),
    );
    return turn;
  } catch (error) {
    if (error instanceof TypebotError) await record(error.status, false, error.message);
    throw error;
  }
};

const variablesOf = async (deps: FlowDeps, ticket: TicketRow) => {
  const [contact] = await deps.db
    .select({ name: contacts.name, number: contacts.number, email: contacts.email })
    .from(contacts)
    .where(eq(contacts.id, ticket.contactId));
  return {
    number: contact?.number ?? '',
    name: contact?.name ?? '',
    email: contact?.email ?? '',
    ticketId: String(ticket.id),
  };
};

// Asks the flow what to answer this message, and keeps the answer's bubbles to send: answers the
// session as stored, or undefined when the turn ended the flow already (the finish keyword).
const planTurn = async (
  deps: FlowDeps,
  job: Job<Payload>,
  ticket: TicketRow,
  integration: IntegrationRow,
  current: Session | undefined,
): Promise<Session | undefined> => {
  const { timeoutMs } = deps.config.integrations;
  const [message] = job.payload.messageId
    ? await deps.db
        .select({ body: messages.body })
        .from(messages)
        .where(and(eq(messages.id, job.payload.messageId), eq(messages.ticketId, ticket.id)))
    : [];
  const text = (message?.body ?? '').trim();
  const now = new Date();

  if (current && sameWord(text, integration.typebotKeywordFinish)) {
    await applyStep(deps, ticket.id, integration, {
      leave: { note: `${integration.name}: el contacto terminó el flujo; espera a una persona.` },
    });
    return undefined;
  }

  const expired =
    current &&
    integration.typebotExpires > 0 &&
    now.getTime() - current.lastActiveAt.getTime() > integration.typebotExpires * 60_000;
  const restart = Boolean(current) && sameWord(text, integration.typebotKeywordRestart);
  const unknown = integration.typebotUnknownMessage.trim();
  const bubbles: FlowBubble[] = [];
  let sessionId = current?.sessionId;
  let turn: TypebotTurn | undefined;
  const start = async () => {
    const started = await talk(deps, job, ticket, integration, 'typebot.startChat', async () =>
      startChat(
        deps.outbound.fetch,
        integration.urlN8N,
        integration.typebotSlug,
        await variablesOf(deps, ticket),
        timeoutMs,
      ),
    );
    sessionId = started.sessionId;
    return started;
  };

  if (!current || expired || restart) {
    if (restart && integration.typebotRestartMessage.trim())
      bubbles.push({ text: integration.typebotRestartMessage.trim() });
    turn = await start();
  } else {
    const answer = current.choices.length ? chosen(text, current.choices) : text || undefined;
    if (!answer && unknown) {
      // Not something the flow can take: say so and offer the options again.
      bubbles.push(...withChoices([{ text: unknown }], current.choices));
    } else if (answer || text) {
      try {
        turn = await talk(deps, job, ticket, integration, 'typebot.continueChat', () =>
          continueChat(
            deps.outbound.fetch,
            integration.urlN8N,
            current.sessionId,
            answer ?? text,
            timeoutMs,
          ),
        );
      } catch (error) {
        // Typebot forgot the session (it expired there first): the flow starts over.
        if (!(error instanceof TypebotError && error.sessionGone)) throw error;
        turn = await start();
      }
    }
    // A message without text and no unknown message configured: nothing to say.
  }

  if (turn) bubbles.push(...withChoices(turn.bubbles, turn.choices));
  const row = {
    integrationId: integration.id,
    sessionId: sessionId!,
    choices: turn ? turn.choices : (current?.choices ?? []),
    turnMessageId: job.payload.messageId,
    pending: bubbles,
    ended: turn?.ended ?? false,
    lastActiveAt: now,
  };
  const [stored] = await deps.db
    .insert(integrationSessions)
    .values({ ticketId: ticket.id, companyId: ticket.companyId, ...row })
    .onConflictDoUpdate({ target: integrationSessions.ticketId, set: row })
    .returning();
  return stored;
};

// Reads a media bubble into the company's files (at most what WhatsApp takes), or answers undefined.
const fetchMedia = async (
  deps: FlowDeps,
  companyId: number,
  url: string,
): Promise<OutgoingMedia | undefined> => {
  try {
    // A URL the flow's author typed: a private address is never fetched (platform/outbound.ts).
    const res = await deps.outbound.fetch(url, {
      signal: AbortSignal.timeout(deps.config.integrations.timeoutMs),
    });
    if (!res.ok || !res.body) return undefined;
    if (Number(res.headers.get('content-length') ?? 0) > MESSAGE_MEDIA_MAX_BYTES) return undefined;
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body) {
      size += chunk.byteLength;
      if (size > MESSAGE_MEDIA_MAX_BYTES) return undefined;
      chunks.push(Buffer.from(chunk));
    }
    const fileName = path.basename(new URL(url).pathname) || 'file';
    const mimetype = mimetypeOf(
      res.headers.get('content-type') ?? undefined,
      path.extname(fileName).toLowerCase(),
    );
    const stored = await deps.uploads.store(companyId, Buffer.concat(chunks), {
      fileName,
      mimetype,
    });
    return {
      storedName: stored.storedName,
      fileName: stored.originalName,
      mimetype,
      mediaType: mediaTypeOf(mimetype),
    };
  } catch {
    return undefined;
  }
};

// Sends the turn's next bubble; answers that the job goes on while bubbles remain.
const deliverNext = async (
  deps: FlowDeps,
  ticket: TicketRow,
  integration: IntegrationRow,
  session: Session,
): Promise<JobOutcome> => {
  const [bubble, ...rest] = session.pending;
  if (!bubble && !session.ended) return;
  // A media file the flow names is fetched here; one that cannot be is sent as its link.
  const media =
    bubble && 'mediaUrl' in bubble
      ? await fetchMedia(deps, ticket.companyId, bubble.mediaUrl)
      : undefined;
  const text = bubble ? ('text' in bubble ? bubble.text : bubble.mediaUrl) : '';
  const applied = await applyStep(deps, ticket.id, integration, {
    write: bubble
      ? (tx, locked) =>
          media
            ? queueOutgoing(tx, locked, { body: '', quotedMsgId: null, medias: [media] })
            : deps.ticketMessages.queueText(tx, locked, text)
      : undefined,
    also: (tx) =>
      tx
        .update(integrationSessions)
        .set({ pending: rest })
        .where(
          and(
            eq(integrationSessions.ticketId, ticket.id),
            eq(integrationSessions.turnMessageId, session.turnMessageId!),
          ),
        ),
    leave:
      !rest.length && session.ended
        ? { note: `${integration.name}: fin del flujo; la conversación espera a una persona.` }
        : undefined,
  });
  if (!applied && media) await deps.uploads.remove(ticket.companyId, media.storedName);
  if (applied && rest.length) return { againInMs: Math.max(0, integration.typebotDelayMessage) };
};

export const typebotTurn = async (
  deps: FlowDeps,
  job: Job<Payload>,
  ticket: TicketRow,
  integration: IntegrationRow,
): Promise<JobOutcome> => {
  const [found] = await deps.db
    .select()
    .from(integrationSessions)
    .where(eq(integrationSessions.ticketId, ticket.id));
  const current = found?.integrationId === integration.id ? found : undefined;
  // This message's turn is planned already (a later step of it, or a retry): send what is left.
  if (current?.turnMessageId === job.payload.messageId)
    return deliverNext(deps, ticket, integration, current);
  let planned;
  try {
    planned = await planTurn(deps, job, ticket, integration, current);
  } catch (error) {
    if (error instanceof TypebotError && error.permanent)
      throw new PermanentJobError(error.message);
    throw error;
  }
  return planned ? deliverNext(deps, ticket, integration, planned) : undefined;
};
