import { Worker } from 'node:worker_threads';
import { AppError } from './errors';

// Spreadsheets (.xlsx) are read off the event loop: each in a worker thread (spreadsheet-worker.mjs)
// that caps what the zip inflates to and the rows while reading, within a V8 heap limit and a time
// limit. A few workers run at once; a few more uploads wait their turn, later ones are told to retry.

export type SheetCell = string | number | boolean | Date | null;

export type SheetLimits = {
  // The most bytes the workbook's parts may inflate to, all together.
  maxBytes: number;
  // The most rows below the first (the header).
  maxRows: number;
};

export type SpreadsheetReader = {
  // The first sheet's rows, header first. Refusals: 400 ERR_VALIDATION (not a readable .xlsx),
  // 413 ERR_SPREADSHEET_TOO_LARGE (a limit), 503 ERR_SPREADSHEET_BUSY (every worker and queue place taken).
  readFirstSheet: (data: Buffer, limits: SheetLimits) => Promise<SheetCell[][]>;
  // Stops the workers running and refuses the waiting reads (the app is closing).
  close: () => Promise<void>;
};

type Answer =
  | { ok: true; rows: SheetCell[][] }
  | { ok: false; reason: 'unreadable' | 'bytes' | 'rows'; message: string };

const WORKER_FILE = new URL('./spreadsheet-worker.mjs', import.meta.url);
// A sheet at the inflated cap (32 MB of XML) parses within about 180 MB of heap.
const HEAP_MB = 256;
// Waiting places per worker: past them an upload is refused at once instead of waiting minutes.
const QUEUE_PER_WORKER = 4;

const tooLarge = (message: string) => new AppError('ERR_SPREADSHEET_TOO_LARGE', message);
const unreadable = () =>
  new AppError('ERR_VALIDATION', 'This file is not a spreadsheet that can be read', {
    fields: { file: ['Not a readable .xlsx file'] },
  });

export const createSpreadsheetReader = (options: {
  timeoutMs: number;
  workers: number;
  heapMb?: number;
  queue?: number;
}): SpreadsheetReader => {
  const queueLimit = options.queue ?? options.workers * QUEUE_PER_WORKER;
  const heapMb = options.heapMb ?? HEAP_MB;
  const seconds = Math.ceil(options.timeoutMs / 1000);
  const waiting: (() => void)[] = [];
  const running = new Set<Worker>();
  let busy = 0;
  let closed = false;

  const busyError = () =>
    new AppError(
      'ERR_SPREADSHEET_BUSY',
      'Other spreadsheets are being read: try again in a few seconds',
      { headers: { 'Retry-After': String(seconds) } },
    );
  // A worker's place; a released place goes straight to the first waiting read.
  const acquire = async () => {
    if (closed) throw busyError();
    if (busy < options.workers) {
      busy += 1;
      return;
    }
    if (waiting.length >= queueLimit) throw busyError();
    await new Promise<void>((resolve) => waiting.push(resolve));
    if (closed) throw busyError();
  };
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else busy -= 1;
  };

  const run = (data: Buffer, limits: SheetLimits) =>
    new Promise<SheetCell[][]>((resolve, reject) => {
      // The worker's own copy: the request's buffer may be a slice of a shared pool.
      const copy = new Uint8Array(data);
      const worker = new Worker(WORKER_FILE, {
        workerData: { data: copy, maxBytes: limits.maxBytes, maxRows: limits.maxRows },
        transferList: [copy.buffer],
        resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: 16 },
        // Plain JavaScript: none of the parent's loaders (tsx) need to start again in it.
        execArgv: [],
      });
      running.add(worker);
      let settled = false;
      const finish = (error: Error | null, rows: SheetCell[][] = []) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        running.delete(worker);
        void worker.terminate();
        if (error) reject(error);
        else resolve(rows);
      };
      const timer = setTimeout(
        () => finish(tooLarge(`The spreadsheet takes more than ${seconds} s to read`)),
        options.timeoutMs,
      );
      worker.once('message', (answer: Answer) => {
        if (answer.ok) finish(null, answer.rows);
        else finish(answer.reason === 'unreadable' ? unreadable() : tooLarge(answer.message));
      });
      worker.once('error', (error: Error & { code?: string }) =>
        finish(
          error.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? tooLarge('The spreadsheet needs too much memory to read')
            : new Error('The spreadsheet reader failed', { cause: error }),
        ),
      );
      worker.once('exit', () =>
        finish(
          closed ? busyError() : new Error('The spreadsheet reader stopped without answering'),
        ),
      );
    });

  return {
    readFirstSheet: async (data, limits) => {
      await acquire();
      try {
        return await run(data, limits);
      } finally {
        release();
      }
    },
    close: async () => {
      closed = true;
      for (const next of waiting.splice(0)) next();
      await Promise.all([...running].map((worker) => worker.terminate()));
    },
  };
};
