import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { stat, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough, Readable, type Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { and, asc, count, desc, eq, gt, gte, lt, lte } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import { ZipFile } from 'yazl';
import { z } from 'zod';
import type { ConversationExportCreateInput } from '@atendi/shared';
import type { AppDeps } from '../../../deps';
import { conversationExports, tickets, users } from '../../../db/schema';
import { enqueueJobs, jobQueue, type Job, type QueueOptions } from '../../../jobs/queue';
import { auditAs } from '../../../platform/audit';
import type { AuthContext } from '../../../platform/context';
import { csvLine } from '../../../platform/csv';
import { AppError } from '../../../platform/errors';
import { companyTimeZone } from '../../../platform/time-zones';
import { zonedDayStart } from '../../../platform/sql-time';
import { buildTranscript } from './transcript';

// A company's conversations taken out (issue 38): every ticket that began between two calendar days
// of the company's zone, built by a background job (queue `conversation.export`) into a file of the
// file store, kept EXPORT_KEEP_HOURS, then deleted (`conversation-export-prune`). JSON Lines: one
// transcript a line (as GET /tickets/{id}/transcript.json). CSV: one message a row, in the API's one
// dialect. With files: a ZIP of that file and media/, the transcript naming each file's place in it.
// Asking is for admins; each download is in the audit log.

type Deps = Pick<AppDeps, 'db' | 'config' | 'uploads' | 'files' | 'jobs'>;
type ExportRow = typeof conversationExports.$inferSelect;

export const conversationExportQueue = jobQueue(
  'conversation.export',
  z.object({ exportId: z.number().int().positive() }),
);

const BATCH = 100;
const BOM = '\ufeff';

const CSV_HEADER = [
  'ticketId',
  'ticketUuid',
  'ticketStatus',
  'ticketCreatedAt',
  'contactName',
  'contactNumber',
  'connection',
  'queue',
  'agent',
  'messageId',
  'at',
  'localTime',
  'from',
  'author',
  'body',
  'mediaType',
  'media',
  'transcript',
];

const view = (row: ExportRow, maker: { id: number; name: string } | null) => ({
  id: row.id,
  status: row.status,
  format: row.format,
  includeMedia: row.includeMedia,
  dateFrom: row.dateFrom,
  dateTo: row.dateTo,
  total: row.total,
  done: row.done,
  size: row.size,
  error: row.error,
  createdAt: row.createdAt,
  finishedAt: row.finishedAt,
  expiresAt: row.expiresAt,
  createdBy: maker,
});

const withMaker = (db: Deps['db']) =>
  db
    .select({ row: conversationExports, maker: { id: users.id, name: users.name } })
    .from(conversationExports)
    .leftJoin(users, eq(users.id, conversationExports.createdBy));

export const listConversationExports = async (deps: Deps, ctx: AuthContext) => {
  const rows = await withMaker(deps.db)
    .where(eq(conversationExports.companyId, ctx.companyId))
    .orderBy(desc(conversationExports.id))
    .limit(50);
  return { exports: rows.map(({ row, maker }) => view(row, maker)) };
};

const ownExport = async (deps: Deps, ctx: AuthContext, id: number) => {
  const [found] = await withMaker(deps.db).where(
    and(eq(conversationExports.id, id), eq(conversationExports.companyId, ctx.companyId)),
  );
  if (!found) throw new AppError('ERR_NOT_FOUND', 'No such export');
  return found;
};

export const getConversationExport = async (deps: Deps, ctx: AuthContext, id: number) => {
  const { row, maker } = await ownExport(deps, ctx, id);
  return view(row, maker);
};

export const createConversationExport = async (
  deps: Deps,
  ctx: AuthContext,
  input: ConversationExportCreateInput,
) => {
  const row = await deps.db.transaction(async (tx) => {
    const [created] = await tx
      .insert(conversationExports)
      .values({
        companyId: ctx.companyId,
        createdBy: ctx.userId,
        format: input.format,
        includeMedia: input.includeMedia ?? false,
        dateFrom: input.dateFrom,
        dateTo: input.dateTo,
      })
      .returning();
    await enqueueJobs(tx, conversationExportQueue, [
      {
        payload: { exportId: created.id },
        ref: `conversation-export:${created.id}`,
        companyId: ctx.companyId,
      },
    ]);
    return created;
  });
  deps.jobs.kick(conversationExportQueue.name);
  return getConversationExport(deps, ctx, row.id);
};

const fileName = (row: ExportRow) =>
  `conversaciones-${row.dateFrom}-${row.dateTo}.${row.includeMedia ? 'zip' : row.format}`;

const contentType = (row: ExportRow) =>
  row.includeMedia
    ? 'application/zip'
    : row.format === 'csv'
      ? 'text/csv; charset=utf-8'
      : 'application/x-ndjson; charset=utf-8';

// The built file, streamed from the file store; recorded in the audit log.
export const downloadConversationExport = async (
  deps: Deps,
  ctx: AuthContext,
  id: number,
  reply: FastifyReply,
) => {
  const { row } = await ownExport(deps, ctx, id);
  if (row.status !== 'done' || !row.fileKey)
    throw new AppError('ERR_EXPORT_NOT_READY', 'This export is not ready to download');
  const body = await deps.files.open(row.fileKey);
  if (!body) throw new AppError('ERR_NOT_FOUND', 'The export’s file is gone');
  await auditAs(deps.db, ctx, {
    action: 'export.conversations',
    target: `conversation-export:${row.id}`,
    detail: {
      dateFrom: row.dateFrom,
      dateTo: row.dateTo,
      format: row.format,
      includeMedia: row.includeMedia,
      conversations: row.total,
    },
  });
  return reply
    .type(contentType(row))
    .header('Content-Disposition', `attachment; filename="${fileName(row)}"`)
    .header('Content-Length', String(row.size ?? ''))
    .send(body);
};

// Deleted with its file; a build under way notices at its next batch and stops.
export const deleteConversationExport = async (deps: Deps, ctx: AuthContext, id: number) => {
  const { row } = await ownExport(deps, ctx, id);
  await deps.db.delete(conversationExports).where(eq(conversationExports.id, row.id));
  if (row.fileKey) await deps.files.delete(row.fileKey);
};

// --- The build ---

// Writes to a stream, waiting when it is full.
const writeTo = async (out: Writable, text: string) => {
  if (!out.write(text)) await new Promise<void>((resolve) => out.once('drain', resolve));
};

const localTime = (zone: string) => {
  const format = new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
  return (at: Date) => format.format(at).replace(', ', ' ');
};

class ExportGone extends Error {}

const buildExport = async (deps: Deps, row: ExportRow) => {
  const zone = await companyTimeZone(deps, row.companyId);
  const dayStart = (day: string, after = 0) => zonedDayStart(day, zone, after);
  const inRange = and(
    eq(tickets.companyId, row.companyId),
    gte(tickets.createdAt, dayStart(row.dateFrom)),
    lt(tickets.createdAt, dayStart(row.dateTo, 1)),
  );
  const [{ total }] = await deps.db.select({ total: count() }).from(tickets).where(inRange);
  const started = await deps.db
    .update(conversationExports)
    .set({ status: 'running', total, done: 0, error: null })
    .where(eq(conversationExports.id, row.id))
    .returning({ id: conversationExports.id });
  if (!started.length) return;

  const tmp = path.join(tmpdir(), `atendi-export-${row.id}-${randomBytes(6).toString('hex')}`);
  const file = createWriteStream(tmp);
  const zip = row.includeMedia ? new ZipFile() : null;
  const main = zip ? new PassThrough() : file;
  if (zip) {
    zip.outputStream.pipe(file);
    zip.addReadStream(main as PassThrough, `conversaciones.${row.format}`);
  }
  // The files the conversations name, in the ZIP's media/ folder.
  const media = new Set<string>();
  const local = localTime(zone);
  try {
    if (row.format === 'csv') await writeTo(main, BOM + csvLine(CSV_HEADER));
    let after = 0;
    let done = 0;
    for (;;) {
      const batch = await deps.db
        .select()
        .from(tickets)
        .where(and(inRange, gt(tickets.id, after)))
        .orderBy(asc(tickets.id))
        .limit(BATCH);
      if (!batch.length) break;
      for (const ticket of batch) {
        const transcript = await buildTranscript(deps, ticket, {
          timeZone: zone,
          ...(zip
            ? {
                mediaOf: (message) => {
                  if (!message.mediaUrl) return null;
                  media.add(message.mediaUrl);
                  return { url: `media/${message.mediaUrl}`, name: message.mediaName };
                },
              }
            : {}),
        });
        if (row.format === 'jsonl') await writeTo(main, `${JSON.stringify(transcript)}\n`);
        else
          for (const message of transcript.messages)
            await writeTo(
              main,
              csvLine([
                transcript.ticket.id,
                transcript.ticket.uuid,
                transcript.ticket.status,
                new Date(transcript.ticket.createdAt).toISOString(),
                transcript.ticket.contact.name,
                transcript.ticket.contact.number,
                transcript.ticket.connection.name,
                transcript.ticket.queue?.name ?? '',
                transcript.ticket.user?.name ?? '',
                message.id,
                new Date(message.at).toISOString(),
                local(new Date(message.at)),
                message.from,
                message.author,
                message.body,
                message.mediaType,
                message.media?.url ?? '',
                message.transcript ?? '',
              ]),
            );
      }
      after = batch.at(-1)!.id;
      done += batch.length;
      const still = await deps.db
        .update(conversationExports)
        .set({ done })
        .where(eq(conversationExports.id, row.id))
        .returning({ id: conversationExports.id });
      if (!still.length) throw new ExportGone();
    }
    main.end();
    if (zip) {
      for (const storedName of media)
        zip.addReadStreamLazy(`media/${storedName}`, (callback) => {
          deps.uploads
            .read(row.companyId, storedName)
            .then((body) => callback(null, Readable.from(body ? [body] : [])))
            .catch((error: unknown) => callback(error, Readable.from([])));
        });
      zip.end();
    }
    await finished(file);
    const size = (await stat(tmp)).size;
    const key = `exports/${row.companyId}/${row.id}-${randomBytes(8).toString('hex')}.${
      zip ? 'zip' : row.format
    }`;
    await deps.files.put(key, createReadStream(tmp));
    const now = new Date();
    const [kept] = await deps.db
      .update(conversationExports)
      .set({
        status: 'done',
        size,
        fileKey: key,
        finishedAt: now,
        expiresAt: new Date(now.getTime() + deps.config.exportKeepHours * 3600_000),
      })
      .where(eq(conversationExports.id, row.id))
      .returning({ id: conversationExports.id });
    // Deleted while it was being uploaded.
    if (!kept) await deps.files.delete(key);
  } catch (error) {
    file.destroy();
    if (!(error instanceof ExportGone)) throw error;
  } finally {
    await unlink(tmp).catch(() => undefined);
  }
};

export const conversationExportWorker = (deps: Deps): QueueOptions<{ exportId: number }> => ({
  handle: async (job: Job<{ exportId: number }>) => {
    const [row] = await deps.db
      .select()
      .from(conversationExports)
      .where(eq(conversationExports.id, job.payload.exportId));
    if (!row || row.status === 'done' || row.status === 'failed') return;
    await buildExport(deps, row);
  },
  maxAttempts: 3,
  // The build renews its claim while it runs; a dead node's is taken over after this.
  leaseMs: 5 * 60_000,
  onFailed: async (job, error) => {
    await deps.db
      .update(conversationExports)
      .set({
        status: 'failed',
        finishedAt: new Date(),
        error: error instanceof Error ? error.message.slice(0, 500) : 'The export failed',
      })
      .where(eq(conversationExports.id, job.payload.exportId));
  },
});

// Exports past their time go, with their files (hourly).
export const CONVERSATION_EXPORT_PRUNE_JOB = 'conversation-export-prune';
export const pruneConversationExports = async (deps: Deps, now: Date) => {
  const expired = await deps.db
    .delete(conversationExports)
    .where(lte(conversationExports.expiresAt, now))
    .returning({ fileKey: conversationExports.fileKey });
  for (const { fileKey } of expired) if (fileKey) await deps.files.delete(fileKey);
};
