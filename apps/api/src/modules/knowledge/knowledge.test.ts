import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { KnowledgeDocument, KnowledgeSearchResult } from '@atendi/shared';
import { queryRows } from '../../db/client';
import {
  companies,
  fileListOptions,
  fileLists,
  knowledgeChunks,
  knowledgeDocuments,
  quickMessages,
} from '../../db/schema';
import type { Job } from '../../jobs/queue';
import {
  createTestApp,
  inject,
  login,
  makeCompany,
  makeUser,
  type Session,
  type TestContext,
} from '../../../test/harness';
import { eventually } from '../../../test/eventually';
import { caughtUp, closeSockets, listenAs } from '../../../test/sockets';
import { multipart } from '../../../test/multipart';
import { makeDocx, makePdf, zipOf } from '../../../test/documents';
import {
  FAKE_EMBEDDING_DIMENSIONS,
  OPENAI_KEY,
  startFakeOpenAi,
  type FakeOpenAi,
} from '../../../test/fake-openai';
import { EMBEDDING_BATCH, ingestWorker } from './ingest';
import { searchKnowledge } from './retrieval';
import { KNOWLEDGE_SOURCES_JOB } from './sources';

// The knowledge base (issue 40, item 1) through the HTTP API and its job, against the tests'
// OpenAI-compatible server, whose embeddings come from the words of the text: documents of every kind
// read, split and embedded in the background with progress heard live; a failed run re-run without
// duplicates; the passage that answers a question ranked first; one company's passages never found
// for another; bad uploads refused with nothing kept; deletion taking everything with it.

let fake: FakeOpenAi;
let t: TestContext;

type Company = { id: number; admin: Session };
let a: Company;
let b: Company;

const company = async (): Promise<Company> => {
  const made = await makeCompany(t.db);
  return { id: made.company.id, admin: await login(t.app, made.admin.email) };
};

beforeAll(async () => {
  fake = await startFakeOpenAi();
  t = await createTestApp({
    OPENAI_BASE_URL: fake.url,
    OPENAI_API_KEY: OPENAI_KEY,
    OPENAI_MAX_RETRIES: '0',
    OPENAI_EMBEDDING_MODEL: 'text-embedding-3-small',
  });
  a = await company();
  b = await company();
});
afterAll(async () => {
  closeSockets();
  await t.close();
  await fake.close();
});

const TYPES = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  txt: 'text/plain',
  md: 'text/markdown',
} as const;

const upload = (
  session: Session,
  fileName: string,
  data: Buffer,
  options: { fields?: Record<string, string>; url?: string; type?: string } = {},
) => {
  const form = multipart(options.fields ?? {}, [
    {
      field: 'file',
      name: fileName,
      type:
        options.type ??
        TYPES[fileName.split('.').pop() as keyof typeof TYPES] ??
        'application/octet-stream',
      data,
    },
  ]);
  return t.app.inject({
    method: 'POST',
    url: options.url ?? '/knowledge/documents',
    headers: { authorization: `Bearer ${session.token}`, ...form.headers },
    payload: form.payload,
  });
};

const uploaded = async (session: Session, fileName: string, data: Buffer, name?: string) => {
  const res = await upload(session, fileName, data, name ? { fields: { name } } : {});
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as KnowledgeDocument;
};

