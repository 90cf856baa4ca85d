import { and, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type OpenAI from 'openai';
import { z } from 'zod';
import type { AppDeps } from '../../deps';
import type { Db } from '../../db/client';
import { messages } from '../../db/schema';
import type { EventOf } from '../../events/domain-events';
import { enqueueJobsFrom, jobQueue, type QueueOptions } from '../../jobs/queue';
import { AppError } from '../../platform/errors';
import { messageUpdated } from '../tickets';
import { clientFor, providerFailure, speechToText } from './ai-client';
import { usesAiFeature, usesAiFeatureSql } from './ai-features';
import { assertTokensLeft, meterAi } from './ai-usage';

// Issue 40: voice notes written down for every conversation of a company that turns on the
// `transcribeAudio` setting (its plan with AI, an AI provider set), not only those an AI agent holds.
// - every audio message with its file, the contact's or the company's (agents, the phone, bots),
//   queues a `voice-note.transcribe` job in the transaction that stores it (a recorder of
//   `message.created`; inbound media is downloaded before its message is stored, so the file is
//   there when the job runs), one per message (its ref);
// - the job reads the file from the file store, has the company's provider turn it into text
//   (config OPENAI_TRANSCRIPTION_MODEL), meters the tokens as 'transcription', and writes
//   `messages.transcript` only while it is still null: a redelivered job, a second node or the AI
//   agent's own reading (transcriptOf) never writes it twice, and open chats hear of it once
//   (message.updated 'transcribed'). The body stays the caption the sender wrote;
// - a file larger than the provider takes (OpenAI: 25 MB), one gone from the store, a company that
//   turned the setting off or lost AI since, no provider, or the month's tokens used up: nothing is
//   asked. The provider failing is retried with the queue's backoff, then given up (logged); a
//   refusal (a provider without speech to text answers 404) is not retried.

const VOICE_NOTE_QUEUE = 'voice-note.transcribe';
export const voiceNoteQueue = jobQueue(VOICE_NOTE_QUEUE, z.object({ messageId: z.number().int() }));
type VoiceNoteJob = z.infer<typeof voiceNoteQueue.payload>;

type Deps = Pick<AppDeps, 'db' | 'config' | 'secrets' | 'outbound' | 'events' | 'uploads'>;
type MessageRow = typeof messages.$inferSelect;

// OpenAI's speech to text refuses larger files.
const MAX_AUDIO_BYTES = 25 * 1024 * 1024;

const isVoiceNote = (message: MessageRow) =>
  message.mediaType === 'audio' && Boolean(message.mediaUrl) && !message.isDeleted;

type Heard = { text: string | null } | { skipped: 'gone' | 'too large' };

// The provider's text of a voice note (metered), or why nothing was asked. The provider's failure is
// thrown, as the API tells it (providerFailure); so are no provider and no tokens left.
const hear = async (deps: Deps, message: MessageRow, client?: OpenAI): Promise<Heard> => {
  const { companyId } = message;
  const size = await deps.uploads.sizeOf(companyId, message.mediaUrl!);
  if (size === undefined) return { skipped: 'gone' };
  if (size > MAX_AUDIO_BYTES) return { skipped: 'too large' };
  await assertTokensLeft(deps, companyId);
  const provider = client ?? (await clientFor(deps, companyId));
  const data = await deps.uploads.read(companyId, message.mediaUrl);
  if (!data) return { skipped: 'gone' };
  let heard: Awaited<ReturnType<typeof speechToText>>;
  try {
    heard = await speechToText(provider, deps.config.openAi.transcriptionModel, {
      data,
      name: message.mediaName || message.mediaUrl || 'audio.ogg',
    });
  } catch (error) {
    throw providerFailure(error);
  }
  await meterAi(deps, companyId, 'transcription', heard.usage);
  return { text: heard.text };
};

// Writes the transcript unless the message already has one; the open chats hear of it. Answers the
// transcript the message keeps (the one written before, when another got there first).
const storeTranscript = async (deps: Deps, message: MessageRow, text: string) => {
  const written = await deps.events.transaction(deps.db, async (tx, raise) => {
    const updated = await tx
      .update(messages)
      .set({ transcript: text, updatedAt: new Date() })
      .where(and(eq(messages.id, message.id), isNull(messages.transcript)))
      .returning();
    updated.forEach((row) => raise(messageUpdated(row, 'transcribed')));
    return updated;
  });
  if (written.length) return text;
  const [kept] = await deps.db
    .select({ transcript: messages.transcript })
    .from(messages)
    .where(eq(messages.id, message.id));
  return kept?.transcript ?? null;
};

// What a voice note says, for the AI agent reading its conversation (prompts/agent.ts): the stored
// transcript, else heard now with the agent's client and stored, whatever the company's setting (the
// agent needs it anyway, and the chat then shows it). Null for any other message, or where the
// provider has no text for it (no speech to text, a failure: the agent reads "[audio]").
export const transcriptOf = async (deps: Deps, message: MessageRow, client?: OpenAI) => {
  if (message.transcript !== null) return message.transcript;
  if (!isVoiceNote(message)) return null;
  try {
    const heard = await hear(deps, message, client);
    return 'text' in heard && heard.text ? await storeTranscript(deps, message, heard.text) : null;
  } catch {
    return null;
  }
};

// The job: the message as it is now, heard once.
const transcribeVoiceNote = async (deps: Deps, log: FastifyBaseLogger, messageId: number) => {
  const [message] = await deps.db.select().from(messages).where(eq(messages.id, messageId));
  if (!message || message.transcript !== null || !isVoiceNote(message)) return;
  // Turned off, or the plan lost AI, since it was queued.
  if (!(await usesAiFeature(deps.db, message.companyId, 'transcribeAudio'))) return;
  const where = { companyId: message.companyId, messageId };
  let heard: Heard;
  try {
    heard = await hear(deps, message);
  } catch (error) {
    // Nothing to retry until someone changes something: no provider, no tokens left this month.
    if (
      error instanceof AppError &&
      (error.code === 'ERR_AI_NOT_CONFIGURED' || error.code === 'ERR_AI_QUOTA_EXCEEDED')
    ) {
      log.info({ ...where, code: error.code }, 'voice note not transcribed');
      return;
    }
    throw error;
  }
  if ('skipped' in heard) {
    log.info({ ...where, reason: heard.skipped }, 'voice note not transcribed');
    return;
  }
  if (heard.text) await storeTranscript(deps, message, heard.text);
};

// How a voice note is written down (background.ts runs the queue).
export const voiceNoteWorker = (deps: Deps, log: FastifyBaseLogger): QueueOptions<VoiceNoteJob> => {
  const { timeoutMs, maxRetries } = deps.config.openAi;
  return {
    handle: (job) => transcribeVoiceNote(deps, log, job.payload.messageId),
    // The provider down or limiting requests: tried again later (5 s, 15 s, 45 s, 135 s).
    maxAttempts: 5,
    // Refused (the model or speech to text unknown to the provider, its key, its address): for good.
    permanent: (error) => error instanceof AppError && error.code !== 'ERR_AI_PROVIDER_UNAVAILABLE',
    // A call may wait out the SDK's timeout on every retry; no other node takes it meanwhile.
    leaseMs: timeoutMs * (maxRetries + 1) + 60_000,
    keepDoneMs: 24 * 3600_000,
    keepFailedMs: 7 * 24 * 3600_000,
    // Given up: the message stays without a transcript.
    onFailed: async (job, error) => {
      log.warn(
        { err: error, messageId: job.payload.messageId, companyId: job.companyId },
        'voice note transcription given up',
      );
    },
  };
};

// Audio messages stored with their files queue their transcription where the company has it on (a
// recorder of all of a transaction's message.created events: one statement for the set).
export const queueVoiceNotes = async (tx: Db, events: EventOf<'message.created'>[]) => {
  const ids = events.filter((event) => event.audio).map((event) => event.messageId);
  if (!ids.length) return undefined;
  const inserted = await enqueueJobsFrom(
    tx,
    voiceNoteQueue,
    {
      from: sql`from ${messages} m
        where m.id in (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )})
          and m.media_type = 'audio' and m.media_url is not null and m.transcript is null
          and ${usesAiFeatureSql(sql`m.company_id`, 'transcribeAudio')}`,
      payload: sql`jsonb_build_object('messageId', m.id)`,
      ref: sql`'message:' || m.id`,
      companyId: sql`m.company_id`,
    },
    { skipLiveRefs: true },
  );
  return inserted.length ? VOICE_NOTE_QUEUE : undefined;
};
