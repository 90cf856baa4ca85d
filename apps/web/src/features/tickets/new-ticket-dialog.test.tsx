import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SEARCH_DEBOUNCE_MS } from '../../lib/use-debounced-value';
import { advanceClock, setupUserOnFakeClock } from '../../test/clock';
import { callsOf, jsonResponse, makeAuth, stubApi } from '../../test/fixtures';
import { renderPage } from '../../test/render-page';
import { setupUser, type User } from '../../test/user-event';
import { bodyOf, listOf, makeContact, makeTicket, messagesOf } from './tickets.fixtures';
import { TicketsPage } from './tickets-page';

const lucia = { id: 12, name: 'Lucía Gómez', number: '5215500001111' };
const created = makeTicket({ id: 30, contactId: 12, contact: makeContact({ ...lucia }) });

// The inbox plus the dialog's lists; every POST /tickets body is kept.
const stubNewTicket = (answer: () => Response = () => jsonResponse(201, created)) => {
  const posted: Record<string, unknown>[] = [];
  const fetchMock = stubApi({
    'GET /tickets': () => listOf([]),
    'GET /queue': () =>
      jsonResponse(200, [
        { id: 1, name: 'Ventas', color: '#2e7d32' },
        { id: 2, name: 'Soporte', color: '#1565c0' },
      ]),
    'GET /whatsapp': () => jsonResponse(200, [{ id: 4, name: 'Línea principal' }]),
    'GET /contacts': () => jsonResponse(200, { contacts: [lucia], hasMore: false, count: 1 }),
    'POST /tickets': (init) => {
      posted.push(bodyOf(init));
      return answer();
    },
    [`GET /tickets/u/${created.uuid}`]: () => jsonResponse(200, created),
    'GET /messages/30': () => messagesOf(created, []),
  });
  return { fetchMock, posted };
};

const contactSearches = (fetchMock: ReturnType<typeof stubApi>) =>
  callsOf(fetchMock).filter((call) => call.startsWith('GET /contacts'));

const openDialog = async (user: User) => {
  await user.click(await screen.findByRole('button', { name: 'Nuevo ticket' }));
  return screen.findByRole('dialog');
};

const pickContact = async (user: User, dialog: HTMLElement) => {
  await user.type(within(dialog).getByRole('combobox', { name: 'Contacto' }), 'Luc');
  await user.click(await screen.findByRole('option', { name: /Lucía Gómez/ }));
};

