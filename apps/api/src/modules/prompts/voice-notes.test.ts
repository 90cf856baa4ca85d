import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { ChatMessageView, PromptsUsage, TicketView, WhatsappView } from '@atendi/shared';
import { jobs, messages, tickets } from '../../db/schema';
import type { Job } from '../../jobs/queue';
import type { DomainEvent } from '../../events/domain-events';
import {
  createTestApp,
  inject,
  login,
  makeCompany,
  type Session,
  type TestContext,
} from '../../../test/harness';
import { eventually } from '../../../test/eventually';
import { pairedSimulator, ticketOf } from '../../../test/inbox';
import { multipart } from '../../../test/multipart';
import { OPENAI_KEY, startFakeOpenAi, type FakeOpenAi } from '../../../test/fake-openai';
import { transcriptOf, voiceNoteWorker } from './voice-notes';

// Issue 40: voice notes written down for every conversation of a company that turns it on (not only
// those an AI agent answers): the contact's and the agents', shown in the chat under the audio, found by
// the tickets' search, metered as 'transcription'; nothing asked when it is off or the plan has no AI;
// written once however often its job runs. The provider is the local OpenAI-compatible stand-in
// (its transcription is "Transcripción de <file name>"), reached by the real SDK over HTTP.

let t: TestContext;
let fake: FakeOpenAi;
let numbers = 0;
const nextNumber = () => `5491190000${String((numbers += 1)).padStart(3, '0')}`;

// A voice note of a few bytes: the stand-in hears only its name.
const voice = (fileName: string) => ({
  mediaType: 'audio' as const,
  fileName,
  mediaBase64: Buffer.from(`OggS ${fileName}`).toString('base64'),
});

type Company = Omit<Awaited<ReturnType<typeof makeCompany>>, 'admin'> & {
  admin: Session;
  connection: WhatsappView;
};

// A company of its own (its plan with or without AI), its admin and a paired simulator connection
// without AI agent or integration: a plain conversation.
const companyWith = async (transcribe: 'enabled' | 'disabled', useOpenAi = true) => {
  const made = await makeCompany(t.db, { planLimits: { useOpenAi } });
  const admin = await login(t.app, made.admin.email);
  const set = await inject(t.app, admin, 'PUT', '/settings/transcribeAudio', { value: transcribe });
  expect(set.statusCode, set.body).toBe(200);
  const connection = await pairedSimulator(t.app, admin, {});
  return { ...made, admin, connection } satisfies Company;
};

// The contact sends a voice note (its caption `body`); answers its ticket and stored message.
const voiceNoteFrom = async (company: Company, fileName: string, body = '') => {
  const from = nextNumber();
  const res = await inject(
    t.app,
    company.admin,
    'POST',
    `/simulator/${company.connection.id}/inbound`,
    {
      from,
      name: 'Marta Gómez',
      body,
      ...voice(fileName),
    },
  );
  expect(res.statusCode, res.body).toBe(200);
  const ticket = await eventually(
    () => ticketOf(t.db, company.company.id, from),
    (found) => found !== undefined,
    'the ticket',
  );
  const [message] = await eventually(
    () => t.db.select().from(messages).where(eq(messages.ticketId, ticket!.id)),
    (rows) => rows.length === 1,
    'the voice note stored',
  );
  return { ticket: ticket!, message: message! };
};

