import path from 'node:path';
import { and, asc, eq, gt, isNull } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  CONTACT_LIST_UPLOAD_MAX_BYTES,
  CONTACT_LIST_UPLOAD_MAX_ROWS,
  CONTACT_LIST_UPLOAD_MAX_UNZIPPED_BYTES,
  contactListItemSchema,
  CsvTooLong,
  decodeCsvBytes,
  parseCsv,
  sheetFieldOf,
  type ContactListUploadError,
  type ContactListUploadResult,
  type SheetField,
} from '@atendi/shared';
import type { AppDeps } from '../../deps';
import { contactListItems } from '../../db/schema';
import { enqueueJobs, jobQueue, type QueueOptions } from '../../jobs/queue';
import type { AuthContext } from '../../platform/context';
import { AppError } from '../../platform/errors';
import type { SheetCell } from '../../platform/spreadsheet';
import { typedNumberReader, type TypedNumber } from '../settings';
import {
  announceList,
  emitItem,
  loadList,
  serializeItem,
  checkingConnection,
  validityVia,
} from './contact-lists.service';

// POST /contact-lists/{id}/upload: a spreadsheet of numbers into a list. Each row is judged on its
// own (a bad one is listed, never stops the others); the good ones go in with one statement, a
// number already in the list listed as a duplicate. Whether WhatsApp has each new number is asked
// afterwards by a job (`contact-list.check`), a batch at a time, so a long sheet answers at once.

type Deps = Pick<AppDeps, 'db' | 'realtime' | 'channels' | 'jobs' | 'spreadsheets'>;
type Cell = SheetCell | undefined;

export const CHECK_QUEUE = 'contact-list.check';
// A list's numbers after item `afterId` (one batch; the job queues the next).
export const checkQueue = jobQueue(
  CHECK_QUEUE,
  z.object({
    companyId: z.number().int(),
    contactListId: z.number().int(),
    afterId: z.number().int(),
  }),
);
type CheckJob = z.infer<typeof checkQueue.payload>;
const CHECK_BATCH = 100;

const cellText = (cell: Cell) =>
  cell === null || cell === undefined || typeof cell === 'boolean'
    ? ''
    : cell instanceof Date
      ? cell.toISOString().slice(0, 10)
      : String(cell).trim();

const readFile = async (request: FastifyRequest) => {
  if (!request.isMultipart())
    throw new AppError('ERR_UPLOAD_MISSING_FILE', 'Send the spreadsheet as multipart/form-data');
  const part = await request.file({
    limits: { fileSize: CONTACT_LIST_UPLOAD_MAX_BYTES, files: 1 },
  });
  if (!part) throw new AppError('ERR_UPLOAD_MISSING_FILE', 'No file in the request');
  const extension = path.extname(part.filename ?? '').toLowerCase();
  if (extension !== '.xlsx' && extension !== '.csv') {
    part.file.resume();
    throw new AppError(
      'ERR_UPLOAD_TYPE_NOT_ALLOWED',
      extension === '.xls'
        ? 'The old .xls format is not read: save the sheet as .xlsx (Excel, LibreOffice or Google Sheets) and upload it again'
        : 'Upload an Excel spreadsheet (.xlsx) or a CSV file (.csv)',
    );
  }
  try {
    return {
      kind: extension === '.csv' ? ('csv' as const) : ('xlsx' as const),
      data: await part.toBuffer(),
    };
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
      throw new AppError(
        'ERR_UPLOAD_TOO_LARGE',
        `A spreadsheet may have at most ${CONTACT_LIST_UPLOAD_MAX_BYTES / 1024 / 1024} MB`,
      );
    throw new AppError('ERR_VALIDATION', 'The file could not be read');
  }
};

// Issue 38: a CSV as Google Contacts or a CRM exports it (platform-independent reading in shared).
const csvRows = (data: Buffer) => {
  try {
    return parseCsv(decodeCsvBytes(data), CONTACT_LIST_UPLOAD_MAX_ROWS);
  } catch (error) {
    if (error instanceof CsvTooLong)
      throw new AppError(
        'ERR_SPREADSHEET_TOO_LARGE',
        `A list may have at most ${CONTACT_LIST_UPLOAD_MAX_ROWS} rows`,
      );
    throw error;
  }
};

type Accepted = { row: number; name: string; number: string; email: string };

const judgeRows = (rows: Cell[][], numberOf: (typed: string) => TypedNumber) => {
  const [header = [], ...data] = rows;
  const columns = new Map<SheetField, number>();
  header.forEach((cell, index) => {
    const field = sheetFieldOf(cellText(cell));
    if (field && !columns.has(field)) columns.set(field, index);
  });
  if (!columns.has('number'))
    throw new AppError(
      'ERR_VALIDATION',
      'The first row must name the columns: name, number and email (nombre, número, correo)',
      { fields: { file: ['No number column'] } },
    );
  const errors: ContactListUploadError[] = [];
  const accepted = new Map<string, Accepted>();
  data.forEach((cells, index) => {
    const row = index + 2;
    const value = (field: SheetField) => {
      const column = columns.get(field);
      return column === undefined ? '' : cellText(cells[column]);
    };
    const typed = { name: value('name'), number: value('number'), email: value('email') };
    if (!typed.name && !typed.number && !typed.email) return;
    const refuse = (message: string, field?: SheetField) =>
      errors.push({
        row,
        name: typed.name,
        number: typed.number,
        error: 'ERR_VALIDATION',
        message,
        field,
      });
    // A row without a name is named after its number, as a contact who writes in is.
    const parsed = contactListItemSchema.safeParse({
      ...typed,
      name: typed.name || typed.number,
      contactListId: 1,
    });
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      refuse(issue.message, issue.path[0] as SheetField);
      return;
    }
    const read = numberOf(parsed.data.number);
    if (!read.ok) {
      errors.push({
        ...typed,
        row,
        error: 'ERR_INVALID_NUMBER',
        message: read.message,
        field: 'number',
      });
      return;
    }
    const { number } = read;
    if (accepted.has(number)) {
      errors.push({
        row,
        name: parsed.data.name,
        number,
        error: 'ERR_DUPLICATED_LIST_ITEM',
        message: `The same number is on row ${accepted.get(number)!.row}`,
      });
      return;
    }
    accepted.set(number, { row, name: parsed.data.name, number, email: parsed.data.email });
  });
  return { errors, accepted };
};