describe('new ticket dialog', () => {
  it('searches contacts only from 3 characters, then opens the created ticket', async () => {
    const { fetchMock, posted } = stubNewTicket();
    // The search's debounce is the subject: its time is faked.
    const user = setupUserOnFakeClock();
    renderPage(<TicketsPage />, '/tickets', makeAuth(), { route: '/tickets/:ticketId?' });

    const dialog = await openDialog(user);
    const field = within(dialog).getByRole('combobox', { name: 'Contacto' });
    await user.type(field, 'Lu');
    expect(await screen.findByText('Escriba al menos 3 caracteres para buscar')).toBeTruthy();
    // Past the 500 ms debounce, two characters still ask nothing.
    await advanceClock(SEARCH_DEBOUNCE_MS);
    expect(contactSearches(fetchMock)).toEqual([]);

    await user.type(field, 'c');
    await user.click(await screen.findByRole('option', { name: /Lucía Gómez/ }));
    expect(contactSearches(fetchMock)).toEqual(['GET /contacts?searchParam=Luc&pageNumber=1']);

    await user.click(within(dialog).getByRole('button', { name: 'Crear' }));
    // The created ticket's conversation opens.
    await screen.findByText('Resolver');
    // Until the dialog's closing fade ends, the page behind it is hidden from assistive technology.
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByRole('heading', { level: 2, name: 'Lucía Gómez' })).toBeTruthy();
    // An admin may leave queue and connection to the API.
    expect(posted).toEqual([
      { contactId: 12, queueId: null, whatsappId: null, userId: 1, status: 'open' },
    ]);
  });

  it("opens a conversation with a typed number no contact has, read with the company's country", async () => {
    const lupita = { id: 40, name: '525512345678', number: '525512345678' };
    const toLupita = makeTicket({ id: 30, contactId: 40, contact: makeContact(lupita) });
    const posted: Record<string, Record<string, unknown>[]> = { contacts: [], tickets: [] };
    stubApi({
      'GET /tickets': () => listOf([]),
      'GET /settings/': () => jsonResponse(200, [{ key: 'country', value: 'MX' }]),
      'GET /queue': () => jsonResponse(200, []),
      'GET /whatsapp': () => jsonResponse(200, []),
      'GET /contacts': () => jsonResponse(200, { contacts: [], hasMore: false, count: 0 }),
      'POST /contacts': (init) => {
        posted.contacts.push(bodyOf(init));
        return jsonResponse(201, { ...makeContact(lupita), extraInfo: [] });
      },
      'POST /tickets': (init) => {
        posted.tickets.push(bodyOf(init));
        return jsonResponse(201, toLupita);
      },
      [`GET /tickets/u/${toLupita.uuid}`]: () => jsonResponse(200, toLupita),
      'GET /messages/30': () => messagesOf(toLupita, []),
    });
    const user = setupUser();
    renderPage(<TicketsPage />, '/tickets', makeAuth(), { route: '/tickets/:ticketId?' });

    const dialog = await openDialog(user);
    await user.type(within(dialog).getByRole('combobox', { name: 'Contacto' }), '55 1234 5678');
    await user.click(
      await screen.findByRole('option', { name: 'Nuevo contacto: +52 55 1234 5678' }),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Crear' }));

    await screen.findByText('Resolver');
    // Named after its number until WhatsApp tells its name; the number with its country code.
    expect(posted.contacts).toEqual([
      { name: '525512345678', number: '+525512345678', email: '', extraInfo: [] },
    ]);
    expect(posted.tickets).toEqual([
      { contactId: 40, queueId: null, whatsappId: null, userId: 1, status: 'open' },
    ]);
  });

  it('names who holds the contact’s other open ticket', async () => {
    const { posted } = stubNewTicket(() =>
      jsonResponse(409, {
        error: 'ERR_OTHER_OPEN_TICKET',
        message: 'The contact already has an open ticket on this connection',
        details: {
          ticket: { id: 9, uuid: created.uuid, status: 'open' },
          user: { name: 'Pedro Ruiz' },
          queue: { name: 'Soporte' },
        },
      }),
    );
    const user = setupUser();
    renderPage(<TicketsPage />, '/tickets', makeAuth(), { route: '/tickets/:ticketId?' });

    const dialog = await openDialog(user);
    await pickContact(user, dialog);
    await user.click(within(dialog).getByRole('combobox', { name: 'Cola' }));
    await user.click(await screen.findByRole('option', { name: 'Soporte' }));
    await user.click(within(dialog).getByRole('combobox', { name: 'Conexión' }));
    await user.click(await screen.findByRole('option', { name: 'Línea principal' }));
    await user.click(within(dialog).getByRole('button', { name: 'Crear' }));

    expect(
      await screen.findByText(
        'El contacto ya tiene un ticket abierto, atendido por Pedro Ruiz en la cola Soporte.',
      ),
    ).toBeTruthy();
    expect(posted).toEqual([
      { contactId: 12, queueId: 2, whatsappId: 4, userId: 1, status: 'open' },
    ]);
    expect(screen.getByRole('dialog')).toBeTruthy();
  });

  it('makes an agent choose one of their own queues', async () => {
    const { fetchMock, posted } = stubNewTicket();
    const user = setupUser();
    renderPage(
      <TicketsPage />,
      '/tickets',
      makeAuth({
        user: {
          profile: 'user',
          queues: [
            { id: 1, name: 'Ventas', color: '#2e7d32' },
            { id: 3, name: 'Cobranza', color: '#6a1b9a' },
          ],
        },
      }),
      { route: '/tickets/:ticketId?' },
    );

    const dialog = await openDialog(user);
    await pickContact(user, dialog);
    await user.click(within(dialog).getByRole('button', { name: 'Crear' }));
    expect(await screen.findByText('Seleccione una cola')).toBeTruthy();
    expect(posted).toEqual([]);

    await user.click(within(dialog).getByRole('combobox', { name: /Cola/ }));
    const options = within(await screen.findByRole('listbox')).getAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual(['Ventas', 'Cobranza']);
    await user.click(screen.getByRole('option', { name: 'Cobranza' }));
    await user.click(within(dialog).getByRole('button', { name: 'Crear' }));
    await waitFor(() =>
      expect(posted).toEqual([
        { contactId: 12, queueId: 3, whatsappId: null, userId: 1, status: 'open' },
      ]),
    );
    // The agent's queues come from the session: GET /queue is the admins' list.
    expect(callsOf(fetchMock).some((call) => call.startsWith('GET /queue'))).toBe(false);
  });
});