const chatOf = async (session: Session, ticketId: number) => {
  const res = await inject(t.app, session, 'GET', `/messages/${ticketId}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().messages as ChatMessageView[];
};

const transcriptIn = (session: Session, ticketId: number, messageId: number) =>
  eventually(
    async () => (await chatOf(session, ticketId)).find((m) => m.id === messageId)?.transcript,
    (text) => typeof text === 'string',
    'the transcript in the chat',
  );

const transcriptionCalls = () =>
  fake.requests.filter((r) => r.path === '/v1/audio/transcriptions').length;

// The voice note jobs of a message, with their status.
const jobsOf = (messageId: number) =>
  t.db
    .select({ status: jobs.status, attempts: jobs.attempts })
    .from(jobs)
    .where(and(eq(jobs.queue, 'voice-note.transcribe'), eq(jobs.ref, `message:${messageId}`)));

const searchFor = async (session: Session, term: string) => {
  const res = await inject(
    t.app,
    session,
    'GET',
    `/tickets?searchParam=${encodeURIComponent(term)}&showAll=true`,
  );
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().tickets as TicketView[]).map((ticket) => ticket.id);
};

beforeAll(async () => {
  fake = await startFakeOpenAi();
  t = await createTestApp({
    OPENAI_BASE_URL: fake.url,
    OPENAI_API_KEY: OPENAI_KEY,
    OPENAI_MAX_RETRIES: '0',
    OPENAI_TIMEOUT_MS: '5000',
    // Billed by tokens, as the stand-in answers (whisper-1 bills seconds).
    OPENAI_TRANSCRIPTION_MODEL: 'gpt-4o-mini-transcribe',
  });
});
beforeEach(() => {
  fake.latencyMs = 0;
  fake.clearFailures();
  fake.transcriptions = true;
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

describe('with transcription on', () => {
  it("writes down a contact's voice note in a conversation without AI agent, shown in the chat, found by the search, its tokens metered", async () => {
    const company = await companyWith('enabled');
    const { ticket, message } = await voiceNoteFrom(company, 'pedido-pizzas.ogg', 'Escuchá esto');
    expect(ticket.promptId).toBeNull();
    const transcript = await transcriptIn(company.admin, ticket.id, message.id);
    expect(transcript).toBe('Transcripción de pedido-pizzas.ogg');
    // The caption stays the sender's; the audio is still there.
    const [shown] = await chatOf(company.admin, ticket.id);
    expect(shown).toMatchObject({ body: 'Escuchá esto', mediaType: 'audio' });
    expect(shown.mediaUrl).toBeTruthy();
    // A word only the transcript has finds the conversation.
    expect(await searchFor(company.admin, 'pedido-pizzas')).toEqual([ticket.id]);
    expect(await searchFor(company.admin, 'PEDIDO-PIZ')).toEqual([ticket.id]);
    // Metered as the company's transcriptions.
    const usage = (
      await inject(t.app, company.admin, 'GET', '/prompt/usage')
    ).json() as PromptsUsage;
    const spent = usage.tokensByFeature.find((f) => f.feature === 'transcription');
    expect(spent).toMatchObject({ calls: 1 });
    expect(spent!.tokens).toBeGreaterThan(0);
    // The conversation's transcript (issue 38) has it too.
    const exported = await inject(
      t.app,
      company.admin,
      'GET',
      `/tickets/${ticket.id}/transcript.json`,
    );
    expect(exported.statusCode, exported.body).toBe(200);
    expect(exported.json().messages[0]).toMatchObject({
      body: 'Escuchá esto',
      transcript: 'Transcripción de pedido-pizzas.ogg',
    });
  });

  it("writes down an agent's own voice note, and the open chat hears of it", async () => {
    const company = await companyWith('enabled');
    const from = nextNumber();
    await inject(t.app, company.admin, 'POST', `/simulator/${company.connection.id}/inbound`, {
      from,
      body: 'Hola, ¿me explican por audio?',
    });
    const ticket = (await eventually(
      () => ticketOf(t.db, company.company.id, from),
      (found) => found !== undefined,
      'the ticket',
    ))!;
    await t.db
      .update(tickets)
      .set({ status: 'open', userId: company.admin.userId })
      .where(eq(tickets.id, ticket.id));
    const heard: DomainEvent[] = [];
    t.app.deps.events.on('message.updated', (event) => {
      if (event.ticketId === ticket.id) heard.push(event);
    });
    const form = multipart({ body: '' }, [
      { name: 'respuesta-agente.ogg', type: 'audio/ogg', data: Buffer.from('OggS agente') },
    ]);
    const sent = await t.app.inject({
      method: 'POST',
      url: `/messages/${ticket.id}`,
      headers: { authorization: `Bearer ${company.admin.token}`, ...form.headers },
      payload: form.payload,
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const [mine] = sent.json() as ChatMessageView[];
    expect(mine).toMatchObject({ fromMe: true, mediaType: 'audio', transcript: null });
    expect(await transcriptIn(company.admin, ticket.id, mine.id)).toBe(
      'Transcripción de respuesta-agente.ogg',
    );
    await eventually(
      () => heard.filter((e) => e.type === 'message.updated' && e.reason === 'transcribed'),
      (events) => events.length === 1,
      'the chat told of the transcript',
    );
    // The contact's text message queued nothing.
    const [contactText] = await t.db
      .select()
      .from(messages)
      .where(and(eq(messages.ticketId, ticket.id), eq(messages.fromMe, false)));
    expect(await jobsOf(contactText.id)).toEqual([]);
  });

  it('the same job delivered twice, even at once, writes once and tells the chat once', async () => {
    // Off when it arrives (no job of its own), on when the jobs run.
    const company = await companyWith('disabled');
    const { ticket, message } = await voiceNoteFrom(company, 'dos-veces.ogg');
    await inject(t.app, company.admin, 'PUT', '/settings/transcribeAudio', { value: 'enabled' });
    const told: DomainEvent[] = [];
    t.app.deps.events.on('message.updated', (event) => {
      if (event.messageId === message.id) told.push(event);
    });
    const worker = voiceNoteWorker(t.app.deps, t.app.log);
    const job = { payload: { messageId: message.id } } as Job<{ messageId: number }>;
    fake.latencyMs = 100;
    await Promise.all([worker.handle(job), worker.handle(job)]);
    const [stored] = await t.db.select().from(messages).where(eq(messages.id, message.id));
    expect(stored.transcript).toBe('Transcripción de dos-veces.ogg');
    await eventually(
      () => told,
      (events) => events.length >= 1,
      'the chat told',
    );
    expect(told).toHaveLength(1);
    // Once written, a later delivery does not ask the provider again.
    const calls = transcriptionCalls();
    await worker.handle(job);
    expect(transcriptionCalls()).toBe(calls);
    expect((await chatOf(company.admin, ticket.id))[0].transcript).toBe(
      'Transcripción de dos-veces.ogg',
    );
  });

  it('retries the provider failing, and gives up on a refusal without a transcript', async () => {
    const company = await companyWith('enabled');
    fake.failNext({ status: 503 }, { pathPart: '/audio/transcriptions' });
    const first = await voiceNoteFrom(company, 'reintento.ogg');
    // The queue's first retry comes some seconds later.
    expect(
      await eventually(
        async () => (await chatOf(company.admin, first.ticket.id))[0].transcript,
        (text) => typeof text === 'string',
        'the transcript after a retry',
        { timeoutMs: 20_000 },
      ),
    ).toBe('Transcripción de reintento.ogg');
    expect((await jobsOf(first.message.id))[0]).toMatchObject({ status: 'done', attempts: 2 });

    // A provider without speech to text (Ollama answers 404): given up at once.
    fake.transcriptions = false;
    const second = await voiceNoteFrom(company, 'sin-texto.ogg');
    const [failed] = await eventually(
      () => jobsOf(second.message.id),
      (rows) => rows[0]?.status === 'failed',
      'the job given up',
    );
    expect(failed.attempts).toBe(1);
    expect((await chatOf(company.admin, second.ticket.id))[0].transcript).toBeNull();
  });
});

describe('nothing is transcribed', () => {
  it('with the setting off: the provider is not asked', async () => {
    const company = await companyWith('disabled');
    const calls = transcriptionCalls();
    const { ticket, message } = await voiceNoteFrom(company, 'apagado.ogg');
    expect(await jobsOf(message.id)).toEqual([]);
    expect((await chatOf(company.admin, ticket.id))[0].transcript).toBeNull();
    expect(transcriptionCalls()).toBe(calls);
    expect(await searchFor(company.admin, 'apagado')).toEqual([]);
  });

  it('for a file larger than the provider takes (25 MB)', async () => {
    const company = await companyWith('disabled');
    const { ticket, message } = await voiceNoteFrom(company, 'muy-largo.ogg');
    // The note's file as a recording of over 25 MB would be.
    const big = await t.app.deps.uploads.store(
      company.company.id,
      Buffer.alloc(25 * 1024 * 1024 + 1),
      { fileName: 'muy-largo.ogg', mimetype: 'audio/ogg' },
    );
    const [row] = await t.db
      .update(messages)
      .set({ mediaUrl: big.storedName })
      .where(eq(messages.id, message.id))
      .returning();
    await inject(t.app, company.admin, 'PUT', '/settings/transcribeAudio', { value: 'enabled' });
    const calls = transcriptionCalls();
    const job = { payload: { messageId: row.id } } as Job<{ messageId: number }>;
    await voiceNoteWorker(t.app.deps, t.app.log).handle(job);
    expect(transcriptionCalls()).toBe(calls);
    expect((await chatOf(company.admin, ticket.id))[0].transcript).toBeNull();
  });

  it('on a plan without AI, even with the setting on', async () => {
    const company = await companyWith('enabled', false);
    const calls = transcriptionCalls();
    const { ticket, message } = await voiceNoteFrom(company, 'sin-ia.ogg');
    expect(await jobsOf(message.id)).toEqual([]);
    // A job queued before the plan lost AI asks nothing either.
    const job = { payload: { messageId: message.id } } as Job<{ messageId: number }>;
    await voiceNoteWorker(t.app.deps, t.app.log).handle(job);
    expect((await chatOf(company.admin, ticket.id))[0].transcript).toBeNull();
    expect(transcriptionCalls()).toBe(calls);
  });
});

describe('transcriptOf (the AI agent reading a voice note)', () => {
  it('hears it once whatever the setting, stores it for the chat, and reads it back after', async () => {
    const company = await companyWith('disabled');
    const { ticket, message } = await voiceNoteFrom(company, 'para-el-agente.ogg');
    const calls = transcriptionCalls();
    expect(await transcriptOf(t.app.deps, message)).toBe('Transcripción de para-el-agente.ogg');
    expect((await chatOf(company.admin, ticket.id))[0].transcript).toBe(
      'Transcripción de para-el-agente.ogg',
    );
    const [stored] = await t.db.select().from(messages).where(eq(messages.id, message.id));
    expect(await transcriptOf(t.app.deps, stored)).toBe('Transcripción de para-el-agente.ogg');
    expect(transcriptionCalls()).toBe(calls + 1);
    // A provider without speech to text: nothing, and the agent reads "[audio]".
    fake.transcriptions = false;
    const other = await voiceNoteFrom(company, 'nada.ogg');
    expect(await transcriptOf(t.app.deps, other.message)).toBeNull();
  });
});
