import { afterAll, describe, expect, it } from 'vitest';
import writeXlsxFile from 'write-excel-file/node';
import { readSheet } from 'read-excel-file/node';
import { createSpreadsheetReader, type SheetLimits } from './spreadsheet';
import { AppError } from './errors';
import { sheetWithFarCells, sheetWithRows, spreadsheetBomb } from '../../test/spreadsheets';

// Spreadsheets are read in worker threads with limits: what they unpack to, their rows,
// their memory and time, and how many are read at once.

const limits: SheetLimits = { maxBytes: 32 * 1024 * 1024, maxRows: 20000 };
const readers: ReturnType<typeof createSpreadsheetReader>[] = [];
const readerOf = (options: Partial<Parameters<typeof createSpreadsheetReader>[0]> = {}) => {
  const reader = createSpreadsheetReader({ timeoutMs: 10_000, workers: 2, ...options });
  readers.push(reader);
  return reader;
};
afterAll(async () => {
  for (const reader of readers) await reader.close();
});

// The AppError a read was refused with, as the API would answer it.
const refusal = async (read: Promise<unknown>) => {
  const error = await read.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  const { code, status, message, fields, headers } = error as AppError;
  return { code, status, message, fields, headers };
};

describe('spreadsheet reader', () => {
  it('reads the first sheet as read-excel-file does: text, numbers, dates and empty cells', async () => {
    const file = Buffer.from(
      await writeXlsxFile(
        [
          ['Nombre', 'Número', 'Alta', 'Nota'],
          ['Ana  ', 5491177770001, new Date('2024-03-05T00:00:00Z'), null],
          [null, '+54 9 11 7777-0002', null, 'ñandú'],
        ],
        { dateFormat: 'dd/mm/yyyy' },
      ).toBuffer(),
    );
    const rows = await readerOf().readFirstSheet(file, limits);
    expect(rows).toEqual(await readSheet(file));
    expect(rows[1]).toEqual(['Ana', 5491177770001, new Date('2024-03-05T00:00:00Z'), null]);
  });

  it('refuses a zip bomb by the size it states, or by the size it inflates to', async () => {
    const reader = readerOf();
    // The second states 4 KB: only inflating tells.
    for (const bomb of [spreadsheetBomb(300), spreadsheetBomb(300, 4096)]) {
      const answer = await refusal(reader.readFirstSheet(bomb, limits));
      expect(answer).toMatchObject({
        code: 'ERR_SPREADSHEET_TOO_LARGE',
        status: 413,
        message: 'The spreadsheet unpacks to more than 32 MB',
      });
    }
  });

  it('counts the rows before parsing them: the header and maxRows below it', async () => {
    const reader = readerOf();
    const small = { ...limits, maxRows: 3 };
    expect(await reader.readFirstSheet(sheetWithRows(3), small)).toHaveLength(4);
    const answer = await refusal(reader.readFirstSheet(sheetWithRows(4), small));
    expect(answer).toMatchObject({ code: 'ERR_SPREADSHEET_TOO_LARGE', status: 413 });
    expect(answer.message).toContain('at most 3 rows');
  });

  it('refuses a small sheet that needs more memory than its worker has', async () => {
    // 5,000 rows with a cell in the last column: the parser pads each to 16,384 cells, gigabytes. A
    // worker of 64 MB runs out of them early in the parsing; the time limit is far, so that a loaded
    // machine's slowness is never the reason given.
    const reader = readerOf({ heapMb: 64, timeoutMs: 25_000 });
    const answer = await refusal(reader.readFirstSheet(sheetWithFarCells(5000), limits));
    expect(answer).toMatchObject({ code: 'ERR_SPREADSHEET_TOO_LARGE', status: 413 });
    expect(answer.message).toContain('memory');
  });

  it('stops a read that takes longer than its time limit', async () => {
    const answer = await refusal(
      readerOf({ timeoutMs: 1 }).readFirstSheet(sheetWithRows(3), limits),
    );
    expect(answer).toMatchObject({ code: 'ERR_SPREADSHEET_TOO_LARGE', status: 413 });
    expect(answer.message).toContain('to read');
  });

  it('says what is not a readable .xlsx', async () => {
    const reader = readerOf();
    for (const file of [
      Buffer.from('not a zip'),
      Buffer.alloc(0),
      sheetWithRows(2).subarray(0, 200),
    ])
      expect(await refusal(reader.readFirstSheet(file, limits))).toMatchObject({
        code: 'ERR_VALIDATION',
        status: 400,
        fields: { file: ['Not a readable .xlsx file'] },
      });
  });

  it('reads a few at once, queues a few more and refuses the rest until a place is free', async () => {
    const reader = readerOf({ workers: 1, queue: 1 });
    const reads = [1, 2, 3].map(() => reader.readFirstSheet(sheetWithRows(2), limits));
    const busy = await refusal(reads[2]!);
    expect(busy).toMatchObject({ code: 'ERR_SPREADSHEET_BUSY', status: 503 });
    expect(busy.headers).toEqual({ 'Retry-After': '10' });
    for (const rows of await Promise.all(reads.slice(0, 2))) expect(rows).toHaveLength(3);
    expect(await reader.readFirstSheet(sheetWithRows(1), limits)).toHaveLength(2);
  });
});
