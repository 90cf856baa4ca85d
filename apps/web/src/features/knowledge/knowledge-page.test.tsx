import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { KnowledgeDocument, KnowledgeSearchResult } from '@atendi/shared';
import { getSocket } from '../../api/socket';
import { unknownApiCalls } from '../../test/api-routes';
import type { FakeSocket } from '../../test/fake-socket';
import { callsOf, jsonResponse, makeAuth, stubApi } from '../../test/fixtures';
import { renderPage } from '../../test/render-page';
import { fill, setupUser } from '../../test/user-event';
import { KnowledgePage } from './knowledge-page';

const doc = (overrides: Partial<KnowledgeDocument> = {}): KnowledgeDocument => ({
  id: 1,
  name: 'Manual de garantías',
  source: 'upload',
  kind: 'pdf',
  fileListId: null,
  size: 204_800,
  status: 'ready',
  progress: 100,
  error: null,
  chunks: 12,
  embeddingModel: 'text-embedding-3-small',
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-01T10:00:00.000Z',
  createdBy: { id: 1, name: 'Ana Admin' },
  ...overrides,
});

const LIST = 'GET /knowledge/documents';
const listOf = (documents: KnowledgeDocument[]) => () => jsonResponse(200, { documents });

const table = () => screen.findByRole('table', { name: 'Conocimiento' });
const rowOf = async (name: string) =>
  (await within(await table()).findByText(name)).closest('tr') as HTMLTableRowElement;
const socket = () => getSocket() as unknown as FakeSocket;

const open = () => renderPage(<KnowledgePage />, '/knowledge', makeAuth());

