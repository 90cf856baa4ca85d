import { describe, expect, it } from 'vitest';
import { CHUNK_MAX, CHUNK_MIN, CHUNK_OVERLAP, chunkSections } from './chunking';

// Passages of about 800–1,200 characters, cut between paragraphs, then sentences, then words, each
// repeating the end of the one before, keeping the page it starts on (issue 40).

// A sentence of about `length` characters, numbered so each is told apart.
const sentence = (n: number, length = 90) =>
  `Frase número ${n} del documento${' con palabras de relleno'.repeat(4)}`.slice(0, length - 1) +
  '.';
const paragraph = (from: number, sentences: number) =>
  Array.from(
    { length: sentences },
    (_, i) => `Frase número ${from + i} del documento, y algo más.`,
  ).join(' ');

describe('chunking', () => {
  it('packs paragraphs into passages of 800–1,200 characters, cut at paragraph ends', () => {
    const paragraphs = Array.from({ length: 12 }, (_, i) => paragraph(i * 10, 6));
    const passages = chunkSections([{ page: null, text: paragraphs.join('\n\n') }]);
    expect(passages.length).toBeGreaterThan(2);
    for (const [i, passage] of passages.entries()) {
      expect(passage.ordinal).toBe(i);
      expect(passage.content.length).toBeLessThanOrEqual(CHUNK_MAX);
      if (i < passages.length - 1)
        expect(passage.content.length).toBeGreaterThanOrEqual(CHUNK_MIN - 400);
    }
    // Nothing is lost: every sentence is in some passage.
    for (const p of paragraphs)
      for (const s of p.split(/(?<=\.) /))
        expect(passages.some((x) => x.content.includes(s))).toBe(true);
  });

  it('starts each passage with the end of the one before (a small overlap)', () => {
    const text = Array.from(
      { length: 40 },
      (_, i) => `Oración ${i} sobre envíos y devoluciones.`,
    ).join(' ');
    const passages = chunkSections([{ page: null, text }]);
    expect(passages.length).toBeGreaterThan(1);
    for (let i = 1; i < passages.length; i += 1) {
      const previous = passages[i - 1].content.split(/(?<=\.) /);
      // Some last sentences of the one before, within the overlap, begin this one.
      const suffixes = previous.map((_, k) => previous.slice(k).join(' '));
      const repeated = suffixes.find((tail) => passages[i].content.startsWith(`${tail} `));
      expect(repeated, `passage ${i} starts with the end of ${i - 1}`).toBeDefined();
      expect(repeated!.length).toBeLessThanOrEqual(CHUNK_OVERLAP);
    }
  });

  it('splits a sentence longer than a passage between words, and a word longer than one anywhere', () => {
    const long = `${'palabra '.repeat(400)}fin.`;
    const url = `https://example.com/${'x'.repeat(3000)}`;
    const passages = chunkSections([{ page: null, text: `${long}\n\n${url}` }]);
    for (const passage of passages) expect(passage.content.length).toBeLessThanOrEqual(CHUNK_MAX);
    expect(passages.map((p) => p.content).join(' ')).toContain('fin.');
    expect(passages.some((p) => p.content.includes('x'.repeat(1000)))).toBe(true);
  });

  it('keeps the page a passage starts on', () => {
    const pages = [1, 2, 3].map((page) => ({
      page,
      text: Array.from({ length: 12 }, (_, i) => sentence(page * 100 + i)).join(' '),
    }));
    const passages = chunkSections(pages);
    expect(passages[0].page).toBe(1);
    expect(passages.at(-1)!.page).toBe(3);
    for (const passage of passages) {
      // The passage's own first sentence (after the overlap) is on its page.
      const numbers = [...passage.content.matchAll(/número (\d+)/g)].map((m) => Number(m[1]));
      expect(numbers.some((n) => Math.floor(n / 100) === passage.page)).toBe(true);
    }
  });

  it('makes one short passage of a short text, and none of nothing', () => {
    expect(chunkSections([{ page: null, text: '  Hola,\r\n   mundo.  ' }])).toEqual([
      { ordinal: 0, page: null, content: 'Hola, mundo.' },
    ]);
    expect(chunkSections([{ page: 1, text: ' \n\n ' }])).toEqual([]);
  });

  it('never joins sections when asked not to (quick messages)', () => {
    const passages = chunkSections(
      [
        { page: null, text: '/horario\n\nAbrimos de 9 a 18.' },
        { page: null, text: '/envios\n\nEnviamos en 48 horas.' },
      ],
      { join: false },
    );
    expect(passages.map((p) => p.content)).toEqual([
      '/horario\n\nAbrimos de 9 a 18.',
      '/envios\n\nEnviamos en 48 horas.',
    ]);
    expect(passages.map((p) => p.ordinal)).toEqual([0, 1]);
  });
});
