import { Worker } from 'node:worker_threads';
import { AppError } from './errors';

// The text of a document (PDF, DOCX, plain text, Markdown), read off the event loop: each in a fresh
// worker thread (document-text-worker.mjs: unpdf's pdf.js a page at a time, mammoth for DOCX once its
// zip is known to unpack within the limit) with a V8 heap limit and a time limit; the worker is
// terminated when either is hit. The knowledge base's ingest runs one at a time per node (its job
// queue), so there is no pool here.

type DocumentKind = 'pdf' | 'docx' | 'txt' | 'md';
// A PDF's text comes a page at a time (page from 1); other kinds are one piece (page null).
export type DocumentPage = { page: number | null; text: string };

type DocumentLimits = {
  // Characters of text kept (the rest is cut), and what a DOCX may unpack to.
  maxChars: number;
  maxUnpackedBytes: number;
  timeoutMs: number;
  heapMb?: number;
  // Called as pages are read (a PDF's pages, a DOCX's two steps).
  onProgress?: (done: number, total: number) => void;
};

type Answer =
  | { type: 'progress'; done: number; total: number }
  | { type: 'done'; ok: true; pages: DocumentPage[] }
  | { type: 'done'; ok: false; reason: 'unreadable' | 'bytes'; message: string };

const WORKER_FILE = new URL('./document-text-worker.mjs', import.meta.url);
const HEAP_MB = 512;

const unreadable = (message: string) => new AppError('ERR_KNOWLEDGE_UNREADABLE', message);

export const readDocumentText = (data: Buffer, kind: DocumentKind, limits: DocumentLimits) =>
  new Promise<DocumentPage[]>((resolve, reject) => {
    // The worker's own copy (the caller's buffer may be a slice of a shared pool).
    const copy = new Uint8Array(data);
    const worker = new Worker(WORKER_FILE, {
      workerData: {
        kind,
        data: copy,
        maxChars: limits.maxChars,
        maxUnpackedBytes: limits.maxUnpackedBytes,
      },
      transferList: [copy.buffer],
      resourceLimits: {
        maxOldGenerationSizeMb: limits.heapMb ?? HEAP_MB,
        maxYoungGenerationSizeMb: 32,
      },
      // Plain JavaScript: none of the parent's loaders (tsx) need to start again in it.
      execArgv: [],
    });
    let settled = false;
    const finish = (error: Error | null, pages: DocumentPage[] = []) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      if (error) reject(error);
      else resolve(pages);
    };
    const timer = setTimeout(
      () =>
        finish(
          unreadable(
            `The document takes more than ${Math.ceil(limits.timeoutMs / 1000)} s to read`,
          ),
        ),
      limits.timeoutMs,
    );
    worker.on('message', (answer: Answer) => {
      if (answer.type === 'progress') limits.onProgress?.(answer.done, answer.total);
      else if (answer.ok) finish(null, answer.pages);
      else finish(unreadable(answer.message));
    });
    worker.once('error', (error: Error & { code?: string }) =>
      finish(
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? unreadable('The document needs too much memory to read')
          : new Error('The document reader failed', { cause: error }),
      ),
    );
    worker.once('exit', () => finish(new Error('The document reader stopped without answering')));
  });

// What a file's first bytes say it is, for the kinds the knowledge base takes: a PDF's header, a
// Word document's zip (with its main part named in it), or text (no NUL, hardly any control
// characters). Undefined for anything else.
export const sniffDocumentKind = (data: Buffer): 'pdf' | 'docx' | 'text' | undefined => {
  // The header may follow a few bytes of garbage (readers look in the first kilobyte).
  if (data.subarray(0, 1024).includes('%PDF-')) return 'pdf';
  if (data.length > 4 && data.readUInt32LE(0) === 0x04034b50)
    return data.includes('word/document.xml') ? 'docx' : undefined;
  if (!data.length) return undefined;
  const sample = data.subarray(0, 64 * 1024);
  let control = 0;
  for (const byte of sample) {
    if (byte === 0) return undefined;
    // Tab, line feed, form feed and carriage return are text; ESC and the rest are not.
    if (byte < 0x20 && byte !== 9 && byte !== 10 && byte !== 12 && byte !== 13) control += 1;
  }
  return control <= sample.length / 100 ? 'text' : undefined;
};