const documentOf = async (session: Session, id: number) => {
  const res = await inject(t.app, session, 'GET', `/knowledge/documents/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as KnowledgeDocument;
};

// The document once its ingest finished (ready or failed).
const settled = (session: Session, id: number, status: 'ready' | 'failed' = 'ready') =>
  eventually(
    () => documentOf(session, id),
    (doc) => doc.status === status || (doc.status === 'failed' && status === 'ready'),
    `document ${id} ${status}`,
    { timeoutMs: 20_000 },
  ).then((doc) => {
    expect(doc.status, doc.error ?? '').toBe(status);
    return doc;
  });

const search = async (session: Session, q: string, limit?: number) => {
  const res = await inject(
    t.app,
    session,
    'GET',
    `/knowledge/search?q=${encodeURIComponent(q)}${limit ? `&limit=${limit}` : ''}`,
  );
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as KnowledgeSearchResult;
};

const chunksOf = (documentId: number) =>
  t.db
    .select()
    .from(knowledgeChunks)
    .where(eq(knowledgeChunks.documentId, documentId))
    .orderBy(asc(knowledgeChunks.ordinal));

// Words every page of the manual shares, so a page is told apart only by what it is about.
const FILLER = 'Este manual describe los servicios de la tienda para todos sus clientes. '.repeat(
  11,
);
const MANUAL = [
  `Bienvenida a Tienda Roma. Somos una tienda de barrio con más de veinte años. ${FILLER}`,
  `Garantía: los electrodomésticos tienen garantía de un año contra defectos de fábrica. ${FILLER}`,
  `Contacto: escríbanos por WhatsApp o llame al conmutador de la oficina central. ${FILLER}`,
];

describe('documents', () => {
  it('reads, splits and embeds a PDF, a Word document, text and Markdown', async () => {
    const pdf = await uploaded(a.admin, 'manual.pdf', await makePdf(MANUAL));
    expect(pdf).toMatchObject({ name: 'manual', source: 'upload', kind: 'pdf', status: 'queued' });
    const docx = await uploaded(
      a.admin,
      'horario.docx',
      await makeDocx(['Horario de atención', 'Abrimos de lunes a viernes de 9 a 18 horas.']),
      'Horario',
    );
    const txt = await uploaded(
      a.admin,
      'pagos.txt',
      Buffer.from('Aceptamos tarjetas de crédito, débito y transferencias bancarias.'),
    );
    const md = await uploaded(
      a.admin,
      'envios.md',
      Buffer.from('# Envíos\n\nEnviamos a todo el país en dos a cuatro días.'),
    );
    for (const doc of [pdf, docx, txt, md]) await settled(a.admin, doc.id);

    const pdfChunks = await chunksOf(pdf.id);
    expect(pdfChunks.map((c) => c.page)).toEqual([1, 2, 3]);
    expect(pdfChunks[1].content).toContain('Garantía: los electrodomésticos tienen garantía');
    for (const chunk of pdfChunks) {
      expect(chunk.companyId).toBe(a.id);
      expect(chunk.embeddingModel).toBe('text-embedding-3-small');
      expect(chunk.dimensions).toBe(FAKE_EMBEDDING_DIMENSIONS);
      expect(chunk.embedding).toHaveLength(FAKE_EMBEDDING_DIMENSIONS);
    }
    expect((await chunksOf(docx.id)).map((c) => [c.page, c.content])).toEqual([
      [null, 'Horario de atención\n\nAbrimos de lunes a viernes de 9 a 18 horas.'],
    ]);
    expect((await chunksOf(md.id))[0].content).toBe(
      '# Envíos\n\nEnviamos a todo el país en dos a cuatro días.',
    );
    expect(await documentOf(a.admin, pdf.id)).toMatchObject({
      status: 'ready',
      progress: 100,
      chunks: 3,
      embeddingModel: 'text-embedding-3-small',
      error: null,
      size: expect.any(Number),
    });
    const list = await inject(t.app, a.admin, 'GET', '/knowledge/documents');
    expect(
      (list.json() as { documents: KnowledgeDocument[] }).documents.map((d) => d.name),
    ).toEqual(expect.arrayContaining(['manual', 'Horario', 'pagos', 'envios']));
    // The texts went to the embeddings endpoint in batches, as floats.
    const requests = fake.embeddingRequests();
    expect(requests.every((r) => r.encoding_format === 'float')).toBe(true);
  });

  it('ranks the passage with the answer first, with its document, page and scores', async () => {
    const found = await search(a.admin, '¿Cuánto dura la garantía de los electrodomésticos?');
    expect(found.semantic).toBe(true);
    expect(found.passages[0]).toMatchObject({
      documentName: 'manual',
      page: 2,
      text: expect.stringContaining('garantía de un año'),
      textScore: expect.any(Number),
      similarity: expect.any(Number),
    });
    for (let i = 1; i < found.passages.length; i += 1)
      expect(found.passages[i].score).toBeLessThanOrEqual(found.passages[i - 1].score);
    expect((await search(a.admin, 'horario de atención sábados')).passages[0].documentName).toBe(
      'Horario',
    );
    expect((await search(a.admin, 'pay with bank transfers', 1)).passages).toHaveLength(1);
    // Words alone: a question the text search finds even if the provider cannot embed it.
    fake.failNext({ status: 500 }, { pathPart: '/embeddings' });
    const textOnly = await search(a.admin, 'tarjetas de crédito');
    expect(textOnly.semantic).toBe(false);
    expect(textOnly.passages[0]).toMatchObject({ documentName: 'pagos', similarity: null });
  });

  it('tells the company’s admins live how an ingest goes, and nobody else', async () => {
    const user = await login(t.app, (await makeUser(t.db, a.id, 'user')).email);
    const admin = await listenAs(t.app, a.admin);
    const others = [await listenAs(t.app, user), await listenAs(t.app, b.admin)];
    const doc = await uploaded(a.admin, 'live.pdf', await makePdf(MANUAL));
    await settled(a.admin, doc.id);
    const heard = () =>
      admin
        .filter((h) => h.event === `company-${a.id}-knowledge`)
        .map((h) => h.payload as { action: string; document: KnowledgeDocument })
        .filter((e) => e.document?.id === doc.id);
    const events = await eventually(
      heard,
      (list) => list.some((e) => e.document.status === 'ready'),
      'the ready document heard',
    );
    const progress = events.map((e) => e.document.progress);
    expect(events[0].document.status).toBe('queued');
    expect(events.some((e) => e.document.status === 'processing')).toBe(true);
    expect(progress).toEqual([...progress].sort((x, y) => x - y));
    expect(events.at(-1)!.document).toMatchObject({ status: 'ready', progress: 100, chunks: 3 });
    await caughtUp(admin, ...others);
    for (const recording of others)
      expect(recording.filter((h) => h.event.endsWith('-knowledge'))).toEqual([]);
  });

  it('re-runs an ingest that failed half-way without a passage twice, the old passages answering meanwhile', async () => {
    const short = await uploaded(a.admin, 'catalogo.txt', Buffer.from('Catálogo de primavera.'));
    await settled(a.admin, short.id);
    const before = await chunksOf(short.id);
    // Enough text for several embeddings requests; the second one fails (a server that fell over).
    const long = Array.from(
      { length: EMBEDDING_BATCH + 20 },
      (_, i) =>
        `Producto ${i}: ${'una descripción detallada del artículo del catálogo. '.repeat(17)}`,
    ).join('\n\n');
    const asked = fake.embeddingRequests().length;
    fake.failNext({ status: 500 }, { pathPart: '/embeddings', skip: 1 });
    const res = await upload(a.admin, 'catalogo.txt', Buffer.from(long), {
      url: `/knowledge/documents/${short.id}/file`,
    });
    expect(res.statusCode, res.body).toBe(200);
    // The first run stopped at its second batch (its retry comes seconds later): the old passages
    // still answer, none of the new is stored.
    await eventually(
      () => fake.embeddingRequests().length,
      (count) => count >= asked + 2,
      'the failed second batch',
    );
    await eventually(
      () => documentOf(a.admin, short.id),
      (doc) => doc.status === 'processing' && doc.progress > 30,
      'the first batch’s progress',
    );
    expect(await chunksOf(short.id)).toEqual(before);
    expect((await search(a.admin, 'catálogo de primavera')).passages[0].documentId).toBe(short.id);
    // The retry (the queue's backoff) makes them all, once.
    const done = await settled(a.admin, short.id);
    const after = await chunksOf(short.id);
    expect(done.chunks).toBe(after.length);
    expect(after.length).toBeGreaterThan(EMBEDDING_BATCH);
    expect(after.map((c) => c.ordinal)).toEqual(after.map((_, i) => i));
    expect(after.some((c) => c.content === 'Catálogo de primavera.')).toBe(false);
    // A job delivered twice (at least once: a node died after storing) stores the same set again.
    const [row] = await t.db
      .select()
      .from(knowledgeDocuments)
      .where(eq(knowledgeDocuments.id, short.id));
    const job = { payload: { documentId: row.id, version: row.version } } as Job<{
      documentId: number;
      version: number;
    }>;
    await ingestWorker(t.app.deps).handle(job);
    const again = await chunksOf(short.id);
    expect(again.map((c) => [c.ordinal, c.content])).toEqual(
      after.map((c) => [c.ordinal, c.content]),
    );
    // A job of an older version does nothing.
    await ingestWorker(t.app.deps).handle({ ...job, payload: { ...job.payload, version: 1 } });
    expect(await chunksOf(short.id)).toEqual(again);
  });

  it('renames, refreshes and deletes a document, its passages and its file going with it', async () => {
    const doc = await uploaded(
      a.admin,
      'borrar.txt',
      Buffer.from('Texto sobre bicicletas plegables.'),
    );
    await settled(a.admin, doc.id);
    const renamed = await inject(t.app, a.admin, 'PUT', `/knowledge/documents/${doc.id}`, {
      name: 'Bicicletas',
    });
    expect(renamed.json()).toMatchObject({ name: 'Bicicletas', status: 'ready', chunks: 1 });
    const refreshed = await inject(
      t.app,
      a.admin,
      'POST',
      `/knowledge/documents/${doc.id}/refresh`,
    );
    expect(refreshed.json()).toMatchObject({ status: 'queued', progress: 0 });
    await settled(a.admin, doc.id);
    expect((await search(a.admin, 'bicicletas plegables')).passages[0].documentName).toBe(
      'Bicicletas',
    );
    const [row] = await t.db
      .select()
      .from(knowledgeDocuments)
      .where(eq(knowledgeDocuments.id, doc.id));
    expect(await t.app.deps.uploads.exists(a.id, row.storedName!)).toBe(true);
    const [{ storageUsed: used }] = await t.db
      .select({ storageUsed: companies.storageUsed })
      .from(companies)
      .where(eq(companies.id, a.id));

    const gone = await inject(t.app, a.admin, 'DELETE', `/knowledge/documents/${doc.id}`);
    expect(gone.statusCode).toBe(204);
    expect(await chunksOf(doc.id)).toEqual([]);
    expect(await t.app.deps.uploads.exists(a.id, row.storedName!)).toBe(false);
    const [{ storageUsed }] = await t.db
      .select({ storageUsed: companies.storageUsed })
      .from(companies)
      .where(eq(companies.id, a.id));
    expect(Number(storageUsed)).toBe(Number(used) - (row.size ?? 0));
    expect((await search(a.admin, 'bicicletas plegables')).passages).toEqual(
      expect.not.arrayContaining([expect.objectContaining({ documentId: doc.id })]),
    );
    expect((await inject(t.app, a.admin, 'GET', `/knowledge/documents/${doc.id}`)).statusCode).toBe(
      404,
    );
  });
});

describe('sources', () => {
  it('reads the company-wide quick messages, one passage each, and each file list with its documents', async () => {
    const c = await company();
    await t.db.insert(quickMessages).values([
      { companyId: c.id, shortcode: 'horario', message: 'Abrimos de 9 a 18.', geral: true },
      { companyId: c.id, shortcode: 'envio', message: 'Enviamos en 48 horas.', geral: true },
      {
        companyId: c.id,
        shortcode: 'mio',
        message: 'Mi respuesta personal secreta.',
        geral: false,
      },
      {
        companyId: c.id,
        shortcode: 'apagada',
        message: 'Respuesta apagada.',
        geral: true,
        status: false,
      },
    ]);
    const res = await inject(t.app, c.admin, 'POST', '/knowledge/sources', {
      type: 'quick-messages',
    });
    expect(res.statusCode, res.body).toBe(201);
    const answers = res.json() as KnowledgeDocument;
    expect(answers).toMatchObject({ source: 'quick-messages', kind: null });
    await settled(c.admin, answers.id);
    expect((await chunksOf(answers.id)).map((x) => x.content)).toEqual([
      '/envio\n\nEnviamos en 48 horas.',
      '/horario\n\nAbrimos de 9 a 18.',
    ]);
    // The quick messages change: within a minute (the recurring job, run here) they are read again.
    const versionOf = async (id: number) =>
      (await t.db.select().from(knowledgeDocuments).where(eq(knowledgeDocuments.id, id)))[0]
        .version;
    const before = await versionOf(answers.id);
    await t.app.deps.jobs.run(KNOWLEDGE_SOURCES_JOB);
    expect(await versionOf(answers.id)).toBe(before);
    await t.db
      .insert(quickMessages)
      .values({ companyId: c.id, shortcode: 'pago', message: 'Aceptamos tarjetas.', geral: true });
    await t.db
      .update(quickMessages)
      .set({ message: 'Abrimos de 10 a 19.', updatedAt: new Date(Date.now() + 1000) })
      .where(and(eq(quickMessages.companyId, c.id), eq(quickMessages.shortcode, 'horario')));
    await t.app.deps.jobs.run(KNOWLEDGE_SOURCES_JOB);
    expect(await versionOf(answers.id)).toBe(before + 1);
    await settled(c.admin, answers.id);
    expect((await chunksOf(answers.id)).map((x) => x.content)).toEqual([
      '/envio\n\nEnviamos en 48 horas.',
      '/horario\n\nAbrimos de 10 a 19.',
      '/pago\n\nAceptamos tarjetas.',
    ]);
    const twice = await inject(t.app, c.admin, 'POST', '/knowledge/sources', {
      type: 'quick-messages',
    });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error).toBe('ERR_KNOWLEDGE_SOURCE_EXISTS');

    // A file list: its message and entries, and the text of its PDF.
    const [list] = await t.db
      .insert(fileLists)
      .values({ companyId: c.id, name: 'Folletos', message: 'Nuestros folletos de temporada.' })
      .returning();
    const stored = await t.app.deps.uploads.store(
      c.id,
      await makePdf(['Folleto de piscinas inflables.']),
      {
        fileName: 'piscinas.pdf',
        mimetype: 'application/pdf',
      },
    );
    await t.db.insert(fileListOptions).values([
      {
        companyId: c.id,
        fileListId: list.id,
        name: 'Piscinas',
        path: stored.storedName,
        mediaType: 'application/pdf',
      },
    ]);
    const fromList = await inject(t.app, c.admin, 'POST', '/knowledge/sources', {
      type: 'file-list',
      fileListId: list.id,
    });
    expect(fromList.statusCode, fromList.body).toBe(201);
    const listDoc = fromList.json() as KnowledgeDocument;
    expect(listDoc).toMatchObject({ name: 'Folletos', source: 'file-list', fileListId: list.id });
    await settled(c.admin, listDoc.id);
    const contents = (await chunksOf(listDoc.id)).map((x) => [x.page, x.content]);
    expect(contents).toEqual([
      [null, 'Folletos\n\nNuestros folletos de temporada.\n\n- Piscinas'],
      [1, 'Folleto de piscinas inflables.'],
    ]);
    // Another company's list is none of this one's.
    const [foreign] = await t.db
      .insert(fileLists)
      .values({ companyId: b.id, name: 'Ajena' })
      .returning();
    const refused = await inject(t.app, c.admin, 'POST', '/knowledge/sources', {
      type: 'file-list',
      fileListId: foreign.id,
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().fields).toEqual({ fileListId: ['ERR_NOT_FOUND'] });
    // The list deleted, its document goes too.
    await t.db.delete(fileLists).where(eq(fileLists.id, list.id));
    expect(await chunksOf(listDoc.id)).toEqual([]);
  });

  it('fails a document with the provider’s reason when its key is refused, and an empty source as unreadable', async () => {
    const c = await company();
    const empty = await inject(t.app, c.admin, 'POST', '/knowledge/sources', {
      type: 'quick-messages',
    });
    const failed = await settled(c.admin, (empty.json() as KnowledgeDocument).id, 'failed');
    expect(failed.error).toMatch(/nothing to read/);
    // A failed source is not read again until its records change.
    await t.app.deps.jobs.run(KNOWLEDGE_SOURCES_JOB);
    expect((await documentOf(c.admin, failed.id)).status).toBe('failed');
    const provider = await inject(t.app, c.admin, 'PUT', '/ai-provider', {
      baseUrl: fake.url,
      apiKey: 'sk-wrong-key-0123456789',
    });
    expect(provider.statusCode, provider.body).toBe(200);
    const doc = await uploaded(c.admin, 'nota.txt', Buffer.from('Una nota cualquiera.'));
    expect((await settled(c.admin, doc.id, 'failed')).error).toMatch(/refused the key/);
    expect(await chunksOf(doc.id)).toEqual([]);
  });
});

describe('many passages', () => {
  it('finds the answer among more passages than the vector search compares exactly', async () => {
    const c = await company();
    // 260 paragraphs of made-up words, each a passage, and the answer among them.
    const syllables = ['ca', 'pe', 'ri', 'mo', 'ta', 'lu', 'ne', 'so', 'di', 'ga', 've', 'ro'];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const madeUp = () =>
      Array.from({ length: 3 }, () => syllables[Math.floor(next() * syllables.length)]).join('');
    const filler = () =>
      Array.from({ length: 12 }, () =>
        `${Array.from({ length: 10 }, madeUp).join(' ')}.`.replace(/^./, (x) => x.toUpperCase()),
      ).join(' ');
    const paragraphs = Array.from({ length: 260 }, filler);
    const answer =
      'Las bicicletas eléctricas plegables tienen garantía de dos años en el motor y la batería.';
    paragraphs.splice(130, 0, `${answer} ${filler()}`);
    const doc = await uploaded(c.admin, 'largo.txt', Buffer.from(paragraphs.join('\n\n')));
    expect((await settled(c.admin, doc.id)).chunks).toBeGreaterThan(250);
    const found = await search(
      c.admin,
      '¿Qué garantía tienen las bicicletas eléctricas plegables?',
    );
    expect(found.passages[0].text).toContain(answer);
    expect(found.passages[0].similarity).toEqual(expect.any(Number));
    expect(found.passages[0].textScore).toEqual(expect.any(Number));
  });
});

describe('tenants', () => {
  it('never finds one company’s passages for another, by words or by meaning', async () => {
    // B's document is the question itself: the best match there is, by both rankings.
    const question = 'garantía de los electrodomésticos de fábrica';
    const theirs = await uploaded(b.admin, 'secreto.txt', Buffer.from(question));
    await settled(b.admin, theirs.id);
    const ours = await search(a.admin, question, 20);
    expect(ours.passages.length).toBeGreaterThan(0);
    const mine = await t.db
      .select({ id: knowledgeDocuments.id })
      .from(knowledgeDocuments)
      .where(eq(knowledgeDocuments.companyId, a.id));
    for (const passage of ours.passages)
      expect(mine.map((d) => d.id)).toContain(passage.documentId);
    // The function the AI agents call, likewise; and B finds its own.
    const direct = await searchKnowledge(t.app.deps, a.id, question, { limit: 20 });
    expect(direct.passages.some((p) => p.documentId === theirs.id)).toBe(false);
    expect((await search(b.admin, question)).passages[0].documentId).toBe(theirs.id);
    // Their document is not ours to read, change or delete.
    for (const [method, url] of [
      ['GET', `/knowledge/documents/${theirs.id}`],
      ['PUT', `/knowledge/documents/${theirs.id}`],
      ['POST', `/knowledge/documents/${theirs.id}/refresh`],
      ['DELETE', `/knowledge/documents/${theirs.id}`],
    ] as const) {
      const res = await inject(
        t.app,
        a.admin,
        method,
        url,
        method === 'PUT' ? { name: 'x' } : undefined,
      );
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    // A company without passages answers nothing, and asks no provider.
    const c = await company();
    const asked = fake.embeddingRequests().length;
    expect(await search(c.admin, question)).toEqual({ passages: [], semantic: false });
    expect(fake.embeddingRequests()).toHaveLength(asked);
  });
});

describe('bad uploads', () => {
  it('refuses what is not a document it reads, too large or malformed, keeping nothing', async () => {
    const c = await company();
    const storage = async () =>
      (
        await queryRows<{ files: number }>(
          t.db,
          sql`select count(*)::int as files from stored_files where company_id = ${c.id}`,
        )
      )[0].files;
    const refusals: [string, Buffer, number, string][] = [
      ['programa.exe', Buffer.from('MZ'), 415, 'ERR_UPLOAD_TYPE_NOT_ALLOWED'],
      ['falso.pdf', Buffer.from('Solo texto, no un PDF.'), 415, 'ERR_UPLOAD_TYPE_NOT_ALLOWED'],
      ['falso.docx', await zipOf({ 'a.txt': 'hola' }), 415, 'ERR_UPLOAD_TYPE_NOT_ALLOWED'],
      [
        'imagen.txt',
        Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]),
        415,
        'ERR_UPLOAD_TYPE_NOT_ALLOWED',
      ],
      ['vacio.txt', Buffer.alloc(0), 415, 'ERR_UPLOAD_TYPE_NOT_ALLOWED'],
      ['grande.txt', Buffer.alloc(20 * 1024 * 1024 + 1, 'a'), 413, 'ERR_UPLOAD_TOO_LARGE'],
    ];
    for (const [name, data, status, error] of refusals) {
      const res = await upload(c.admin, name, data);
      expect(res.statusCode, `${name}: ${res.body}`).toBe(status);
      expect(res.json()).toMatchObject({ error, message: expect.any(String) });
    }
    const notMultipart = await inject(t.app, c.admin, 'POST', '/knowledge/documents', {
      file: 'x',
    });
    expect(notMultipart.statusCode).toBe(400);
    expect(notMultipart.json().error).toBe('ERR_UPLOAD_MISSING_FILE');
    const noFile = multipart({ name: 'Sin archivo' }, []);
    const empty = await t.app.inject({
      method: 'POST',
      url: '/knowledge/documents',
      headers: { authorization: `Bearer ${c.admin.token}`, ...noFile.headers },
      payload: noFile.payload,
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error).toBe('ERR_UPLOAD_MISSING_FILE');
    expect(
      await t.db.select().from(knowledgeDocuments).where(eq(knowledgeDocuments.companyId, c.id)),
    ).toEqual([]);
    expect(await storage()).toBe(0);
    // A source's document has no file to replace.
    const answers = await inject(t.app, c.admin, 'POST', '/knowledge/sources', {
      type: 'quick-messages',
    });
    const replaced = await upload(c.admin, 'a.txt', Buffer.from('hola'), {
      url: `/knowledge/documents/${(answers.json() as KnowledgeDocument).id}/file`,
    });
    expect(replaced.statusCode).toBe(400);
    expect(await storage()).toBe(0);
    // A refused replacement keeps the document as it was.
    const doc = await uploaded(c.admin, 'bien.txt', Buffer.from('Documento correcto.'));
    await settled(c.admin, doc.id);
    const wrong = await upload(c.admin, 'mal.pdf', Buffer.from('no soy un pdf'), {
      url: `/knowledge/documents/${doc.id}/file`,
    });
    expect(wrong.statusCode).toBe(415);
    expect(await documentOf(c.admin, doc.id)).toMatchObject({ status: 'ready', kind: 'txt' });
    expect(await storage()).toBe(1);
    const rows = await t.db
      .select()
      .from(knowledgeDocuments)
      .where(and(eq(knowledgeDocuments.companyId, c.id), eq(knowledgeDocuments.source, 'upload')));
    expect(rows).toHaveLength(1);
  });
});
