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

describe('stripNul on deep and odd input', () => {
  it('cleans a value nested far deeper than the call stack allows', () => {
    let deep: unknown = 'fo\u0000o';
    for (let i = 0; i < 50_000; i += 1) deep = i % 2 ? [deep] : { a: deep };
    let clean = stripNul(deep);
    for (let i = 0; i < 50_000; i += 1)
      clean = Array.isArray(clean) ? clean[0] : (clean as { a: unknown }).a;
    expect(clean).toBe('foo');
  });

  it('keeps a "__proto__" key as data', () => {
    const parsed = JSON.parse('{"__proto__": {"admin": true}, "n\\u0000": "x"}') as object;
    const clean = stripNul(parsed) as Record<string, unknown>;
    expect(Object.getPrototypeOf(clean)).toBe(Object.prototype);
    expect(Object.keys(clean)).toEqual(['__proto__', 'n']);
    expect((clean as { admin?: boolean }).admin).toBeUndefined();
  });

  it('returns a container that holds itself instead of looping', () => {
    const looped: Record<string, unknown> = { name: 'a\u0000b' };
    looped.self = looped;
    const clean = stripNul(looped) as Record<string, unknown>;
    expect(clean.name).toBe('ab');
    expect(clean.self).toBe(looped);
  });
});
