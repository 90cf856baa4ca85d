import { act, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ContactListItemView, ContactListView } from '@atendi/shared';
import { getSocket } from '../../api/socket';
import { unknownApiCalls } from '../../test/api-routes';
import type { FakeSocket } from '../../test/fake-socket';
import { callsOf, jsonResponse, makeAuth, stubApi } from '../../test/fixtures';
import { renderPage } from '../../test/render-page';
import { fill, refill, setupUser } from '../../test/user-event';
import { ContactListItemsPage } from './contact-list-items-page';
import { ContactListsPage } from './contact-lists-page';

const makeList = (overrides: Partial<ContactListView> = {}): ContactListView => ({
  id: 5,
  name: 'Clientes VIP',
  companyId: 1,
  contactsCount: 3,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...overrides,
});

const makeItem = (overrides: Partial<ContactListItemView> = {}): ContactListItemView => ({
  id: 41,
  name: 'Lucía Pérez',
  number: '5491155550001',
  email: 'lucia@example.com',
  companyId: 1,
  contactListId: 5,
  isWhatsappValid: true,
  createdAt: '2026-01-02T00:00:00.000Z',
  updatedAt: '2026-01-02T00:00:00.000Z',
  ...overrides,
});

const items = [
  makeItem(),
  makeItem({ id: 42, name: 'Mario Gómez', number: '5215512345678', isWhatsappValid: false }),
  makeItem({ id: 43, name: 'Sara Ruiz', number: '34600111222', email: '', isWhatsappValid: null }),
];

const itemsOf =
  (contacts: ContactListItemView[], hasMore = false) =>
  () =>
    jsonResponse(200, { contacts, count: contacts.length, hasMore });

const bodyOf = (init: RequestInit) => JSON.parse(String(init.body)) as Record<string, unknown>;
const socket = () => getSocket() as unknown as FakeSocket;
const rowOf = async (text: string) => (await screen.findByText(text)).closest('tr')!;
const PATH = '/contact-lists/5/contacts';

// SPEC §2: the campaign routes exist only with the local cshow flag (and a plan with campaigns).
beforeEach(() => window.localStorage.setItem('cshow', 'true'));

