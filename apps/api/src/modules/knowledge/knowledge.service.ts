import path from 'node:path';
import { desc, eq, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import {
  KNOWLEDGE_DOCUMENT_MAX_BYTES,
  KNOWLEDGE_NAME_MAX,
  knowledgeExtensions,
  type KnowledgeDocument,
  type KnowledgeEvent,
  type KnowledgeFileKind,
  type KnowledgeRenameInput,
  type KnowledgeSourceInput,
} from '@atendi/shared';
import type { AppDeps } from '../../deps';
import type { Db } from '../../db/client';
import { fileLists, knowledgeDocuments, users } from '../../db/schema';
import { enqueueJobs } from '../../jobs/queue';
import type { AuthContext } from '../../platform/context';
import { sniffDocumentKind } from '../../platform/document-text';
import { AppError } from '../../platform/errors';
import { cleanFileName, stripNul } from '../../platform/nul';
import { ownedRow } from '../../platform/tenancy';
import { uploaderOf, type StoredFile } from '../../platform/uploads';
import { ingestQueue } from './ingest-queue';

// The knowledge base's documents (issue 40): uploads (PDF, DOCX, TXT, Markdown, their type checked by
// their content), and the company's quick messages and file lists as sources. Every change that needs
// the text read again raises the document's version and queues its ingest (ingest.ts) in the same
// transaction; the screens hear each change on the `knowledge` channel (admins).

type Deps = Pick<AppDeps, 'db' | 'realtime' | 'uploads' | 'jobs'>;
type DocumentRow = typeof knowledgeDocuments.$inferSelect;

const view = (
  row: DocumentRow,
  maker: { id: number | null; name: string | null } | null,
): KnowledgeDocument => ({
  id: row.id,
  name: row.name,
  source: row.source,
  kind: row.kind ?? null,
  fileListId: row.fileListId ?? null,
  size: row.size ?? null,
  status: row.status,
  progress: row.progress,
  error: row.error ?? null,
  chunks: row.chunks,
  embeddingModel: row.embeddingModel ?? null,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
  createdBy: maker?.id && maker.name !== null ? { id: maker.id, name: maker.name } : null,
});

const withMaker = (db: Db) =>
  db
    .select({ row: knowledgeDocuments, maker: { id: users.id, name: users.name } })
    .from(knowledgeDocuments)
    .leftJoin(users, eq(users.id, knowledgeDocuments.createdBy));

// A document as the API shows it (undefined once it is gone).
const documentView = async (db: Db, id: number) => {
  const [found] = await withMaker(db).where(eq(knowledgeDocuments.id, id));
  return found ? view(found.row, found.maker) : undefined;
};

const emitKnowledge = (deps: Pick<Deps, 'realtime'>, companyId: number, event: KnowledgeEvent) =>
  deps.realtime.toCompany(companyId).emit('knowledge', event);

// Tells the company's admins how a document is now.
export const emitDocument = async (deps: Pick<Deps, 'db' | 'realtime'>, id: number) => {
  const [found] = await withMaker(deps.db).where(eq(knowledgeDocuments.id, id));
  if (found)
    emitKnowledge(deps, found.row.companyId, {
      action: 'update',
      document: view(found.row, found.maker),
    });
};

export const listKnowledgeDocuments = async (deps: Deps, ctx: AuthContext) => {
  const rows = await withMaker(deps.db)
    .where(eq(knowledgeDocuments.companyId, ctx.companyId))
    .orderBy(desc(knowledgeDocuments.id))
    .limit(1000);
  return { documents: rows.map(({ row, maker }) => view(row, maker)) };
};

const ownDocument = async (db: Db, ctx: AuthContext, id: number, lock = false) => {
  const query = db
    .select()
    .from(knowledgeDocuments)
    .where(ownedRow(knowledgeDocuments, id, ctx));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw new AppError('ERR_NOT_FOUND', 'No such document');
  return row;
};

export const getKnowledgeDocument = async (deps: Deps, ctx: AuthContext, id: number) => {
  const row = await ownDocument(deps.db, ctx, id);
  return (await documentView(deps.db, row.id))!;
};

// The document's ingest for its current version, queued in the caller's transaction. Jobs of one
// document run one at a time in the order queued (its key); one for an older version does nothing.
const queueIngest = (tx: Db, row: Pick<DocumentRow, 'id' | 'companyId' | 'version'>) =>
  enqueueJobs(tx, ingestQueue, [
    {
      payload: { documentId: row.id, version: row.version },
      key: `knowledge-document:${row.id}`,
      companyId: row.companyId,
    },
  ]);

// After a commit that queued an ingest: the screens are told, then the job is started (so they
// hear "queued" before its progress).
const afterChange = async (deps: Deps, ctx: AuthContext, id: number) => {
  const document = (await documentView(deps.db, id))!;
  emitKnowledge(deps, ctx.companyId, { action: 'update', document });
  deps.jobs.kick(ingestQueue.name);
  return document;
};

// --- Uploads ---

type Upload = { data: Buffer; fileName: string; mimetype: string; kind: KnowledgeFileKind };

const typeRefused = (message: string) =>
  new AppError('ERR_UPLOAD_TYPE_NOT_ALLOWED', message, { fields: { file: [message] } });

// The document's kind: its extension must be one the knowledge base takes, and its content must be
// what the extension says (a PDF's header, a Word document's zip, text).
const kindOf = (data: Buffer, fileName: string): KnowledgeFileKind => {
  const extension = path.extname(fileName).toLowerCase();
  const kind = knowledgeExtensions[extension];
  if (!kind)
    throw typeRefused(`Allowed: ${Object.keys(knowledgeExtensions).join(', ')} (PDF, Word, text)`);
  const content = sniffDocumentKind(data);
  const matches = kind === 'pdf' || kind === 'docx' ? content === kind : content === 'text';
  if (!matches)
    throw typeRefused(
      `The file’s content is not ${kind === 'pdf' ? 'a PDF' : kind === 'docx' ? 'a Word (.docx) document' : 'text'}`,
    );
  return kind;
};

// The request's one document (and its optional `name` field), read whole (at most
// KNOWLEDGE_DOCUMENT_MAX_BYTES) and checked before anything is stored.
const readUpload = async (request: FastifyRequest) => {
  if (!request.isMultipart())
    throw new AppError('ERR_UPLOAD_MISSING_FILE', 'Send the document as multipart/form-data');
  let file: Omit<Upload, 'kind'> | undefined;
  let name: string | undefined;
  try {
    const parts = request.parts({
      limits: { files: 1, fileSize: KNOWLEDGE_DOCUMENT_MAX_BYTES, fields: 5, fieldSize: 4096 },
    });
    for await (const part of parts) {
      if (part.type === 'field') {
        if (part.fieldname === 'name' && typeof part.value === 'string')
          name = stripNul(part.value).trim().slice(0, KNOWLEDGE_NAME_MAX);
        continue;
      }
      const data = await part.toBuffer();
      file = {
        data,
        fileName: path.basename(cleanFileName(part.filename) || 'document').slice(0, 200),
        mimetype: part.mimetype,
      };
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    const code = (error as { code?: unknown } | null)?.code;
    if (code === 'FST_REQ_FILE_TOO_LARGE')
      throw new AppError(
        'ERR_UPLOAD_TOO_LARGE',
        `The document is larger than ${KNOWLEDGE_DOCUMENT_MAX_BYTES / 1024 / 1024} MB`,
      );
    const message =
      code === 'FST_FILES_LIMIT'
        ? 'Send one document at a time'
        : `The form could not be read: ${error instanceof Error ? error.message : String(error)}`;
    throw new AppError('ERR_VALIDATION', message, { fields: { file: [message] } });
  }
  if (!file) throw new AppError('ERR_UPLOAD_MISSING_FILE', 'No document in the request');
  if (!file.data.length) throw typeRefused('The file is empty');
  return { upload: { ...file, kind: kindOf(file.data, file.fileName) }, name };
};

// The file into the company's folder (counted against its storage and the uploader's rate).
const storeUpload = async (deps: Deps, request: FastifyRequest, ctx: AuthContext) => {
  // Before a byte is read: a form larger than any accepted request is refused by its length.
  const intake = deps.uploads.intake(request, uploaderOf(request, ctx.companyId));
  const { upload, name } = await readUpload(request);
  const stored = await intake.keep(upload.data, {
    fileName: upload.fileName,
    mimetype: upload.mimetype,
  });
  return { upload, stored, name };
};

// Runs `write` with the stored file; a failure removes the file, so nothing is left half-written.
const keepingFile = async <T>(
  deps: Deps,
  ctx: AuthContext,
  stored: StoredFile,
  write: () => Promise<T>,
) => {
  try {
    return await write();
  } catch (error) {
    await deps.uploads.remove(ctx.companyId, stored.storedName).catch(() => undefined);
    throw error;
  }
};

const nameFrom = (fileName: string) =>
  path.basename(fileName, path.extname(fileName)).trim().slice(0, KNOWLEDGE_NAME_MAX) || fileName;

export const uploadKnowledgeDocument = async (
  deps: Deps,
  ctx: AuthContext,
  request: FastifyRequest,
) => {
  const { upload, stored, name } = await storeUpload(deps, request, ctx);
  const id = await keepingFile(deps, ctx, stored, () =>
    deps.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(knowledgeDocuments)
        .values({
          companyId: ctx.companyId,
          name: name || nameFrom(upload.fileName),
          source: 'upload',
          kind: upload.kind,
          storedName: stored.storedName,
          size: stored.size,
          createdBy: ctx.userId,
        })
        .returning();
      await queueIngest(tx, row);
      return row.id;
    }),
  );
  return afterChange(deps, ctx, id);
};

