import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { getSocket } from '../../api/socket';
import { SEARCH_DEBOUNCE_MS } from '../../lib/use-debounced-value';
import { advanceClock, setupUserOnFakeClock } from '../../test/clock';
import type { FakeSocket } from '../../test/fake-socket';
import { callsOf, jsonResponse, makeAuth, mockApi, stubApi } from '../../test/fixtures';
import { renderPage } from '../../test/render-page';
import { fill, refill, setupUser } from '../../test/user-event';
import type { User } from './users.api';
import { UsersPage } from './users-page';

const makeUser = (overrides: Partial<User> = {}): User => ({
  id: 10,
  companyId: 1,
  name: 'Bruno Agente',
  email: 'bruno@example.com',
  profile: 'user',
  super: false,
  allTicket: 'desabled',
  whatsappId: null,
  online: false,
  presence: 'offline',
  availability: 'online',
  maxTickets: null,
  queueLimits: [],
  queues: [],
  queueIds: [],
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
  ...overrides,
});

const ventas = { id: 3, name: 'Ventas', color: '#43a047' };
const soporte = { id: 4, name: 'Soporte', color: '#1e88e5' };

type Routes = Parameters<typeof mockApi>[0];

// The user modal lists the queues to choose from.
const stubUsersApi = (routes: Routes) =>
  stubApi({ 'GET /queue': () => jsonResponse(200, [ventas, soporte]), ...routes });

const bodyOf = (init: RequestInit) => JSON.parse(String(init.body)) as Record<string, unknown>;

const listOf =
  (users: User[], hasMore = false) =>
  () =>
    jsonResponse(200, { users, count: users.length, hasMore });

const socket = () => getSocket() as unknown as FakeSocket;

// Waits for the user's row by its text, a cheap query while the list loads.
const rowOf = async (text: string) => (await screen.findByText(text)).closest('tr')!;

