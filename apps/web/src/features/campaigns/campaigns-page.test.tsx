import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { unknownApiCalls } from '../../test/api-routes';
import { callsOf, jsonResponse, makeAuth, stubApi } from '../../test/fixtures';
import { renderPage } from '../../test/render-page';
import { setupUser } from '../../test/user-event';
import {
  campaignsOf,
  cellTexts,
  makeCampaign,
  receiveCampaignEvent,
  rowOf,
} from './campaigns-page.fixtures';
import { CampaignsPage } from './campaigns-page';
import { shownDateTime } from '../../test/date-fields';

const HOUR_MS = 60 * 60 * 1000;
// Local times, so the table's dd/MM/yyyy HH:mm reads the same in every time zone.
const scheduled = new Date(2030, 2, 10, 9, 30);
const completed = new Date(2026, 0, 5, 18, 45);

const campaigns = [
  makeCampaign({
    id: 1,
    name: 'Bienvenida',
    status: 'INATIVA',
    tagListId: 7,
    tag: { id: 7, name: 'Mayoristas' },
  }),
  makeCampaign({
    id: 2,
    name: 'Promo marzo',
    status: 'PROGRAMADA',
    scheduledAt: scheduled.toISOString(),
    contactListId: 5,
    contactList: { id: 5, name: 'Clientes VIP' },
    whatsappId: 2,
    whatsapp: { id: 2, name: 'Ventas' },
  }),
  makeCampaign({
    id: 3,
    name: 'Navidad',
    status: 'EM_ANDAMENTO',
    scheduledAt: new Date(Date.now() - HOUR_MS).toISOString(),
    contactListId: 5,
    contactList: { id: 5, name: 'Clientes VIP' },
    whatsappId: 2,
    whatsapp: { id: 2, name: 'Ventas' },
  }),
  makeCampaign({
    id: 4,
    name: 'Black Friday',
    status: 'CANCELADA',
    scheduledAt: new Date(Date.now() - 2 * HOUR_MS).toISOString(),
    whatsappId: 3,
    whatsapp: { id: 3, name: 'Soporte' },
    contactListId: 5,
    contactList: { id: 5, name: 'Clientes VIP' },
  }),
  makeCampaign({
    id: 5,
    name: 'Verano',
    status: 'FINALIZADA',
    scheduledAt: new Date(2026, 0, 5, 9, 0).toISOString(),
    completedAt: completed.toISOString(),
    whatsappId: 2,
    whatsapp: { id: 2, name: 'Ventas' },
    contactListId: 5,
    contactList: { id: 5, name: 'Clientes VIP' },
  }),
];

const actionNames = (row: HTMLElement) =>
  within(row)
    .getAllByRole('button')
    .map((button) => button.getAttribute('aria-label'));

// SPEC §2: the campaign routes exist only with the local cshow flag (and a plan with campaigns).
beforeEach(() => window.localStorage.setItem('cshow', 'true'));

