import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { makePdf } from '../apps/api/test/documents';
import { eventually } from '../apps/api/test/eventually';
import { OPENAI_KEY, startFakeOpenAi } from '../apps/api/test/fake-openai';
import {
  api,
  args,
  ensureDatabase,
  login,
  machine,
  ms,
  pgliteOption,
  prng,
  removePgliteDir,
  requestsDatabaseUrl,
  saveResult,
  startApi,
  SUPER_EMAIL,
  summarize,
  withDatabase,
} from './lib';
import { spanish } from './texts';

// The knowledge base (issue 40): `npx tsx bench/knowledge.ts [--pages 200] [--chunks 10000]
// [--searches 200] [--dimensions 1536] [--pglite [dir]]`.
//
// A fresh database and the compiled API as its own process, its AI provider the tests' stand-in
// (test/fake-openai.ts, in this process: embeddings from the words of the text, so the figures are
// the product's own work, not a model's; `dimensions` long, as text-embedding-3-small's). Ingest: a PDF of `pages` pages of about 2,000 characters
// (pdfkit) uploaded through POST /knowledge/documents, timed until it is ready (read in the worker
// thread, split, embedded in batches, stored), with its passages counted. Retrieval: text documents
// uploaded until the company holds `chunks` passages, then `searches` questions of three to six words
// through GET /knowledge/search (full text in two languages, cosine similarity over every passage in
// SQL, fused), p50 / p95 / p99 of the answer time.

const options = args();
const pages = options.int('pages', 200);
const targetChunks = options.int('chunks', 10_000);
const searches = options.int('searches', 200);
// The embeddings' length: text-embedding-3-small's by default.
const dimensions = options.int('dimensions', 1536);
const pglite = pgliteOption(options, path.join(tmpdir(), 'atendi-bench-pglite-knowledge'));
const databaseUrl =
  process.env.BENCH_KNOWLEDGE_DATABASE_URL ??
  withDatabase(requestsDatabaseUrl, 'atendi_bench_knowledge');

const random = prng(40);
// A vocabulary as documents have one: the support chat's words, frequent, and 20,000 made-up words of
// two to four syllables drawn with a Zipf-like skew (a few common, most rare), so that a question's
// words are in some passages, not in all of them.
const chatWords = [
  ...new Set(
    spanish.flatMap((fragment) =>
      fragment
        .toLowerCase()
        .replace(/[¿?¡!,.;:]/g, '')
        .split(/\s+/)
        .filter((w) => w.length > 2),
    ),
  ),
];
const syllables = 'ca pe ri mo ta lu ne so di ga ve ro mi fa to be la si nu po ci da me re'.split(
  ' ',
);
const madeUp = [
  ...new Set(
    Array.from({ length: 30_000 }, () =>
      Array.from(
        { length: 2 + Math.floor(random() * 3) },
        () => syllables[Math.floor(random() * syllables.length)],
      ).join(''),
    ),
  ),
].slice(0, 20_000);
const word = () =>
  random() < 0.3
    ? chatWords[Math.floor(random() * chatWords.length)]
    : madeUp[Math.floor(madeUp.length * random() ** 3)];
const sentence = () => {
  const words = Array.from({ length: 8 + Math.floor(random() * 10) }, word);
  words[0] = words[0][0].toUpperCase() + words[0].slice(1);
  return `${words.join(' ')}.`;
};
// About `chars` characters of sentences, in paragraphs of four or five.
const prose = (chars: number) => {
  const paragraphs: string[] = [];
  let length = 0;
  while (length < chars) {
    const paragraph = Array.from({ length: 4 + Math.floor(random() * 2) }, sentence).join(' ');
    paragraphs.push(paragraph);
    length += paragraph.length + 2;
  }
  return paragraphs.join('\n\n');
};

type Doc = { id: number; status: string; chunks: number; error: string | null };

