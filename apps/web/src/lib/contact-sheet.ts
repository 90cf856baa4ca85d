import { sheetFieldOf } from '@atendi/shared';

// A spreadsheet of contacts as the imports read it (SPEC §5: .xlsx only, first sheet): the first
// row names the columns, each row after it is a contact.

type SheetCell = string | number | boolean | null;
export type SheetRow = Record<string, SheetCell>;

type ContactSheet = {
  // Every row under the header, blank ones too, so that rows[i] is the sheet's row i + 2.
  rows: SheetRow[];
  // The rows that hold something.
  filled: number;
  // Whether the header names a number column (the one column an import cannot do without).
  hasNumberColumn: boolean;
};

const isBlank = (row: SheetRow) =>
  Object.values(row).every((cell) => cell === null || String(cell).trim() === '');

// The first sheet as objects keyed by its header row; the API recognises the headers. The reader
// is loaded on first use only.
export const readContactSheet = async (file: File): Promise<ContactSheet> => {
  const { readSheet } = await import('read-excel-file/browser');
  const [header = [], ...cells] = await readSheet(file);
  const titles = header.map((cell) => String(cell ?? '').trim());
  const rows = cells.map((row) =>
    Object.fromEntries(
      titles.map((title, index) => {
        const cell = row[index] ?? null;
        return [title || `column${index + 1}`, cell instanceof Date ? cell.toISOString() : cell];
      }),
    ),
  ) as SheetRow[];
  return {
    rows,
    filled: rows.filter((row) => !isBlank(row)).length,
    hasNumberColumn: titles.some((title) => sheetFieldOf(title) === 'number'),
  };
};
