// The first sheet of an .xlsx, read in the worker thread platform/spreadsheet.ts starts. Plain
// JavaScript, so tsx, vitest and node run it alike. The inflated bytes, then the rows, are capped
// while reading, before read-excel-file parses anything.
import { parentPort, workerData } from 'node:worker_threads';
import { crc32, inflateRawSync } from 'node:zlib';

// reason: 'unreadable' (400), 'bytes' or 'rows' (413).
class Refusal extends Error {
  constructor(reason, message) {
    super(message);
    this.reason = reason;
  }
}
const unreadable = (message) => new Refusal('unreadable', message);

const LOCAL = 0x04034b50;
const CENTRAL = 0x02014b50;
const END = 0x06054b50;
// read-excel-file reads only these parts (the workbook, its relations, styles, strings, sheets).
const wanted = (name) => name.endsWith('.xml') || name.endsWith('.xml.rels');
// A workbook has a handful of parts; thousands only make the reader loop.
const MAX_PARTS = 1000;

// The central directory: where each part is, how it is packed and how big it says it is.
const partsOf = (zip) => {
  let end = -1;
  for (let at = zip.length - 22; at >= Math.max(0, zip.length - 22 - 0xffff); at -= 1)
    if (zip.readUInt32LE(at) === END) {
      end = at;
      break;
    }
  if (end < 0) throw unreadable('Not a zip archive');
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  if (count === 0xffff || at === 0xffffffff) throw unreadable('ZIP64 archives are not read');
  const parts = [];
  for (let index = 0; index < count; index += 1) {
    if (at + 46 > zip.length || zip.readUInt32LE(at) !== CENTRAL)
      throw unreadable('Broken zip directory');
    const nameEnd = at + 46 + zip.readUInt16LE(at + 28);
    if (nameEnd > zip.length) throw unreadable('Broken zip directory');
    const name = zip.toString('utf8', at + 46, nameEnd);
    if (wanted(name))
      parts.push({
        name,
        flags: zip.readUInt16LE(at + 8),
        method: zip.readUInt16LE(at + 10),
        packed: zip.readUInt32LE(at + 20),
        size: zip.readUInt32LE(at + 24),
        offset: zip.readUInt32LE(at + 42),
      });
    if (parts.length > MAX_PARTS) throw new Refusal('bytes', 'Too many parts in the workbook');
    at = nameEnd + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return parts;
};

// Inflates every wanted part, stopping as soon as all of them together pass maxBytes.
const unpack = (zip, maxBytes) => {
  const files = [];
  const parts = partsOf(zip);
  // What the directory says is refused at once; what it hides is caught while inflating.
  if (parts.reduce((sum, part) => sum + part.size, 0) > maxBytes) throw tooBig(maxBytes);
  let left = maxBytes;
  for (const part of parts) {
    if (part.flags & 1) throw unreadable('Encrypted workbooks are not read');
    const at = part.offset;
    if (at + 30 > zip.length || zip.readUInt32LE(at) !== LOCAL)
      throw unreadable('Broken zip entry');
    const start = at + 30 + zip.readUInt16LE(at + 26) + zip.readUInt16LE(at + 28);
    if (start + part.packed > zip.length) throw unreadable('Truncated zip entry');
    const packed = zip.subarray(start, start + part.packed);
    let body;
    if (part.method === 0) body = packed;
    else if (part.method === 8) {
      try {
        // zlib stops with ERR_BUFFER_TOO_LARGE as soon as its output passes the limit.
        body = inflateRawSync(packed, { maxOutputLength: Math.max(1, left) });
      } catch (error) {
        if (error?.code === 'ERR_BUFFER_TOO_LARGE') throw tooBig(maxBytes);
        throw unreadable('Broken compressed data');
      }
    } else throw unreadable(`Unknown compression method ${part.method}`);
    if (body.length > left) throw tooBig(maxBytes);
    left -= body.length;
    files.push({ name: part.name, body });
  }
  return files;
};
const tooBig = (maxBytes) =>
  new Refusal('bytes', `The spreadsheet unpacks to more than ${maxBytes / 1024 / 1024} MB`);

const attribute = (tag, name) =>
  new RegExp(`\\s(?:[\\w.-]+:)?${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`)
    .exec(tag)
    ?.slice(1)
    .join('');
const tags = (xml, name) =>
  xml.match(new RegExp(`<(?:[\\w.-]+:)?${name}(?=[\\s/>])[^>]*>`, 'g')) ?? [];

// The first sheet's part: the workbook's first <sheet> and its relation, as read-excel-file finds it.
const firstSheetName = (files) => {
  const text = (name) => files.find((file) => file.name === name)?.body.toString('utf8') ?? '';
  const sheet = tags(text('xl/workbook.xml'), 'sheet').find((tag) => attribute(tag, 'name'));
  const id = sheet && attribute(sheet, 'id');
  const relation = tags(text('xl/_rels/workbook.xml.rels'), 'Relationship').find(
    (tag) => attribute(tag, 'Id') === id,
  );
  const target = relation && attribute(relation, 'Target');
  if (!target) return undefined;
  return target.startsWith('/') ? target.slice(1) : `xl/${target}`;
};

const LT = 0x3c;
const COLON = 0x3a;
const isNameByte = (byte) =>
  (byte >= 0x61 && byte <= 0x7a) ||
  (byte >= 0x41 && byte <= 0x5a) ||
  (byte >= 0x30 && byte <= 0x39) ||
  byte === COLON ||
  byte === 0x5f ||
  byte === 0x2d ||
  byte === 0x2e;

// Whether there are more than `limit` <row> elements (any prefix); stops at the first one past it.
const rowsPast = (xml, limit) => {
  let rows = 0;
  for (let at = xml.indexOf(LT); at !== -1; at = xml.indexOf(LT, at + 1)) {
    let end = at + 1;
    while (end < xml.length && isNameByte(xml[end])) end += 1;
    const local = end - at - 1 >= 3 && (end - at - 1 === 3 || xml[end - 4] === COLON);
    if (local && xml[end - 3] === 0x72 && xml[end - 2] === 0x6f && xml[end - 1] === 0x77) {
      rows += 1;
      if (rows > limit) return true;
    }
  }
  return false;
};

// A zip of the parts as they are (stored, not compressed), for read-excel-file to open.
const storedZip = (files) => {
  const chunks = [];
  const directory = [];
  let offset = 0;
  for (const { name, body } of files) {
    const path = Buffer.from(name);
    const crc = crc32(body);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(LOCAL, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(body.length, 22);
    local.writeUInt16LE(path.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(CENTRAL, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(body.length, 24);
    central.writeUInt16LE(path.length, 28);
    central.writeUInt32LE(offset, 42);
    chunks.push(local, path, body);
    directory.push(central, path);
    offset += local.length + path.length + body.length;
  }
  const size = directory.reduce((sum, chunk) => sum + chunk.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(END, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(size, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...chunks, ...directory, end]);
};

const tooMany = (maxRows) =>
  new Refusal('rows', `A spreadsheet may have at most ${maxRows} rows below its header`);

// The capped parts, rows counted, repacked for the parser; the inflated copies are let go here.
const prepare = ({ data, maxBytes, maxRows }) => {
  const zip = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (zip.length < 22) throw unreadable('Not a zip archive');
  const files = unpack(zip, maxBytes);
  // The header and maxRows below it, counted in the XML before the parser builds a row.
  const sheetName = firstSheetName(files);
  const sheet = files.find((file) => file.name === sheetName);
  if (sheet && rowsPast(sheet.body, maxRows + 1)) throw tooMany(maxRows);
  return storedZip(files);
};

const read = async (job) => {
  const packed = prepare(job);
  // Loaded only for a file within the limits: a refusal is quicker without it.
  const { readSheet } = await import('read-excel-file/node');
  let rows;
  try {
    rows = await readSheet(packed);
  } catch (error) {
    throw unreadable(error instanceof Error ? error.message : String(error));
  }
  // Gaps in the row numbers (<row r="…">) become rows too.
  if (rows.length > job.maxRows + 1) throw tooMany(job.maxRows);
  return rows;
};

read(workerData).then(
  (rows) => parentPort.postMessage({ ok: true, rows }),
  (error) => {
    if (!(error instanceof Refusal)) throw error;
    parentPort.postMessage({ ok: false, reason: error.reason, message: error.message });
  },
);
