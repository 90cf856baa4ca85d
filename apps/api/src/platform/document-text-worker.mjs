// The text of one document (PDF, DOCX, plain text or Markdown), read in the worker thread
// platform/document-text.ts starts. Plain JavaScript, so tsx, vitest and node run it alike. What the
// document unpacks to and the text it yields are capped while reading.
import { parentPort, workerData } from 'node:worker_threads';
import { inflateRawSync } from 'node:zlib';

// reason: 'unreadable' (damaged, encrypted, not what it claims) or 'bytes' (past a limit).
class Refusal extends Error {
  constructor(reason, message) {
    super(message);
    this.reason = reason;
  }
}
const unreadable = (message) => new Refusal('unreadable', message);

// Text of more than maxChars is cut there (a page at a time), so a huge document cannot fill memory.
const capper = (maxChars) => {
  let left = maxChars;
  return (text) => {
    if (left <= 0) return '';
    const kept = text.length > left ? text.slice(0, left) : text;
    left -= kept.length;
    return kept;
  };
};

const progress = (done, total) => parentPort.postMessage({ type: 'progress', done, total });

// ---- PDF: pdf.js (through unpdf's build for servers), a page at a time --------------------------

const pdfText = async (data, maxChars) => {
  const { getDocumentProxy } = await import('unpdf');
  let pdf;
  try {
    // No eval of the file's fonts' code, and pdf.js's warnings kept off the server's output.
    pdf = await getDocumentProxy(data, { isEvalSupported: false, verbosity: 0 });
  } catch (error) {
    const name = error?.name ?? '';
    throw unreadable(
      name === 'PasswordException'
        ? 'The PDF is protected by a password'
        : `The PDF cannot be read: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const cap = capper(maxChars);
  const pages = [];
  try {
    for (let number = 1; number <= pdf.numPages; number += 1) {
      const page = await pdf.getPage(number);
      const content = await page.getTextContent();
      let text = '';
      for (const item of content.items) {
        if (typeof item.str !== 'string') continue;
        text += item.str;
        if (item.hasEOL) text += '\n';
      }
      page.cleanup();
      pages.push({ page: number, text: cap(text) });
      progress(number, pdf.numPages);
    }
  } finally {
    await pdf.loadingTask.destroy();
  }
  return pages;
};

// ---- DOCX: mammoth, once the zip is known to unpack within the limit -----------------------------

const LOCAL = 0x04034b50;
const CENTRAL = 0x02014b50;
const END = 0x06054b50;
const MAX_PARTS = 5000;

// Every part the zip holds must inflate within maxBytes all together: what the directory says is
// refused at once, and what it hides is caught while inflating (zlib stops at the limit), before
// mammoth (whose zip reader inflates without one) sees the file.
const checkZip = (zip, maxBytes) => {
  let end = -1;
  for (let at = zip.length - 22; at >= Math.max(0, zip.length - 22 - 0xffff); at -= 1)
    if (zip.readUInt32LE(at) === END) {
      end = at;
      break;
    }
  if (end < 0) throw unreadable('The file is not a Word document (no zip directory)');
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  if (count === 0xffff || at === 0xffffffff) throw unreadable('ZIP64 documents are not read');
  if (count > MAX_PARTS) throw new Refusal('bytes', 'Too many parts in the document');
  let left = maxBytes;
  let hasBody = false;
  const tooBig = () =>
    new Refusal('bytes', `The document unpacks to more than ${Math.round(maxBytes / 1048576)} MB`);
  for (let index = 0; index < count; index += 1) {
    if (at + 46 > zip.length || zip.readUInt32LE(at) !== CENTRAL)
      throw unreadable('Broken zip directory');
    const nameEnd = at + 46 + zip.readUInt16LE(at + 28);
    if (nameEnd > zip.length) throw unreadable('Broken zip directory');
    const name = zip.toString('utf8', at + 46, nameEnd);
    const flags = zip.readUInt16LE(at + 8);
    const method = zip.readUInt16LE(at + 10);
    const packed = zip.readUInt32LE(at + 20);
    const size = zip.readUInt32LE(at + 24);
    const offset = zip.readUInt32LE(at + 42);
    at = nameEnd + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    if (name === 'word/document.xml') hasBody = true;
    if (flags & 1) throw unreadable('The document is encrypted');
    if (size > left) throw tooBig();
    if (offset + 30 > zip.length || zip.readUInt32LE(offset) !== LOCAL)
      throw unreadable('Broken zip entry');
    const start = offset + 30 + zip.readUInt16LE(offset + 26) + zip.readUInt16LE(offset + 28);
    if (start + packed > zip.length) throw unreadable('Truncated zip entry');
    let inflated = packed;
    if (method === 8) {
      try {
        inflated = inflateRawSync(zip.subarray(start, start + packed), {
          maxOutputLength: Math.max(1, left),
        }).length;
      } catch (error) {
        if (error?.code === 'ERR_BUFFER_TOO_LARGE') throw tooBig();
        throw unreadable('Broken compressed data');
      }
    } else if (method !== 0) throw unreadable(`Unknown compression method ${method}`);
    if (inflated > left) throw tooBig();
    left -= inflated;
  }
  if (!hasBody) throw unreadable('The file is not a Word document (no word/document.xml)');
};

const docxText = async (data, maxChars, maxUnpackedBytes) => {
  const buffer = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  checkZip(buffer, maxUnpackedBytes);
  progress(1, 2);
  const { default: mammoth } = await import('mammoth');
  let result;
  try {
    result = await mammoth.extractRawText({ buffer });
  } catch (error) {
    throw unreadable(
      `The Word document cannot be read: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  progress(2, 2);
  return [{ page: null, text: capper(maxChars)(result.value ?? '') }];
};

// ---- Plain text and Markdown: UTF-8 (or Windows-1252, as older editors save) ----------------------

const plainText = (data, maxChars) => {
  let text;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    text = new TextDecoder('windows-1252').decode(data);
  }
  return [{ page: null, text: capper(maxChars)(text.replace(/^\ufeff/, '')) }];
};

const read = async ({ kind, data, maxChars, maxUnpackedBytes }) => {
  if (kind === 'pdf') return pdfText(data, maxChars);
  if (kind === 'docx') return docxText(data, maxChars, maxUnpackedBytes);
  return plainText(data, maxChars);
};

read(workerData).then(
  (pages) => parentPort.postMessage({ type: 'done', ok: true, pages }),
  // Whatever a parser throws on a document is the document's fault: it cannot be read.
  (error) => {
    const refusal =
      error instanceof Refusal
        ? error
        : unreadable(
            `The document cannot be read: ${error instanceof Error ? error.message : String(error)}`,
          );
    parentPort.postMessage({
      type: 'done',
      ok: false,
      reason: refusal.reason,
      message: refusal.message.slice(0, 300),
    });
  },
);