describe('knowledge page', () => {
  it('lists the documents with their state, and follows their progress live', async () => {
    const fetchMock = stubApi({
      [LIST]: listOf([
        doc({ id: 4, name: 'Horario', kind: 'docx', status: 'queued', progress: 0, chunks: 0 }),
        doc({ id: 3, name: 'Catálogo', kind: 'txt', status: 'processing', progress: 40 }),
        doc({
          id: 2,
          name: 'Respuestas rápidas',
          source: 'quick-messages',
          kind: null,
          size: null,
          status: 'failed',
          error: 'There is nothing to read in this source yet',
          chunks: 0,
        }),
        doc(),
      ]),
    });
    open();

    const ready = within(await rowOf('Manual de garantías'));
    expect(ready.getByText('Listo')).toBeTruthy();
    expect(ready.getByText(/^PDF · 200 KB · /)).toBeTruthy();
    expect(ready.getByText('12')).toBeTruthy();
    expect(within(await rowOf('Horario')).getByText('En cola')).toBeTruthy();
    const processing = within(await rowOf('Catálogo'));
    expect(processing.getByText('Procesando')).toBeTruthy();
    expect(
      processing
        .getByRole('progressbar', { name: 'Progreso de Catálogo' })
        .getAttribute('aria-valuenow'),
    ).toBe('40');
    const failed = within(await rowOf('Respuestas rápidas'));
    expect(failed.getByText('Falló')).toBeTruthy();
    expect(failed.getByText('There is nothing to read in this source yet')).toBeTruthy();
    // Only an uploaded document has a file to replace.
    expect(failed.queryByRole('button', { name: /^Reemplazar/ })).toBeNull();
    expect(
      ready.getByRole('button', { name: 'Reemplazar el archivo de Manual de garantías' }),
    ).toBeTruthy();

    // The ingest goes on: its progress, then ready; a document deleted elsewhere leaves.
    act(() => {
      socket().receive('company-1-knowledge', {
        action: 'update',
        document: doc({ id: 3, name: 'Catálogo', kind: 'txt', status: 'processing', progress: 80 }),
      });
    });
    await waitFor(() =>
      expect(
        processing
          .getByRole('progressbar', { name: 'Progreso de Catálogo' })
          .getAttribute('aria-valuenow'),
      ).toBe('80'),
    );
    act(() => {
      socket().receive('company-1-knowledge', {
        action: 'update',
        document: doc({ id: 3, name: 'Catálogo', kind: 'txt', chunks: 7 }),
      });
      socket().receive('company-1-knowledge', { action: 'delete', id: 4 });
    });
    expect(await within(await rowOf('Catálogo')).findByText('Listo')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('Horario')).toBeNull());
    expect(unknownApiCalls(fetchMock)).toEqual([]);
  });

  it('uploads a chosen document at once, and says why one is refused', async () => {
    let sent: FormData | undefined;
    let refuse = false;
    stubApi({
      [LIST]: listOf([]),
      'POST /knowledge/documents': (init) => {
        sent = init.body as FormData;
        if (refuse)
          return jsonResponse(415, {
            error: 'ERR_UPLOAD_TYPE_NOT_ALLOWED',
            message: 'The file’s content is not a PDF',
          });
        return jsonResponse(201, doc({ id: 7, name: 'precios', kind: 'txt', status: 'queued' }));
      },
    });
    const user = setupUser({ applyAccept: false });
    open();
    expect(
      await screen.findByText(
        'Todavía no hay documentos. Suba uno o añada las respuestas rápidas.',
      ),
    ).toBeTruthy();

    await user.upload(
      screen.getByTestId('knowledge-upload-input'),
      new File(['Lista de precios'], 'precios.txt', { type: 'text/plain' }),
    );
    expect(await within(await rowOf('precios')).findByText('En cola')).toBeTruthy();
    expect((sent?.get('file') as File).name).toBe('precios.txt');
    expect(
      await screen.findByText('Documento precios.txt subido: se está procesando.'),
    ).toBeTruthy();

    refuse = true;
    await user.upload(
      screen.getByTestId('knowledge-upload-input'),
      new File(['no'], 'falso.pdf', { type: 'application/pdf' }),
    );
    expect(await screen.findByText('Tipo de archivo no permitido')).toBeTruthy();
    expect((sent?.get('file') as File).name).toBe('falso.pdf');
  });

  it('adds the quick messages as a source', async () => {
    let body: unknown;
    stubApi({
      [LIST]: listOf([]),
      'GET /files/list': () => jsonResponse(200, []),
      'POST /knowledge/sources': (init) => {
        body = JSON.parse(String(init.body));
        return jsonResponse(
          201,
          doc({
            id: 9,
            name: 'Respuestas rápidas',
            source: 'quick-messages',
            kind: null,
            status: 'queued',
          }),
        );
      },
    });
    const user = setupUser();
    open();
    await user.click(await screen.findByRole('button', { name: 'Añadir fuente' }));
    const dialog = await screen.findByRole('dialog', { name: 'Añadir una fuente' });
    await user.click(within(dialog).getByRole('combobox', { name: 'Fuente' }));
    await user.click(await screen.findByRole('option', { name: 'Respuestas rápidas' }));
    await user.click(within(dialog).getByRole('button', { name: 'Añadir' }));
    await waitFor(() => expect(body).toEqual({ type: 'quick-messages' }));
    expect(await within(await rowOf('Respuestas rápidas')).findByText('En cola')).toBeTruthy();
  });

  it('renames, replaces, processes again and deletes a document from its row', async () => {
    const calls: string[] = [];
    let renamedTo: unknown;
    let replacedWith: FormData | undefined;
    stubApi({
      [LIST]: listOf([doc()]),
      'PUT /knowledge/documents/1': (init) => {
        renamedTo = JSON.parse(String(init.body));
        return jsonResponse(200, doc({ name: 'Garantías 2026' }));
      },
      'POST /knowledge/documents/1/file': (init) => {
        replacedWith = init.body as FormData;
        return jsonResponse(200, doc({ name: 'Garantías 2026', status: 'queued', progress: 0 }));
      },
      'POST /knowledge/documents/1/refresh': () => {
        calls.push('refresh');
        return jsonResponse(200, doc({ name: 'Garantías 2026', status: 'queued', progress: 0 }));
      },
      'DELETE /knowledge/documents/1': () => {
        calls.push('delete');
        return new Response(null, { status: 204 });
      },
    });
    const user = setupUser({ applyAccept: false });
    open();

    await user.click(
      within(await rowOf('Manual de garantías')).getByRole('button', {
        name: 'Renombrar Manual de garantías',
      }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Renombrar el documento' });
    const name = within(dialog).getByRole('textbox', { name: 'Nombre' });
    await user.clear(name);
    await fill(user, name, 'Garantías 2026');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(renamedTo).toEqual({ name: 'Garantías 2026' }));
    const row = within(await rowOf('Garantías 2026'));

    await user.click(row.getByRole('button', { name: 'Reemplazar el archivo de Garantías 2026' }));
    await user.upload(
      screen.getByTestId('knowledge-replace-input'),
      new File(['%PDF-1.7'], 'garantias-2026.pdf', { type: 'application/pdf' }),
    );
    await waitFor(() =>
      expect((replacedWith?.get('file') as File).name).toBe('garantias-2026.pdf'),
    );
    expect(await within(await rowOf('Garantías 2026')).findByText('En cola')).toBeTruthy();
    // Waiting or being processed, it cannot be processed again yet.
    const again = within(await rowOf('Garantías 2026')).getByRole('button', {
      name: 'Procesar de nuevo Garantías 2026',
    }) as HTMLButtonElement;
    expect(again.disabled).toBe(true);
    act(() => {
      socket().receive('company-1-knowledge', {
        action: 'update',
        document: doc({ name: 'Garantías 2026' }),
      });
    });
    await waitFor(() => expect(again.disabled).toBe(false));
    await user.click(again);
    await waitFor(() => expect(calls).toEqual(['refresh']));

    await user.click(
      within(await rowOf('Garantías 2026')).getByRole('button', {
        name: 'Eliminar Garantías 2026',
      }),
    );
    const confirm = await screen.findByRole('dialog', { name: '¿Eliminar Garantías 2026?' });
    await user.click(within(confirm).getByRole('button', { name: 'Eliminar' }));
    await waitFor(() => expect(calls).toEqual(['refresh', 'delete']));
    await waitFor(() => expect(screen.queryByText('Garantías 2026')).toBeNull());
    expect(await screen.findByText('Documento eliminado.')).toBeTruthy();
  });

  it('tries a question and shows the passages found, with document, page and score', async () => {
    const result: KnowledgeSearchResult = {
      semantic: true,
      passages: [
        {
          chunkId: 31,
          documentId: 1,
          documentName: 'Manual de garantías',
          page: 2,
          ordinal: 1,
          text: 'Garantía: los electrodomésticos tienen garantía de un año.',
          score: 0.0328,
          textScore: 1.2,
          similarity: 0.81,
        },
      ],
    };
    const fetchMock = stubApi({
      [LIST]: listOf([doc()]),
      'GET /knowledge/search': () => jsonResponse(200, result),
    });
    const user = setupUser();
    open();
    const box = await screen.findByRole('search', { name: 'Pruebe una pregunta' });
    await fill(
      user,
      within(box).getByRole('textbox', { name: 'Pregunta' }),
      '¿Cuánto dura la garantía?',
    );
    await user.click(within(box).getByRole('button', { name: 'Buscar' }));
    const passages = await within(box).findByRole('list', { name: 'Pasajes encontrados' });
    expect(within(passages).getByText('1. Manual de garantías')).toBeTruthy();
    expect(within(passages).getByText('pág. 2')).toBeTruthy();
    expect(within(passages).getByText('puntuación 0.0328 · similitud 0.81')).toBeTruthy();
    expect(within(passages).getByText(/tienen garantía de un año/)).toBeTruthy();
    expect(callsOf(fetchMock)).toContain(
      `GET /knowledge/search?${new URLSearchParams({ q: '¿Cuánto dura la garantía?' })}`,
    );
  });

  it('tells other profiles the page is for administrators', async () => {
    stubApi({});
    renderPage(<KnowledgePage />, '/knowledge', makeAuth({ user: { profile: 'user' } }));
    expect(
      await screen.findByText('Solo los administradores gestionan la base de conocimiento.'),
    ).toBeTruthy();
  });
});
