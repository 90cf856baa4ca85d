import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { QuickMessageView } from '@atendi/shared';
import { getSocket } from '../../api/socket';
import { SEARCH_DEBOUNCE_MS } from '../../lib/use-debounced-value';
import { advanceClock, setupUserOnFakeClock } from '../../test/clock';
import type { FakeSocket } from '../../test/fake-socket';
import { callsOf, jsonResponse, makeAuth, stubApi } from '../../test/fixtures';
import { renderPage } from '../../test/render-page';
import { fill, refill, setupUser, submitAndSettle } from '../../test/user-event';
import { QuickMessagesPage } from './quick-messages-page';

const makeRecord = (overrides: Partial<QuickMessageView> = {}): QuickMessageView => ({
  id: 5,
  shortcode: 'saludo',
  message: 'Hola, ¿en qué podemos ayudarle?',
  geral: false,
  status: true,
  mediaPath: null,
  mediaName: null,
  mediaUrl: null,
  isMedia: false,
  userId: 1,
  queueId: null,
  companyId: 1,
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
  ...overrides,
});

const listOf =
  (records: QuickMessageView[], hasMore = false) =>
  () =>
    jsonResponse(200, { records, hasMore });

const bodyOf = (init: RequestInit) => JSON.parse(String(init.body)) as Record<string, unknown>;

const socket = () => getSocket() as unknown as FakeSocket;

const rowOf = async (text: string) => (await screen.findByText(text)).closest('tr')!;

const agent = () => makeAuth({ user: { id: 2, name: 'Bruno Agente', profile: 'user' } });

