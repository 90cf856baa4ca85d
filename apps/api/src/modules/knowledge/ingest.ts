import path from 'node:path';
import { and, asc, eq } from 'drizzle-orm';
import { knowledgeExtensions, type KnowledgeFileKind } from '@atendi/shared';
import type { AppDeps } from '../../deps';
import {
  fileListOptions,
  fileLists,
  knowledgeChunks,
  knowledgeDocuments,
  quickMessages,
} from '../../db/schema';
import { PermanentJobError, type Job, type QueueOptions } from '../../jobs/queue';
import {
  readDocumentText,
  sniffDocumentKind,
  type DocumentPage,
} from '../../platform/document-text';
import { AppError } from '../../platform/errors';
import { assertTokensLeft, clientFor, embedTexts, meterAi, providerFailure } from '../prompts';
import { chunkSections, type Section } from './chunking';
import { emitDocument } from './knowledge.service';
import { stampSource } from './sources';

// A document's ingest (queue `knowledge.ingest`, keyed per document): its text read (uploads in a
// worker thread, sources from their tables), split into passages, embedded in batches through the
// company's (or the platform's) AI provider, and stored in one transaction that first deletes the
// document's passages, so a run repeated after a crash (or a retry) never leaves two sets. Only the
// version the job was queued for may store: a document changed or deleted meanwhile is left to the
// job of its new version. Progress (0–100) is written to the document and told to the screens.

type Deps = Pick<
  AppDeps,
  'db' | 'config' | 'realtime' | 'uploads' | 'secrets' | 'outbound' | 'jobs'
>;
type Payload = { documentId: number; version: number };
type DocumentRow = typeof knowledgeDocuments.$inferSelect;

// Texts per embeddings request (OpenAI takes up to 2,048; smaller batches show progress sooner).
export const EMBEDDING_BATCH = 64;
// Rows per INSERT of passages.
const INSERT_BATCH = 100;
// What one document may yield: about 3,000 passages.
const MAX_TEXT_CHARS = 3_000_000;
// What a Word document may unpack to, and how long one file may take to read.
const MAX_UNPACKED_BYTES = 100 * 1024 * 1024;
const READ_TIMEOUT_MS = 120_000;

// Progress: reading the text is the first 30 %, embedding up to 95 %, storing the rest.
const READ_SHARE = 30;
const EMBED_END = 95;

// The document changed or went while this run worked: its newer job (or nobody) takes over.
class Superseded extends Error {}

const unreadable = (message: string) => new AppError('ERR_KNOWLEDGE_UNREADABLE', message);

const readFile = async (
  deps: Deps,
  companyId: number,
  storedName: string,
  kind: KnowledgeFileKind,
  onProgress?: (done: number, total: number) => void,
): Promise<DocumentPage[]> => {
  const data = await deps.uploads.read(companyId, storedName);
  if (!data) throw unreadable('The document’s file is gone from the file store');
  return readDocumentText(data, kind, {
    maxChars: MAX_TEXT_CHARS,
    maxUnpackedBytes: MAX_UNPACKED_BYTES,
    timeoutMs: READ_TIMEOUT_MS,
    onProgress,
  });
};

// The groups of sections a document is made of; passages never join two groups.
const sectionsOf = async (
  deps: Deps,
  row: DocumentRow,
  onProgress: (fraction: number) => void,
): Promise<Section[][]> => {
  if (row.source === 'upload') {
    if (!row.storedName || !row.kind) throw unreadable('The document has no file');
    return [
      await readFile(deps, row.companyId, row.storedName, row.kind, (done, total) =>
        onProgress(done / total),
      ),
    ];
  }
  if (row.source === 'quick-messages') {
    // The company-wide ones that are on (a personal or queue answer is its owners' only).
    const answers = await deps.db
      .select({ shortcode: quickMessages.shortcode, message: quickMessages.message })
      .from(quickMessages)
      .where(
        and(
          eq(quickMessages.companyId, row.companyId),
          eq(quickMessages.geral, true),
          eq(quickMessages.status, true),
        ),
      )
      .orderBy(asc(quickMessages.shortcode), asc(quickMessages.id));
    return answers
      .filter((answer) => answer.message.trim())
      .map((answer) => [{ page: null, text: `/${answer.shortcode}\n\n${answer.message}` }]);
  }
  // A file list: its name, message and entries, then the text of each document among its files.
  const [list] = await deps.db
    .select()
    .from(fileLists)
    .where(and(eq(fileLists.id, row.fileListId ?? 0), eq(fileLists.companyId, row.companyId)));
  if (!list) throw unreadable('The file list is gone');
  const options = await deps.db
    .select()
    .from(fileListOptions)
    .where(eq(fileListOptions.fileListId, list.id))
    .orderBy(asc(fileListOptions.id));
  const groups: Section[][] = [
    [
      {
        page: null,
        text: [list.name, list.message, options.map((o) => `- ${o.name}`).join('\n')]
          .filter((part) => part.trim())
          .join('\n\n'),
      },
    ],
  ];
  const readable = options.filter((o) => o.path && knowledgeExtensions[path.extname(o.path)]);
  for (const [index, option] of readable.entries()) {
    const kind = knowledgeExtensions[path.extname(option.path)];
    const data = await deps.uploads.read(row.companyId, option.path);
    const content = data && sniffDocumentKind(data);
    // A file whose content is not what its name says is left out, not the whole list.
    if (!data || (kind === 'pdf' || kind === 'docx' ? content !== kind : content !== 'text'))
      continue;
    try {
      const pages = await readDocumentText(data, kind, {
        maxChars: MAX_TEXT_CHARS,
        maxUnpackedBytes: MAX_UNPACKED_BYTES,
        timeoutMs: READ_TIMEOUT_MS,
      });
      groups.push(pages);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
    }
    onProgress((index + 1) / readable.length);
  }
  return groups;
};

