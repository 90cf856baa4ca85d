import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, makeAuth, makePlan, stubApi } from '../../../test/fixtures';
import { unknownApiCalls } from '../../../test/api-routes';
import { renderPage } from '../../../test/render-page';
import { fill, refill, setupUser } from '../../../test/user-event';
import { SettingsPage } from '../settings-page';

const superAuth = () => makeAuth({ user: { super: true } });
const table = () => within(screen.getByRole('table', { name: 'Planes' }));
const rowOf = async (name: string) =>
  (await table().findByText(name)).closest('tr') as HTMLTableRowElement;
const cells = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    // Intl puts a no-break space between the amount and the currency.
    .map((cell) => cell.textContent?.replace(/\s/g, ' '));

describe('plans tab', () => {
  it('lists plans with limits and AI quotas, unlimited for 0, the value in the billing currency and the features on', async () => {
    stubApi({
      'GET /plans/all': () =>
        jsonResponse(200, [
          makePlan({
            id: 1,
            name: 'Premium',
            users: 4,
            connections: 3,
            queues: 0,
            value: 1149.5,
            currency: 'eur',
            useKanban: false,
            useOpenAi: false,
            useIntegrations: false,
            useSchedules: false,
            useExternalApi: false,
          }),
          makePlan({ id: 2, name: 'Plus', aiAgents: 1, aiMessages: 2000 }),
          makePlan({ id: 3, name: 'Max', aiAgents: 0, aiMessages: 0 }),
        ]),
    });
    renderPage(<SettingsPage />, '/settings?tab=plans', superAuth());

    // SPEC §9: the AI agents a plan allows and the messages each may send a month; 0 is unlimited.
    expect(cells(await rowOf('Plus'))[4]).toBe('1 · 2.000 mensajes al mes c/u');
    expect(cells(await rowOf('Max'))[4]).toBe('Ilimitado · mensajes ilimitados');
    expect(cells(await rowOf('Premium')).slice(0, 8)).toEqual([
      'Premium',
      '4',
      '3',
      'Ilimitado',
      // No AI agents feature: its AI limits do not apply.
      '—',
      '20 GB',
      '1.149,50 €',
      'Campañas',
    ]);
    // The form types the value in that currency too.
    const user = setupUser();
    await user.click(
      within(await rowOf('Premium')).getByRole('button', { name: 'Editar Premium' }),
    );
    const dialog = within(await screen.findByRole('dialog', { name: 'Editar plan' }));
    const value = dialog.getByRole('spinbutton', { name: 'Valor' });
    expect(within(value.closest('.MuiInputBase-root') as HTMLElement).getByText('€')).toBeTruthy();
  });

  it('starts a new plan with every feature on, unlimited limits and 5 GB of storage', async () => {
    let body: Record<string, unknown> = {};
    stubApi({
      'GET /plans/all': () => jsonResponse(200, []),
      'POST /plans': (init) => {
        body = JSON.parse(String(init.body));
        return jsonResponse(201, { id: 9, ...body, currency: 'usd' });
      },
    });
    const user = setupUser();
    renderPage(<SettingsPage />, '/settings?tab=plans', superAuth());

    expect(await screen.findByText('No hay planes.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Agregar plan' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Nuevo plan' }));
    for (const label of [
      'Usuarios',
      'Conexiones',
      'Colas',
      'Agentes de IA',
      'Mensajes de IA por agente al mes',
      'Tokens de IA al mes',
      'Valor',
    ]) {
      expect((dialog.getByRole('spinbutton', { name: label }) as HTMLInputElement).value).toBe('0');
    }
    const storage = dialog.getByRole('spinbutton', { name: 'Almacenamiento' }) as HTMLInputElement;
    expect(storage.value).toBe('5120');
    const switches = dialog.getAllByRole('switch') as HTMLInputElement[];
    expect(switches).toHaveLength(6);
    expect(switches.every((input) => input.checked)).toBe(true);

    await fill(user, dialog.getByRole('textbox', { name: 'Nombre' }), 'Enterprise');
    const value = dialog.getByRole('spinbutton', { name: 'Valor' });
    await refill(user, value, '39');
    await refill(user, storage, '-1');
    await user.click(dialog.getByRole('button', { name: 'Guardar' }));
    expect(await dialog.findByText('Número entero de MB entre 0 y 100000000')).toBeTruthy();
    await refill(user, storage, '10240');
    await refill(user, dialog.getByRole('spinbutton', { name: 'Agentes de IA' }), '3');
    const aiMessages = dialog.getByRole('spinbutton', { name: 'Mensajes de IA por agente al mes' });
    await refill(user, aiMessages, '2.5');
    await user.click(dialog.getByRole('button', { name: 'Guardar' }));
    expect(await dialog.findByText('Número entero entre 0 y 10000000')).toBeTruthy();
    await refill(user, aiMessages, '2000');
    await refill(user, dialog.getByRole('spinbutton', { name: 'Tokens de IA al mes' }), '3000000');
    await user.click(dialog.getByRole('switch', { name: 'Kanban' }));
    await user.click(dialog.getByRole('button', { name: 'Guardar' }));

    expect(await screen.findByText('Plan guardado.')).toBeTruthy();
    expect(body).toEqual({
      name: 'Enterprise',
      users: 0,
      connections: 0,
      queues: 0,
      aiAgents: 3,
      aiMessages: 2000,
      aiTokens: 3_000_000,
      storageMb: 10240,
      value: 39,
      useCampaigns: true,
      useKanban: false,
      useOpenAi: true,
      useIntegrations: true,
      useSchedules: true,
      useExternalApi: true,
      stripePriceId: null,
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(cells(await rowOf('Enterprise')).slice(1, 7)).toEqual([
      'Ilimitado',
      'Ilimitado',
      'Ilimitado',
      '3 · 2.000 mensajes al mes c/u',
      '10 GB',
      '39,00 US$',
    ]);
  });

  it('reports a duplicated name and keeps the form open', async () => {
    stubApi({
      'GET /plans/all': () => jsonResponse(200, [makePlan({ id: 1, name: 'Plus' })]),
      'PUT /plans/1': () =>
        jsonResponse(409, { error: 'ERR_PLAN_ALREADY_EXISTS', message: 'Plan exists' }),
    });
    const user = setupUser();
    renderPage(<SettingsPage />, '/settings?tab=plans', superAuth());

    await user.click(within(await rowOf('Plus')).getByRole('button', { name: 'Editar Plus' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Editar plan' }));
    expect((dialog.getByRole('textbox', { name: 'Nombre' }) as HTMLInputElement).value).toBe(
      'Plus',
    );
    await user.click(dialog.getByRole('button', { name: 'Guardar' }));

    expect(await screen.findByText('Ya existe un plan con este nombre.')).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Editar plan' })).toBeTruthy();
  });

  it('deletes a plan after confirmation and explains a plan still in use', async () => {
    let inUse = true;
    stubApi({
      'GET /plans/all': () => jsonResponse(200, [makePlan({ id: 1, name: 'Plus' })]),
      'DELETE /plans/1': () =>
        inUse
          ? jsonResponse(409, { error: 'ERR_PLAN_IN_USE', message: 'In use' })
          : new Response(null, { status: 204 }),
    });
    const user = setupUser();
    renderPage(<SettingsPage />, '/settings?tab=plans', superAuth());

    await user.click(within(await rowOf('Plus')).getByRole('button', { name: 'Eliminar Plus' }));
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Eliminar' }),
    );
    expect(await screen.findByText('Este plan está en uso por alguna empresa.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await rowOf('Plus')).toBeTruthy();

    inUse = false;
    await user.click(screen.getByRole('button', { name: 'Eliminar Plus' }));
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Eliminar' }),
    );
    expect(await screen.findByText('Plan eliminado.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByText('No hay planes.')).toBeTruthy();
  });

  it('shows which plans have a payment price, and edits or clears the Stripe price id', async () => {
    const bodies: Record<string, unknown>[] = [];
    stubApi({
      'GET /plans/all': () =>
        jsonResponse(200, [
          makePlan({ id: 1, name: 'Plus', stripePriceId: 'price_1Plus' }),
          makePlan({ id: 2, name: 'Basic', stripePriceId: null }),
        ]),
      'PUT /plans/2': (init) => {
        const body = JSON.parse(String(init.body));
        bodies.push(body);
        return jsonResponse(200, makePlan({ id: 2, name: 'Basic', ...body }));
      },
    });
    const user = setupUser();
    renderPage(<SettingsPage />, '/settings?tab=plans', superAuth());

    expect(cells(await rowOf('Plus'))[8]).toBe('price_1Plus');
    expect(cells(await rowOf('Basic'))[8]).toBe('Sin precio');
    // The super user is told what companies see and what to do about it.
    expect(screen.getByTestId('plans-without-price').textContent).toBe(
      '1 plan aún no tiene precio de pago en línea: las empresas lo ven como no disponible y no pueden contratarlo. Pulse «Sincronizar precio» en su fila para crear su precio en Stripe.',
    );

    await user.click(within(await rowOf('Basic')).getByRole('button', { name: 'Editar Basic' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Editar plan' }));
    const priceId = dialog.getByRole('textbox', { name: 'ID de precio de Stripe' });
    expect((priceId as HTMLInputElement).value).toBe('');
    await fill(user, priceId, 'prod_123');
    await user.click(dialog.getByRole('button', { name: 'Guardar' }));
    expect(
      await dialog.findByText('Un ID de precio empieza con price_ (letras, números y _)'),
    ).toBeTruthy();
    expect(bodies).toEqual([]);

    await refill(user, priceId, 'price_1Basic');
    await user.click(dialog.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Plan guardado.')).toBeTruthy();
    expect(bodies[0]).toMatchObject({ stripePriceId: 'price_1Basic' });
    await waitFor(async () => expect(cells(await rowOf('Basic'))[8]).toBe('price_1Basic'));
    // Every plan has a price now: nothing left to tell.
    expect(screen.queryByTestId('plans-without-price')).toBeNull();

    // Emptying the field clears the price.
    await user.click(within(await rowOf('Basic')).getByRole('button', { name: 'Editar Basic' }));
    const again = within(await screen.findByRole('dialog', { name: 'Editar plan' }));
    await user.clear(again.getByRole('textbox', { name: 'ID de precio de Stripe' }));
    await user.click(again.getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(bodies).toHaveLength(2));
    expect(bodies[1]).toMatchObject({ stripePriceId: null });
  });

  it('syncs a plan’s price at the payment provider and explains why it could not', async () => {
    let answer = () =>
      jsonResponse(503, { error: 'ERR_PAYMENTS_NOT_CONFIGURED', message: 'No keys' });
    const synced: string[] = [];
    const fetchMock = stubApi({
      'GET /plans/all': () => jsonResponse(200, [makePlan({ id: 4, name: 'Plus' })]),
      'POST /plans/4/price': ({ url }) => {
        synced.push(url.pathname);
        return answer();
      },
    });
    const user = setupUser();
    renderPage(<SettingsPage />, '/settings?tab=plans', superAuth());

    const sync = within(await rowOf('Plus')).getByRole('button', {
      name: 'Sincronizar precio Plus',
    });
    await user.click(sync);
    expect(
      await screen.findByText('Los pagos no están configurados en este servidor.'),
    ).toBeTruthy();

    answer = () => jsonResponse(502, { error: 'ERR_PAYMENT_PROVIDER', message: 'Stripe down' });
    await user.click(sync);
    expect(
      await screen.findByText(
        'El proveedor de pagos rechazó la operación o no respondió. Intente de nuevo más tarde.',
      ),
    ).toBeTruthy();
    expect(cells(await rowOf('Plus'))[8]).toBe('Sin precio');

    answer = () => jsonResponse(200, makePlan({ id: 4, name: 'Plus', stripePriceId: 'price_9' }));
    await user.click(sync);
    expect(await screen.findByText('Precio de «Plus» sincronizado: price_9.')).toBeTruthy();
    await waitFor(async () => expect(cells(await rowOf('Plus'))[8]).toBe('price_9'));
    expect(synced).toEqual(['/plans/4/price', '/plans/4/price', '/plans/4/price']);
    expect(unknownApiCalls(fetchMock)).toEqual([]);
  });
});
