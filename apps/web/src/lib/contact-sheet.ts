import { decodeCsvBytes, parseCsv, sheetFieldOf } from '@atendi/shared';

// A file of contacts as the imports read it (SPEC §5, issue 38): an Excel .xlsx (its first sheet)
// or a CSV (as Google Contacts, a CRM or Excel export it: `,` `;` or tab, UTF-8 or Latin-1). The
// first row names the columns, each row after it is a contact.

type SheetCell = string | number | boolean | null;
export type SheetRow = Record<string, SheetCell>;

type ContactSheet = {
  // Every row under the header, blank ones too, so that rows[i] is the sheet's row i + 2 (a CSV's
  // record i + 2: its blank lines are not records, as the server counts them too).
  rows: SheetRow[];
  // The rows that hold something.
  filled: number;
  // Whether the header names a number column (the one column an import cannot do without).
  hasNumberColumn: boolean;
};

const XLSX_NAME = /\.xlsx$/i;
const CSV_NAME = /\.csv$/i;

// A CSV by its name, or by its type when the name says neither.
export const isCsvFile = (file: File) =>
  CSV_NAME.test(file.name) || (!XLSX_NAME.test(file.name) && file.type === 'text/csv');

// What the imports take: an .xlsx or a CSV.
export const isContactSheetFile = (file: File) => XLSX_NAME.test(file.name) || isCsvFile(file);

const isBlank = (row: SheetRow) =>
  Object.values(row).every((cell) => cell === null || String(cell).trim() === '');

// The header row, then the cells of each row under it.
const cellsOf = async (file: File): Promise<SheetCell[][]> => {
  if (isCsvFile(file)) return parseCsv(decodeCsvBytes(new Uint8Array(await file.arrayBuffer())));
  // The spreadsheet reader is loaded on first use only.
  const { readSheet } = await import('read-excel-file/browser');
  // Its types say `typeof Date` where it hands a Date.
  return (await readSheet(file)).map((row) =>
    row.map((cell) => (cell instanceof Date ? cell.toISOString() : (cell as SheetCell))),
  );
};

// The first sheet (or the CSV) as objects keyed by its header row; the API recognises the headers.
export const readContactSheet = async (file: File): Promise<ContactSheet> => {
  const [header = [], ...cells] = await cellsOf(file);
  const titles = header.map((cell) => String(cell ?? '').trim());
  const rows = cells.map((row) =>
    Object.fromEntries(
      titles.map((title, index) => [title || `column${index + 1}`, row[index] ?? null]),
    ),
  ) as SheetRow[];
  return {
    rows,
    filled: rows.filter((row) => !isBlank(row)).length,
    hasNumberColumn: titles.some((title) => sheetFieldOf(title) === 'number'),
  };
};