const upload = async (url: string, token: string, name: string, data: Buffer, type: string) => {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(data)], { type }), name);
  const res = await fetch(`${url}/knowledge/documents`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  if (res.status !== 201) throw new Error(`upload ${name}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Doc;
};

const ready = (url: string, token: string, id: number) =>
  eventually(
    () => api<Doc>(url, token, 'GET', `/knowledge/documents/${id}`),
    (doc) => doc.status === 'ready' || doc.status === 'failed',
    `document ${id} ready`,
    { timeoutMs: 30 * 60_000, everyMs: 100 },
  ).then((doc) => {
    if (doc.status !== 'ready') throw new Error(`document ${id} failed: ${doc.error}`);
    return doc;
  });

const fake = await startFakeOpenAi({ embeddingDimensions: dimensions });
if (pglite) removePgliteDir(pglite);
else await ensureDatabase(databaseUrl, true);
const server = await startApi(pglite ? { pglite } : databaseUrl, {
  OPENAI_BASE_URL: fake.url,
  OPENAI_API_KEY: OPENAI_KEY,
  OPENAI_MAX_RETRIES: '0',
  // A search or a batch of 64 passages must not time out while the machine is busy.
  OPENAI_TIMEOUT_MS: '120000',
});
try {
  // The platform company (its largest plan) through its super user.
  const { token } = await login(server.url, SUPER_EMAIL);

  // --- Ingest of one large PDF ---
  const pdf = await makePdf(Array.from({ length: pages }, () => prose(2_000)));
  const started = performance.now();
  const uploadedPdf = await upload(server.url, token, 'manual.pdf', pdf, 'application/pdf');
  const uploadMs = performance.now() - started;
  const pdfDoc = await ready(server.url, token, uploadedPdf.id);
  const ingestMs = performance.now() - started;
  console.log(
    `ingest: a ${pages}-page PDF (${(pdf.length / 1024 / 1024).toFixed(1)} MB) → ${pdfDoc.chunks} passages in ${(ingestMs / 1000).toFixed(1)} s (upload answered in ${ms(uploadMs)} ms)`,
  );

  // --- Passages up to the target, in text documents of about 500 passages ---
  let chunks = pdfDoc.chunks;
  const fillStarted = performance.now();
  for (let n = 1; chunks < targetChunks; n += 1) {
    const missing = targetChunks - chunks;
    const text = prose(Math.min(500, missing) * 900);
    const doc = await upload(server.url, token, `texto-${n}.txt`, Buffer.from(text), 'text/plain');
    chunks += (await ready(server.url, token, doc.id)).chunks;
  }
  const fillMs = performance.now() - fillStarted;
  console.log(`filled to ${chunks} passages in ${(fillMs / 1000).toFixed(1)} s`);

  // --- Retrieval ---
  const question = () => Array.from({ length: 3 + Math.floor(random() * 4) }, word).join(' ') + '?';
  for (let i = 0; i < 10; i += 1)
    await api(server.url, token, 'GET', `/knowledge/search?q=${encodeURIComponent(question())}`);
  const times: number[] = [];
  let found = 0;
  for (let i = 0; i < searches; i += 1) {
    const q = encodeURIComponent(question());
    const at = performance.now();
    const result = await api<{ passages: unknown[]; semantic: boolean }>(
      server.url,
      token,
      'GET',
      `/knowledge/search?q=${q}`,
    );
    times.push(performance.now() - at);
    if (!result.semantic) throw new Error('a search was not semantic: the provider failed');
    found += result.passages.length;
  }
  const search = summarize(times);
  console.log(
    `search over ${chunks} passages: p50 ${ms(search.p50)} p95 ${ms(search.p95)} p99 ${ms(search.p99)} max ${ms(search.max)} ms (${searches} questions, ${(found / searches).toFixed(1)} passages each)`,
  );

  const file = await saveResult(`knowledge${pglite ? '-pglite' : ''}`, {
    machine: await machine(pglite ? { pglite: true } : databaseUrl),
    dimensions,
    ingest: {
      pages,
      pdfBytes: pdf.length,
      passages: pdfDoc.chunks,
      seconds: Number((ingestMs / 1000).toFixed(2)),
      uploadMs: Number(uploadMs.toFixed(1)),
    },
    fill: { passages: chunks, seconds: Number((fillMs / 1000).toFixed(1)) },
    search: {
      passages: chunks,
      questions: searches,
      ms: Object.fromEntries(
        Object.entries(search).map(([key, value]) => [key, Number(value.toFixed(2))]),
      ),
    },
  });
  console.log(`saved ${file}`);
} finally {
  await server.stop();
  await fake.close();
}
