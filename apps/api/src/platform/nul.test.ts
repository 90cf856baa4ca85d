import { describe, expect, it } from 'vitest';
import { cleanFileName, stripNul } from './nul';

describe('stripNul', () => {
  it('removes NUL from strings anywhere inside plain objects and arrays', () => {
    expect(stripNul({ a: 'ho\u0000la', b: [{ c: '\u0000x' }, 2, null], 'k\u0000': true })).toEqual({
      a: 'hola',
      b: [{ c: 'x' }, 2, null],
      k: true,
    });
  });

  it('cleans a parsed query string (an object whose prototype is a bare object)', () => {
    function Empty() {}
    Empty.prototype = Object.create(null) as object;
    const query = new (Empty as unknown as new () => Record<string, string>)();
    query.searchParam = 'fac\u0000tura';
    expect({ ...stripNul(query) }).toEqual({ searchParam: 'factura' });
  });

  it('leaves buffers, dates and untouched values as they are', () => {
    const buffer = Buffer.from([0, 1, 0]);
    const date = new Date(0);
    const clean = { a: 'hola', b: [1, 2] };
    expect(stripNul({ buffer, date }).buffer).toBe(buffer);
    expect(stripNul(clean)).toBe(clean);
  });
});

describe('cleanFileName', () => {
  it('drops control characters from a file name', () => {
    expect(cleanFileName('fac\u0000tura\n.pdf')).toBe('factura.pdf');
  });
});
