import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ContactDetailView, TagOption, TicketView } from '@atendi/shared';
import { getSocket } from '../../api/socket';
import type { FakeSocket } from '../../test/fake-socket';
import { jsonResponse, makeAuth, stubApi } from '../../test/fixtures';
import { renderPage } from '../../test/render-page';
import { fill, refill, setupUser, type User } from '../../test/user-event';
import type { TicketNote } from './contact-drawer.api';
import { bodyOf, listOf, makeContact, makeTicket, messagesOf, todayAt } from './tickets.fixtures';
import { TicketsPage } from './tickets-page';

const ticket = makeTicket({
  id: 7,
  tags: [{ id: 1, name: 'Urgente', color: '#d32f2f' }],
});
const chatPath = `/tickets/${ticket.uuid}`;

const contact: ContactDetailView = {
  ...makeContact({ id: 7, email: 'maria@example.com' }),
  extraInfo: [
    { id: 1, name: 'Empresa', value: 'Acme' },
    { id: 2, name: 'Ciudad', value: 'Puebla' },
  ],
};

const tagOptions: TagOption[] = [
  { id: 1, name: 'Urgente', color: '#d32f2f', kanban: 1 },
  { id: 2, name: 'Cliente VIP', color: '#1976d2', kanban: 0 },
];

const makeNote = (overrides: Partial<TicketNote> = {}): TicketNote => ({
  id: 1,
  note: 'Prefiere que la llamen por la tarde',
  ticketId: 7,
  contactId: 7,
  userId: 2,
  user: { id: 2, name: 'Beto Agente' },
  botName: null,
  createdAt: todayAt(9),
  updatedAt: todayAt(9),
  ...overrides,
});

// The chat of `ticket` with its drawer's routes; extra routes (saves) beside.
const stubDrawer = (
  routes: Parameters<typeof stubApi>[0] = {},
  notes: TicketNote[] = [makeNote()],
) =>
  stubApi({
    'GET /tickets': () => listOf([]),
    [`GET /tickets/u/${ticket.uuid}`]: () => jsonResponse(200, ticket),
    [`GET /messages/${ticket.id}`]: () => messagesOf(ticket, []),
    'GET /contacts/7': () => jsonResponse(200, contact),
    'GET /ticket-notes/list': () => jsonResponse(200, notes),
    'GET /tags/list': () => jsonResponse(200, tagOptions),
    ...routes,
  });

const openDrawer = async (user: User) => {
  await user.click(await screen.findByRole('button', { name: 'Datos del contacto' }));
  return screen.findByRole('complementary', { name: 'Datos del contacto' });
};

const dialog = () => screen.getByRole('dialog');

// The drawer open, its contact loaded, and the edit dialog open.
const editContact = async (user: User) => {
  const drawer = await openDrawer(user);
  await within(drawer).findByText('Acme');
  await within(drawer).findByText('+52 55 1234 5678');
  await user.click(within(drawer).getByRole('button', { name: 'Editar contacto' }));
  return drawer;
};