describe('users page', () => {
  it('lists name, email and translated profile of each user', async () => {
    stubUsersApi({
      'GET /users': listOf([
        makeUser(),
        makeUser({ id: 11, name: 'Carla Admin', email: 'carla@example.com', profile: 'admin' }),
      ]),
    });
    renderPage(<UsersPage />, '/users', makeAuth());

    const row = (await screen.findByText('Carla Admin')).closest('tr')!;
    expect(within(row).getByText('carla@example.com')).toBeTruthy();
    expect(within(row).getByText('Administrador')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'Usuarios' })).toBeTruthy();
  });

  it('searches 500 ms after the last keystroke', async () => {
    const fetchMock = stubUsersApi({
      'GET /users': ({ url }) =>
        url.searchParams.get('searchParam') === 'car'
          ? listOf([makeUser({ id: 11, name: 'Carla' })])()
          : listOf([makeUser()])(),
    });
    const user = setupUserOnFakeClock();
    renderPage(<UsersPage />, '/users', makeAuth());
    await screen.findByText('Bruno Agente');

    await user.type(screen.getByRole('searchbox', { name: 'Buscar usuarios' }), 'car');
    expect(callsOf(fetchMock).filter((call) => call.includes('searchParam=car'))).toEqual([]);
    await advanceClock(SEARCH_DEBOUNCE_MS);

    expect(await screen.findByText('Carla')).toBeTruthy();
    expect(screen.queryByText('Bruno Agente')).toBeNull();
    // One request for the whole text once typing stopped, none for the partial "c" and "ca".
    const searches = callsOf(fetchMock).filter((call) => call.startsWith('GET /users?'));
    expect(searches).toEqual([
      'GET /users?searchParam=&pageNumber=1',
      'GET /users?searchParam=car&pageNumber=1',
    ]);
  });

  it('loads the next page when scrolled within 100 px of the bottom', async () => {
    const first = Array.from({ length: 20 }, (_, index) =>
      makeUser({ id: index + 1, name: `Persona ${index + 1}`, email: `p${index + 1}@example.com` }),
    );
    const fetchMock = stubUsersApi({
      'GET /users': ({ url }) =>
        url.searchParams.get('pageNumber') === '2'
          ? listOf([makeUser({ id: 99, name: 'Última Persona' })])()
          : listOf(first, true)(),
    });
    renderPage(<UsersPage />, '/users', makeAuth());
    await screen.findByText('Persona 20');

    const box = screen.getByTestId('users-scroll');
    Object.defineProperty(box, 'scrollHeight', { configurable: true, value: 1000 });
    Object.defineProperty(box, 'clientHeight', { configurable: true, value: 400 });
    box.scrollTop = 300;
    fireEvent.scroll(box);
    expect(callsOf(fetchMock)).not.toContain('GET /users?searchParam=&pageNumber=2');

    box.scrollTop = 520;
    fireEvent.scroll(box);
    expect(await screen.findByText('Última Persona')).toBeTruthy();
    expect(callsOf(fetchMock)).toContain('GET /users?searchParam=&pageNumber=2');
  });

  it('adds a user with queues and the all-tickets switch', async () => {
    let sent: Record<string, unknown> | undefined;
    stubUsersApi({
      'GET /users': listOf([]),
      'POST /users': (init) => {
        sent = bodyOf(init);
        return jsonResponse(
          201,
          makeUser({ id: 20, name: 'Agente Uno', queues: [ventas], queueIds: [3] }),
        );
      },
    });
    const user = setupUser();
    renderPage(<UsersPage />, '/users', makeAuth());
    expect(await screen.findByText('Aún no hay usuarios.')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Agregar usuario' }));
    const dialog = await screen.findByRole('dialog');
    await fill(user, within(dialog).getByRole('textbox', { name: 'Nombre' }), 'Agente Uno');
    await fill(
      user,
      within(dialog).getByRole('textbox', { name: 'Correo electrónico' }),
      'uno@example.com',
    );
    await fill(user, within(dialog).getByLabelText('Contraseña'), 'secreto1');
    await user.click(within(dialog).getByRole('combobox', { name: 'Colas' }));
    await user.click(await screen.findByRole('option', { name: 'Ventas' }));
    await user.keyboard('{Escape}');
    await user.click(
      within(dialog).getByRole('switch', { name: 'Ver tickets pendientes de todas las colas' }),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Agregar' }));

    expect(await screen.findByText('Usuario guardado.')).toBeTruthy();
    expect(sent).toEqual({
      name: 'Agente Uno',
      email: 'uno@example.com',
      password: 'secreto1',
      profile: 'user',
      queueIds: [3],
      whatsappId: null,
      allTicket: 'enabled',
      // Left empty: no limit.
      maxTickets: null,
      queueLimits: [],
    });
    expect(await screen.findByText('Agente Uno')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('checks name and password lengths before sending', async () => {
    const fetchMock = stubUsersApi({ 'GET /users': listOf([]) });
    const user = setupUser();
    renderPage(<UsersPage />, '/users', makeAuth());

    await user.click(await screen.findByRole('button', { name: 'Agregar usuario' }));
    const dialog = await screen.findByRole('dialog');
    await fill(user, within(dialog).getByRole('textbox', { name: 'Nombre' }), 'A');
    await fill(user, within(dialog).getByRole('textbox', { name: 'Correo electrónico' }), 'nope');
    await fill(user, within(dialog).getByLabelText('Contraseña'), '123');
    await user.click(within(dialog).getByRole('button', { name: 'Agregar' }));

    expect(await within(dialog).findByText('Debe tener entre 2 y 50 caracteres')).toBeTruthy();
    expect(within(dialog).getByText('Correo electrónico inválido')).toBeTruthy();
    expect(within(dialog).getByText('Debe tener entre 5 y 50 caracteres')).toBeTruthy();
    expect(callsOf(fetchMock).some((call) => call.startsWith('POST'))).toBe(false);
  });

  it('shows the plan user limit inside the modal', async () => {
    stubUsersApi({
      'GET /users': listOf([]),
      'POST /users': () =>
        jsonResponse(403, {
          error: 'ERR_PLAN_LIMIT_USERS',
          message: 'The plan allows at most 2 users',
        }),
    });
    const user = setupUser();
    renderPage(<UsersPage />, '/users', makeAuth());

    await user.click(await screen.findByRole('button', { name: 'Agregar usuario' }));
    const dialog = await screen.findByRole('dialog');
    await fill(user, within(dialog).getByRole('textbox', { name: 'Nombre' }), 'Tercero');
    await fill(
      user,
      within(dialog).getByRole('textbox', { name: 'Correo electrónico' }),
      'tres@example.com',
    );
    await fill(user, within(dialog).getByLabelText('Contraseña'), 'secreto1');
    await user.click(within(dialog).getByRole('button', { name: 'Agregar' }));

    const alert = await within(dialog).findByTestId('user-limit-error');
    expect(alert.textContent).toContain('Se alcanzó el límite de usuarios de su plan.');
    expect(alert.textContent).toContain('The plan allows at most 2 users');
    expect(screen.getByRole('dialog')).toBeTruthy();
  });

  it('marks a taken email on the email field', async () => {
    stubUsersApi({
      'GET /users': listOf([]),
      'POST /users': () =>
        jsonResponse(409, { error: 'ERR_EMAIL_ALREADY_EXISTS', message: 'exists' }),
    });
    const user = setupUser();
    renderPage(<UsersPage />, '/users', makeAuth());

    await user.click(await screen.findByRole('button', { name: 'Agregar usuario' }));
    const dialog = await screen.findByRole('dialog');
    await fill(user, within(dialog).getByRole('textbox', { name: 'Nombre' }), 'Repetido');
    await fill(
      user,
      within(dialog).getByRole('textbox', { name: 'Correo electrónico' }),
      'bruno@example.com',
    );
    await fill(user, within(dialog).getByLabelText('Contraseña'), 'secreto1');
    await user.click(within(dialog).getByRole('button', { name: 'Agregar' }));

    expect(
      await within(dialog).findByText('Ya existe una cuenta con este correo electrónico.'),
    ).toBeTruthy();
  });

  it('edits a user with its queues selected and a blank password kept unchanged', async () => {
    let sent: Record<string, unknown> | undefined;
    const bruno = makeUser({ queues: [ventas], queueIds: [3], allTicket: 'enabled' });
    stubUsersApi({
      'GET /users': listOf([bruno]),
      'GET /users/10': () => jsonResponse(200, bruno),
      'PUT /users/10': (init) => {
        sent = bodyOf(init);
        return jsonResponse(200, { ...bruno, name: 'Bruno Pérez', profile: 'supervisor' });
      },
    });
    const user = setupUser();
    renderPage(<UsersPage />, '/users', makeAuth());

    await user.click(
      within(await rowOf('bruno@example.com')).getByRole('button', {
        name: 'Editar a Bruno Agente',
      }),
    );
    const dialog = await screen.findByRole('dialog');
    const name = await within(dialog).findByRole('textbox', { name: 'Nombre' });
    expect(within(dialog).getByRole('combobox', { name: 'Colas' }).textContent).toContain('Ventas');
    expect(
      (within(dialog).getByRole('switch', { name: /tickets pendientes/ }) as HTMLInputElement)
        .checked,
    ).toBe(true);
    expect(within(dialog).getByText('Déjela en blanco para mantener la actual.')).toBeTruthy();

    await refill(user, name, 'Bruno Pérez');
    await user.click(within(dialog).getByRole('combobox', { name: 'Perfil' }));
    await user.click(await screen.findByRole('option', { name: 'Supervisor' }));
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));

    expect(await screen.findByText('Bruno Pérez')).toBeTruthy();
    expect(sent).toEqual({
      name: 'Bruno Pérez',
      email: 'bruno@example.com',
      password: '',
      profile: 'supervisor',
      queueIds: [3],
      whatsappId: null,
      allTicket: 'enabled',
      maxTickets: null,
      queueLimits: [],
    });
  });

  it('offers the company’s connections as the default connection and sends the choice', async () => {
    let sent: Record<string, unknown> | undefined;
    stubUsersApi({
      'GET /users': listOf([]),
      'GET /whatsapp': () =>
        jsonResponse(200, [
          { id: 7, name: 'Principal' },
          { id: 8, name: 'Postventa' },
        ]),
      'POST /users': (init) => {
        sent = bodyOf(init);
        return jsonResponse(201, makeUser({ id: 9, name: 'Nuevo', whatsappId: 8 }));
      },
    });
    const user = setupUser();
    renderPage(<UsersPage />, '/users', makeAuth());

    await user.click(await screen.findByRole('button', { name: 'Agregar usuario' }));
    const dialog = await screen.findByRole('dialog');
    await fill(user, within(dialog).getByRole('textbox', { name: 'Nombre' }), 'Nuevo');
    await fill(
      user,
      within(dialog).getByRole('textbox', { name: 'Correo electrónico' }),
      'nuevo@example.com',
    );
    await fill(user, within(dialog).getByLabelText('Contraseña'), 'Secreto1');
    await user.click(within(dialog).getByRole('combobox', { name: 'Conexión predeterminada' }));
    await user.click(await screen.findByRole('option', { name: 'Postventa' }));
    await user.click(within(dialog).getByRole('button', { name: 'Agregar' }));
    await waitFor(() => expect(sent).toMatchObject({ whatsappId: 8, name: 'Nuevo' }));
  });

  it('does not let an admin change their own profile or delete themselves', async () => {
    const me = makeUser({ id: 1, name: 'Ana Admin', email: 'ana@example.com', profile: 'admin' });
    stubUsersApi({
      'GET /users': listOf([me]),
      'GET /users/1': () => jsonResponse(200, me),
    });
    const user = setupUser();
    renderPage(<UsersPage />, '/users', makeAuth());

    const row = await rowOf('ana@example.com');
    expect(
      within(row).getByRole('button', { name: 'Eliminar a Ana Admin' }).hasAttribute('disabled'),
    ).toBe(true);
    await user.click(within(row).getByRole('button', { name: 'Editar a Ana Admin' }));
    const dialog = await screen.findByRole('dialog');
    const profile = await within(dialog).findByRole('combobox', { name: 'Perfil' });
    expect(profile.getAttribute('aria-disabled')).toBe('true');
    expect(within(dialog).getByText('No puede cambiar su propio perfil.')).toBeTruthy();
  });

  it("leaves a platform operator's account alone for a company admin", async () => {
    stubUsersApi({
      'GET /users': listOf([makeUser({ id: 2, name: 'Operador', profile: 'admin', super: true })]),
    });
    renderPage(<UsersPage />, '/users', makeAuth());

    const row = (await screen.findByText('Operador')).closest('tr')!;
    expect(within(row).getByText('Super')).toBeTruthy();
    expect(
      within(row).getByRole('button', { name: 'Editar a Operador' }).hasAttribute('disabled'),
    ).toBe(true);
    expect(
      within(row).getByRole('button', { name: 'Eliminar a Operador' }).hasAttribute('disabled'),
    ).toBe(true);
  });

  it('deletes a user after confirmation', async () => {
    let deleted = false;
    stubUsersApi({
      'GET /users': listOf([makeUser()]),
      'DELETE /users/10': () => {
        deleted = true;
        return new Response(null, { status: 204 });
      },
    });
    const user = setupUser();
    renderPage(<UsersPage />, '/users', makeAuth());

    await user.click(
      within(await rowOf('bruno@example.com')).getByRole('button', {
        name: 'Eliminar a Bruno Agente',
      }),
    );
    const confirm = await screen.findByRole('dialog', { name: '¿Eliminar a Bruno Agente?' });
    expect(deleted).toBe(false);
    await user.click(within(confirm).getByRole('button', { name: 'Eliminar' }));

    expect(await screen.findByText('Usuario eliminado.')).toBeTruthy();
    expect(deleted).toBe(true);
    await waitFor(() => expect(screen.queryByText('Bruno Agente')).toBeNull());
  });

  it('applies live user events to the list', async () => {
    stubUsersApi({ 'GET /users': listOf([makeUser()]) });
    renderPage(<UsersPage />, '/users', makeAuth());
    await screen.findByText('Bruno Agente');

    act(() => {
      socket().receive('company-1-user', {
        action: 'create',
        user: makeUser({ id: 12, name: 'Nueva Persona', email: 'nueva@example.com' }),
      });
    });
    expect(await screen.findByText('Nueva Persona')).toBeTruthy();

    act(() => {
      socket().receive('company-1-user', {
        action: 'update',
        user: makeUser({ name: 'Bruno Renombrado' }),
      });
    });
    expect(await screen.findByText('Bruno Renombrado')).toBeTruthy();
    expect(screen.queryByText('Bruno Agente')).toBeNull();

    act(() => {
      socket().receive('company-1-user', { action: 'delete', userId: 12 });
    });
    await waitFor(() => expect(screen.queryByText('Nueva Persona')).toBeNull());
  });

  it("shows each user's presence and follows it live", async () => {
    stubUsersApi({
      'GET /users': listOf([
        makeUser(),
        makeUser({
          id: 11,
          name: 'Carla Admin',
          email: 'carla@example.com',
          online: true,
          presence: 'online',
        }),
      ]),
    });
    renderPage(<UsersPage />, '/users', makeAuth());

    const bruno = await rowOf('bruno@example.com');
    const carla = await rowOf('carla@example.com');
    expect(screen.getByRole('columnheader', { name: 'Estado' })).toBeTruthy();
    expect(within(bruno).getByText('Desconectado')).toBeTruthy();
    expect(within(carla).getByText('En línea')).toBeTruthy();

    act(() => {
      socket().receive('company-1-presence', {
        action: 'update',
        userId: 11,
        presence: 'away',
        availability: 'online',
      });
    });
    expect(await within(carla).findByText('Ausente')).toBeTruthy();
    expect(within(carla).queryByText('En línea')).toBeNull();
    expect(within(bruno).getByText('Desconectado')).toBeTruthy();

    act(() => {
      socket().receive('company-1-presence', {
        action: 'update',
        userId: 10,
        presence: 'online',
        availability: 'online',
      });
    });
    expect(await within(bruno).findByText('En línea')).toBeTruthy();
    expect(within(carla).getByText('Ausente')).toBeTruthy();
  });

  // Bruno (limit 5) in the users page, ready to be edited; `sent` collects what PUT /users/10 got.
  const editBruno = async () => {
    const sent: Record<string, unknown>[] = [];
    const bruno = makeUser({ maxTickets: 5 });
    stubUsersApi({
      'GET /users': listOf([bruno]),
      'GET /users/10': () => jsonResponse(200, bruno),
      'PUT /users/10': (init) => {
        sent.push(bodyOf(init));
        return jsonResponse(200, bruno);
      },
    });
    const user = setupUser();
    renderPage(<UsersPage />, '/users', makeAuth());
    await user.click(
      within(await rowOf('bruno@example.com')).getByRole('button', {
        name: 'Editar a Bruno Agente',
      }),
    );
    const dialog = await screen.findByRole('dialog');
    const field = await within(dialog).findByRole('textbox', {
      name: 'Máximo de conversaciones abiertas',
    });
    return { sent, user, dialog, field };
  };

  it('sends the maximum of open conversations as a number, refusing one below 1', async () => {
    const { sent, user, dialog, field } = await editBruno();
    expect((field as HTMLInputElement).value).toBe('5');
    expect(within(dialog).getByText(/Vacío: sin límite/)).toBeTruthy();
    await refill(user, field, '0');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(
      await within(dialog).findByText('Use un número entero de 1 a 500, o déjelo vacío'),
    ).toBeTruthy();
    expect(sent).toEqual([]);

    await refill(user, field, '12');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toMatchObject({ maxTickets: 12 });
  });

  it('sets a maximum per queue of the user, sending only those typed', async () => {
    const sent: Record<string, unknown>[] = [];
    const bruno = makeUser({
      queues: [ventas, soporte],
      queueIds: [3, 4],
      queueLimits: [{ queueId: 4, maxTickets: 2 }],
    });
    stubUsersApi({
      'GET /users': listOf([bruno]),
      'GET /users/10': () => jsonResponse(200, bruno),
      'PUT /users/10': (init) => {
        sent.push(bodyOf(init));
        return jsonResponse(200, bruno);
      },
    });
    const user = setupUser();
    renderPage(<UsersPage />, '/users', makeAuth());
    await user.click(
      within(await rowOf('bruno@example.com')).getByRole('button', {
        name: 'Editar a Bruno Agente',
      }),
    );
    const dialog = await screen.findByRole('dialog');
    const inSoporte = within(dialog).getByRole('textbox', { name: 'Máximo en Soporte' });
    expect((inSoporte as HTMLInputElement).value).toBe('2');
    const inVentas = within(dialog).getByRole('textbox', { name: 'Máximo en Ventas' });
    await refill(user, inVentas, '600');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(
      await within(dialog).findByText('Use un número entero de 1 a 500, o déjelo vacío'),
    ).toBeTruthy();
    await refill(user, inVentas, '3');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0].queueLimits).toEqual([
      { queueId: 3, maxTickets: 3 },
      { queueId: 4, maxTickets: 2 },
    ]);
  });

  it('sends an emptied maximum as no limit', async () => {
    const { sent, user, dialog, field } = await editBruno();
    await user.clear(field);
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toHaveProperty('maxTickets', null);
  });

  it('signs a user out everywhere from their row', async () => {
    let ended = 0;
    stubUsersApi({
      'GET /users': listOf([makeUser()]),
      'DELETE /users/10/sessions': () => {
        ended += 1;
        return new Response(null, { status: 204 });
      },
    });
    const user = setupUser();
    renderPage(<UsersPage />, '/users', makeAuth());
    await user.click(
      within(await rowOf('bruno@example.com')).getByRole('button', {
        name: 'Cerrar las sesiones de Bruno Agente',
      }),
    );
    expect(await screen.findByText('Sesiones de Bruno Agente cerradas.')).toBeTruthy();
    expect(ended).toBe(1);
  });

  it('tells a non-admin the page is not for them without asking the API', async () => {
    const fetchMock = stubUsersApi({ 'GET /users': listOf([makeUser()]) });
    renderPage(<UsersPage />, '/users', makeAuth({ user: { profile: 'user' } }));

    expect(
      await screen.findByText('Solo los administradores pueden gestionar usuarios.'),
    ).toBeTruthy();
    expect(callsOf(fetchMock).some((call) => call.startsWith('GET /users'))).toBe(false);
  });
});
