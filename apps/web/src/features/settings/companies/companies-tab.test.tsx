import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { getSocket } from '../../../api/socket';
import { waitBeforeSubmit } from '../../../lib/form-delay';
import { SEARCH_DEBOUNCE_MS } from '../../../lib/use-debounced-value';
import { advanceClock, setupUserOnFakeClock } from '../../../test/clock';
import type { FakeSocket } from '../../../test/fake-socket';
import {
  jsonResponse,
  makeAuth,
  makeCompanyView,
  makeInvoice,
  makePlan,
  makeSubscription,
  mockApi,
  stubApi as stubShellApi,
  subscriptionsOverview,
} from '../../../test/fixtures';
import { renderPage } from '../../../test/render-page';
import { fill, refill, setupUser } from '../../../test/user-event';
import type { Company } from './companies.api';
import { SettingsPage } from '../settings-page';
import { dateInput, setDate } from '../../../test/date-fields';

type Routes = Parameters<typeof mockApi>[0];

const plans = [makePlan({ id: 3, name: 'Basic' }), makePlan({ id: 5, name: 'Premium' })];

const makeCompany = (overrides: Partial<Company> = {}): Company =>
  makeCompanyView({ id: 10, planId: 3, plan: { id: 3, name: 'Basic' }, ...overrides });

const page = (companies: Company[], hasMore = false) =>
  jsonResponse(200, { companies, count: companies.length, hasMore });

const superAuth = () => makeAuth({ user: { super: true } });

// The company form lists the plans to choose from.
const stubApi = (routes: Routes) =>
  stubShellApi({ 'GET /plans/all': () => jsonResponse(200, plans), ...routes });

const table = () => within(screen.getByRole('table', { name: 'Empresas' }));
const rowOf = async (name: string) =>
  (await table().findByText(name)).closest('tr') as HTMLTableRowElement;