describe('campaigns page', () => {
  it('lists campaigns with their status, audience, connection and dates', async () => {
    const fetchMock = stubApi({ 'GET /campaigns': campaignsOf(campaigns) });
    renderPage(<CampaignsPage />, '/campaigns', makeAuth());

    const table = await screen.findByRole('table', { name: 'Campañas' });
    expect(screen.getByRole('heading', { level: 1, name: 'Campañas' })).toBeTruthy();
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual([
      'Nombre',
      'Estado',
      'Lista de contactos',
      'Conexión',
      'Programada',
      'Finalizada',
      'Acciones',
    ]);
    expect(cellTexts(await rowOf('Bienvenida')).slice(0, 6)).toEqual([
      'Bienvenida',
      'Inactiva',
      'Etiqueta: Mayoristas',
      '—',
      '—',
      '—',
    ]);
    expect(cellTexts(await rowOf('Promo marzo')).slice(0, 6)).toEqual([
      'Promo marzo',
      'Programada',
      'Clientes VIP',
      'Ventas',
      shownDateTime(scheduled),
      '—',
    ]);
    expect(cellTexts(await rowOf('Navidad'))[1]).toBe('En curso');
    expect(cellTexts(await rowOf('Black Friday'))[1]).toBe('Cancelada');
    expect(cellTexts(await rowOf('Verano')).slice(1, 6)).toEqual([
      'Finalizada',
      'Clientes VIP',
      'Ventas',
      '05/01/2026 09:00',
      shownDateTime(completed),
    ]);
    expect(callsOf(fetchMock)).toContain('GET /campaigns?searchParam=&pageNumber=1');
    expect(unknownApiCalls(fetchMock)).toEqual([]);
  });

  it('offers stop only while running or scheduled, and restart only once cancelled', async () => {
    stubApi({ 'GET /campaigns': campaignsOf(campaigns) });
    renderPage(<CampaignsPage />, '/campaigns', makeAuth());

    expect(actionNames(await rowOf('Bienvenida'))).toEqual([
      'Informe de Bienvenida',
      'Editar Bienvenida',
      'Eliminar Bienvenida',
    ]);
    expect(actionNames(await rowOf('Promo marzo'))).toEqual([
      'Detener Promo marzo',
      'Informe de Promo marzo',
      'Editar Promo marzo',
      'Eliminar Promo marzo',
    ]);
    // Running: nothing to edit, only to look at.
    expect(actionNames(await rowOf('Navidad'))).toEqual([
      'Detener Navidad',
      'Informe de Navidad',
      'Ver Navidad',
      'Eliminar Navidad',
    ]);
    expect(actionNames(await rowOf('Black Friday'))).toEqual([
      'Reanudar Black Friday',
      'Informe de Black Friday',
      'Editar Black Friday',
      'Eliminar Black Friday',
    ]);
    expect(actionNames(await rowOf('Verano'))).toEqual([
      'Informe de Verano',
      'Ver Verano',
      'Eliminar Verano',
    ]);
  });

  it('stops a running campaign after confirmation', async () => {
    let cancelled = 0;
    const fetchMock = stubApi({
      'GET /campaigns': campaignsOf(campaigns),
      'POST /campaigns/3/cancel': () => {
        cancelled += 1;
        return jsonResponse(200, { ...campaigns[2]!, status: 'CANCELADA' });
      },
    });
    const user = setupUser();
    renderPage(<CampaignsPage />, '/campaigns', makeAuth());

    await user.click(
      within(await rowOf('Navidad')).getByRole('button', { name: 'Detener Navidad' }),
    );
    const confirm = await screen.findByRole('dialog', { name: '¿Detener la campaña Navidad?' });
    expect(cancelled).toBe(0);
    await user.click(within(confirm).getByRole('button', { name: 'Detener' }));

    expect(await screen.findByText('Campaña detenida.')).toBeTruthy();
    expect(cancelled).toBe(1);
    await waitFor(async () => expect(cellTexts(await rowOf('Navidad'))[1]).toBe('Cancelada'));
    // Cancelled now: it can be resumed, no longer stopped.
    expect(actionNames(await rowOf('Navidad'))[0]).toBe('Reanudar Navidad');
    expect(unknownApiCalls(fetchMock)).toEqual([]);
  });

  it('shows why a stop was refused', async () => {
    stubApi({
      'GET /campaigns': campaignsOf(campaigns),
      'POST /campaigns/2/cancel': () =>
        jsonResponse(409, { error: 'ERR_CAMPAIGN_STATUS', message: 'Not running' }),
    });
    const user = setupUser();
    renderPage(<CampaignsPage />, '/campaigns', makeAuth());

    await user.click(
      within(await rowOf('Promo marzo')).getByRole('button', { name: 'Detener Promo marzo' }),
    );
    const confirm = await screen.findByRole('dialog', {
      name: '¿Detener la campaña Promo marzo?',
    });
    await user.click(within(confirm).getByRole('button', { name: 'Detener' }));

    expect(
      await screen.findByText('La campaña no puede hacer eso en su estado actual.'),
    ).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(cellTexts(await rowOf('Promo marzo'))[1]).toBe('Programada');
  });

  it('resumes a cancelled campaign', async () => {
    const fetchMock = stubApi({
      'GET /campaigns': campaignsOf(campaigns),
      'POST /campaigns/4/restart': () =>
        jsonResponse(200, { ...campaigns[3]!, status: 'EM_ANDAMENTO' }),
    });
    const user = setupUser();
    renderPage(<CampaignsPage />, '/campaigns', makeAuth());

    await user.click(
      within(await rowOf('Black Friday')).getByRole('button', {
        name: 'Reanudar Black Friday',
      }),
    );
    expect(await screen.findByText('Campaña reanudada.')).toBeTruthy();
    await waitFor(async () => expect(cellTexts(await rowOf('Black Friday'))[1]).toBe('En curso'));
    expect(callsOf(fetchMock)).toContain('POST /campaigns/4/restart');
    expect(unknownApiCalls(fetchMock)).toEqual([]);
  });

  it('deletes a campaign only after confirmation', async () => {
    let deleted = false;
    stubApi({
      'GET /campaigns': campaignsOf(campaigns),
      'DELETE /campaigns/1': () => {
        deleted = true;
        return new Response(null, { status: 204 });
      },
    });
    const user = setupUser();
    renderPage(<CampaignsPage />, '/campaigns', makeAuth());

    await user.click(
      within(await rowOf('Bienvenida')).getByRole('button', { name: 'Eliminar Bienvenida' }),
    );
    const confirm = await screen.findByRole('dialog', {
      name: '¿Eliminar la campaña Bienvenida?',
    });
    expect(deleted).toBe(false);
    await user.click(within(confirm).getByRole('button', { name: 'Eliminar' }));

    expect(await screen.findByText('Campaña eliminada.')).toBeTruthy();
    expect(deleted).toBe(true);
    await waitFor(() => expect(screen.queryByText('Bienvenida')).toBeNull());
  });

  it('follows the live campaign events', async () => {
    stubApi({ 'GET /campaigns': campaignsOf(campaigns) });
    renderPage(<CampaignsPage />, '/campaigns', makeAuth());
    await screen.findByText('Promo marzo');

    // The scheduled campaign started.
    receiveCampaignEvent({
      action: 'update',
      record: { ...campaigns[1]!, status: 'EM_ANDAMENTO' },
    });
    await waitFor(async () => expect(cellTexts(await rowOf('Promo marzo'))[1]).toBe('En curso'));

    receiveCampaignEvent({
      action: 'create',
      record: makeCampaign({ id: 9, name: 'Otoño' }),
    });
    expect(cellTexts(await rowOf('Otoño')).slice(0, 2)).toEqual(['Otoño', 'Inactiva']);
    // Newest first, as the API lists them.
    expect(screen.getAllByRole('row')[1]!.textContent).toContain('Otoño');

    receiveCampaignEvent({ action: 'delete', id: 9 });
    await waitFor(() => expect(screen.queryByText('Otoño')).toBeNull());

    // Another company's channel is not this page's.
    receiveCampaignEvent(
      { action: 'create', record: makeCampaign({ id: 10, companyId: 2, name: 'Ajena' }) },
      2,
    );
    expect(screen.queryByText('Ajena')).toBeNull();
  });

  it('says why a running campaign waits for its number and when it sends again, live', async () => {
    // Local times, so that dd/MM/yyyy HH:mm reads the same in every time zone.
    const resumes = new Date(2026, 10, 30, 14, 5);
    const navidad = makeCampaign({
      ...campaigns[2]!,
      held: { reason: 'tier', until: resumes.toISOString() },
    });
    stubApi({ 'GET /campaigns': campaignsOf([campaigns[1]!, navidad]) });
    renderPage(<CampaignsPage />, '/campaigns', makeAuth());

    const row = await rowOf('Navidad');
    expect(
      within(row).getByText(
        'En espera: límite de WhatsApp (nivel del número) · se reanuda el 30/11/2026 14:05',
      ),
    ).toBeTruthy();
    // Still running: the status says so, the notice says why nothing moves.
    expect(cellTexts(row)[1]).toBe('En curso');
    expect(within(await rowOf('Promo marzo')).queryByText(/En espera/)).toBeNull();

    receiveCampaignEvent({
      action: 'update',
      record: {
        ...navidad,
        held: { reason: 'daily_cap', until: new Date(2026, 11, 1, 9, 0).toISOString() },
      },
    });
    expect(
      await within(row).findByText(
        'En espera: tope diario del número · se reanuda el 01/12/2026 09:00',
      ),
    ).toBeTruthy();

    // The scheduled one started on a number linked days ago.
    receiveCampaignEvent({
      action: 'update',
      record: {
        ...campaigns[1]!,
        status: 'EM_ANDAMENTO',
        held: { reason: 'warm_up', until: new Date(2026, 11, 2, 8, 30).toISOString() },
      },
    });
    expect(
      await within(await rowOf('Promo marzo')).findByText(
        'En espera: calentamiento del número nuevo · se reanuda el 02/12/2026 08:30',
      ),
    ).toBeTruthy();

    // Sending again: the notice goes.
    receiveCampaignEvent({ action: 'update', record: { ...navidad, held: null } });
    await waitFor(() => expect(within(row).queryByText(/En espera/)).toBeNull());
  });
});
