import { describe, expect, it } from 'vitest';
import { isContactSheetFile, isCsvFile, readContactSheet } from './contact-sheet';

const file = (name: string, type = '', body = '') => new File([body], name, { type });

describe('contact sheet', () => {
  it('tells a CSV by its name, in any case, or by its type when the name says neither', () => {
    expect(isCsvFile(file('a.CSV'))).toBe(true);
    expect(isCsvFile(file('a.csv', 'application/vnd.ms-excel'))).toBe(true);
    expect(isCsvFile(file('export', 'text/csv'))).toBe(true);
    expect(isCsvFile(file('a.xlsx', 'text/csv'))).toBe(false);
    expect(isContactSheetFile(file('a.XLSX'))).toBe(true);
    expect(isContactSheetFile(file('a.xls'))).toBe(false);
    expect(isContactSheetFile(file('a.txt', 'text/plain'))).toBe(false);
  });

  it('reads a CSV into rows keyed by its header, blank lines left out', async () => {
    const sheet = await readContactSheet(
      file('a.csv', 'text/csv', ' Teléfono ;;Nombre\n\n5491155550001;x;Ana\n;;\n5491155550002'),
    );
    expect(sheet).toEqual({
      rows: [
        { Teléfono: '5491155550001', column2: 'x', Nombre: 'Ana' },
        { Teléfono: '', column2: '', Nombre: '' },
        { Teléfono: '5491155550002', column2: null, Nombre: null },
      ],
      filled: 2,
      hasNumberColumn: true,
    });
  });
});