describe('companies tab', () => {
  it('lists companies with their plan, storage, dates and a colour per status', async () => {
    stubApi({
      'GET /companies': () =>
        page([
          makeCompany({ storageUsed: 1536 * 1024 * 1024, storageLimit: 5 * 1024 ** 3 }),
          makeCompany({
            id: 11,
            name: 'Late Ltd',
            status: 'active',
            effectiveStatus: 'overdue',
            dueDate: '2024-02-10T12:00:00.000Z',
          }),
          makeCompany({
            id: 12,
            name: 'Paused SA',
            status: 'suspended',
            effectiveStatus: 'suspended',
          }),
          makeCompany({
            id: 13,
            name: 'Gone Inc',
            status: 'cancelled',
            effectiveStatus: 'cancelled',
          }),
        ]),
    });
    renderPage(<SettingsPage />, '/settings?tab=companies', superAuth());

    const acme = await rowOf('Acme');
    expect(within(acme).getByText('boss@acme.com')).toBeTruthy();
    expect(within(acme).getByText('Basic')).toBeTruthy();
    expect(within(acme).getByText('15/03/2030')).toBeTruthy();
    expect(within(acme).getByText('02/01/2024')).toBeTruthy();
    expect(within(acme).getByText('Mensual')).toBeTruthy();
    expect(within(acme).getByText('Activa')).toBeTruthy();
    expect(within(acme).getByText('1,5 GB de 5 GB')).toBeTruthy();
    expect(within(acme).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('30');

    // An active company past its due date is shown (and coloured) as overdue.
    const late = await rowOf('Late Ltd');
    expect(within(late).getByText('Vencida')).toBeTruthy();
    const tints = ['Acme', 'Late Ltd', 'Paused SA', 'Gone Inc'].map(
      (name) => getComputedStyle(table().getByText(name).closest('tr')!).backgroundColor,
    );
    // Overdue, suspended and cancelled each have their own tint; an active row has none of them.
    expect(new Set(tints).size).toBe(4);
  });

  it('shows each company’s AI agents and tokens this month against its plan', async () => {
    const usage = {
      month: '2030-03',
      messages: 0,
      agents: 0,
      exhaustedAgents: 0,
      agentsLimit: 3,
      messagesLimit: 2000,
      tokens: 0,
      tokensLimit: 0,
      tokensByFeature: [],
    };
    stubApi({
      'GET /companies': () =>
        page([
          makeCompany({
            aiUsage: {
              ...usage,
              messages: 3234,
              agents: 2,
              exhaustedAgents: 1,
              tokens: 1_250_000,
              tokensLimit: 6_000_000,
            },
          }),
          makeCompany({
            id: 11,
            name: 'Unlimited SA',
            aiUsage: {
              ...usage,
              messages: 1,
              agents: 1,
              agentsLimit: 0,
              messagesLimit: 0,
              tokens: 420,
            },
          }),
          makeCompany({ id: 12, name: 'Quiet Ltd', aiUsage: usage }),
        ]),
    });
    renderPage(<SettingsPage />, '/settings?tab=companies', superAuth());

    expect(table().getByRole('columnheader', { name: 'IA este mes' })).toBeTruthy();
    const acme = within(await rowOf('Acme')).getByTestId('company-ai-usage');
    expect(within(acme).getByText('3.234 mensajes')).toBeTruthy();
    // The month's AI tokens against the plan's.
    expect(
      within(acme).getByText('2 de 3 agentes · 2.000 por agente · 1.250.000 de 6.000.000 tokens'),
    ).toBeTruthy();
    expect(within(acme).getByText('1 agente sin mensajes')).toBeTruthy();
    const unlimited = within(await rowOf('Unlimited SA')).getByTestId('company-ai-usage');
    expect(unlimited.textContent).toBe('1 mensaje1 agente (sin límite) · 420 tokens (sin límite)');
    // No agents and nothing sent.
    expect(within(await rowOf('Quiet Ltd')).queryByTestId('company-ai-usage')).toBeNull();
  });

  it('creates a company and shows the generated admin password once, with a copy button', async () => {
    let body: Record<string, unknown> = {};
    stubApi({
      'GET /companies': () => page([makeCompany()]),
      'POST /companies': (init) => {
        body = JSON.parse(String(init.body));
        return jsonResponse(201, {
          ...makeCompany({ id: 20, name: 'Nueva', email: 'owner@nueva.com', dueDate: null }),
          adminPassword: 'aB3$x9!k',
        });
      },
    });
    const user = setupUser();
    renderPage(<SettingsPage />, '/settings?tab=companies', superAuth());

    await rowOf('Acme');
    await user.click(screen.getByRole('button', { name: 'Agregar empresa' }));
    const dialog = within(await screen.findByRole('dialog'));
    await fill(user, dialog.getByRole('textbox', { name: 'Nombre' }), 'Nueva');
    await fill(
      user,
      dialog.getByRole('textbox', { name: 'Correo electrónico' }),
      'owner@nueva.com',
    );
    await user.click(dialog.getByRole('combobox', { name: 'Plan' }));
    await user.click(await screen.findByRole('option', { name: 'Premium' }));
    await user.click(dialog.getByRole('button', { name: 'Guardar' }));

    const passwordDialog = within(await screen.findByRole('dialog', { name: 'Empresa creada' }));
    expect(passwordDialog.getByTestId('admin-password').textContent).toBe('aB3$x9!k');
    expect(passwordDialog.getByTestId('admin-email').textContent).toBe('owner@nueva.com');
    expect(screen.getByText('Empresa guardada.')).toBeTruthy();
    expect(body).toEqual({
      name: 'Nueva',
      email: 'owner@nueva.com',
      phone: '',
      planId: 5,
      status: 'active',
      dueDate: null,
      recurrence: 'MENSAL',
      campaignsEnabled: false,
    });

    await user.click(passwordDialog.getByRole('button', { name: 'Copiar contraseña' }));
    expect(await screen.findByText('Contraseña copiada.')).toBeTruthy();
    expect(await navigator.clipboard.readText()).toBe('aB3$x9!k');

    await user.click(passwordDialog.getByRole('button', { name: 'Cerrar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await rowOf('Nueva')).toBeTruthy();
  });

  it('waits 500 ms before sending the form', async () => {
    // The suite sends forms at once (test/setup.ts); this test puts SPEC §9's pause back.
    const formDelay =
      await vi.importActual<typeof import('../../../lib/form-delay')>('../../../lib/form-delay');
    vi.mocked(waitBeforeSubmit).mockImplementation(formDelay.waitBeforeSubmit);
    const fetchMock = stubApi({
      'GET /companies': () => page([]),
      'POST /companies': () => jsonResponse(201, makeCompany()),
    });
    const user = setupUser();
    renderPage(<SettingsPage />, '/settings?tab=companies', superAuth());

    await user.click(await screen.findByRole('button', { name: 'Agregar empresa' }));
    const dialog = within(await screen.findByRole('dialog'));
    await fill(user, dialog.getByRole('textbox', { name: 'Nombre' }), 'Acme');
    await fill(user, dialog.getByRole('textbox', { name: 'Correo electrónico' }), 'a@acme.com');
    // The first plan is chosen for a new company.
    await waitFor(() =>
      expect(dialog.getByRole('combobox', { name: 'Plan' }).textContent).toBe('Basic'),
    );
    const posts = () =>
      fetchMock.mock.calls.filter(([, init]) => (init as RequestInit).method === 'POST');
    await user.click(dialog.getByRole('button', { name: 'Guardar' }));

    expect(posts()).toHaveLength(0);
    expect((dialog.getByRole('button', { name: 'Guardar' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(waitBeforeSubmit).toHaveBeenCalledWith(500);
  });

  it('explains a failed save with the operation error or the specific conflict', async () => {
    let answer = jsonResponse(400, { error: 'ERR_VALIDATION', message: 'Invalid body' });
    stubApi({
      'GET /companies': () => page([]),
      'POST /companies': () => answer,
    });
    const user = setupUser();
    renderPage(<SettingsPage />, '/settings?tab=companies', superAuth());

    await user.click(await screen.findByRole('button', { name: 'Agregar empresa' }));
    const dialog = within(await screen.findByRole('dialog'));
    await fill(user, dialog.getByRole('textbox', { name: 'Nombre' }), 'Acme');
    await fill(user, dialog.getByRole('textbox', { name: 'Correo electrónico' }), 'a@acme.com');
    await user.click(dialog.getByRole('button', { name: 'Guardar' }));

    expect(
      await screen.findByText(
        'No se pudo completar la operación. Verifique si ya existe un plan o una empresa con el mismo nombre o si los campos se llenaron correctamente.',
      ),
    ).toBeTruthy();

    answer = jsonResponse(409, { error: 'ERR_COMPANY_ALREADY_EXISTS', message: 'Exists' });
    await user.click(dialog.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Ya existe una empresa con este nombre.')).toBeTruthy();
    // The form stays open with what was typed.
    expect((dialog.getByRole('textbox', { name: 'Nombre' }) as HTMLInputElement).value).toBe(
      'Acme',
    );
  });

  it('checks the email and plan before sending', async () => {
    const fetchMock = stubApi({
      'GET /companies': () => page([]),
      'GET /plans/all': () => jsonResponse(200, []),
    });
    const user = setupUser();
    renderPage(<SettingsPage />, '/settings?tab=companies', superAuth());

    await user.click(await screen.findByRole('button', { name: 'Agregar empresa' }));
    const dialog = within(await screen.findByRole('dialog'));
    await fill(user, dialog.getByRole('textbox', { name: 'Nombre' }), 'Acme');
    await fill(user, dialog.getByRole('textbox', { name: 'Correo electrónico' }), 'not-an-email');
    await user.click(dialog.getByRole('button', { name: 'Guardar' }));

    expect(await dialog.findByText('Correo electrónico inválido')).toBeTruthy();
    expect(dialog.getByText('Campo obligatorio')).toBeTruthy();
    expect(fetchMock.mock.calls.some(([, init]) => (init as RequestInit).method === 'POST')).toBe(
      false,
    );
  });

  it('edits a company, sending the due date only when it changed', async () => {
    const bodies: Record<string, unknown>[] = [];
    stubApi({
      'GET /companies': () => page([makeCompany()]),
      'PUT /companies/10': (init) => {
        const body = JSON.parse(String(init.body));
        bodies.push(body);
        return jsonResponse(200, makeCompany({ ...body, campaignsEnabled: body.campaignsEnabled }));
      },
    });
    const user = setupUser();
    renderPage(<SettingsPage />, '/settings?tab=companies', superAuth());

    await user.click(within(await rowOf('Acme')).getByRole('button', { name: 'Editar Acme' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Editar empresa' }));
    const name = dialog.getByRole('textbox', { name: 'Nombre' });
    await refill(user, name, 'Acme Corp');
    await user.click(dialog.getByRole('switch', { name: 'Campañas habilitadas' }));
    await user.click(dialog.getByRole('button', { name: 'Guardar' }));

    expect(await screen.findByText('Empresa guardada.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const row = await rowOf('Acme Corp');
    expect(row).toBeTruthy();
    expect(bodies[0]).toMatchObject({ name: 'Acme Corp', campaignsEnabled: true, planId: 3 });
    expect(bodies[0]).not.toHaveProperty('dueDate');

    await user.click(within(row).getByRole('button', { name: 'Editar Acme Corp' }));
    const again = within(await screen.findByRole('dialog', { name: 'Editar empresa' }));
    expect(dateInput('Vencimiento', again).value).toBe('15/03/2030');
    setDate('Vencimiento', '', again);
    await user.click(again.getByRole('button', { name: 'Guardar' }));

    await waitFor(() => expect(bodies).toHaveLength(2));
    // An emptied due date is sent as null.
    expect(bodies[1].dueDate).toBeNull();
  });

  it('renews a company by one period', async () => {
    let body: unknown;
    stubApi({
      'GET /companies': () => page([makeCompany()]),
      'PUT /companies/10': (init) => {
        body = JSON.parse(String(init.body));
        return jsonResponse(200, makeCompany({ dueDate: '2030-04-15T12:00:00.000Z' }));
      },
    });
    const user = setupUser();
    renderPage(<SettingsPage />, '/settings?tab=companies', superAuth());

    await user.click(
      within(await rowOf('Acme')).getByRole('button', { name: 'Renovar un periodo Acme' }),
    );

    expect(await screen.findByText('Nuevo vencimiento: 15/04/2030.')).toBeTruthy();
    expect(body).toEqual({ expire: true });
    expect(within(await rowOf('Acme')).getByText('15/04/2030')).toBeTruthy();
  });

  it('deletes a company only after confirmation, and never its own', async () => {
    const deleted: string[] = [];
    stubApi({
      'GET /companies': () => page([makeCompany(), makeCompany({ id: 1, name: 'Platform' })]),
      'DELETE /companies/10': (init) => {
        deleted.push(init.url.pathname);
        return new Response(null, { status: 204 });
      },
    });
    const user = setupUser();
    renderPage(<SettingsPage />, '/settings?tab=companies', superAuth());

    const platform = await rowOf('Platform');
    expect(
      (within(platform).getByRole('button', { name: 'Eliminar Platform' }) as HTMLButtonElement)
        .disabled,
    ).toBe(true);

    const acme = await rowOf('Acme');
    await user.click(within(acme).getByRole('button', { name: 'Eliminar Acme' }));
    const confirm = within(await screen.findByRole('dialog'));
    expect(confirm.getByText('¿Eliminar la empresa «Acme»?')).toBeTruthy();
    await user.click(confirm.getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(deleted).toEqual([]);

    await user.click(within(acme).getByRole('button', { name: 'Eliminar Acme' }));
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Eliminar' }),
    );

    expect(await screen.findByText('Empresa eliminada.')).toBeTruthy();
    expect(deleted).toEqual(['/companies/10']);
    await waitFor(() => expect(table().queryByText('Acme')).toBeNull());
  });

  it('follows companies created, changed and deleted elsewhere', async () => {
    stubApi({ 'GET /companies': () => page([makeCompany()]) });
    renderPage(<SettingsPage />, '/settings?tab=companies', superAuth());
    await rowOf('Acme');
    const socket = getSocket() as unknown as FakeSocket;

    act(() => {
      socket.receive('company-1-company', {
        action: 'create',
        company: makeCompany({ id: 30, name: 'Live Co' }),
      });
      socket.receive('company-1-company', {
        action: 'update',
        company: makeCompany({ status: 'suspended', effectiveStatus: 'suspended' }),
      });
    });
    expect(await rowOf('Live Co')).toBeTruthy();
    await waitFor(async () =>
      expect(within(await rowOf('Acme')).getByText('Suspendida')).toBeTruthy(),
    );

    act(() => {
      socket.receive('company-1-company', { action: 'delete', companyId: 30 });
    });
    await waitFor(() => expect(table().queryByText('Live Co')).toBeNull());
  });

  it('searches after a pause and loads the next page near the bottom', async () => {
    const requests: string[] = [];
    stubApi({
      'GET /companies': ({ url }) => {
        requests.push(url.search);
        const pageNumber = url.searchParams.get('pageNumber');
        if (url.searchParams.get('searchParam'))
          return page([makeCompany({ id: 40, name: 'Found' })]);
        return pageNumber === '1'
          ? page([makeCompany()], true)
          : page([makeCompany({ id: 41, name: 'Second Page' })]);
      },
    });
    const user = setupUserOnFakeClock();
    renderPage(<SettingsPage />, '/settings?tab=companies', superAuth());

    await rowOf('Acme');
    fireEvent.scroll(screen.getByTestId('companies-scroll'));
    expect(await rowOf('Second Page')).toBeTruthy();
    expect(requests).toEqual(['?searchParam=&pageNumber=1', '?searchParam=&pageNumber=2']);

    await user.type(screen.getByRole('textbox', { name: 'Buscar' }), 'fou');
    await advanceClock(SEARCH_DEBOUNCE_MS);
    expect(await rowOf('Found')).toBeTruthy();
    // One request for the whole word, not one per keystroke.
    expect(requests.slice(2)).toEqual(['?searchParam=fou&pageNumber=1']);
  });

  it('shows a company’s subscriptions and invoices, read-only, from its row', async () => {
    const queries: string[] = [];
    stubApi({
      'GET /companies': () => page([makeCompany(), makeCompany({ id: 11, name: 'Late Ltd' })]),
      'GET /subscriptions': ({ url }) => {
        queries.push(url.search);
        return subscriptionsOverview({
          subscriptions: [
            makeSubscription({
              id: 5,
              companyId: 10,
              plan: { id: 3, name: 'Basic' },
              startDate: '2025-03-10T12:00:00.000Z',
              currentPeriodEnd: '2025-04-10T12:00:00.000Z',
            }),
          ],
          invoices: [
            makeInvoice({
              id: 8,
              companyId: 10,
              subscriptionId: 5,
              value: 39,
              status: 'open',
              dueDate: '2025-04-10T12:00:00.000Z',
              hostedInvoiceUrl: 'https://invoice.stripe.com/i/acct_1/inv_8',
            }),
          ],
        });
      },
    });
    const user = setupUser();
    renderPage(<SettingsPage />, '/settings?tab=companies', superAuth());

    await user.click(
      within(await rowOf('Acme')).getByRole('button', { name: 'Suscripciones Acme' }),
    );
    const dialog = within(await screen.findByRole('dialog', { name: 'Suscripciones de «Acme»' }));
    const subscriptions = await dialog.findByRole('table', { name: 'Suscripciones de Acme' });
    const row = within(subscriptions).getByText('Basic').closest('tr')!;
    expect(
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['BasicActual', '10/03/2025', '10/04/2025', 'Activa']);
    const invoices = within(dialog.getByRole('table', { name: 'Facturas de Acme' }));
    expect(invoices.getByText('Abierta')).toBeTruthy();
    expect(invoices.getByText('10/04/2025')).toBeTruthy();
    expect(invoices.getByRole('link', { name: 'Ver factura' }).getAttribute('href')).toBe(
      'https://invoice.stripe.com/i/acct_1/inv_8',
    );
    expect(queries).toEqual(['?companyId=10']);
    // Read-only: nothing to subscribe, edit or delete there.
    expect(dialog.queryByRole('link', { name: 'Suscribirse' })).toBeNull();
    expect(dialog.getAllByRole('button').map((button) => button.textContent)).toEqual(['Cerrar']);

    await user.click(dialog.getByRole('button', { name: 'Cerrar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
