import { act, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TicketInsightView } from '@atendi/shared';
import { getSocket } from '../../api/socket';
import type { FakeSocket } from '../../test/fake-socket';
import { callsOf, jsonResponse, makeAuth, stubApi } from '../../test/fixtures';
import { renderPage } from '../../test/render-page';
import { setupUser, type User } from '../../test/user-event';
import { listOf, makeContact, makeTicket, messagesOf } from './tickets.fixtures';
import { TicketsPage } from './tickets-page';

const ticket = makeTicket({ id: 7 });
const chatPath = `/tickets/${ticket.uuid}`;

const insight = (overrides: Partial<TicketInsightView> = {}): TicketInsightView => ({
  ticketId: 7,
  sentiment: 'negativo',
  final: false,
  structured: {
    datos_cliente: { nombre: 'Ana', telefono: null, email: null, direccion: 'Calle Sol 12' },
    datos_pedido: {
      productos: [{ nombre: 'pizzas', cantidad: 2 }],
      total: 1500,
      observaciones: null,
    },
  },
  messageId: 40,
  updatedAt: '2026-11-01T10:00:00.000Z',
  ...overrides,
});

const stubDrawer = (answer: () => TicketInsightView | null) =>
  stubApi({
    'GET /tickets': () => listOf([]),
    [`GET /tickets/u/${ticket.uuid}`]: () => jsonResponse(200, ticket),
    [`GET /messages/${ticket.id}`]: () => messagesOf(ticket, []),
    'GET /contacts/7': () => jsonResponse(200, { ...makeContact({ id: 7 }), extraInfo: [] }),
    'GET /ticket-notes/list': () => jsonResponse(200, []),
    'GET /tags/list': () => jsonResponse(200, []),
    'GET /tickets/7/insight': () => jsonResponse(200, { insight: answer() }),
  });

const openDrawer = async (user: User) => {
  await user.click(await screen.findByRole('button', { name: 'Datos del contacto' }));
  return screen.findByRole('complementary', { name: 'Datos del contacto' });
};

describe('the insight panel of the contact drawer', () => {
  it("shows the conversation's sentiment and the data found, and follows a new analysis", async () => {
    let current = insight();
    const fetchMock = stubDrawer(() => current);
    const insightReads = () =>
      callsOf(fetchMock).filter((call) => call === 'GET /tickets/7/insight').length;
    const user = setupUser();
    renderPage(<TicketsPage />, chatPath, makeAuth(), { route: '/tickets/:ticketId?' });

    const drawer = await openDrawer(user);
    const panel = within(await within(drawer).findByRole('region', { name: 'Insight IA' }));
    // Red for a negative mood.
    const chip = panel.getByLabelText('Sentimiento: Negativo');
    expect(chip.textContent).toBe('Negativo');
    expect(chip.className).toContain('MuiChip-colorError');
    expect(panel.getByText('Ana')).toBeTruthy();
    expect(panel.getByText('Calle Sol 12')).toBeTruthy();
    expect(panel.getByText('2 × pizzas')).toBeTruthy();
    expect(panel.getByText('1500')).toBeTruthy();
    // What was not found is not listed.
    expect(panel.queryByText('Correo electrónico')).toBeNull();
    expect(panel.queryByText('Conversación terminada')).toBeNull();

    // Any other update of the ticket (a message) leaves it be; a new analysis says so, and the
    // panel reads it again.
    expect(insightReads()).toBe(1);
    current = insight({ sentiment: 'positivo', final: true, messageId: 41 });
    const socket = getSocket() as unknown as FakeSocket;
    act(() => {
      socket.receive('company-1-ticket', { action: 'update', ticket });
      socket.receive('company-1-ticket', { action: 'update', ticket, changed: ['tags'] });
      socket.receive('company-1-ticket', { action: 'update', ticket, changed: ['insight'] });
    });
    expect((await panel.findByLabelText('Sentimiento: Positivo')).className).toContain(
      'MuiChip-colorSuccess',
    );
    expect(panel.getByText('Conversación terminada')).toBeTruthy();
    expect(insightReads()).toBe(2);
  });

  it('is not shown while the conversation has no analysis', async () => {
    stubDrawer(() => null);
    const user = setupUser();
    renderPage(<TicketsPage />, chatPath, makeAuth(), { route: '/tickets/:ticketId?' });

    const drawer = await openDrawer(user);
    expect(await within(drawer).findByRole('region', { name: 'Notas' })).toBeTruthy();
    expect(within(drawer).queryByRole('region', { name: 'Insight IA' })).toBeNull();
  });
});