describe('contact drawer', () => {
  it('shows the contact, its extra info, the ticket’s tags and notes, and closes', async () => {
    const fetchMock = stubDrawer();
    const user = setupUser();
    renderPage(<TicketsPage />, chatPath, makeAuth(), { route: '/tickets/:ticketId?' });

    const drawer = await openDrawer(user);
    expect(within(drawer).getByTestId('contact-drawer-name').textContent).toBe('María López');
    // As people write it: WhatsApp's old Mexican mobile '1' left out.
    await waitFor(() =>
      expect(within(drawer).getByTestId('contact-drawer-number').textContent).toBe(
        '+52 55 1234 5678',
      ),
    );
    expect(await within(drawer).findByText('maria@example.com')).toBeTruthy();
    expect(await within(drawer).findByText('Acme')).toBeTruthy();
    expect(within(drawer).getByText('Empresa')).toBeTruthy();
    expect(within(drawer).getByText('Puebla')).toBeTruthy();
    expect(within(drawer).getByText('Urgente')).toBeTruthy();
    expect(await within(drawer).findByText('Prefiere que la llamen por la tarde')).toBeTruthy();
    expect(within(drawer).getByText(/Beto Agente/)).toBeTruthy();
    const notesAsked = fetchMock.mock.calls
      .map(([url]) => new URL(String(url)))
      .find((url) => url.pathname === '/ticket-notes/list');
    expect(notesAsked?.searchParams.get('ticketId')).toBe('7');
    expect(notesAsked?.searchParams.get('contactId')).toBe('7');

    await user.click(within(drawer).getByRole('button', { name: 'Cerrar' }));
    expect(screen.queryByRole('complementary', { name: 'Datos del contacto' })).toBeNull();
  });

  it('edits with the number shown as people write it, and says what is wrong', async () => {
    const puts: Record<string, unknown>[] = [];
    stubDrawer({
      'PUT /contacts/7': (init) => {
        puts.push(bodyOf(init));
        return jsonResponse(200, contact);
      },
    });
    const user = setupUser();
    renderPage(<TicketsPage />, chatPath, makeAuth(), { route: '/tickets/:ticketId?' });
    await editContact(user);

    const number = within(dialog()).getByRole('textbox', { name: 'Número de WhatsApp' });
    expect(number).toHaveProperty('value', '+52 55 1234 5678');
    // The company has no country: a number needs its country code.
    expect(
      within(dialog()).getByText('Con el código de país, p. ej. +52 55 1234 5678.'),
    ).toBeTruthy();
    const name = within(dialog()).getByRole('textbox', { name: 'Nombre' });
    expect(name).toHaveProperty('value', 'María López');

    // SPEC §5 Contact: the drawer's own messages.
    await user.clear(name);
    await user.click(within(dialog()).getByRole('button', { name: 'Guardar' }));
    expect(await within(dialog()).findByText('Requerido')).toBeTruthy();
    await fill(user, name, 'M');
    await refill(user, number, '123');
    await refill(user, within(dialog()).getByRole('textbox', { name: 'Correo electrónico' }), 'x@');
    await user.click(within(dialog()).getByRole('button', { name: 'Guardar' }));
    expect(await within(dialog()).findAllByText('Muy Corto!')).toHaveLength(2);
    expect(within(dialog()).getByText('Email Inválido')).toBeTruthy();
    await refill(user, name, 'M'.repeat(51));
    await user.click(within(dialog()).getByRole('button', { name: 'Guardar' }));
    expect(await within(dialog()).findByText('Muy Largo!')).toBeTruthy();
    expect(puts).toEqual([]);
  });

  it('saves the contact with its whole number, or says the number is taken', async () => {
    const puts: Record<string, unknown>[] = [];
    let answer = () => jsonResponse(409, { error: 'ERR_DUPLICATED_CONTACT', message: 'Taken' });
    stubDrawer({
      'PUT /contacts/7': (init) => {
        puts.push(bodyOf(init));
        return answer();
      },
    });
    const user = setupUser();
    renderPage(<TicketsPage />, chatPath, makeAuth(), { route: '/tickets/:ticketId?' });
    const drawer = await editContact(user);

    await refill(
      user,
      within(dialog()).getByRole('textbox', { name: 'Nombre' }),
      'María José López',
    );
    await refill(user, within(dialog()).getByRole('textbox', { name: 'Correo electrónico' }), '');
    await user.click(within(dialog()).getByRole('button', { name: 'Agregar información' }));
    const names = within(dialog()).getAllByRole('textbox', { name: 'Nombre del campo' });
    await fill(user, names[2], 'Canal');
    await fill(user, within(dialog()).getAllByRole('textbox', { name: 'Valor' })[2], 'Instagram');
    await user.click(within(dialog()).getAllByRole('button', { name: 'Quitar información' })[1]);

    // A number another contact has: said beside the field, the dialog stays.
    await user.click(within(dialog()).getByRole('button', { name: 'Guardar' }));
    expect(
      await within(dialog()).findByText('Ya existe un contacto con este número.'),
    ).toBeTruthy();

    const saved: ContactDetailView = {
      ...contact,
      name: 'María José López',
      email: '',
      extraInfo: [
        { id: 1, name: 'Empresa', value: 'Acme' },
        { id: 3, name: 'Canal', value: 'Instagram' },
      ],
    };
    answer = () => jsonResponse(200, saved);
    await user.click(within(dialog()).getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Contacto guardado.')).toBeTruthy();
    // The number was not touched: it goes back as it is stored.
    expect(puts[1]).toEqual({
      name: 'María José López',
      number: '5215512345678',
      email: '',
      extraInfo: [
        { name: 'Empresa', value: 'Acme' },
        { name: 'Canal', value: 'Instagram' },
      ],
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(within(drawer).getByTestId('contact-drawer-name').textContent).toBe('María José López');
    expect(within(drawer).getByText('Instagram')).toBeTruthy();
    expect(within(drawer).queryByText('Puebla')).toBeNull();
    // The chat header names the contact the new way too.
    expect(screen.getByRole('heading', { level: 2, name: 'María José López' })).toBeTruthy();
  });

  it('adds a note with the SPEC toast, after the SPEC checks', async () => {
    const added: Record<string, unknown>[] = [];
    stubDrawer({
      'POST /ticket-notes': (init) => {
        const body = bodyOf(init);
        added.push(body);
        return jsonResponse(
          201,
          makeNote({
            id: 2,
            note: String(body.note),
            userId: 1,
            user: { id: 1, name: 'Ana Admin' },
          }),
        );
      },
    });
    const user = setupUser();
    renderPage(<TicketsPage />, chatPath, makeAuth(), { route: '/tickets/:ticketId?' });
    const drawer = await openDrawer(user);
    await within(drawer).findByText('Prefiere que la llamen por la tarde');

    const field = within(drawer).getByRole('textbox', { name: 'Nota' });
    await user.click(within(drawer).getByRole('button', { name: 'Guardar nota' }));
    expect(await within(drawer).findByText('Campo Obligatorio')).toBeTruthy();
    await fill(user, field, 'a');
    await user.click(within(drawer).getByRole('button', { name: 'Guardar nota' }));
    expect(await within(drawer).findByText('Muy Corto')).toBeTruthy();
    expect(added).toEqual([]);

    await refill(user, field, 'Enviar catálogo el lunes');
    await user.click(within(drawer).getByRole('button', { name: 'Guardar nota' }));
    expect(await screen.findByText('Nota añadida exitosamente!')).toBeTruthy();
    expect(added).toEqual([{ note: 'Enviar catálogo el lunes', ticketId: 7, contactId: 7 }]);
    expect(within(drawer).getByText('Enviar catálogo el lunes')).toBeTruthy();
    expect(field).toHaveProperty('value', '');
  });

  it('deletes a note after confirming, with the SPEC toast', async () => {
    const deleted: string[] = [];
    stubDrawer({
      'DELETE /ticket-notes/1': ({ url }) => {
        deleted.push(url.pathname);
        return new Response(null, { status: 204 });
      },
    });
    const user = setupUser();
    renderPage(<TicketsPage />, chatPath, makeAuth(), { route: '/tickets/:ticketId?' });
    const drawer = await openDrawer(user);
    const note = (
      await within(drawer).findByText('Prefiere que la llamen por la tarde')
    ).closest<HTMLElement>('li')!;
    await user.click(within(note).getByRole('button', { name: 'Eliminar nota' }));
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Eliminar' }),
    );
    expect(await screen.findByText('¡Nota eliminada exitosamente!')).toBeTruthy();
    expect(deleted).toEqual(['/ticket-notes/1']);
    expect(within(drawer).queryByText('Prefiere que la llamen por la tarde')).toBeNull();
  });

  it('signs a note the AI agent wrote with the agent’s name', async () => {
    stubDrawer({}, [
      makeNote({
        id: 3,
        note: 'Transfirió la conversación a una persona. Motivo: Pidió factura',
        userId: null,
        user: null,
        botName: 'Sofía de Pizzería',
      }),
    ]);
    const user = setupUser();
    renderPage(<TicketsPage />, chatPath, makeAuth(), { route: '/tickets/:ticketId?' });
    const drawer = await openDrawer(user);
    const note = (
      await within(drawer).findByText(/Transfirió la conversación a una persona/)
    ).closest<HTMLElement>('li')!;
    expect(within(note).getByText(/^Sofía de Pizzería · /)).toBeTruthy();
    expect(note.querySelector('[data-testid="SmartToyOutlinedIcon"]')).not.toBeNull();
  });

  it('offers to delete only one’s own notes to a plain user', async () => {
    stubDrawer({}, [
      makeNote({ id: 1, note: 'Nota de otro' }),
      makeNote({ id: 2, note: 'Nota mía', userId: 1, user: { id: 1, name: 'Ana' } }),
    ]);
    const user = setupUser();
    renderPage(<TicketsPage />, chatPath, makeAuth({ user: { profile: 'user' } }), {
      route: '/tickets/:ticketId?',
    });
    const drawer = await openDrawer(user);
    const other = (await within(drawer).findByText('Nota de otro')).closest<HTMLElement>('li')!;
    const mine = within(drawer).getByText('Nota mía').closest<HTMLElement>('li')!;
    expect(within(other).queryByRole('button', { name: 'Eliminar nota' })).toBeNull();
    expect(within(mine).getByRole('button', { name: 'Eliminar nota' })).toBeTruthy();
  });

  it('sends the chosen tags to /tags/sync and shows what the ticket got', async () => {
    const synced: Record<string, unknown>[] = [];
    stubDrawer({
      'POST /tags/sync': (init) => {
        const body = bodyOf(init);
        synced.push(body);
        const ids = (body.tags as { id: number }[]).map((tag) => tag.id);
        const tags = tagOptions
          .filter((tag) => ids.includes(tag.id))
          .map(({ id, name, color }) => ({ id, name, color }));
        return jsonResponse(200, { ...ticket, tags } satisfies TicketView);
      },
    });
    const user = setupUser();
    renderPage(<TicketsPage />, chatPath, makeAuth(), { route: '/tickets/:ticketId?' });
    const drawer = await openDrawer(user);

    await user.click(within(drawer).getByRole('combobox', { name: 'Etiquetas' }));
    await user.click(await screen.findByRole('option', { name: 'Cliente VIP' }));
    await waitFor(() => expect(synced).toEqual([{ ticketId: 7, tags: [{ id: 1 }, { id: 2 }] }]));
    expect(await within(drawer).findByText('Cliente VIP')).toBeTruthy();

    // A chip's delete removes the tag from the ticket.
    const urgent = within(drawer).getByText('Urgente').closest<HTMLElement>('.MuiChip-root')!;
    await user.click(urgent.querySelector<HTMLElement>('.MuiChip-deleteIcon')!);
    await waitFor(() => expect(synced[1]).toEqual({ ticketId: 7, tags: [{ id: 2 }] }));
    await waitFor(() => expect(within(drawer).queryByText('Urgente')).toBeNull());
  });

  it('shows a live contact update', async () => {
    stubDrawer();
    const user = setupUser();
    renderPage(<TicketsPage />, chatPath, makeAuth(), { route: '/tickets/:ticketId?' });
    const drawer = await openDrawer(user);
    await within(drawer).findByText('Acme');

    await act(async () => {
      (getSocket() as unknown as FakeSocket).receive('company-1-contact', {
        action: 'update',
        contact: {
          ...contact,
          name: 'María L.',
          extraInfo: [{ id: 9, name: 'Plan', value: 'Oro' }],
        },
      });
    });
    expect(within(drawer).getByTestId('contact-drawer-name').textContent).toBe('María L.');
    expect(within(drawer).getByText('Oro')).toBeTruthy();
    // Another contact's update changes nothing here.
    await act(async () => {
      (getSocket() as unknown as FakeSocket).receive('company-1-contact', {
        action: 'update',
        contact: { ...contact, id: 8, name: 'Otro' },
      });
    });
    expect(within(drawer).getByTestId('contact-drawer-name').textContent).toBe('María L.');
  });
});
