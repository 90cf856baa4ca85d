import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { FileListOptionView, FileListView } from '@atendi/shared';
import { getSocket } from '../../api/socket';
import { SEARCH_DEBOUNCE_MS } from '../../lib/use-debounced-value';
import { advanceClock, setupUserOnFakeClock } from '../../test/clock';
import type { FakeSocket } from '../../test/fake-socket';
import { callsOf, jsonResponse, makeAuth, stubApi } from '../../test/fixtures';
import { renderPage } from '../../test/render-page';
import { fill, refill, setupUser } from '../../test/user-event';
import { FilesPage } from './files-page';

const makeOption = (overrides: Partial<FileListOptionView> = {}): FileListOptionView => ({
  id: 31,
  name: 'catalogo',
  path: '',
  mediaType: '',
  url: null,
  ...overrides,
});

const makeList = (overrides: Partial<FileListView> = {}): FileListView => ({
  id: 5,
  name: 'Catálogo otoño',
  message: 'Le enviamos nuestro catálogo',
  companyId: 1,
  options: [],
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
  ...overrides,
});

const listOf =
  (files: FileListView[], hasMore = false) =>
  () =>
    jsonResponse(200, { files, hasMore });

const bodyOf = (init: RequestInit) => JSON.parse(String(init.body)) as Record<string, unknown>;
const socket = () => getSocket() as unknown as FakeSocket;
const rowOf = async (text: string) => (await screen.findByText(text)).closest('tr')!;
const pdf = (name = 'catalogo.pdf') =>
  new File(['%PDF-1.4 catálogo'], name, { type: 'application/pdf' });