describe('contact list items page', () => {
  it("shows the list's name over its contacts with their WhatsApp state, and searches", async () => {
    const fetchMock = stubApi({
      'GET /contact-lists/5': () => jsonResponse(200, makeList()),
      'GET /contact-list-items': ({ url }) =>
        url.searchParams.get('searchParam') === 'sara' ? itemsOf([items[2]!])() : itemsOf(items)(),
    });
    const user = setupUser();
    renderPage(<ContactListItemsPage />, PATH, makeAuth(), {
      route: '/contact-lists/:contactListId/contacts',
    });

    expect(await screen.findByRole('heading', { level: 1, name: 'Clientes VIP' })).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'Contactos de la lista' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['WhatsApp', 'Nombre', 'Número', 'Correo electrónico', 'Acciones']);
    const lucia = await rowOf('Lucía Pérez');
    expect(within(lucia).getByRole('img', { name: 'WhatsApp válido' })).toBeTruthy();
    expect(await within(lucia).findByText('+54 9 11 5555 0001')).toBeTruthy();
    expect(within(lucia).getByText('lucia@example.com')).toBeTruthy();
    expect(
      within(await rowOf('Mario Gómez')).getByRole('img', { name: 'Sin WhatsApp' }),
    ).toBeTruthy();
    expect(
      within(await rowOf('Sara Ruiz')).getByRole('img', { name: 'Sin verificar' }),
    ).toBeTruthy();
    // SPEC §2: the import sits beside the add button (its dialog: contact-list-import-dialog.test).
    expect(screen.getByRole('button', { name: 'Importar' }).nextElementSibling).toBe(
      screen.getByRole('button', { name: 'Agregar contacto' }),
    );

    await user.type(screen.getByRole('searchbox', { name: 'Buscar contactos' }), 'sara');
    await waitFor(() => expect(screen.queryByText('Lucía Pérez')).toBeNull());
    expect(await screen.findByText('Sara Ruiz')).toBeTruthy();
    expect(callsOf(fetchMock).filter((call) => call.startsWith('GET /contact-list'))).toEqual([
      'GET /contact-lists/5',
      'GET /contact-list-items?contactListId=5&searchParam=&pageNumber=1',
      'GET /contact-list-items?contactListId=5&searchParam=sara&pageNumber=1',
    ]);
    expect(unknownApiCalls(fetchMock)).toEqual([]);
  });

  it('adds a contact after checking it, and shows a number already in the list', async () => {
    const sent: Record<string, unknown>[] = [];
    const fetchMock = stubApi({
      'GET /contact-lists/5': () => jsonResponse(200, makeList()),
      'GET /contact-list-items': itemsOf([]),
      'POST /contact-list-items': (init) => {
        sent.push(bodyOf(init));
        return sent.length === 1
          ? jsonResponse(409, {
              error: 'ERR_DUPLICATED_LIST_ITEM',
              message: 'This number is already in the list',
              fields: { number: ['ERR_DUPLICATED_LIST_ITEM'] },
            })
          : jsonResponse(
              201,
              makeItem({ id: 50, name: 'Ana Díaz', number: '5215500001111', email: 'ana@x.com' }),
            );
      },
    });
    const user = setupUser();
    renderPage(<ContactListItemsPage />, PATH, makeAuth(), {
      route: '/contact-lists/:contactListId/contacts',
    });
    expect(await screen.findByText('Esta lista aún no tiene contactos.')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Agregar contacto' }));
    const dialog = await screen.findByRole('dialog', { name: 'Agregar contacto' });
    const name = within(dialog).getByRole('textbox', { name: 'Nombre' });
    const number = within(dialog).getByRole('textbox', { name: 'Número' });
    const email = within(dialog).getByRole('textbox', { name: 'Correo electrónico' });
    await fill(user, name, 'A');
    await fill(user, number, '12ab');
    await fill(user, email, 'ana@');
    await user.click(within(dialog).getByRole('button', { name: 'Agregar' }));
    expect(await within(dialog).findByText('Debe tener entre 2 y 50 caracteres')).toBeTruthy();
    expect(within(dialog).getByText('Use de 8 a 15 dígitos')).toBeTruthy();
    expect(within(dialog).getByText('Correo electrónico inválido')).toBeTruthy();
    expect(sent).toEqual([]);

    await refill(user, name, 'Ana Díaz');
    await refill(user, number, '+52 1 55 0000 1111');
    await refill(user, email, 'Ana@X.com');
    await user.click(within(dialog).getByRole('button', { name: 'Agregar' }));
    expect(await within(dialog).findByText('Ese número ya está en la lista.')).toBeTruthy();
    expect(sent).toEqual([
      { name: 'Ana Díaz', number: '+52 1 55 0000 1111', email: 'ana@x.com', contactListId: 5 },
    ]);

    await refill(user, number, '5215500001111');
    await user.click(within(dialog).getByRole('button', { name: 'Agregar' }));
    expect(await screen.findByText('Contacto guardado.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const row = await rowOf('Ana Díaz');
    expect(await within(row).findByText('+52 55 0000 1111')).toBeTruthy();
    expect(unknownApiCalls(fetchMock)).toEqual([]);
  });

  it('edits a contact of the list', async () => {
    let sent: Record<string, unknown> | undefined;
    const fetchMock = stubApi({
      'GET /contact-lists/5': () => jsonResponse(200, makeList()),
      'GET /contact-list-items': itemsOf(items),
      'PUT /contact-list-items/41': (init) => {
        sent = bodyOf(init);
        return jsonResponse(200, makeItem({ name: 'Lucía P. Gómez', isWhatsappValid: null }));
      },
    });
    const user = setupUser();
    renderPage(<ContactListItemsPage />, PATH, makeAuth(), {
      route: '/contact-lists/:contactListId/contacts',
    });

    await user.click(
      within(await rowOf('Lucía Pérez')).getByRole('button', { name: 'Editar Lucía Pérez' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Editar contacto' });
    expect(
      (within(dialog).getByRole('textbox', { name: 'Número' }) as HTMLInputElement).value,
    ).toBe('5491155550001');
    await refill(user, within(dialog).getByRole('textbox', { name: 'Nombre' }), 'Lucía P. Gómez');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const row = await rowOf('Lucía P. Gómez');
    expect(within(row).getByRole('img', { name: 'Sin verificar' })).toBeTruthy();
    expect(screen.queryByText('Lucía Pérez')).toBeNull();
    // Only what changed: the number is not looked up again.
    expect(sent).toEqual({ name: 'Lucía P. Gómez' });
    expect(unknownApiCalls(fetchMock)).toEqual([]);
  });

  it('removes a contact from the list only after confirmation', async () => {
    let deleted = false;
    const fetchMock = stubApi({
      'GET /contact-lists/5': () => jsonResponse(200, makeList()),
      'GET /contact-list-items': itemsOf(items),
      'DELETE /contact-list-items/42': () => {
        deleted = true;
        return new Response(null, { status: 204 });
      },
    });
    const user = setupUser();
    renderPage(<ContactListItemsPage />, PATH, makeAuth(), {
      route: '/contact-lists/:contactListId/contacts',
    });

    await user.click(
      within(await rowOf('Mario Gómez')).getByRole('button', { name: 'Eliminar Mario Gómez' }),
    );
    const confirm = await screen.findByRole('dialog', {
      name: '¿Eliminar a Mario Gómez de la lista?',
    });
    expect(deleted).toBe(false);
    await user.click(within(confirm).getByRole('button', { name: 'Eliminar' }));

    expect(await screen.findByText('Contacto eliminado de la lista.')).toBeTruthy();
    expect(deleted).toBe(true);
    await waitFor(() => expect(screen.queryByText('Mario Gómez')).toBeNull());
    expect(screen.getByText('Lucía Pérez')).toBeTruthy();
    expect(unknownApiCalls(fetchMock)).toEqual([]);
  });

  it('says when the list does not exist and leads back to the lists', async () => {
    const fetchMock = stubApi({
      'GET /contact-lists/77': () =>
        jsonResponse(404, { error: 'ERR_NO_CONTACT_LIST_FOUND', message: 'Not found' }),
      'GET /contact-lists': () => jsonResponse(200, { records: [], count: 0, hasMore: false }),
    });
    const user = setupUser();
    renderPage(<ContactListItemsPage />, '/contact-lists/77/contacts', makeAuth(), {
      route: '/contact-lists/:contactListId/contacts',
      routes: { '/contact-lists': <ContactListsPage /> },
    });

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Lista no encontrada' }),
    ).toBeTruthy();
    expect(screen.getByText('No se encontró la lista de contactos.')).toBeTruthy();
    // Its items are not asked for.
    expect(callsOf(fetchMock).some((call) => call.startsWith('GET /contact-list-items'))).toBe(
      false,
    );

    await user.click(screen.getByRole('link', { name: 'Volver a las listas' }));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Listas de contactos' }),
    ).toBeTruthy();
    expect(unknownApiCalls(fetchMock)).toEqual([]);
  });

  it('goes back to the lists', async () => {
    stubApi({
      'GET /contact-lists/5': () => jsonResponse(200, makeList()),
      'GET /contact-list-items': itemsOf(items),
      'GET /contact-lists': () =>
        jsonResponse(200, { records: [makeList()], count: 1, hasMore: false }),
    });
    const user = setupUser();
    renderPage(<ContactListItemsPage />, PATH, makeAuth(), {
      route: '/contact-lists/:contactListId/contacts',
      routes: { '/contact-lists': <ContactListsPage /> },
    });

    await user.click(await screen.findByRole('link', { name: 'Volver a las listas' }));
    expect(await screen.findByRole('table', { name: 'Listas de contactos' })).toBeTruthy();
    expect(await screen.findByText('Clientes VIP')).toBeTruthy();
  });

  it('follows the live events of its list only', async () => {
    let listGone = false;
    stubApi({
      'GET /contact-lists/5': () =>
        listGone
          ? jsonResponse(404, { error: 'ERR_NO_CONTACT_LIST_FOUND', message: 'Not found' })
          : jsonResponse(200, makeList()),
      'GET /contact-list-items': itemsOf([items[0]!]),
    });
    renderPage(<ContactListItemsPage />, PATH, makeAuth(), {
      route: '/contact-lists/:contactListId/contacts',
    });
    await screen.findByText('Lucía Pérez');

    act(() => {
      socket().receive('company-1-ContactListItem', {
        action: 'create',
        record: makeItem({ id: 60, name: 'Nuevo Contacto', isWhatsappValid: false }),
      });
      socket().receive('company-1-ContactListItem', {
        action: 'create',
        record: makeItem({ id: 61, name: 'De otra lista', contactListId: 6 }),
      });
    });
    const row = await rowOf('Nuevo Contacto');
    expect(within(row).getByRole('img', { name: 'Sin WhatsApp' })).toBeTruthy();
    expect(screen.queryByText('De otra lista')).toBeNull();

    act(() => {
      socket().receive('company-1-ContactListItem', {
        action: 'update',
        record: makeItem({ id: 60, name: 'Nuevo Contacto', isWhatsappValid: true }),
      });
    });
    await waitFor(async () =>
      expect(
        within(await rowOf('Nuevo Contacto')).getByRole('img', { name: 'WhatsApp válido' }),
      ).toBeTruthy(),
    );

    act(() => {
      socket().receive('company-1-ContactListItem', { action: 'delete', id: 41, contactListId: 5 });
    });
    await waitFor(() => expect(screen.queryByText('Lucía Pérez')).toBeNull());

    act(() => {
      socket().receive('company-1-ContactList', {
        action: 'update',
        record: makeList({ name: 'Clientes oro' }),
      });
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Clientes oro' })).toBeTruthy();

    listGone = true;
    act(() => {
      socket().receive('company-1-ContactList', { action: 'delete', id: 5 });
    });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Lista no encontrada' }),
    ).toBeTruthy();
  });
});