describe('quick messages page', () => {
  it('lists shortcode and attachment name, or that there is none', async () => {
    stubApi({
      'GET /quick-messages': listOf([
        makeRecord(),
        makeRecord({ id: 6, shortcode: 'catalogo', mediaName: 'catalogo.pdf', mediaPath: 'x' }),
      ]),
    });
    renderPage(<QuickMessagesPage />, '/quick-messages', makeAuth());

    expect(within(await rowOf('saludo')).getByText('Sin archivo adjunto')).toBeTruthy();
    expect(within(await rowOf('catalogo')).getByText('catalogo.pdf')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'Respuestas rápidas' })).toBeTruthy();
  });

  it('searches 500 ms after the last keystroke', async () => {
    const fetchMock = stubApi({
      'GET /quick-messages': ({ url }) =>
        url.searchParams.get('searchParam') === 'cat'
          ? listOf([makeRecord({ id: 6, shortcode: 'catalogo' })])()
          : listOf([makeRecord()])(),
    });
    const user = setupUserOnFakeClock();
    renderPage(<QuickMessagesPage />, '/quick-messages', makeAuth());
    await screen.findByText('saludo');

    await user.type(screen.getByRole('searchbox', { name: 'Buscar respuestas rápidas' }), 'cat');
    expect(callsOf(fetchMock).filter((call) => call.includes('searchParam=cat'))).toEqual([]);
    await advanceClock(SEARCH_DEBOUNCE_MS);

    expect(await screen.findByText('catalogo')).toBeTruthy();
    expect(screen.queryByText('saludo')).toBeNull();
    const searches = callsOf(fetchMock).filter((call) => call.startsWith('GET /quick-messages?'));
    expect(searches).toEqual([
      'GET /quick-messages?searchParam=&pageNumber=1',
      'GET /quick-messages?searchParam=cat&pageNumber=1',
    ]);
  });

  it('loads the next page when scrolled within 100 px of the bottom', async () => {
    const first = Array.from({ length: 20 }, (_, index) =>
      makeRecord({ id: index + 1, shortcode: `atajo${index + 1}` }),
    );
    const fetchMock = stubApi({
      'GET /quick-messages': ({ url }) =>
        url.searchParams.get('pageNumber') === '2'
          ? listOf([makeRecord({ id: 99, shortcode: 'ultimo' })])()
          : listOf(first, true)(),
    });
    renderPage(<QuickMessagesPage />, '/quick-messages', makeAuth());
    await screen.findByText('atajo20');

    const box = screen.getByTestId('quick-messages-scroll');
    Object.defineProperty(box, 'scrollHeight', { configurable: true, value: 1000 });
    Object.defineProperty(box, 'clientHeight', { configurable: true, value: 400 });
    box.scrollTop = 300;
    fireEvent.scroll(box);
    expect(callsOf(fetchMock)).not.toContain('GET /quick-messages?searchParam=&pageNumber=2');

    box.scrollTop = 520;
    fireEvent.scroll(box);
    expect(await screen.findByText('ultimo')).toBeTruthy();
    expect(callsOf(fetchMock)).toContain('GET /quick-messages?searchParam=&pageNumber=2');
  });

  it('gives an answer to a queue as an admin, and shows whose queue it is', async () => {
    let sent: Record<string, unknown> | undefined;
    stubApi({
      'GET /quick-messages': listOf([]),
      'GET /queue': () =>
        jsonResponse(200, [
          { id: 3, name: 'Ventas', color: '#00aa00' },
          { id: 4, name: 'Soporte', color: '#0000aa' },
        ]),
      'POST /quick-messages': (init) => {
        sent = bodyOf(init);
        return jsonResponse(201, makeRecord({ id: 7, shortcode: 'envios', queueId: 3 }));
      },
    });
    const user = setupUser();
    renderPage(<QuickMessagesPage />, '/quick-messages', makeAuth());
    await user.click(await screen.findByRole('button', { name: 'Agregar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Agregar respuesta rápida' });
    await fill(user, within(dialog).getByRole('textbox', { name: 'Atajo' }), 'envios');
    await user.click(within(dialog).getByRole('combobox', { name: 'Cola' }));
    await user.click(await screen.findByRole('option', { name: 'Ventas' }));
    await user.click(within(dialog).getByRole('button', { name: 'Agregar' }));

    expect(await screen.findByText('Respuesta rápida guardada.')).toBeTruthy();
    expect(sent).toMatchObject({ shortcode: 'envios', geral: false, queueId: 3 });
    expect(within(await rowOf('envios')).getByText('Cola Ventas')).toBeTruthy();
  });

  it('requires a shortcode, then adds a company-wide answer as an admin', async () => {
    let sent: Record<string, unknown> | undefined;
    stubApi({
      'GET /quick-messages': listOf([]),
      'POST /quick-messages': (init) => {
        sent = bodyOf(init);
        return jsonResponse(201, makeRecord({ id: 7, shortcode: 'horario', geral: true }));
      },
    });
    const user = setupUser();
    renderPage(<QuickMessagesPage />, '/quick-messages', makeAuth());
    expect(
      await screen.findByText(
        'Aún no hay respuestas rápidas. Cree una con «Agregar» y úsela en el chat escribiendo / seguido de su atajo.',
      ),
    ).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Agregar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Agregar respuesta rápida' });
    await user.click(within(dialog).getByRole('button', { name: 'Agregar' }));
    expect(await within(dialog).findByText('Campo Obligatorio')).toBeTruthy();
    expect(sent).toBeUndefined();

    await fill(user, within(dialog).getByRole('textbox', { name: 'Atajo' }), 'horario');
    await fill(
      user,
      within(dialog).getByRole('textbox', { name: 'Respuesta' }),
      'Atendemos de 9 a 18 h.',
    );
    await user.click(within(dialog).getByRole('switch', { name: 'Global (toda la empresa)' }));
    await user.click(within(dialog).getByRole('button', { name: 'Agregar' }));

    expect(await screen.findByText('Respuesta rápida guardada.')).toBeTruthy();
    expect(sent).toEqual({
      shortcode: 'horario',
      message: 'Atendemos de 9 a 18 h.',
      geral: true,
      queueId: null,
    });
    expect(await rowOf('horario')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('edits an answer, starting from what it holds', async () => {
    let sent: Record<string, unknown> | undefined;
    stubApi({
      'GET /quick-messages': listOf([makeRecord()]),
      'PUT /quick-messages/5': (init) => {
        sent = bodyOf(init);
        return jsonResponse(200, makeRecord({ shortcode: 'bienvenida' }));
      },
    });
    const user = setupUser();
    renderPage(<QuickMessagesPage />, '/quick-messages', agent());

    await user.click(within(await rowOf('saludo')).getByRole('button', { name: 'Editar saludo' }));
    const dialog = await screen.findByRole('dialog', { name: 'Editar respuesta rápida' });
    const shortcode = within(dialog).getByRole('textbox', { name: 'Atajo' }) as HTMLInputElement;
    expect(shortcode.value).toBe('saludo');
    expect(
      (within(dialog).getByRole('textbox', { name: 'Respuesta' }) as HTMLTextAreaElement).value,
    ).toBe('Hola, ¿en qué podemos ayudarle?');
    // Only admins choose whether an answer is company-wide.
    expect(within(dialog).queryByRole('switch')).toBeNull();

    await refill(user, shortcode, 'bienvenida');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));

    expect(await screen.findByText('bienvenida')).toBeTruthy();
    expect(sent).toEqual({ shortcode: 'bienvenida', message: 'Hola, ¿en qué podemos ayudarle?' });
    expect(screen.queryByText('saludo')).toBeNull();
  });

  it('uploads the chosen file once the new answer is saved', async () => {
    let uploaded: FormData | undefined;
    const saved = makeRecord({ id: 7, shortcode: 'promo' });
    stubApi({
      'GET /quick-messages': listOf([]),
      'POST /quick-messages': () => jsonResponse(201, saved),
      'POST /quick-messages/7/media-upload': (init) => {
        uploaded = init.body as FormData;
        return jsonResponse(
          200,
          makeRecord({ ...saved, mediaName: 'promo.png', mediaPath: 'a.png', isMedia: true }),
        );
      },
    });
    const user = setupUser();
    renderPage(<QuickMessagesPage />, '/quick-messages', agent());
    await user.click(await screen.findByRole('button', { name: 'Agregar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Agregar respuesta rápida' });
    await fill(user, within(dialog).getByRole('textbox', { name: 'Atajo' }), 'promo');
    await user.upload(
      within(dialog).getByTestId('quick-message-file-input'),
      new File(['png'], 'promo.png', { type: 'image/png' }),
    );
    expect(within(dialog).getByTestId('quick-message-attachment-name').textContent).toBe(
      'promo.png',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Agregar' }));

    expect(await screen.findByText('Respuesta rápida guardada.')).toBeTruthy();
    expect((uploaded?.get('file') as File).name).toBe('promo.png');
    expect(uploaded?.get('typeArch')).toBe('quickMessage');
    expect(within(await rowOf('promo')).getByText('promo.png')).toBeTruthy();
  });

  it('shows the current attachment and removes it on save', async () => {
    let removed = false;
    const record = makeRecord({ mediaName: 'menu.pdf', mediaPath: 'm.pdf', isMedia: true });
    const fetchMock = stubApi({
      'GET /quick-messages': listOf([record]),
      'PUT /quick-messages/5': () => jsonResponse(200, record),
      'DELETE /quick-messages/5/media-upload': () => {
        removed = true;
        return jsonResponse(200, makeRecord());
      },
    });
    const user = setupUser();
    renderPage(<QuickMessagesPage />, '/quick-messages', agent());
    await user.click(within(await rowOf('saludo')).getByRole('button', { name: 'Editar saludo' }));
    const dialog = await screen.findByRole('dialog', { name: 'Editar respuesta rápida' });
    expect(within(dialog).getByTestId('quick-message-attachment-name').textContent).toBe(
      'menu.pdf',
    );

    await user.click(within(dialog).getByRole('button', { name: 'Quitar archivo adjunto' }));
    expect(within(dialog).queryByText('menu.pdf')).toBeNull();
    expect(within(dialog).getByRole('button', { name: 'Adjuntar archivo' })).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));

    await waitFor(() => expect(removed).toBe(true));
    expect(within(await rowOf('saludo')).getByText('Sin archivo adjunto')).toBeTruthy();
    expect(callsOf(fetchMock).filter((call) => call.includes('media-upload'))).toEqual([
      'DELETE /quick-messages/5/media-upload',
    ]);
  });

  it('refuses a file type WhatsApp does not take before sending anything', async () => {
    const fetchMock = stubApi({ 'GET /quick-messages': listOf([makeRecord()]) });
    const user = setupUser({ applyAccept: false });
    renderPage(<QuickMessagesPage />, '/quick-messages', agent());
    await user.click(within(await rowOf('saludo')).getByRole('button', { name: 'Editar saludo' }));
    const dialog = await screen.findByRole('dialog', { name: 'Editar respuesta rápida' });
    await user.upload(
      within(dialog).getByTestId('quick-message-file-input'),
      new File(['MZ'], 'virus.exe', { type: 'application/x-msdownload' }),
    );
    expect(within(dialog).getByText('Tipo de archivo no permitido')).toBeTruthy();
    await submitAndSettle(user, within(dialog).getByRole('button', { name: 'Guardar' }));

    expect(screen.getByRole('dialog', { name: 'Editar respuesta rápida' })).toBeTruthy();
    expect(callsOf(fetchMock).filter((call) => !call.startsWith('GET'))).toEqual([]);
  });

  it('does not let a non-admin edit or delete company-wide answers', async () => {
    stubApi({
      'GET /quick-messages': listOf([
        makeRecord({ id: 8, shortcode: 'empresa', geral: true, userId: 1 }),
        makeRecord({ id: 9, shortcode: 'propio', userId: 2 }),
      ]),
    });
    renderPage(<QuickMessagesPage />, '/quick-messages', agent());

    const shared = await rowOf('empresa');
    // Marked as the whole company's, in Spanish.
    expect(within(shared).getByText('Global')).toBeTruthy();
    expect(
      within(shared).getByRole('button', { name: 'Editar empresa' }).hasAttribute('disabled'),
    ).toBe(true);
    expect(
      within(shared).getByRole('button', { name: 'Eliminar empresa' }).hasAttribute('disabled'),
    ).toBe(true);
    const own = await rowOf('propio');
    expect(
      within(own).getByRole('button', { name: 'Eliminar propio' }).hasAttribute('disabled'),
    ).toBe(false);
  });

  it('deletes an answer after confirmation', async () => {
    let deleted = false;
    stubApi({
      'GET /quick-messages': listOf([makeRecord()]),
      'DELETE /quick-messages/5': () => {
        deleted = true;
        return new Response(null, { status: 204 });
      },
    });
    const user = setupUser();
    renderPage(<QuickMessagesPage />, '/quick-messages', makeAuth());

    await user.click(
      within(await rowOf('saludo')).getByRole('button', { name: 'Eliminar saludo' }),
    );
    const confirm = await screen.findByRole('dialog', {
      name: '¿Eliminar la respuesta rápida saludo?',
    });
    expect(deleted).toBe(false);
    await user.click(within(confirm).getByRole('button', { name: 'Eliminar' }));

    expect(await screen.findByText('Respuesta rápida eliminada.')).toBeTruthy();
    expect(deleted).toBe(true);
    await waitFor(() => expect(screen.queryByText('saludo')).toBeNull());
  });

  it('reports a refusal from the API', async () => {
    stubApi({
      'GET /quick-messages': listOf([makeRecord()]),
      'DELETE /quick-messages/5': () =>
        jsonResponse(403, { error: 'ERR_NO_PERMISSION', message: 'nope' }),
    });
    const user = setupUser();
    renderPage(<QuickMessagesPage />, '/quick-messages', makeAuth());

    await user.click(
      within(await rowOf('saludo')).getByRole('button', { name: 'Eliminar saludo' }),
    );
    const confirm = await screen.findByRole('dialog', {
      name: '¿Eliminar la respuesta rápida saludo?',
    });
    await user.click(within(confirm).getByRole('button', { name: 'Eliminar' }));

    expect(await screen.findByText('No tiene permiso para acceder a este recurso.')).toBeTruthy();
    expect(screen.getByText('saludo')).toBeTruthy();
  });

  it('applies live quick message events to the list', async () => {
    stubApi({ 'GET /quick-messages': listOf([makeRecord()]) });
    renderPage(<QuickMessagesPage />, '/quick-messages', makeAuth());
    await screen.findByText('saludo');

    act(() => {
      socket().receive('company-1-quickemessage', {
        action: 'create',
        record: makeRecord({ id: 12, shortcode: 'despedida' }),
      });
    });
    expect(await screen.findByText('despedida')).toBeTruthy();

    act(() => {
      socket().receive('company-1-quickemessage', {
        action: 'update',
        record: makeRecord({ mediaName: 'menu.jpg', mediaPath: 'm' }),
      });
    });
    expect(within(await rowOf('saludo')).getByText('menu.jpg')).toBeTruthy();

    act(() => {
      socket().receive('company-1-quickemessage', { action: 'delete', id: 12 });
    });
    await waitFor(() => expect(screen.queryByText('despedida')).toBeNull());
  });
});