export const uploadContactList = async (
  deps: Deps,
  ctx: AuthContext,
  contactListId: number,
  request: FastifyRequest,
): Promise<ContactListUploadResult> => {
  await loadList(deps.db, ctx, contactListId);
  const file = await readFile(request);
  // A spreadsheet is read off the event loop, within limits (platform/spreadsheet.ts); a CSV (at most
  // CONTACT_LIST_UPLOAD_MAX_BYTES of text) here, its rows capped the same.
  const rows =
    file.kind === 'csv'
      ? csvRows(file.data)
      : await deps.spreadsheets.readFirstSheet(file.data, {
          maxBytes: CONTACT_LIST_UPLOAD_MAX_UNZIPPED_BYTES,
          maxRows: CONTACT_LIST_UPLOAD_MAX_ROWS,
        });
  const { errors, accepted } = judgeRows(rows, await typedNumberReader(deps.db, ctx.companyId));
  const candidates = [...accepted.values()];
  const inserted = candidates.length
    ? await deps.db.transaction(async (tx) => {
        const rows = await tx
          .insert(contactListItems)
          .values(
            candidates.map(({ name, number, email }) => ({
              companyId: ctx.companyId,
              contactListId,
              name,
              number,
              email,
              isWhatsappValid: null,
            })),
          )
          .onConflictDoNothing({
            target: [contactListItems.contactListId, contactListItems.number],
          })
          .returning();
        // The check goes with the rows: never a list whose numbers nobody will look up.
        if (rows.length)
          await enqueueJobs(tx, checkQueue, [
            {
              payload: { companyId: ctx.companyId, contactListId, afterId: 0 },
              companyId: ctx.companyId,
              key: `contact-list:${contactListId}`,
            },
          ]);
        return rows;
      })
    : [];
  const stored = new Set(inserted.map((row) => row.number));
  for (const candidate of candidates)
    if (!stored.has(candidate.number))
      errors.push({
        row: candidate.row,
        name: candidate.name,
        number: candidate.number,
        error: 'ERR_DUPLICATED_LIST_ITEM',
        message: 'This number is already in the list',
      });
  errors.sort((a, b) => a.row - b.row);
  if (inserted.length) deps.jobs.kick(CHECK_QUEUE);
  const list = await announceList(deps, ctx, contactListId);
  return { created: inserted.length, errors, contactsCount: list?.contactsCount ?? 0 };
};

// One batch of a list's unchecked numbers, asked through the company's default connection; the next
// batch is queued behind it. When nobody can tell (no connected default), the numbers stay unknown.
const checkListNumbers = async (deps: Deps, job: CheckJob, log: FastifyBaseLogger) => {
  const ctx = { companyId: job.companyId };
  const connectionId = await checkingConnection(deps, ctx);
  // Nobody can tell now; the numbers stay unknown (a later upload or edit asks again).
  if (connectionId === null) return;
  const batch = await deps.db
    .select()
    .from(contactListItems)
    .where(
      and(
        eq(contactListItems.companyId, job.companyId),
        eq(contactListItems.contactListId, job.contactListId),
        isNull(contactListItems.isWhatsappValid),
        gt(contactListItems.id, job.afterId),
      ),
    )
    .orderBy(asc(contactListItems.id))
    .limit(CHECK_BATCH);
  for (const item of batch) {
    const valid = await validityVia(deps, connectionId, item.number);
    if (valid === null) continue;
    const [row] = await deps.db
      .update(contactListItems)
      .set({ isWhatsappValid: valid, updatedAt: new Date() })
      .where(and(eq(contactListItems.id, item.id), isNull(contactListItems.isWhatsappValid)))
      .returning();
    if (row) emitItem(deps, ctx, { action: 'update', record: serializeItem(row) });
  }
  if (batch.length === CHECK_BATCH) {
    await enqueueJobs(deps.db, checkQueue, [
      {
        payload: { ...job, afterId: batch[batch.length - 1]!.id },
        companyId: job.companyId,
        key: `contact-list:${job.contactListId}`,
      },
    ]);
    deps.jobs.kick(CHECK_QUEUE);
  }
  log.debug({ contactListId: job.contactListId, checked: batch.length }, 'list numbers checked');
};

// How the check queue runs (background.ts).
export const checkWorker = (deps: Deps, log: FastifyBaseLogger): QueueOptions<CheckJob> => ({
  handle: (job) => checkListNumbers(deps, job.payload, log),
  keepDoneMs: 24 * 60 * 60 * 1000,
});