const ingest = async (deps: Deps, job: Job<Payload>) => {
  const { documentId, version } = job.payload;
  const current = and(
    eq(knowledgeDocuments.id, documentId),
    eq(knowledgeDocuments.version, version),
  );
  // Progress of this version, written and told when it moved by 5 points (or at the end).
  let shown = -1;
  const progress = async (value: number, force = false) => {
    const rounded = Math.max(0, Math.min(100, Math.round(value)));
    if (!force && rounded - shown < 5) return;
    shown = rounded;
    const still = await deps.db
      .update(knowledgeDocuments)
      .set({ status: 'processing', progress: rounded, error: null })
      .where(current)
      .returning({ id: knowledgeDocuments.id });
    if (!still.length) throw new Superseded();
    await emitDocument(deps, documentId);
  };

  const [row] = await deps.db.select().from(knowledgeDocuments).where(current);
  if (!row) return;
  await progress(0, true);
  if (row.source !== 'upload') await stampSource(deps.db, documentId, version);

  // Progress while reading comes from the worker's callback: written one after another.
  let pending = Promise.resolve();
  const groups = await sectionsOf(deps, row, (fraction) => {
    pending = pending.then(() => progress(fraction * READ_SHARE)).catch(() => undefined);
  });
  await pending;
  const passages = groups.flatMap((group) => chunkSections(group, { join: true }));
  passages.forEach((passage, ordinal) => (passage.ordinal = ordinal));
  if (!passages.length)
    throw unreadable(
      row.source === 'upload'
        ? 'The document has no text to read (a scanned PDF needs text recognition first)'
        : 'There is nothing to read in this source yet',
    );
  await progress(READ_SHARE, true);

  const model = deps.config.openAi.embeddingModel;
  const client = await clientFor(deps, row.companyId);
  const vectors: number[][] = [];
  for (let at = 0; at < passages.length; at += EMBEDDING_BATCH) {
    const batch = passages.slice(at, at + EMBEDDING_BATCH);
    let embedded: number[][];
    await assertTokensLeft(deps, row.companyId);
    try {
      const answer = await embedTexts(
        client,
        model,
        batch.map((p) => p.content),
      );
      embedded = answer.vectors;
      await meterAi(deps, row.companyId, 'embedding', answer.usage);
    } catch (error) {
      throw providerFailure(error);
    }
    vectors.push(...embedded);
    await progress(READ_SHARE + ((EMBED_END - READ_SHARE) * vectors.length) / passages.length);
  }
  const dimensions = vectors[0].length;
  if (vectors.some((v) => v.length !== dimensions))
    throw new AppError(
      'ERR_AI_PROVIDER_REQUEST',
      'The AI provider answered embeddings of different lengths for one document',
    );

  // One transaction: the version is still this one (locked), its old passages go, the new ones come.
  const stored = await deps.db.transaction(async (tx) => {
    const [locked] = await tx.select().from(knowledgeDocuments).where(current).for('update');
    if (!locked) return false;
    await tx.delete(knowledgeChunks).where(eq(knowledgeChunks.documentId, documentId));
    for (let at = 0; at < passages.length; at += INSERT_BATCH)
      await tx.insert(knowledgeChunks).values(
        passages.slice(at, at + INSERT_BATCH).map((passage, i) => ({
          companyId: row.companyId,
          documentId,
          ordinal: passage.ordinal,
          page: passage.page,
          content: passage.content,
          embedding: vectors[at + i],
          embeddingModel: model,
          dimensions,
        })),
      );
    await tx
      .update(knowledgeDocuments)
      .set({
        status: 'ready',
        progress: 100,
        error: null,
        chunks: passages.length,
        embeddingModel: model,
      })
      .where(current);
    return true;
  });
  if (stored) await emitDocument(deps, documentId);
};

// What no retry can change: a document that cannot be read, no provider, a key or model refused.
const PERMANENT = new Set([
  'ERR_KNOWLEDGE_UNREADABLE',
  'ERR_AI_NOT_CONFIGURED',
  'ERR_AI_PROVIDER_AUTH',
  'ERR_AI_PROVIDER_REQUEST',
  'ERR_OUTBOUND_URL_NOT_ALLOWED',
]);

export const ingestWorker = (deps: Deps): QueueOptions<Payload> => ({
  handle: async (job) => {
    try {
      await ingest(deps, job);
    } catch (error) {
      if (error instanceof Superseded) return;
      if (error instanceof AppError && PERMANENT.has(error.code))
        throw new PermanentJobError(error.message, { cause: error });
      throw error;
    }
  },
  maxAttempts: 4,
  // The run renews its claim while it works; a dead node's is taken over after this.
  leaseMs: 5 * 60_000,
  onFailed: async (job, error) => {
    const cause = error instanceof PermanentJobError ? error.cause : error;
    const message =
      cause instanceof Error ? cause.message.slice(0, 500) : 'The document could not be processed';
    const failed = await deps.db
      .update(knowledgeDocuments)
      .set({ status: 'failed', error: message })
      .where(
        and(
          eq(knowledgeDocuments.id, job.payload.documentId),
          eq(knowledgeDocuments.version, job.payload.version),
        ),
      )
      .returning({ id: knowledgeDocuments.id });
    if (failed.length) await emitDocument(deps, job.payload.documentId);
  },
});