describe('files page', () => {
  it('searches 500 ms after the last keystroke and loads the next page near the bottom', async () => {
    const first = Array.from({ length: 20 }, (_, index) =>
      makeList({ id: index + 1, name: `Lista ${index + 1}` }),
    );
    const fetchMock = stubApi({
      'GET /files': ({ url }) => {
        if (url.searchParams.get('searchParam') === 'promo')
          return listOf([makeList({ id: 50, name: 'Promoción' })])();
        return url.searchParams.get('pageNumber') === '2'
          ? listOf([makeList({ id: 99, name: 'Última lista' })])()
          : listOf(first, true)();
      },
    });
    const user = setupUserOnFakeClock();
    renderPage(<FilesPage />, '/files', makeAuth());
    await screen.findByText('Lista 20');
    expect(screen.getByRole('heading', { level: 1, name: 'Listas de archivos' })).toBeTruthy();

    const box = screen.getByTestId('files-scroll');
    Object.defineProperty(box, 'scrollHeight', { configurable: true, value: 1000 });
    Object.defineProperty(box, 'clientHeight', { configurable: true, value: 400 });
    box.scrollTop = 300;
    fireEvent.scroll(box);
    expect(callsOf(fetchMock)).not.toContain('GET /files?searchParam=&pageNumber=2');
    box.scrollTop = 520;
    fireEvent.scroll(box);
    expect(await screen.findByText('Última lista')).toBeTruthy();

    await user.type(screen.getByRole('searchbox', { name: 'Buscar listas de archivos' }), 'promo');
    expect(callsOf(fetchMock).filter((call) => call.includes('searchParam=p'))).toEqual([]);
    await advanceClock(SEARCH_DEBOUNCE_MS);
    expect(await screen.findByText('Promoción')).toBeTruthy();
    expect(screen.queryByText('Lista 1')).toBeNull();
    expect(callsOf(fetchMock).filter((call) => call.startsWith('GET /files?'))).toEqual([
      'GET /files?searchParam=&pageNumber=1',
      'GET /files?searchParam=&pageNumber=2',
      'GET /files?searchParam=promo&pageNumber=1',
    ]);
  });

  it('creates a list with a file: checks the form, saves, then uploads the file', async () => {
    let created: Record<string, unknown> | undefined;
    let uploaded: FormData | undefined;
    let finishUpload: (response: Response) => void = () => undefined;
    const saved = makeList({ id: 9, options: [makeOption()] });
    const fetchMock = stubApi({
      'GET /files': listOf([]),
      'POST /files': (init) => {
        created = bodyOf(init);
        return jsonResponse(201, saved);
      },
      'POST /files/uploadList/9': (init) => {
        uploaded = init.body as FormData;
        return new Promise<Response>((resolve) => {
          finishUpload = resolve;
        });
      },
    });
    const user = setupUser();
    renderPage(<FilesPage />, '/files', makeAuth());
    expect(
      await screen.findByText(
        'Aún no hay listas de archivos. Cree una con «Agregar lista» para enviar sus archivos en campañas.',
      ),
    ).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Agregar lista' }));
    const dialog = await screen.findByRole('dialog', { name: 'Agregar lista de archivos' });
    const name = within(dialog).getByRole('textbox', { name: 'Nombre' });
    await fill(user, name, 'Ca');
    await user.click(within(dialog).getByRole('button', { name: 'Agregar' }));
    expect(await within(dialog).findByText('Debe tener entre 3 y 100 caracteres')).toBeTruthy();
    expect(within(dialog).getAllByText('Campo obligatorio')).toHaveLength(2);
    expect(within(dialog).getByText('Elija un archivo')).toBeTruthy();
    expect(callsOf(fetchMock).some((call) => call.startsWith('POST'))).toBe(false);

    await refill(user, name, 'Catálogo otoño');
    await fill(
      user,
      within(dialog).getByRole('textbox', { name: 'Mensaje' }),
      'Le enviamos nuestro catálogo',
    );
    const option = within(dialog).getByRole('group', { name: 'Archivo 1' });
    await user.upload(within(option).getByTestId('file-option-input-0'), pdf());
    expect(within(option).getByText('catalogo.pdf')).toBeTruthy();
    // The option takes the file's name when none was typed.
    expect(
      (within(option).getByRole('textbox', { name: 'Nombre del archivo' }) as HTMLInputElement)
        .value,
    ).toBe('catalogo');
    await user.click(within(dialog).getByRole('button', { name: 'Agregar' }));

    expect(await within(dialog).findByText('Subiendo archivo 1 de 1…')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Agregar' })).toHaveProperty(
      'disabled',
      true,
    );
    expect(within(dialog).getByRole('textbox', { name: 'Nombre' })).toHaveProperty(
      'disabled',
      true,
    );
    expect(created).toEqual({
      name: 'Catálogo otoño',
      message: 'Le enviamos nuestro catálogo',
      options: [{ name: 'catalogo', mediaType: 'application/pdf' }],
    });
    expect(uploaded?.get('fileId')).toBe('31');
    expect(uploaded?.get('id')).toBe('31');
    expect(uploaded?.get('typeArch')).toBe('fileList');
    expect(uploaded?.get('name')).toBe('catalogo');
    expect(uploaded?.get('mediaType')).toBe('application/pdf');
    expect((uploaded?.get('files') as File).name).toBe('catalogo.pdf');

    act(() =>
      finishUpload(
        jsonResponse(200, {
          ...saved,
          options: [makeOption({ path: 'a'.repeat(32) + '.pdf', mediaType: 'application/pdf' })],
        }),
      ),
    );
    expect(await screen.findByText('Lista de archivos guardada.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await rowOf('Catálogo otoño')).toBeTruthy();
  });

  it('keeps the dialog on the saved list when an upload fails, and saving again edits it', async () => {
    const calls: string[] = [];
    let attempts = 0;
    const saved = makeList({ id: 9, message: 'Hola', options: [makeOption()] });
    stubApi({
      'GET /files': listOf([]),
      'POST /files': () => jsonResponse(201, saved),
      'PUT /files/9': (init) => {
        calls.push(JSON.stringify(bodyOf(init)));
        return jsonResponse(200, saved);
      },
      'POST /files/uploadList/9': () => {
        attempts += 1;
        return attempts === 1
          ? jsonResponse(413, { error: 'ERR_UPLOAD_TOO_LARGE', message: 'Too large' })
          : jsonResponse(200, saved);
      },
    });
    const user = setupUser();
    renderPage(<FilesPage />, '/files', makeAuth());

    await user.click(await screen.findByRole('button', { name: 'Agregar lista' }));
    const dialog = await screen.findByRole('dialog');
    await fill(user, within(dialog).getByRole('textbox', { name: 'Nombre' }), 'Catálogo otoño');
    await fill(user, within(dialog).getByRole('textbox', { name: 'Mensaje' }), 'Hola');
    await user.upload(within(dialog).getByTestId('file-option-input-0'), pdf());
    await user.click(within(dialog).getByRole('button', { name: 'Agregar' }));

    expect(await screen.findByText('El archivo es demasiado grande')).toBeTruthy();
    expect(await within(dialog).findByText('Editar lista de archivos')).toBeTruthy();
    expect(within(dialog).getByText('catalogo.pdf')).toBeTruthy();
    expect(await rowOf('Catálogo otoño')).toBeTruthy();

    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Lista de archivos guardada.')).toBeTruthy();
    expect(calls).toEqual([
      JSON.stringify({
        name: 'Catálogo otoño',
        message: 'Hola',
        options: [{ id: 31, name: 'catalogo', mediaType: 'application/pdf' }],
      }),
    ]);
    expect(attempts).toBe(2);
  });

  it('edits a list showing its current file, and removes an option', async () => {
    let sent: Record<string, unknown> | undefined;
    const existing = makeList({
      options: [
        makeOption({
          id: 31,
          name: 'Precios',
          path: `${'b'.repeat(32)}.pdf`,
          url: 'http://api/uploads/1/b.pdf',
        }),
        makeOption({ id: 32, name: 'Portada', path: `${'c'.repeat(32)}.png` }),
      ],
    });
    const fetchMock = stubApi({
      'GET /files': listOf([existing]),
      'PUT /files/5': (init) => {
        sent = bodyOf(init);
        return jsonResponse(200, {
          ...existing,
          name: 'Catálogo invierno',
          options: [existing.options[0]],
        });
      },
    });
    const user = setupUser();
    renderPage(<FilesPage />, '/files', makeAuth());

    await user.click(
      within(await rowOf('Catálogo otoño')).getByRole('button', { name: 'Editar Catálogo otoño' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Editar lista de archivos' });
    const first = within(dialog).getByRole('group', { name: 'Archivo 1' });
    expect(within(first).getByRole('link', { name: 'Precios.pdf' }).getAttribute('href')).toBe(
      'http://api/uploads/1/b.pdf',
    );
    expect(within(first).getByText('Cambiar archivo')).toBeTruthy();

    await user.click(within(dialog).getByRole('button', { name: 'Quitar el archivo 2' }));
    await refill(
      user,
      within(dialog).getByRole('textbox', { name: 'Nombre' }),
      'Catálogo invierno',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));

    expect(await screen.findByText('Catálogo invierno')).toBeTruthy();
    expect(sent).toEqual({
      name: 'Catálogo invierno',
      message: 'Le enviamos nuestro catálogo',
      options: [{ id: 31, name: 'Precios' }],
    });
    // Nothing new was chosen, so nothing is uploaded.
    expect(callsOf(fetchMock).some((call) => call.includes('uploadList'))).toBe(false);
  });

  it('deletes a list only after confirmation', async () => {
    let deleted = false;
    stubApi({
      'GET /files': listOf([makeList()]),
      'DELETE /files/5': () => {
        deleted = true;
        return new Response(null, { status: 204 });
      },
    });
    const user = setupUser();
    renderPage(<FilesPage />, '/files', makeAuth());

    await user.click(
      within(await rowOf('Catálogo otoño')).getByRole('button', {
        name: 'Eliminar Catálogo otoño',
      }),
    );
    const confirm = await screen.findByRole('dialog', {
      name: '¿Eliminar la lista de archivos Catálogo otoño?',
    });
    expect(deleted).toBe(false);
    await user.click(within(confirm).getByRole('button', { name: 'Eliminar' }));

    expect(await screen.findByText('Lista de archivos eliminada.')).toBeTruthy();
    expect(deleted).toBe(true);
    await waitFor(() => expect(screen.queryByText('Catálogo otoño')).toBeNull());
  });

  it('applies live file list events to the table', async () => {
    stubApi({ 'GET /files': listOf([makeList()]) });
    renderPage(<FilesPage />, '/files', makeAuth());
    await screen.findByText('Catálogo otoño');

    act(() => {
      socket().receive('company-1-file', {
        action: 'create',
        files: makeList({ id: 9, name: 'Nueva lista' }),
      });
    });
    expect(await screen.findByText('Nueva lista')).toBeTruthy();
    act(() => {
      socket().receive('company-1-file', {
        action: 'update',
        files: makeList({ name: 'Renombrada' }),
      });
    });
    expect(await screen.findByText('Renombrada')).toBeTruthy();
    expect(screen.queryByText('Catálogo otoño')).toBeNull();
    act(() => {
      socket().receive('company-1-file', { action: 'delete', fileId: 9 });
    });
    await waitFor(() => expect(screen.queryByText('Nueva lista')).toBeNull());
  });

  it('shows a user the lists without the buttons to change them', async () => {
    stubApi({ 'GET /files': listOf([makeList()]) });
    renderPage(<FilesPage />, '/files', makeAuth({ user: { profile: 'user' } }));

    const row = await rowOf('Catálogo otoño');
    expect(within(row).queryByRole('button')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Agregar lista' })).toBeNull();
    expect(screen.queryByRole('columnheader', { name: 'Acciones' })).toBeNull();
  });
});
