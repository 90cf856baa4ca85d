import { constants, crc32, deflateRawSync } from 'node:zlib';

// Hand-made .xlsx files for the spreadsheet limits: a zip bomb, sheets with too many rows or cells
// far apart. Each is a valid workbook (one sheet) that read-excel-file reads when it is small.

type Entry = { name: string; body: Buffer; method: 0 | 8; crc: number; size: number };

const stored = (name: string, text: string): Entry => {
  const body = Buffer.from(text);
  return { name, body, method: 0, crc: crc32(body), size: body.length };
};

// A zip of the entries, sizes and CRCs in the local headers and the central directory.
const zipOf = (entries: Entry[]) => {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(entry.method, 8);
    local.writeUInt32LE(entry.crc, 14);
    local.writeUInt32LE(entry.body.length, 18);
    local.writeUInt32LE(entry.size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(entry.method, 10);
    central.writeUInt32LE(entry.crc, 16);
    central.writeUInt32LE(entry.body.length, 20);
    central.writeUInt32LE(entry.size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, entry.body);
    centrals.push(central, name);
    offset += local.length + name.length + entry.body.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
};

const RELS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const SHEET_OPEN = `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="${MAIN}"><sheetData>`;
const SHEET_CLOSE = '</sheetData></worksheet>';

const workbook = (sheet: Entry) =>
  zipOf([
    stored(
      '[Content_Types].xml',
      `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`,
    ),
    stored(
      '_rels/.rels',
      `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${RELS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ),
    stored(
      'xl/workbook.xml',
      `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${MAIN}" xmlns:r="${RELS}"><sheets><sheet name="Hoja1" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ),
    stored(
      'xl/_rels/workbook.xml.rels',
      `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${RELS}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
    ),
    sheet,
  ]);

const text = (ref: string, value: string) =>
  `<c r="${ref}" t="inlineStr"><is><t>${value}</t></is></c>`;
const number = (ref: string, value: number) => `<c r="${ref}"><v>${value}</v></c>`;
const row = (...cells: string[]) => `<row>${cells.join('')}</row>`;
const HEADER = row(text('A1', 'Nombre'), text('B1', 'Número'));

// A workbook whose one sheet holds the header and these rows, deflated honestly.
const sheetOf = (rowsXml: string) => {
  const xml = Buffer.from(SHEET_OPEN + HEADER + rowsXml + SHEET_CLOSE);
  return workbook({
    name: 'xl/worksheets/sheet1.xml',
    body: deflateRawSync(xml),
    method: 8,
    crc: crc32(xml),
    size: xml.length,
  });
};

// A sheet of `rows` contacts under the header, deflated.
export const sheetWithRows = (rows: number) =>
  sheetOf(
    Array.from({ length: rows }, (_, i) =>
      row(text(`A${i + 2}`, `Cliente ${i}`), number(`B${i + 2}`, 5491100000000 + i)),
    ).join(''),
  );

// A few hundred bytes of XML whose rows the parser would fill out to column XFD (16,384 cells
// each): `rows` rows take gigabytes once read.
export const sheetWithFarCells = (rows: number) =>
  sheetOf(Array.from({ length: rows }, (_, i) => row(number(`XFD${i + 2}`, 1))).join(''));

// A zip bomb: a valid sheet whose XML inflates to `megabytes` MB from about a thousandth of that
// (a contact whose name is that long). One deflated megabyte of the name, ended by a full flush, is
// repeated as it stands. `claimedBytes` is the size its headers state instead of the true one.
export const spreadsheetBomb = (megabytes = 300, claimedBytes?: number) => {
  const head = Buffer.from(`${SHEET_OPEN}${HEADER}<row><c r="A2" t="inlineStr"><is><t>`);
  const unit = Buffer.alloc(1 << 20, 'a');
  const tail = Buffer.from(`</t></is></c>${number('B2', 5491177770001)}</row>${SHEET_CLOSE}`);
  const segment = deflateRawSync(unit, { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  let crc = crc32(head);
  for (let i = 0; i < megabytes; i += 1) crc = crc32(unit, crc);
  crc = crc32(tail, crc);
  return workbook({
    name: 'xl/worksheets/sheet1.xml',
    body: Buffer.concat([
      deflateRawSync(head, { finishFlush: constants.Z_FULL_FLUSH }),
      ...Array<Buffer>(megabytes).fill(segment),
      deflateRawSync(tail),
    ]),
    method: 8,
    crc,
    size: claimedBytes ?? head.length + unit.length * megabytes + tail.length,
  });
};