// A new file for an uploaded document: its passages are made again from it (the old ones answer
// until the new ones are stored), and the old file goes.
export const replaceKnowledgeDocument = async (
  deps: Deps,
  ctx: AuthContext,
  id: number,
  request: FastifyRequest,
) => {
  const existing = await ownDocument(deps.db, ctx, id);
  if (existing.source !== 'upload')
    throw new AppError('ERR_VALIDATION', 'Only an uploaded document has a file to replace', {
      fields: { file: ['This document is read from the company’s own records'] },
    });
  const { upload, stored } = await storeUpload(deps, request, ctx);
  const previous = await keepingFile(deps, ctx, stored, () =>
    deps.db.transaction(async (tx) => {
      const row = await ownDocument(tx, ctx, id, true);
      const [changed] = await tx
        .update(knowledgeDocuments)
        .set({
          kind: upload.kind,
          storedName: stored.storedName,
          size: stored.size,
          version: sql`${knowledgeDocuments.version} + 1`,
          status: 'queued',
          progress: 0,
          error: null,
        })
        .where(eq(knowledgeDocuments.id, row.id))
        .returning();
      await queueIngest(tx, changed);
      return row.storedName;
    }),
  );
  if (previous) await deps.uploads.remove(ctx.companyId, previous).catch(() => undefined);
  return afterChange(deps, ctx, id);
};

