import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { SEARCH_DEBOUNCE_MS } from '../../lib/use-debounced-value';
import { advanceClock, setupUserOnFakeClock } from '../../test/clock';
import { jsonResponse, makeAuth, stubApi } from '../../test/fixtures';
import { renderPage } from '../../test/render-page';
import { fill, setupUser, submitAndSettle } from '../../test/user-event';
import {
  makeAnnouncement,
  pageOf,
  receiveAnnouncementEvent,
  requestsOf,
} from './announcements.fixtures';
import type { Announcement } from './announcements.api';
import { AnnouncementsPage } from './announcements-page';

const superUser = () => makeAuth({ user: { super: true } });

const table = () => within(screen.getByTestId('announcements-table'));

const rowTexts = () =>
  table()
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .slice(0, 4)
        .map((cell) => cell.textContent),
    );

const image = (name: string, bytes = 10) =>
  new File(['x'.repeat(bytes)], name, { type: 'image/png' });

const jsonBody = (body: unknown) => JSON.parse(String(body)) as unknown;

describe('announcements page', () => {
  it('lists title, priority, attachment and status', async () => {
    stubApi({
      'GET /announcements': () =>
        pageOf([
          makeAnnouncement({ title: 'Corte de luz', priority: 1, mediaName: 'aviso.png' }),
          makeAnnouncement({ title: 'Nueva versión', priority: 2, status: false }),
          makeAnnouncement({ title: 'Bienvenida', priority: 3 }),
        ]),
    });
    renderPage(<AnnouncementsPage />, '/announcements', superUser());

    expect(await screen.findByRole('heading', { level: 1, name: 'Anuncios' })).toBeTruthy();
    await table().findByText('Corte de luz');
    expect(rowTexts()).toEqual([
      ['Corte de luz', 'Alta', 'aviso.png', 'Activo'],
      ['Nueva versión', 'Media', '—', 'Inactivo'],
      ['Bienvenida', 'Baja', '—', 'Activo'],
    ]);
    const chip = (label: string) => table().getByText(label).closest('.MuiChip-root');
    expect(chip('Alta')?.className).toContain('colorError');
    expect(chip('Media')?.className).toContain('colorWarning');
    expect(chip('Baja')?.className).toContain('colorDefault');
  });

  it('searches after the user stops typing for half a second', async () => {
    const fetchMock = stubApi({
      'GET /announcements': ({ url }) =>
        url.searchParams.get('searchParam') === 'luz'
          ? pageOf([makeAnnouncement({ title: 'Corte de luz' })])
          : pageOf([makeAnnouncement({ title: 'Bienvenida' })]),
    });
    const user = setupUserOnFakeClock();
    renderPage(<AnnouncementsPage />, '/announcements', superUser());
    await table().findByText('Bienvenida');

    await user.type(screen.getByRole('searchbox', { name: 'Buscar anuncios…' }), 'luz');
    expect(table().getByText('Bienvenida')).toBeTruthy();
    await advanceClock(SEARCH_DEBOUNCE_MS);
    expect(await table().findByText('Corte de luz')).toBeTruthy();

    const searches = requestsOf(fetchMock)
      .filter((call) => call.path === '/announcements' && call.query.searchParam)
      .map((call) => call.query.searchParam);
    // One request for the finished word, none for each keystroke.
    expect(searches.filter((term) => term !== '')).toEqual(['luz']);
  });

  it('loads the next page only within 100 px of the bottom', async () => {
    vi.spyOn(HTMLElement.prototype, 'scrollHeight', 'get').mockReturnValue(1000);
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(400);
    const fetchMock = stubApi({
      'GET /announcements': ({ url }) =>
        url.searchParams.get('pageNumber') === '2'
          ? pageOf([makeAnnouncement({ title: 'Segunda página' })], false, 21)
          : pageOf(
              Array.from({ length: 20 }, (_, index) =>
                makeAnnouncement({ title: `Fila ${index + 1}` }),
              ),
              true,
              21,
            ),
    });
    renderPage(<AnnouncementsPage />, '/announcements', superUser());
    await table().findByText('Fila 20');
    const container = screen.getByTestId('announcements-table');
    const pagesRequested = () =>
      requestsOf(fetchMock).filter(
        (call) => call.path === '/announcements' && call.query.pageNumber === '2',
      ).length;

    container.scrollTop = 480;
    // A page asked for on scroll is asked for at once: the handler decides as the event arrives.
    await act(async () => {
      container.dispatchEvent(new Event('scroll'));
    });
    expect(pagesRequested()).toBe(0);

    container.scrollTop = 500;
    container.dispatchEvent(new Event('scroll'));
    expect(await table().findByText('Segunda página')).toBeTruthy();
    expect(pagesRequested()).toBe(1);
  });

  it('creates an announcement with the defaults, then uploads its image', async () => {
    let created: unknown;
    let uploaded: FormData | undefined;
    const saved = makeAnnouncement({ id: 50, title: 'Mantenimiento programado', text: 'Sábado' });
    stubApi({
      'GET /announcements': () => pageOf([]),
      'POST /announcements': (init) => {
        created = jsonBody(init.body);
        return jsonResponse(201, saved);
      },
      'POST /announcements/50/media-upload': (init) => {
        uploaded = init.body as FormData;
        return jsonResponse(200, { ...saved, mediaName: 'aviso.png', mediaUrl: 'http://x/a.png' });
      },
    });
    const user = setupUser();
    renderPage(<AnnouncementsPage />, '/announcements', superUser());
    await table().findByText('No se encontraron anuncios.');

    await user.click(screen.getByRole('button', { name: 'Agregar anuncio' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Nuevo anuncio' }));
    await user.click(dialog.getByRole('button', { name: 'Guardar' }));
    expect(await dialog.findAllByText('Campo obligatorio')).toHaveLength(2);

    expect(dialog.getByRole('combobox', { name: 'Prioridad' }).textContent).toBe('Baja');
    expect((dialog.getByRole('switch', { name: 'Activo' }) as HTMLInputElement).checked).toBe(true);
    await fill(user, dialog.getByRole('textbox', { name: 'Título' }), 'Mantenimiento programado');
    await fill(user, dialog.getByRole('textbox', { name: 'Texto' }), 'Sábado');
    await user.upload(dialog.getByTestId('announcement-file-input'), image('aviso.png'));
    expect(dialog.getByTestId('announcement-attachment-name').textContent).toBe('aviso.png');
    await user.click(dialog.getByRole('button', { name: 'Guardar' }));

    expect(await screen.findByText('Anuncio creado.')).toBeTruthy();
    expect(created).toEqual({
      title: 'Mantenimiento programado',
      text: 'Sábado',
      priority: 3,
      status: true,
    });
    expect((uploaded?.get('file') as File).name).toBe('aviso.png');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(rowTexts()).toEqual([['Mantenimiento programado', 'Baja', 'aviso.png', 'Activo']]);
  });

  it('refuses an image that is not png or jpeg, with a translated message', async () => {
    const fetchMock = stubApi({ 'GET /announcements': () => pageOf([]) });
    const user = setupUser({ applyAccept: false });
    renderPage(<AnnouncementsPage />, '/announcements', superUser());

    await user.click(await screen.findByRole('button', { name: 'Agregar anuncio' }));
    const dialog = within(await screen.findByRole('dialog'));
    await fill(user, dialog.getByRole('textbox', { name: 'Título' }), 'Con gif');
    await fill(user, dialog.getByRole('textbox', { name: 'Texto' }), 'Texto');
    await user.upload(dialog.getByTestId('announcement-file-input'), image('animado.gif'));

    expect(dialog.getByText('Solo se permiten imágenes .png, .jpg o .jpeg')).toBeTruthy();
    await submitAndSettle(user, dialog.getByRole('button', { name: 'Guardar' }));
    expect(requestsOf(fetchMock).some((call) => call.method === 'POST')).toBe(false);

    await user.click(dialog.getByRole('button', { name: 'Quitar imagen' }));
    expect(dialog.queryByText('Solo se permiten imágenes .png, .jpg o .jpeg')).toBeNull();
    expect(dialog.getByRole('button', { name: 'Adjuntar imagen' })).toBeTruthy();
  });

  it('edits an announcement and removes its image', async () => {
    const existing = makeAnnouncement({
      id: 7,
      title: 'Corte de luz',
      text: 'Mañana',
      priority: 2,
      mediaName: 'corte.jpg',
      mediaUrl: 'http://x/corte.jpg',
    });
    let updated: unknown;
    let isMediaRemoved = false;
    stubApi({
      'GET /announcements': () => pageOf([existing]),
      'PUT /announcements/7': (init) => {
        updated = jsonBody(init.body);
        return jsonResponse(200, { ...existing, ...(updated as object) });
      },
      'DELETE /announcements/7/media-upload': () => {
        isMediaRemoved = true;
        return jsonResponse(200, {
          ...existing,
          ...(updated as object),
          mediaName: null,
          mediaUrl: null,
        });
      },
    });
    const user = setupUser();
    renderPage(<AnnouncementsPage />, '/announcements', superUser());

    await user.click(await table().findByRole('button', { name: 'Editar «Corte de luz»' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Editar anuncio' }));
    expect((dialog.getByRole('textbox', { name: 'Título' }) as HTMLInputElement).value).toBe(
      'Corte de luz',
    );
    expect(dialog.getByTestId('announcement-attachment-name').textContent).toBe('corte.jpg');
    await user.click(dialog.getByRole('combobox', { name: 'Prioridad' }));
    await user.click(await screen.findByRole('option', { name: 'Alta' }));
    await user.click(dialog.getByRole('switch', { name: 'Activo' }));
    await user.click(dialog.getByRole('button', { name: 'Quitar imagen' }));
    await user.click(dialog.getByRole('button', { name: 'Guardar' }));

    expect(await screen.findByText('Anuncio actualizado.')).toBeTruthy();
    expect(updated).toEqual({ title: 'Corte de luz', text: 'Mañana', priority: 1, status: false });
    expect(isMediaRemoved).toBe(true);
    await waitFor(() => expect(rowTexts()).toEqual([['Corte de luz', 'Alta', '—', 'Inactivo']]));
  });

  it('keeps the dialog open when the image upload fails, and saving again updates the record', async () => {
    const saved = makeAnnouncement({ id: 60, title: 'Con imagen', text: 'Texto' });
    const fetchMock = stubApi({
      'GET /announcements': () => pageOf([]),
      'POST /announcements': () => jsonResponse(201, saved),
      'PUT /announcements/60': () => jsonResponse(200, saved),
      'POST /announcements/60/media-upload': () =>
        jsonResponse(413, { error: 'ERR_UPLOAD_TOO_LARGE', message: 'too large' }),
    });
    const user = setupUser();
    renderPage(<AnnouncementsPage />, '/announcements', superUser());

    await user.click(await screen.findByRole('button', { name: 'Agregar anuncio' }));
    const dialog = within(await screen.findByRole('dialog'));
    await fill(user, dialog.getByRole('textbox', { name: 'Título' }), 'Con imagen');
    await fill(user, dialog.getByRole('textbox', { name: 'Texto' }), 'Texto');
    await user.upload(dialog.getByTestId('announcement-file-input'), image('grande.png'));
    await user.click(dialog.getByRole('button', { name: 'Guardar' }));

    expect(await screen.findByText('El archivo es demasiado grande')).toBeTruthy();
    expect(screen.getByRole('dialog')).toBeTruthy();
    // The record itself was saved and is listed.
    expect(await table().findByText('Con imagen')).toBeTruthy();

    await user.click(dialog.getByRole('button', { name: 'Guardar' }));
    await waitFor(() =>
      expect(
        requestsOf(fetchMock).filter((call) => call.path === '/announcements/60/media-upload'),
      ).toHaveLength(2),
    );
    const writes = requestsOf(fetchMock)
      .filter((call) => call.method !== 'GET')
      .map((call) => `${call.method} ${call.path}`);
    expect(writes).toEqual([
      'POST /announcements',
      'POST /announcements/60/media-upload',
      'PUT /announcements/60',
      'POST /announcements/60/media-upload',
    ]);
  });

  it('deletes after confirmation', async () => {
    let isDeleted = false;
    stubApi({
      'GET /announcements': () => pageOf([makeAnnouncement({ id: 9, title: 'Viejo aviso' })]),
      'DELETE /announcements/9': () => {
        isDeleted = true;
        return new Response(null, { status: 204 });
      },
    });
    const user = setupUser();
    renderPage(<AnnouncementsPage />, '/announcements', superUser());

    await user.click(await table().findByRole('button', { name: 'Eliminar «Viejo aviso»' }));
    const confirm = within(await screen.findByRole('dialog', { name: '¿Eliminar anuncio?' }));
    expect(confirm.getByText(/Se eliminará «Viejo aviso»/)).toBeTruthy();
    await user.click(confirm.getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(isDeleted).toBe(false);

    await user.click(table().getByRole('button', { name: 'Eliminar «Viejo aviso»' }));
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Eliminar' }),
    );

    expect(await screen.findByText('Anuncio eliminado.')).toBeTruthy();
    expect(isDeleted).toBe(true);
    expect(await table().findByText('No se encontraron anuncios.')).toBeTruthy();
  });

  it('shows a failed delete through the error toast', async () => {
    stubApi({
      'GET /announcements': () => pageOf([makeAnnouncement({ id: 9, title: 'Viejo aviso' })]),
      'DELETE /announcements/9': () =>
        jsonResponse(404, { error: 'ERR_NO_ANNOUNCEMENT_FOUND', message: 'not found' }),
    });
    const user = setupUser();
    renderPage(<AnnouncementsPage />, '/announcements', superUser());

    await user.click(await table().findByRole('button', { name: 'Eliminar «Viejo aviso»' }));
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Eliminar' }),
    );

    expect(await screen.findByText('Anuncio no encontrado')).toBeTruthy();
    expect(table().getByText('Viejo aviso')).toBeTruthy();
  });

  it('follows live changes made elsewhere, respecting the search', async () => {
    stubApi({
      'GET /announcements': ({ url }) =>
        url.searchParams.get('searchParam')
          ? pageOf([])
          : pageOf([makeAnnouncement({ id: 1, title: 'Primero' })]),
    });
    const user = setupUser();
    renderPage(<AnnouncementsPage />, '/announcements', superUser());
    await table().findByText('Primero');

    const created: Announcement = makeAnnouncement({
      id: 2,
      title: 'Desde otra pestaña',
      createdAt: '2025-04-01T00:00:00.000Z',
    });
    await receiveAnnouncementEvent({ action: 'create', record: created });
    expect(rowTexts().map((row) => row[0])).toEqual(['Desde otra pestaña', 'Primero']);

    await receiveAnnouncementEvent({ action: 'update', record: { ...created, priority: 1 } });
    expect(rowTexts()[0]).toEqual(['Desde otra pestaña', 'Alta', '—', 'Activo']);

    await receiveAnnouncementEvent({ action: 'delete', id: 1 });
    expect(rowTexts().map((row) => row[0])).toEqual(['Desde otra pestaña']);

    await user.type(screen.getByRole('searchbox'), 'luz');
    await table().findByText('Ningún anuncio coincide con la búsqueda.');
    await receiveAnnouncementEvent({
      action: 'create',
      record: makeAnnouncement({ title: 'Sin coincidencia' }),
    });
    await receiveAnnouncementEvent({
      action: 'create',
      record: makeAnnouncement({ title: 'Corte de luz' }),
    });
    expect(rowTexts().map((row) => row[0])).toEqual(['Corte de luz']);
  });
});
