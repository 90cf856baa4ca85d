import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ContactListView } from '@atendi/shared';
import { getSocket } from '../../api/socket';
import { SEARCH_DEBOUNCE_MS } from '../../lib/use-debounced-value';
import { advanceClock, setupUserOnFakeClock } from '../../test/clock';
import { unknownApiCalls } from '../../test/api-routes';
import type { FakeSocket } from '../../test/fake-socket';
import { callsOf, jsonResponse, makeAuth, stubApi } from '../../test/fixtures';
import { renderPage } from '../../test/render-page';
import { fill, refill, setupUser } from '../../test/user-event';
import { readSheet } from 'read-excel-file/node';
import { SAMPLE_SHEET_NAME } from '../../lib/sample-sheet';
import { ContactListsPage } from './contact-lists-page';
import { ContactListItemsPage } from './contact-list-items-page';

const makeList = (overrides: Partial<ContactListView> = {}): ContactListView => ({
  id: 5,
  name: 'Clientes VIP',
  companyId: 1,
  contactsCount: 12,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...overrides,
});

const listOf =
  (records: ContactListView[], hasMore = false) =>
  () =>
    jsonResponse(200, { records, count: records.length, hasMore });

const bodyOf = (init: RequestInit) => JSON.parse(String(init.body)) as Record<string, unknown>;
const socket = () => getSocket() as unknown as FakeSocket;
const rowOf = async (text: string) => (await screen.findByText(text)).closest('tr')!;
// jsdom's Blob has no arrayBuffer(): read through FileReader.
const bytesOf = (blob: Blob) =>
  new Promise<Buffer>((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(Buffer.from(reader.result as ArrayBuffer));
    reader.readAsArrayBuffer(blob);
  });
const cellTexts = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .map((cell) => cell.textContent);

// SPEC §2: the campaign routes exist only with the local cshow flag (and a plan with campaigns).
beforeEach(() => window.localStorage.setItem('cshow', 'true'));

