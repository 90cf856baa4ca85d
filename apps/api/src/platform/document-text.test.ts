import { describe, expect, it } from 'vitest';
import { makeDocx, makePdf, zipOf } from '../../test/documents';
import { readDocumentText, sniffDocumentKind } from './document-text';

// A document's text, read in a worker thread with limits (issue 40): each kind the knowledge base
// takes, a PDF a page at a time, and what cannot be read refused with ERR_KNOWLEDGE_UNREADABLE.

const limits = { maxChars: 1_000_000, maxUnpackedBytes: 10 * 1024 * 1024, timeoutMs: 30_000 };

describe('document text', () => {
  it('reads a PDF page by page, telling its progress', async () => {
    const pdf = await makePdf([
      'Bienvenida. Esta es la primera página del manual.',
      'Devoluciones: tiene treinta días para devolver un producto sin uso.',
      'Envíos a todo el país en 48 horas.',
    ]);
    const progress: [number, number][] = [];
    const pages = await readDocumentText(pdf, 'pdf', {
      ...limits,
      onProgress: (done, total) => progress.push([done, total]),
    });
    expect(pages.map((p) => p.page)).toEqual([1, 2, 3]);
    expect(pages[1].text).toContain('Devoluciones: tiene treinta días para devolver');
    expect(pages[2].text).toContain('Envíos a todo el país');
    expect(progress).toEqual([
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
  });

  it('reads a Word document', async () => {
    const docx = await makeDocx(['Horario de atención', 'Lunes a viernes de 9 a 18 horas.']);
    const pages = await readDocumentText(docx, 'docx', limits);
    expect(pages).toHaveLength(1);
    expect(pages[0].page).toBeNull();
    expect(pages[0].text).toMatch(/Horario de atención\s+Lunes a viernes de 9 a 18 horas\./);
  });

  it('reads text as UTF-8, or as Windows-1252 when it is not UTF-8', async () => {
    const utf8 = await readDocumentText(
      Buffer.from('\ufeff# Título\n\nCañón y acción'),
      'md',
      limits,
    );
    expect(utf8[0].text).toBe('# Título\n\nCañón y acción');
    const latin = await readDocumentText(Buffer.from('Cañón', 'latin1'), 'txt', limits);
    expect(latin[0].text).toBe('Cañón');
  });

  it('cuts the text at maxChars', async () => {
    const pages = await readDocumentText(Buffer.from('a'.repeat(5000)), 'txt', {
      ...limits,
      maxChars: 1000,
    });
    expect(pages[0].text).toHaveLength(1000);
  });

  it('refuses a damaged PDF, a zip that is no Word document, and one that unpacks to too much', async () => {
    await expect(
      readDocumentText(Buffer.from('%PDF-1.7\nnothing else'), 'pdf', limits),
    ).rejects.toMatchObject({ code: 'ERR_KNOWLEDGE_UNREADABLE' });
    await expect(
      readDocumentText(await zipOf({ 'hello.txt': 'hola' }), 'docx', limits),
    ).rejects.toMatchObject({ code: 'ERR_KNOWLEDGE_UNREADABLE', message: /no word\/document.xml/ });
    // 20 MB of spaces packs into a few kilobytes: refused while inflating, before mammoth sees it.
    const bomb = await makeDocx([], Buffer.alloc(20 * 1024 * 1024, ' '));
    expect(bomb.length).toBeLessThan(200_000);
    await expect(readDocumentText(bomb, 'docx', limits)).rejects.toMatchObject({
      code: 'ERR_KNOWLEDGE_UNREADABLE',
      message: /unpacks to more than 10 MB/,
    });
  });

  it('gives up on a document that takes longer than its time', async () => {
    const pdf = await makePdf(Array.from({ length: 30 }, (_, i) => `Página ${i + 1}`));
    await expect(readDocumentText(pdf, 'pdf', { ...limits, timeoutMs: 1 })).rejects.toMatchObject({
      code: 'ERR_KNOWLEDGE_UNREADABLE',
      message: /takes more than/,
    });
  });

  it('tells a file’s kind by its content', async () => {
    expect(sniffDocumentKind(await makePdf(['x']))).toBe('pdf');
    expect(sniffDocumentKind(await makeDocx(['x']))).toBe('docx');
    expect(sniffDocumentKind(await zipOf({ 'a.txt': 'x' }))).toBeUndefined();
    expect(sniffDocumentKind(Buffer.from('Hola\r\nmundo\t!'))).toBe('text');
    expect(sniffDocumentKind(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1]))).toBeUndefined();
    expect(sniffDocumentKind(Buffer.alloc(0))).toBeUndefined();
  });
});
