import { companyTimeZone } from '../../platform/time-zones';
import { and, asc, desc, eq, isNull, max, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { HANDOFF_TOOL } from '@atendi/shared';
import type { AppDeps } from '../../deps';
import type { Db } from '../../db/client';
import { contacts, messages, prompts, queues, tickets, whatsappQueues } from '../../db/schema';
import type { EventOf } from '../../events/domain-events';
import { enqueueJobsFrom, jobQueue, type QueueOptions } from '../../jobs/queue';
import { AppError } from '../../platform/errors';
import {
  addBotNote,
  fillVariables,
  handOverFromAgent,
  messageCreated,
  writeTransition,
} from '../tickets';
import { askAgent, clientFor, providerFailure, type AgentReply, type ChatTurn } from './ai-client';
import { recordPromptError } from './prompts.service';
import { planAllowsAi } from './ai-features';
import { transcriptOf } from './voice-notes';
import {
  citationNote,
  citationsIn,
  knowledgeInstructions,
  NOTHING_FOUND_NOTE,
  questionOf,
  relevantPassages,
  type NumberedPassage,
} from './knowledge-answers';
import {
  aiQuotaOf,
  assertTokensLeft,
  countAnswer,
  hasAnswersLeft,
  meterAi,
  type AiQuota,
} from './ai-usage';

// The AI agent at work: a waiting ticket nobody serves whose `promptId` is set (by its
// connection when the conversation starts, or by a queue with an agent that the queue bot enters) is
// answered by the model, one answer per turn of the contact:
// - every message of the contact on such a ticket queues a `prompt.reply` job in the transaction that
//   stores it (a recorder of `message.created`), keyed per ticket, so one ticket's turns are answered
//   one at a time; a ticket that enters agent mode queues one too (`ticket.changed`);
// - the job reads the newest `maxMessages` messages, asks the model, and writes the answer in a
//   transaction that holds the ticket row and checks the ticket is still the agent's and no newer
//   message of the contact arrived meanwhile (then the turn is asked again, with it). The newest
//   message answered is kept in `tickets.prompt_replied_to`, so a repeated or later job whose turn
//   was already answered does nothing: several messages sent at once get one answer;
// - the model hands the conversation to a person with the `transfer_to_human` tool: the ticket waits
//   in the named queue (else its own, else the agent's queue) without an agent, the contact is told
//   so with the agent's hand-off message, and a note signed with the agent's name says why;
// - when the provider fails (after the SDK's own retries) the ticket falls back the same way (the
//   hand-off message, the note), and the prompt records the error for admins. The customer's message
//   is stored before any of this, so nothing is lost;
// - every answer written counts against the agent's monthly quota (ai-usage.ts, in the transaction
//   that writes it); an agent whose answers of the month are used up falls back the same way, without
//   asking the model (or, when other turns used the last ones while it was asked, dropping its answer);
// - a campaign recipient's opt-out word (campaign_opt_outs.message_id, written with the message) is
//   confirmed by the tickets engine: the model is not asked about it, and a turn with nothing else
//   new moves prompt_replied_to past it without an answer.

const PROMPT_REPLY_QUEUE = 'prompt.reply';
export const promptReplyQueue = jobQueue(
  PROMPT_REPLY_QUEUE,
  z.object({ ticketId: z.number().int() }),
);
type TurnJob = z.infer<typeof promptReplyQueue.payload>;

type Deps = Pick<
  AppDeps,
  | 'db'
  | 'realtime'
  | 'config'
  | 'secrets'
  | 'outbound'
  | 'events'
  | 'ticketMessages'
  | 'outbox'
  | 'uploads'
  | 'campaignAnswers'
  | 'knowledge'
>;
type TicketRow = typeof tickets.$inferSelect;
type PromptRow = typeof prompts.$inferSelect;
type MessageRow = typeof messages.$inferSelect;

// Asking again because the contact wrote while the model was thinking happens at most this often per
// job; then the answer goes out and the newer message gets its own turn.
const MAX_ROUNDS = 3;

const agentMode = (ticket: Pick<TicketRow, 'promptId' | 'userId' | 'status' | 'isGroup'>) =>
  Boolean(ticket.promptId) && !ticket.userId && ticket.status === 'pending' && !ticket.isGroup;

// Queues a turn for the ticket if an agent answers it and no turn is already waiting; answers the
// queue to wake when it did.
const queueTurn = async (tx: Db, ticketId: number) => {
  const inserted = await enqueueJobsFrom(
    tx,
    promptReplyQueue,
    {
      from: sql`from ${tickets} t
        where t.id = ${ticketId} and t.prompt_id is not null and t.user_id is null
          and t.status = 'pending' and not t.is_group`,
      payload: sql`jsonb_build_object('ticketId', t.id)`,
      key: sql`${`ticket:${ticketId}`}`,
      companyId: sql`t.company_id`,
    },
    { skipPendingKeys: true },
  );
  return inserted.length ? PROMPT_REPLY_QUEUE : undefined;
};

// The queues the agent may hand a conversation to: its connection's, else the company's.
const handoffQueues = async (db: Db, ticket: TicketRow) => {
  const own = await db
    .select({ id: queues.id, name: queues.name })
    .from(whatsappQueues)
    .innerJoin(queues, eq(queues.id, whatsappQueues.queueId))
    .where(eq(whatsappQueues.whatsappId, ticket.whatsappId))
    .orderBy(sql`${queues.orderQueue} asc nulls last`, asc(queues.name));
  if (own.length) return own;
  return db
    .select({ id: queues.id, name: queues.name })
    .from(queues)
    .where(eq(queues.companyId, ticket.companyId))
    .orderBy(asc(queues.name))
    .limit(50);
};

// A message as the model reads it: media it cannot see named by kind ("[audio]"), with its caption
// and, for a voice note, its transcript.
export const contentOf = (message: MessageRow) => {
  const body = message.body.trim();
  if (message.mediaType === 'chat') return body;
  const text = [body, message.transcript?.trim()].filter(Boolean).join('\n');
  return text ? `[${message.mediaType}] ${text}` : `[${message.mediaType}]`;
};

// The contact's voice notes are given to the agent as their transcript (voice-notes.ts: the stored
// one, or heard now and stored for the chat too, whatever the company's transcribeAudio setting);
// where the provider has no speech to text they stay "[audio]".
const transcribeAudio = async (
  deps: Deps,
  client: Awaited<ReturnType<typeof clientFor>>,
  window: MessageRow[],
) => {
  const out: MessageRow[] = [];
  for (const message of window)
    out.push(
      !message.fromMe && message.mediaType === 'audio'
        ? { ...message, transcript: await transcriptOf(deps, message, client) }
        : message,
    );
  return out;
};

export const turnsOf = (window: MessageRow[]): ChatTurn[] =>
  window
    .filter((m) => !m.isDeleted)
    .map((m) => ({
      role: m.fromMe ? ('assistant' as const) : ('user' as const),
      content: contentOf(m),
    }))
    .filter((turn) => turn.content);

type Delivered = { written: MessageRow[] };

// The agent's answers of the month are used up: a person takes the conversation (fallBack).
const answersUsedUp = (quota: AiQuota) =>
  new AppError(
    'ERR_AI_QUOTA_EXCEEDED',
    `Its ${quota.limit} answers of ${quota.month} are used up`,
    {
      details: { ...quota },
    },
  );

// The note on a conversation the agent could not answer, in Spanish like every note bots write.
const fallBackNote = (failure: AppError) => {
  if (failure.code !== 'ERR_AI_QUOTA_EXCEEDED')
    return `No pudo responder (${failure.message}); la conversación espera a una persona.`;
  const { limit, month, kind } = failure.details as AiQuota & { kind?: 'tokens' };
  if (kind === 'tokens')
    return `Se agotaron los ${limit} tokens de IA que el plan permite este mes (${month}); la conversación espera a una persona.`;
  return `Se agotaron los ${limit} mensajes que el plan permite al agente de IA este mes (${month}); la conversación espera a una persona.`;
};

// A turn the agent lets pass: nothing written, nothing handed over.
const SILENCE: AgentReply = { text: '', handoff: null, usage: null };

// What the contact is told when the agent lets go of the conversation ('' when the agent says nothing).
const handoffText = async (db: Db, deps: Deps, prompt: PromptRow, contactName: string) =>
  fillVariables(prompt.handoffMessage, {
    contactName,
    now: new Date(),
    timeZone: await companyTimeZone({ db, config: deps.config }, prompt.companyId),
  }).trim();

const contactNameOf = async (db: Db, ticket: Pick<TicketRow, 'contactId'>) => {
  const [contact] = await db
    .select({ name: contacts.name })
    .from(contacts)
    .where(eq(contacts.id, ticket.contactId));
  return contact?.name ?? '';
};

// Writes the answer (and the hand-off) if the turn is still the agent's to answer, and counts the
// answer against the quota ('spent': nothing written, the month's answers are used up).
const deliver = async (
  deps: Deps,
  ticketId: number,
  prompt: PromptRow,
  reply: AgentReply,
  answeredUpTo: number,
  queueIds: Map<string, number>,
  mayAskAgain: boolean,
  contactName: string,
  quota: AiQuota | null,
  // The knowledge passages the model was given (null: the agent has no knowledge).
  passages: NumberedPassage[] | null = null,
): Promise<Delivered | 'again' | 'gone' | 'spent'> =>
  deps.events.transaction(deps.db, async (tx, raise) => {
    const [before] = await tx.select().from(tickets).where(eq(tickets.id, ticketId)).for('update');
    if (!before || !agentMode(before) || before.promptId !== prompt.id) return 'gone' as const;
    if (before.promptRepliedTo !== null && before.promptRepliedTo >= answeredUpTo)
      return 'gone' as const;
    const [newest] = await tx
      .select({ id: max(messages.id) })
      .from(messages)
      .where(and(eq(messages.ticketId, ticketId), eq(messages.fromMe, false)));
    if (mayAskAgain && (newest?.id ?? 0) > answeredUpTo) return 'again' as const;
    if (reply.text && quota && !(await countAnswer(tx, prompt, quota))) return 'spent' as const;

    const handoff = reply.handoff;
    // The answer without its [n] marks; the passages it cited go to a note.
    const { text: answer, cited } = passages
      ? citationsIn(reply.text, passages)
      : { text: reply.text, cited: [] };
    // Its answer, if it wrote one, then (handing over) what the contact is told.
    const texts = [answer, handoff ? await handoffText(tx, deps, prompt, contactName) : ''].filter(
      Boolean,
    );
    const written: MessageRow[] = [];
    for (const text of texts)
      written.push(
        ...(await deps.ticketMessages.queueText(tx, before, text, { promptId: prompt.id })),
      );
    await writeTransition(
      tx,
      raise,
      before,
      {
        promptRepliedTo: answeredUpTo,
        ...(handoff
          ? handOverFromAgent(
              (handoff.queue ? queueIds.get(handoff.queue) : undefined) ??
                before.queueId ??
                prompt.queueId,
            )
          : {}),
      },
      { byUserId: null },
    );
    if (answer && passages?.length)
      await addBotNote(tx, raise, before, prompt.name, citationNote(cited, passages));
    if (handoff) {
      await addBotNote(
        tx,
        raise,
        before,
        prompt.name,
        [
          'Transfirió la conversación a una persona.',
          handoff.reason ? `Motivo: ${handoff.reason}` : '',
          passages && !passages.length ? NOTHING_FOUND_NOTE : '',
        ]
          .filter(Boolean)
          .join(' '),
      );
    }
    written.forEach((row) => raise(messageCreated(row, 'platform')));
    return { written };
  });

// The provider could not answer: the ticket waits for a person, the contact is told so (the agent's
// hand-off message) and a note says why.
const fallBack = async (
  deps: Deps,
  log: FastifyBaseLogger,
  ticketId: number,
  prompt: PromptRow,
  failure: AppError,
) => {
  const written = await deps.events.transaction(deps.db, async (tx, raise) => {
    const [before] = await tx.select().from(tickets).where(eq(tickets.id, ticketId)).for('update');
    if (!before || !agentMode(before) || before.promptId !== prompt.id) return [];
    const text = await handoffText(tx, deps, prompt, await contactNameOf(tx, before));
    const rows = text
      ? await deps.ticketMessages.queueText(tx, before, text, { promptId: prompt.id })
      : [];
    await writeTransition(tx, raise, before, handOverFromAgent(before.queueId ?? prompt.queueId), {
      byUserId: null,
    });
    await addBotNote(tx, raise, before, prompt.name, fallBackNote(failure));
    rows.forEach((row) => raise(messageCreated(row, 'platform')));
    return rows;
  });
  if (written.length) deps.outbox.kick();
  log.warn(
    { ticketId, promptId: prompt.id, code: failure.code, reason: failure.message },
    'AI agent could not answer; the ticket waits for a person',
  );
  await recordPromptError(deps, prompt.companyId, prompt.id, {
    code: failure.code,
    message: failure.message,
  });
};

const answerTurn = async (deps: Deps, log: FastifyBaseLogger, ticketId: number) => {
  for (let round = 1; round <= MAX_ROUNDS; round += 1) {
    const [ticket] = await deps.db.select().from(tickets).where(eq(tickets.id, ticketId));
    if (!ticket || !agentMode(ticket)) return;
    const [prompt] = await deps.db
      .select()
      .from(prompts)
      .where(and(eq(prompts.id, ticket.promptId!), eq(prompts.companyId, ticket.companyId)));
    if (!prompt) return;
    const window = (
      await deps.db
        .select()
        .from(messages)
        .where(eq(messages.ticketId, ticketId))
        .orderBy(desc(messages.id))
        .limit(prompt.maxMessages)
    ).reverse();
    const inbound = window.filter((m) => !m.fromMe);
    const newestInbound = Math.max(0, ...inbound.map((m) => m.id));
    if (!newestInbound) return;
    const repliedTo = ticket.promptRepliedTo ?? 0;
    if (newestInbound <= repliedTo) return;
    const optOuts = await deps.campaignAnswers.optOutConfirmations(
      deps.db,
      inbound.map((m) => m.id),
    );
    const asked = window.filter((m) => !optOuts.has(m.id));
    if (!asked.some((m) => !m.fromMe && m.id > repliedTo)) {
      // Only opt-outs are new: answered by nobody, and not again by a later turn.
      const outcome = await deliver(
        deps,
        ticketId,
        prompt,
        SILENCE,
        newestInbound,
        new Map(),
        round < MAX_ROUNDS,
        '',
        null,
      );
      if (outcome === 'again') continue;
      return;
    }

    const queueList = await handoffQueues(deps.db, ticket);
    const contactName = await contactNameOf(deps.db, ticket);
    const quota = await aiQuotaOf(deps, ticket.companyId);
    let reply: AgentReply;
    let passages: NumberedPassage[] | null = null;
    try {
      if (!(await planAllowsAi(deps.db, ticket.companyId)))
        throw new AppError('ERR_PLAN_FEATURE_DISABLED', 'The company’s plan has no AI agents');
      if (!(await hasAnswersLeft(deps.db, prompt.id, quota))) throw answersUsedUp(quota);
      await assertTokensLeft(deps, ticket.companyId);
      const client = await clientFor(deps, ticket.companyId);
      const turns = turnsOf(await transcribeAudio(deps, client, asked));
      let system = fillVariables(prompt.prompt, {
        contactName,
        now: new Date(),
        timeZone: await companyTimeZone(deps, ticket.companyId),
      });
      if (prompt.knowledge !== 'none') {
        passages = await relevantPassages(deps, prompt, questionOf(turns));
        system = `${system}\n\n${knowledgeInstructions(passages, HANDOFF_TOOL)}`;
      }
      reply = await askAgent(
        client,
        prompt,
        system,
        turns,
        queueList.map((q) => q.name),
      );
      await meterAi(deps, ticket.companyId, 'agent', reply.usage);
    } catch (error) {
      await fallBack(deps, log, ticketId, prompt, providerFailure(error));
      return;
    }
    const outcome = await deliver(
      deps,
      ticketId,
      prompt,
      reply,
      newestInbound,
      new Map(queueList.map((q) => [q.name, q.id])),
      round < MAX_ROUNDS,
      contactName,
      quota,
      passages,
    );
    if (outcome === 'again') continue;
    if (outcome === 'spent') {
      await fallBack(deps, log, ticketId, prompt, answersUsedUp(quota));
      return;
    }
    if (outcome !== 'gone' && outcome.written.length) deps.outbox.kick();
    // It answers again: the error admins were shown is over.
    if (prompt.lastErrorCode) await recordPromptError(deps, prompt.companyId, prompt.id, null);
    return;
  }
};

// How a turn is answered (background.ts runs the queue).
export const agentWorker = (deps: Deps, log: FastifyBaseLogger): QueueOptions<TurnJob> => {
  const { timeoutMs, maxRetries } = deps.config.openAi;
  return {
    handle: (job) => answerTurn(deps, log, job.payload.ticketId),
    maxAttempts: 3,
    // A turn may wait out the SDK's timeout on every retry; no other node takes it meanwhile.
    leaseMs: timeoutMs * (maxRetries + 1) + 60_000,
    keepDoneMs: 24 * 3600_000,
    keepFailedMs: 7 * 24 * 3600_000,
    // Something other than the provider failed for good (the provider's failures fall back at once):
    // a person takes the conversation.
    onFailed: async (job, error) => {
      const [ticket] = await deps.db
        .select()
        .from(tickets)
        .where(and(eq(tickets.id, job.payload.ticketId), isNull(tickets.userId)));
      if (!ticket?.promptId) return;
      const [prompt] = await deps.db.select().from(prompts).where(eq(prompts.id, ticket.promptId));
      if (prompt)
        await fallBack(
          deps,
          log,
          ticket.id,
          prompt,
          error instanceof AppError
            ? error
            : new AppError('ERR_AI_PROVIDER_UNAVAILABLE', 'The AI agent failed to answer'),
        );
    },
  };
};

// A contact's message on a ticket an agent answers queues the agent's turn (a recorder).
export const queueAgentTurnForMessage = async (tx: Db, event: EventOf<'message.created'>) => {
  if (event.author !== 'contact') return undefined;
  // A ticket known to have no agent answering it, or to be someone's: no turn to queue.
  const { ticket } = event;
  if (ticket && (!ticket.promptId || ticket.userId || ticket.status !== 'pending'))
    return undefined;
  return queueTurn(tx, event.ticketId);
};

// A ticket handed to an agent (a connection's or a queue's) queues its first turn (a recorder).
export const queueAgentTurnOnHandover = async (tx: Db, event: EventOf<'ticket.changed'>) => {
  const { before, after } = event;
  if (!before || !after.promptId || before.promptId === after.promptId) return undefined;
  if (after.status !== 'pending' || after.userId) return undefined;
  return queueTurn(tx, event.ticketId);
};