describe('contact lists page', () => {
  it('lists names with their contacts count and searches once typing settles', async () => {
    const fetchMock = stubApi({
      'GET /contact-lists': ({ url }) =>
        url.searchParams.get('searchParam') === 'vip'
          ? listOf([makeList()])()
          : listOf([makeList(), makeList({ id: 6, name: 'Proveedores', contactsCount: 0 })])(),
    });
    const user = setupUserOnFakeClock();
    renderPage(<ContactListsPage />, '/contact-lists', makeAuth());

    const table = await screen.findByRole('table', { name: 'Listas de contactos' });
    expect(screen.getByRole('heading', { level: 1, name: 'Listas de contactos' })).toBeTruthy();
    expect(cellTexts(await rowOf('Clientes VIP')).slice(0, 2)).toEqual(['Clientes VIP', '12']);
    expect(cellTexts(await rowOf('Proveedores')).slice(0, 2)).toEqual(['Proveedores', '0']);
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Nombre', 'Contactos', 'Acciones']);

    await user.type(screen.getByRole('searchbox', { name: 'Buscar listas de contactos' }), 'vip');
    await advanceClock(SEARCH_DEBOUNCE_MS);
    await waitFor(() => expect(screen.queryByText('Proveedores')).toBeNull());
    expect(await screen.findByText('Clientes VIP')).toBeTruthy();
    expect(callsOf(fetchMock).filter((call) => call.startsWith('GET /contact-lists'))).toEqual([
      'GET /contact-lists?searchParam=&pageNumber=1',
      'GET /contact-lists?searchParam=vip&pageNumber=1',
    ]);
    expect(unknownApiCalls(fetchMock)).toEqual([]);
  });

  it('creates a list after checking its name', async () => {
    let created: Record<string, unknown> | undefined;
    const fetchMock = stubApi({
      'GET /contact-lists': listOf([]),
      'POST /contact-lists': (init) => {
        created = bodyOf(init);
        return jsonResponse(201, makeList({ id: 9, name: 'Promoción', contactsCount: 0 }));
      },
    });
    const user = setupUser();
    renderPage(<ContactListsPage />, '/contact-lists', makeAuth());
    expect(await screen.findByText('Aún no hay listas de contactos.')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Agregar lista' }));
    const dialog = await screen.findByRole('dialog', { name: 'Agregar lista de contactos' });
    await user.click(within(dialog).getByRole('button', { name: 'Agregar' }));
    expect(await within(dialog).findByText('Campo obligatorio')).toBeTruthy();
    const name = within(dialog).getByRole('textbox', { name: 'Nombre' });
    await fill(user, name, 'P');
    expect(await within(dialog).findByText('Debe tener entre 2 y 50 caracteres')).toBeTruthy();
    await refill(user, name, 'x'.repeat(51));
    expect(await within(dialog).findByText('Debe tener entre 2 y 50 caracteres')).toBeTruthy();
    expect(callsOf(fetchMock).some((call) => call.startsWith('POST'))).toBe(false);

    await refill(user, name, '  Promoción ');
    await user.click(within(dialog).getByRole('button', { name: 'Agregar' }));
    expect(await screen.findByText('Lista de contactos guardada.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(created).toEqual({ name: 'Promoción' });
    expect(cellTexts(await rowOf('Promoción')).slice(0, 2)).toEqual(['Promoción', '0']);
    expect(unknownApiCalls(fetchMock)).toEqual([]);
  });

  it('shows a validation error of the API under the name', async () => {
    stubApi({
      'GET /contact-lists': listOf([]),
      'POST /contact-lists': () =>
        jsonResponse(400, {
          error: 'ERR_VALIDATION',
          message: 'Invalid body',
          fields: { name: ['Too big: expected string to have <=50 characters'] },
        }),
    });
    const user = setupUser();
    renderPage(<ContactListsPage />, '/contact-lists', makeAuth());

    await user.click(await screen.findByRole('button', { name: 'Agregar lista' }));
    const dialog = await screen.findByRole('dialog', { name: 'Agregar lista de contactos' });
    await fill(user, within(dialog).getByRole('textbox', { name: 'Nombre' }), 'Promoción');
    await user.click(within(dialog).getByRole('button', { name: 'Agregar' }));

    expect(await within(dialog).findByText('Debe tener entre 2 y 50 caracteres')).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Agregar lista de contactos' })).toBeTruthy();
  });

  it('renames a list', async () => {
    let sent: Record<string, unknown> | undefined;
    const fetchMock = stubApi({
      'GET /contact-lists': listOf([makeList()]),
      'PUT /contact-lists/5': (init) => {
        sent = bodyOf(init);
        return jsonResponse(200, makeList({ name: 'Clientes oro' }));
      },
    });
    const user = setupUser();
    renderPage(<ContactListsPage />, '/contact-lists', makeAuth());

    await user.click(
      within(await rowOf('Clientes VIP')).getByRole('button', { name: 'Editar Clientes VIP' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Editar lista de contactos' });
    const name = within(dialog).getByRole('textbox', { name: 'Nombre' });
    expect((name as HTMLInputElement).value).toBe('Clientes VIP');
    await refill(user, name, 'Clientes oro');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(cellTexts(await rowOf('Clientes oro')).slice(0, 2)).toEqual(['Clientes oro', '12']);
    expect(screen.queryByText('Clientes VIP')).toBeNull();
    expect(sent).toEqual({ name: 'Clientes oro' });
    expect(unknownApiCalls(fetchMock)).toEqual([]);
  });

  it('deletes a list and its contacts only after confirmation', async () => {
    let deleted = false;
    const fetchMock = stubApi({
      'GET /contact-lists': listOf([makeList()]),
      'DELETE /contact-lists/5': () => {
        deleted = true;
        return new Response(null, { status: 204 });
      },
    });
    const user = setupUser();
    renderPage(<ContactListsPage />, '/contact-lists', makeAuth());

    await user.click(
      within(await rowOf('Clientes VIP')).getByRole('button', { name: 'Eliminar Clientes VIP' }),
    );
    const confirm = await screen.findByRole('dialog', {
      name: '¿Eliminar la lista de contactos Clientes VIP?',
    });
    expect(
      within(confirm).getByText(
        'Se eliminarán también sus 12 contactos. Esta acción no se puede deshacer.',
      ),
    ).toBeTruthy();
    expect(deleted).toBe(false);
    await user.click(within(confirm).getByRole('button', { name: 'Eliminar' }));

    expect(await screen.findByText('Lista de contactos eliminada.')).toBeTruthy();
    expect(deleted).toBe(true);
    await waitFor(() => expect(screen.queryByText('Clientes VIP')).toBeNull());
    expect(unknownApiCalls(fetchMock)).toEqual([]);
  });

  it("opens a list's contacts", async () => {
    const fetchMock = stubApi({
      'GET /contact-lists': listOf([makeList()]),
      'GET /contact-lists/5': () => jsonResponse(200, makeList()),
      'GET /contact-list-items': () =>
        jsonResponse(200, { contacts: [], count: 0, hasMore: false }),
    });
    const user = setupUser();
    renderPage(<ContactListsPage />, '/contact-lists', makeAuth(), {
      routes: { '/contact-lists/:contactListId/contacts': <ContactListItemsPage /> },
    });

    await user.click(
      within(await rowOf('Clientes VIP')).getByRole('button', {
        name: 'Abrir contactos de Clientes VIP',
      }),
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'Clientes VIP' })).toBeTruthy();
    expect(await screen.findByRole('table', { name: 'Contactos de la lista' })).toBeTruthy();
    expect(callsOf(fetchMock)).toContain(
      'GET /contact-list-items?contactListId=5&searchParam=&pageNumber=1',
    );
    expect(unknownApiCalls(fetchMock)).toEqual([]);
  });

  it('follows the live list events', async () => {
    stubApi({ 'GET /contact-lists': listOf([makeList()]) });
    renderPage(<ContactListsPage />, '/contact-lists', makeAuth());
    await screen.findByText('Clientes VIP');

    act(() => {
      socket().receive('company-1-ContactList', {
        action: 'create',
        record: makeList({ id: 9, name: 'Nueva lista', contactsCount: 0 }),
      });
    });
    expect(cellTexts(await rowOf('Nueva lista')).slice(0, 2)).toEqual(['Nueva lista', '0']);

    // A contact added to the list elsewhere: the server tells the list again with its new count.
    act(() => {
      socket().receive('company-1-ContactList', {
        action: 'update',
        record: makeList({ contactsCount: 13 }),
      });
    });
    await waitFor(async () =>
      expect(cellTexts(await rowOf('Clientes VIP')).slice(0, 2)).toEqual(['Clientes VIP', '13']),
    );

    act(() => {
      socket().receive('company-1-ContactList', { action: 'delete', id: 9 });
    });
    await waitFor(() => expect(screen.queryByText('Nueva lista')).toBeNull());
    // Another company's channel is not this page's.
    act(() => {
      socket().receive('company-2-ContactList', {
        action: 'create',
        record: makeList({ id: 10, companyId: 2, name: 'Ajena' }),
      });
    });
    expect(screen.queryByText('Ajena')).toBeNull();
  });

  describe('sample spreadsheet', () => {
    const createObjectURL = URL.createObjectURL;
    const revokeObjectURL = URL.revokeObjectURL;
    afterEach(() => {
      URL.createObjectURL = createObjectURL;
      URL.revokeObjectURL = revokeObjectURL;
      vi.restoreAllMocks();
    });

    it('downloads a template with the header row and an example', async () => {
      let blob: Blob | undefined;
      URL.createObjectURL = vi.fn((object: Blob | MediaSource) => {
        blob = object as Blob;
        return 'blob:sample';
      });
      URL.revokeObjectURL = vi.fn();
      const clicked: { href: string; download: string }[] = [];
      vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
        this: HTMLAnchorElement,
      ) {
        clicked.push({ href: this.href, download: this.download });
      });
      stubApi({ 'GET /contact-lists': listOf([makeList()]) });
      const user = setupUser();
      renderPage(<ContactListsPage />, '/contact-lists', makeAuth());

      await user.click(
        within(await rowOf('Clientes VIP')).getByRole('button', {
          name: 'Descargar planilla de ejemplo',
        }),
      );
      await waitFor(() =>
        expect(clicked).toEqual([{ href: 'blob:sample', download: 'plantilla-contactos.xlsx' }]),
      );
      expect(SAMPLE_SHEET_NAME).toBe('plantilla-contactos.xlsx');
      // A real spreadsheet, with the header row the import recognises.
      expect(await readSheet(await bytesOf(blob!))).toEqual([
        ['name', 'number', 'email'],
        ['Juan Pérez', '5215512345678', 'juan@example.com'],
      ]);
    });
  });
});