// The company's quick messages, or one of its file lists, as a document.
export const addKnowledgeSource = async (
  deps: Deps,
  ctx: AuthContext,
  input: KnowledgeSourceInput,
) => {
  const id = await deps.db.transaction(async (tx) => {
    let name = 'Respuestas rápidas';
    let fileListId: number | null = null;
    if (input.type === 'file-list') {
      const [list] = await tx
        .select({ id: fileLists.id, name: fileLists.name })
        .from(fileLists)
        .where(ownedRow(fileLists, input.fileListId, ctx));
      if (!list)
        throw new AppError('ERR_VALIDATION', 'No such file list', {
          fields: { fileListId: ['ERR_NOT_FOUND'] },
        });
      name = list.name.slice(0, KNOWLEDGE_NAME_MAX);
      fileListId = list.id;
    }
    const [row] = await tx
      .insert(knowledgeDocuments)
      .values({
        companyId: ctx.companyId,
        name,
        source: input.type,
        fileListId,
        createdBy: ctx.userId,
      })
      .onConflictDoNothing()
      .returning();
    if (!row)
      throw new AppError(
        'ERR_KNOWLEDGE_SOURCE_EXISTS',
        input.type === 'file-list'
          ? 'This file list is in the knowledge base already'
          : 'The quick messages are in the knowledge base already',
      );
    await queueIngest(tx, row);
    return row.id;
  });
  return afterChange(deps, ctx, id);
};

export const renameKnowledgeDocument = async (
  deps: Deps,
  ctx: AuthContext,
  id: number,
  input: KnowledgeRenameInput,
) => {
  const row = await ownDocument(deps.db, ctx, id);
  if (row.name !== input.name) {
    await deps.db
      .update(knowledgeDocuments)
      .set({ name: input.name })
      .where(eq(knowledgeDocuments.id, row.id));
    await emitDocument(deps, row.id);
  }
  return (await documentView(deps.db, row.id))!;
};

// Read and embed again: a source's current content, or passages of another embedding model.
export const refreshKnowledgeDocument = async (deps: Deps, ctx: AuthContext, id: number) => {
  await deps.db.transaction(async (tx) => {
    const row = await ownDocument(tx, ctx, id, true);
    const [changed] = await tx
      .update(knowledgeDocuments)
      .set({
        version: sql`${knowledgeDocuments.version} + 1`,
        status: 'queued',
        progress: 0,
        error: null,
      })
      .where(eq(knowledgeDocuments.id, row.id))
      .returning();
    await queueIngest(tx, changed);
  });
  return afterChange(deps, ctx, id);
};

// The document goes with its passages (cascade) and its file; an ingest under way finds it gone.
export const deleteKnowledgeDocument = async (deps: Deps, ctx: AuthContext, id: number) => {
  const [gone] = await deps.db
    .delete(knowledgeDocuments)
    .where(ownedRow(knowledgeDocuments, id, ctx))
    .returning();
  if (!gone) throw new AppError('ERR_NOT_FOUND', 'No such document');
  if (gone.storedName)
    await deps.uploads.remove(ctx.companyId, gone.storedName).catch(() => undefined);
  emitKnowledge(deps, ctx.companyId, { action: 'delete', id: gone.id });
};
