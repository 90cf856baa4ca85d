import { describe, expect, it } from 'vitest';
import { CsvTooLong, decodeCsvBytes, parseCsv } from './csv';

// CSV as Google Contacts, CRMs and Excel in Spanish or Portuguese write it.

const bytes = (...parts: (string | number[])[]) =>
  Uint8Array.from(
    parts.flatMap((part) => (typeof part === 'string' ? [...Buffer.from(part, 'utf8')] : part)),
  );

describe('reading CSV', () => {
  it('finds the separator the header uses: comma, semicolon or tab', () => {
    const expected = [
      ['Nombre', 'Número'],
      ['Ana', '5491122223333'],
    ];
    expect(parseCsv('Nombre,Número\nAna,5491122223333\n')).toEqual(expected);
    expect(parseCsv('Nombre;Número\r\nAna;5491122223333\r\n')).toEqual(expected);
    expect(parseCsv('Nombre\tNúmero\nAna\t5491122223333')).toEqual(expected);
    // A comma inside a quoted header cell does not count.
    expect(parseCsv('"Apellido, nombre";Número\n"Pérez, Ana";1')).toEqual([
      ['Apellido, nombre', 'Número'],
      ['Pérez, Ana', '1'],
    ]);
  });

  it('reads quoted cells with separators, doubled quotes and line breaks; skips blank lines', () => {
    expect(parseCsv('a,b\n"x, ""y""","line 1\nline 2"\n\n\nz,\n')).toEqual([
      ['a', 'b'],
      ['x, "y"', 'line 1\nline 2'],
      ['z', ''],
    ]);
  });

  it('reads UTF-8 with or without a BOM, and Latin-1 (Windows-1252) when it is not UTF-8', () => {
    expect(decodeCsvBytes(bytes([0xef, 0xbb, 0xbf], 'Nombre;Número'))).toBe('Nombre;Número');
    expect(decodeCsvBytes(bytes('José;Conceição'))).toBe('José;Conceição');
    // "José;Conceição" as Excel saves it on a Spanish or Portuguese Windows.
    const latin1 = [
      0x4a, 0x6f, 0x73, 0xe9, 0x3b, 0x43, 0x6f, 0x6e, 0x63, 0x65, 0x69, 0xe7, 0xe3, 0x6f,
    ];
    expect(decodeCsvBytes(Uint8Array.from(latin1))).toBe('José;Conceição');
    expect(parseCsv('\ufeffa;b\n1;2')).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
  });

  it('stops past the rows it may read', () => {
    expect(parseCsv('h\n1\n2', 2)).toHaveLength(3);
    expect(() => parseCsv('h\n1\n2\n3', 2)).toThrow(CsvTooLong);
  });
});
