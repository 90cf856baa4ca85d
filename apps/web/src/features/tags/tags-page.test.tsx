import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TagView } from '@atendi/shared';
import { getSocket } from '../../api/socket';
import { SEARCH_DEBOUNCE_MS } from '../../lib/use-debounced-value';
import { advanceClock, setupUserOnFakeClock } from '../../test/clock';
import type { FakeSocket } from '../../test/fake-socket';
import { callsOf, jsonResponse, makeAuth, stubApi } from '../../test/fixtures';
import { renderPage } from '../../test/render-page';
import { fill, refill, setupUser } from '../../test/user-event';
import { TagsPage } from './tags-page';

const makeTag = (overrides: Partial<TagView> = {}): TagView => ({
  id: 5,
  name: 'Urgente',
  color: '#ff0000',
  kanban: 0,
  userId: 1,
  ticketsCount: 0,
  ...overrides,
});

const listOf =
  (tags: TagView[], hasMore = false) =>
  () =>
    jsonResponse(200, { tags, hasMore });

const bodyOf = (init: RequestInit) => JSON.parse(String(init.body)) as Record<string, unknown>;
const socket = () => getSocket() as unknown as FakeSocket;
const rowOf = async (text: string) => (await screen.findByText(text)).closest('tr')!;

describe('tags page', () => {
  it('lists each tag as a coloured chip with its ticket count and kanban flag', async () => {
    stubApi({
      'GET /tags': listOf([
        makeTag({ ticketsCount: 7 }),
        makeTag({ id: 6, name: 'Cliente VIP', color: '#00ff00', kanban: 1, ticketsCount: 0 }),
      ]),
    });
    renderPage(<TagsPage />, '/tags', makeAuth());

    const urgent = await rowOf('Urgente');
    expect(within(urgent).getByText('7')).toBeTruthy();
    expect(within(urgent).getByText('No')).toBeTruthy();
    const chip = within(urgent).getByText('Urgente').closest('.MuiChip-root') as HTMLElement;
    expect(getComputedStyle(chip).backgroundColor).toBe('rgb(255, 0, 0)');
    const vip = await rowOf('Cliente VIP');
    expect(within(vip).getByText('Sí')).toBeTruthy();
    expect(within(vip).getByText('0')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'Etiquetas' })).toBeTruthy();
  });

  it('searches 500 ms after the last keystroke and loads the next page near the bottom', async () => {
    const first = Array.from({ length: 20 }, (_, index) =>
      makeTag({ id: index + 1, name: `Etiqueta ${index + 1}` }),
    );
    const fetchMock = stubApi({
      'GET /tags': ({ url }) => {
        if (url.searchParams.get('searchParam') === 'vip')
          return listOf([makeTag({ id: 50, name: 'Cliente VIP' })])();
        return url.searchParams.get('pageNumber') === '2'
          ? listOf([makeTag({ id: 99, name: 'Última etiqueta' })])()
          : listOf(first, true)();
      },
    });
    const user = setupUserOnFakeClock();
    renderPage(<TagsPage />, '/tags', makeAuth());
    await screen.findByText('Etiqueta 20');

    const box = screen.getByTestId('tags-scroll');
    Object.defineProperty(box, 'scrollHeight', { configurable: true, value: 1000 });
    Object.defineProperty(box, 'clientHeight', { configurable: true, value: 400 });
    box.scrollTop = 300;
    fireEvent.scroll(box);
    expect(callsOf(fetchMock)).not.toContain('GET /tags?searchParam=&pageNumber=2');
    box.scrollTop = 520;
    fireEvent.scroll(box);
    expect(await screen.findByText('Última etiqueta')).toBeTruthy();

    await user.type(screen.getByRole('searchbox', { name: 'Buscar etiquetas' }), 'vip');
    expect(callsOf(fetchMock).filter((call) => call.includes('searchParam=v'))).toEqual([]);
    await advanceClock(SEARCH_DEBOUNCE_MS);
    expect(await screen.findByText('Cliente VIP')).toBeTruthy();
    expect(screen.queryByText('Etiqueta 1')).toBeNull();
    expect(callsOf(fetchMock).filter((call) => call.startsWith('GET /tags?'))).toEqual([
      'GET /tags?searchParam=&pageNumber=1',
      'GET /tags?searchParam=&pageNumber=2',
      'GET /tags?searchParam=vip&pageNumber=1',
    ]);
  });

  it('adds a tag with a colour and the kanban switch, after checking the name length', async () => {
    let sent: Record<string, unknown> | undefined;
    const fetchMock = stubApi({
      'GET /tags': listOf([]),
      'POST /tags': (init) => {
        sent = bodyOf(init);
        return jsonResponse(
          201,
          makeTag({ id: 8, name: 'Reclamo', color: '#00aa11', kanban: 1, ticketsCount: 0 }),
        );
      },
    });
    const user = setupUser();
    renderPage(<TagsPage />, '/tags', makeAuth());
    expect(
      await screen.findByText(
        'Aún no hay etiquetas. Cree una con «Agregar etiqueta»: las que tienen Kanban activado son las columnas del tablero.',
      ),
    ).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Agregar etiqueta' }));
    const dialog = await screen.findByRole('dialog');
    const name = within(dialog).getByRole('textbox', { name: 'Nombre' });
    await fill(user, name, 'Re');
    await user.click(within(dialog).getByRole('button', { name: 'Agregar' }));
    expect(await within(dialog).findByText('Debe tener entre 3 y 50 caracteres')).toBeTruthy();
    expect(callsOf(fetchMock).some((call) => call.startsWith('POST'))).toBe(false);

    await refill(user, name, 'Reclamo');
    const color = within(dialog).getByRole('textbox', { name: 'Color (hex)' });
    // A colour the browser paints but the API does not take (#rgba).
    await refill(user, color, '#0a1f');
    await user.click(within(dialog).getByRole('button', { name: 'Agregar' }));
    expect(
      await within(dialog).findByText('Use un color hexadecimal, p. ej. #A4CCCC'),
    ).toBeTruthy();
    expect(callsOf(fetchMock).some((call) => call.startsWith('POST'))).toBe(false);
    await refill(user, color, '#00AA11');
    await user.click(
      within(dialog).getByRole('switch', { name: 'Mostrar como columna del Kanban' }),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Agregar' }));

    expect(await screen.findByText('Etiqueta guardada.')).toBeTruthy();
    expect(sent).toEqual({ name: 'Reclamo', color: '#00aa11', kanban: 1 });
    expect(await screen.findByText('Reclamo')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('edits a tag and marks a name already in use on the name field', async () => {
    const bodies: Record<string, unknown>[] = [];
    stubApi({
      'GET /tags': listOf([makeTag({ ticketsCount: 4, kanban: 1 })]),
      'PUT /tags/5': (init) => {
        const body = bodyOf(init);
        bodies.push(body);
        return body.name === 'Ocupada'
          ? jsonResponse(409, {
              error: 'ERR_VALIDATION',
              message: 'A tag with this name already exists',
              fields: { name: ['Already in use'] },
            })
          : jsonResponse(200, makeTag({ name: 'Muy urgente', kanban: 1, ticketsCount: 4 }));
      },
    });
    const user = setupUser();
    renderPage(<TagsPage />, '/tags', makeAuth());

    await user.click(
      within(await rowOf('Urgente')).getByRole('button', { name: 'Editar Urgente' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Editar etiqueta' });
    const name = within(dialog).getByRole('textbox', { name: 'Nombre' });
    expect((name as HTMLInputElement).value).toBe('Urgente');
    expect(
      (within(dialog).getByRole('switch', { name: /Kanban/ }) as HTMLInputElement).checked,
    ).toBe(true);

    await refill(user, name, 'Ocupada');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(await within(dialog).findByText('Ya existe una etiqueta con este nombre.')).toBeTruthy();

    await refill(user, name, 'Muy urgente');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    const row = await rowOf('Muy urgente');
    expect(within(row).getByText('4')).toBeTruthy();
    expect(bodies.at(-1)).toEqual({ name: 'Muy urgente', color: '#ff0000', kanban: 1 });
  });

  it('deletes a tag only after confirmation', async () => {
    let deleted = false;
    stubApi({
      'GET /tags': listOf([makeTag({ ticketsCount: 2 })]),
      'DELETE /tags/5': () => {
        deleted = true;
        return new Response(null, { status: 204 });
      },
    });
    const user = setupUser();
    renderPage(<TagsPage />, '/tags', makeAuth());

    await user.click(
      within(await rowOf('Urgente')).getByRole('button', { name: 'Eliminar Urgente' }),
    );
    const confirm = await screen.findByRole('dialog', { name: '¿Eliminar la etiqueta Urgente?' });
    expect(within(confirm).getByText(/Se quitará de 2 tickets/)).toBeTruthy();
    expect(deleted).toBe(false);
    await user.click(within(confirm).getByRole('button', { name: 'Eliminar' }));

    expect(await screen.findByText('Etiqueta eliminada.')).toBeTruthy();
    expect(deleted).toBe(true);
    await waitFor(() => expect(screen.queryByText('Urgente')).toBeNull());
  });

  it('applies live tag events to the table, keeping the ticket count', async () => {
    stubApi({ 'GET /tags': listOf([makeTag({ ticketsCount: 3 })]) });
    renderPage(<TagsPage />, '/tags', makeAuth({ user: { profile: 'user' } }));
    await screen.findByText('Urgente');

    act(() => {
      socket().receive('company-1-tag', {
        action: 'create',
        tag: { id: 9, name: 'Nueva', color: '#0000ff', kanban: 0 },
      });
    });
    expect(await screen.findByText('Nueva')).toBeTruthy();

    act(() => {
      socket().receive('company-1-tag', {
        action: 'update',
        tag: { id: 5, name: 'Renombrada', color: '#ff0000', kanban: 1 },
      });
    });
    const row = await rowOf('Renombrada');
    expect(within(row).getByText('3')).toBeTruthy();
    expect(screen.queryByText('Urgente')).toBeNull();

    act(() => {
      socket().receive('company-1-tag', { action: 'delete', tagId: 9 });
    });
    await waitFor(() => expect(screen.queryByText('Nueva')).toBeNull());
  });

  it('shows a user the tags without the buttons to change them', async () => {
    stubApi({ 'GET /tags': listOf([makeTag()]) });
    renderPage(<TagsPage />, '/tags', makeAuth({ user: { profile: 'user' } }));

    const row = await rowOf('Urgente');
    expect(within(row).queryByRole('button')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Agregar etiqueta' })).toBeNull();
    expect(screen.queryByRole('columnheader', { name: 'Acciones' })).toBeNull();
  });
});
