import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  campaignShippingPageSchema,
  campaignViewSchema,
  type CampaignReport,
  type CampaignShippingView,
  type CampaignView,
} from '@atendi/shared';
import { getSocket } from '../../api/socket';
import { unknownApiCalls } from '../../test/api-routes';
import type { FakeSocket } from '../../test/fake-socket';
import { callsOf, jsonResponse, makeAuth, stubApi } from '../../test/fixtures';
import { renderPage } from '../../test/render-page';
import { setupUser } from '../../test/user-event';
import { CampaignReportPage } from './campaign-report-page';

const makeReport = (overrides: Partial<CampaignReport> = {}): CampaignReport => ({
  recipients: 10,
  valid: 8,
  pending: 4,
  sent: 3,
  delivered: 2,
  read: 1,
  failed: 1,
  optedOut: 2,
  awaitingConfirmation: 0,
  confirmed: 0,
  ...overrides,
});

const makeCampaign = (overrides: Partial<CampaignView> = {}): CampaignView => {
  const campaign: CampaignView = {
    id: 7,
    companyId: 1,
    name: 'Promo de invierno',
    status: 'EM_ANDAMENTO',
    message1: 'Hola {{firstName}}',
    message2: '',
    message3: '',
    message4: '',
    message5: '',
    confirmation: false,
    confirmationMessage1: '',
    confirmationMessage2: '',
    confirmationMessage3: '',
    confirmationMessage4: '',
    confirmationMessage5: '',
    scheduledAt: '2026-03-05T14:30:00.000Z',
    completedAt: null,
    whatsappId: 2,
    whatsapp: { id: 2, name: 'Ventas WhatsApp' },
    contactListId: 5,
    contactList: { id: 5, name: 'Clientes VIP' },
    tagListId: null,
    tag: null,
    fileListId: null,
    fileList: null,
    mediaName: null,
    mediaUrl: null,
    templateId: null,
    template: null,
    templateParams: { header: [], body: [] },
    report: makeReport(),
    held: null,
    createdAt: '2026-03-01T10:00:00.000Z',
    updatedAt: '2026-03-01T10:00:00.000Z',
    ...overrides,
  };
  // Every fixture is an answer the API could give.
  campaignViewSchema.parse(campaign);
  return campaign;
};

const makeShipping = (overrides: Partial<CampaignShippingView> = {}): CampaignShippingView => ({
  id: 1,
  number: '5491155550001',
  name: 'Lucía Pérez',
  variant: 1,
  status: 'delivered',
  ack: 3,
  deliveredAt: '2026-03-05T14:35:00.000Z',
  confirmationRequestedAt: null,
  confirmedAt: null,
  optedOutAt: null,
  error: null,
  updatedAt: '2026-03-05T14:35:00.000Z',
  ...overrides,
});

const recipients = [
  makeShipping(),
  makeShipping({
    id: 2,
    number: '5215512345678',
    name: 'Mario Gómez',
    variant: 2,
    status: 'failed',
    ack: 0,
    deliveredAt: null,
    error: 'Número sin WhatsApp',
  }),
  makeShipping({ id: 3, number: '5491155550003', name: 'Sofía Ruiz', ack: 4 }),
];

const shippingOf = (records: CampaignShippingView[]) => {
  const body = { records, count: records.length, hasMore: false };
  campaignShippingPageSchema.parse(body);
  return jsonResponse(200, body);
};

const bytesOf = (blob: Blob) =>
  new Promise<Uint8Array>((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.readAsArrayBuffer(blob);
  });
const socket = () => getSocket() as unknown as FakeSocket;
const PATH = '/campaign/7/report';
const progressBar = () => screen.getByRole('progressbar', { name: 'Progreso de la campaña' });
// The card titled name holds text.
const cardHas = (name: string, text: string | RegExp) =>
  within(screen.getByRole('group', { name })).getByText(text);
const shippingCalls = (fetchMock: ReturnType<typeof stubApi>) =>
  callsOf(fetchMock).filter((call) => call.startsWith('GET /campaigns/7/shipping'));

// SPEC §2: the campaign routes exist only with the local cshow flag (and a plan with campaigns).
beforeEach(() => window.localStorage.setItem('cshow', 'true'));

describe('campaign report page', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows sent of valid, the progress and the cards, with what WhatsApp delivered and the recipients read', async () => {
    const fetchMock = stubApi({
      'GET /campaigns/7': () => jsonResponse(200, makeCampaign()),
      'GET /campaigns/7/shipping': () => shippingOf(recipients),
    });
    renderPage(<CampaignReportPage />, PATH, makeAuth(), { route: '/campaign/:campaignId/report' });

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Promo de invierno' }),
    ).toBeTruthy();
    expect(screen.getByText('En curso')).toBeTruthy();
    // Valid: 10 recipients less 2 skipped as opted out; 3 sent to those 8.
    expect(screen.getByText('3 de 8 enviados')).toBeTruthy();
    expect(screen.getByText('38 %')).toBeTruthy();
    expect(progressBar().getAttribute('aria-valuenow')).toBe('38');
    expect(screen.getByText('Fallidos: 1')).toBeTruthy();
    expect(screen.getByText('Dados de baja: 2')).toBeTruthy();
    expect(screen.getByText('Pendientes: 4')).toBeTruthy();
    // Without confirmation there is nobody to wait for.
    expect(screen.queryByText(/Esperando confirmación:/)).toBeNull();

    expect(cardHas('Contactos válidos', '8')).toBeTruthy();
    // In WhatsApp's words: sent, delivered to the phone, read.
    expect(cardHas('Enviados', '3')).toBeTruthy();
    expect(cardHas('Entregados', '2')).toBeTruthy();
    expect(cardHas('Leídos', '1')).toBeTruthy();
    expect(cardHas('Conexión', 'Ventas WhatsApp')).toBeTruthy();
    expect(cardHas('Lista de contactos', 'Clientes VIP')).toBeTruthy();
    expect(cardHas('Programación', /^05\/03\/2026 \d\d:30$/)).toBeTruthy();
    expect(cardHas('Finalización', 'Sin finalizar')).toBeTruthy();

    const table = await screen.findByRole('table', { name: 'Destinatarios de la campaña' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Número', 'Nombre', 'Variante', 'Estado', 'Enviado el', 'Error']);
    const mario = (await within(table).findByText('Mario Gómez')).closest('tr')!;
    expect(within(mario).getByText('Mensaje 2')).toBeTruthy();
    expect(within(mario).getByText('Falló')).toBeTruthy();
    expect(within(mario).getByText('Número sin WhatsApp')).toBeTruthy();
    const lucia = within(table).getByText('Lucía Pérez').closest('tr')!;
    expect(within(lucia).getByText('Entregado')).toBeTruthy();
    expect(within(lucia).getByText(/^05\/03\/2026 \d\d:35$/)).toBeTruthy();
    const sofia = within(table).getByText('Sofía Ruiz').closest('tr')!;
    expect(within(sofia).getByText('Leído')).toBeTruthy();
    expect(unknownApiCalls(fetchMock)).toEqual([]);
  });

  it('shows the same figures in the headline, the percentage and the bar of a stopped campaign, and who opted out', async () => {
    // Stopped after its first message: 4 recipients, one skipped as opted out before, one who got
    // the message and answered with an opt-out word.
    stubApi({
      'GET /campaigns/7': () =>
        jsonResponse(
          200,
          makeCampaign({
            status: 'CANCELADA',
            report: makeReport({
              recipients: 4,
              valid: 3,
              pending: 2,
              sent: 1,
              delivered: 1,
              read: 0,
              failed: 0,
              optedOut: 2,
            }),
          }),
        ),
      'GET /campaigns/7/shipping': () =>
        shippingOf([makeShipping({ optedOutAt: '2026-03-05T14:40:00.000Z' })]),
    });
    renderPage(<CampaignReportPage />, PATH, makeAuth(), { route: '/campaign/:campaignId/report' });

    expect(await screen.findByText('1 de 3 enviados')).toBeTruthy();
    expect(screen.getByText('33 %')).toBeTruthy();
    expect(progressBar().getAttribute('aria-valuenow')).toBe('33');
    expect(screen.getByText('Cancelada')).toBeTruthy();
    expect(screen.getByText('Dados de baja: 2')).toBeTruthy();
    expect(cardHas('Contactos válidos', '3')).toBeTruthy();
    // Lucía got the message and then opted out: both show.
    const table = await screen.findByRole('table', { name: 'Destinatarios de la campaña' });
    const lucia = (await within(table).findByText('Lucía Pérez')).closest('tr')!;
    expect(within(lucia).getByText('Entregado')).toBeTruthy();
    expect(within(lucia).getByText('Dado de baja')).toBeTruthy();
  });

  it('shows no progress for a campaign without recipients, and a tag as its audience', async () => {
    stubApi({
      'GET /campaigns/7': () =>
        jsonResponse(
          200,
          makeCampaign({
            status: 'INATIVA',
            scheduledAt: null,
            whatsappId: null,
            whatsapp: null,
            contactListId: null,
            contactList: null,
            tagListId: 3,
            tag: { id: 3, name: 'Mayoristas' },
            report: makeReport({
              recipients: 0,
              valid: 0,
              pending: 0,
              sent: 0,
              delivered: 0,
              read: 0,
              failed: 0,
              optedOut: 0,
            }),
          }),
        ),
      'GET /campaigns/7/shipping': () => shippingOf([]),
    });
    renderPage(<CampaignReportPage />, PATH, makeAuth(), { route: '/campaign/:campaignId/report' });

    expect(await screen.findByText('0 de 0 enviados')).toBeTruthy();
    expect(progressBar().getAttribute('aria-valuenow')).toBe('0');
    expect(screen.getByText('Inactiva')).toBeTruthy();
    expect(cardHas('Lista de contactos', 'Mayoristas')).toBeTruthy();
    expect(cardHas('Conexión', '—')).toBeTruthy();
    expect(cardHas('Programación', 'Sin programar')).toBeTruthy();
    expect(await screen.findByText('Esta campaña aún no tiene destinatarios.')).toBeTruthy();
  });

  it('follows the live events of its campaign, refreshing the table at most every 3 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout'] });
    const fetchMock = stubApi({
      'GET /campaigns/7': () => jsonResponse(200, makeCampaign()),
      'GET /campaigns/7/shipping': () => shippingOf(recipients),
    });
    renderPage(<CampaignReportPage />, PATH, makeAuth(), { route: '/campaign/:campaignId/report' });
    expect(await screen.findByText('3 de 8 enviados')).toBeTruthy();
    await screen.findByText('Mario Gómez');
    expect(shippingCalls(fetchMock)).toHaveLength(1);

    const update = (report: Partial<CampaignReport>, id = 7) =>
      act(() => {
        socket().receive('company-1-campaign', {
          action: 'update',
          record: makeCampaign({ id, report: makeReport(report) }),
        });
      });

    await update({ sent: 5, pending: 2 });
    expect(await screen.findByText('5 de 8 enviados')).toBeTruthy();
    // 5 of 8.
    expect(progressBar().getAttribute('aria-valuenow')).toBe('63');
    await waitFor(() => expect(shippingCalls(fetchMock)).toHaveLength(2));

    // Two more steps within 3 s: the table is asked once more, when the 3 s are up.
    await update({ sent: 6, pending: 1 });
    await update({ sent: 7, pending: 0 });
    expect(await screen.findByText('7 de 8 enviados')).toBeTruthy();
    expect(shippingCalls(fetchMock)).toHaveLength(2);
    await act(() => vi.advanceTimersByTimeAsync(3000));
    await waitFor(() => expect(shippingCalls(fetchMock)).toHaveLength(3));

    // Another campaign's steps are not this report's.
    await update({ sent: 0 }, 8);
    expect(screen.getByText('7 de 8 enviados')).toBeTruthy();
  });

  it('reads the campaign and its recipients again 5 s after it finishes', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout'] });
    let stored = makeCampaign();
    const fetchMock = stubApi({
      'GET /campaigns/7': () => jsonResponse(200, stored),
      'GET /campaigns/7/shipping': () => shippingOf(recipients),
    });
    renderPage(<CampaignReportPage />, PATH, makeAuth(), { route: '/campaign/:campaignId/report' });
    await screen.findByText('Mario Gómez');
    const detailCalls = () => callsOf(fetchMock).filter((call) => call === 'GET /campaigns/7');
    expect(detailCalls()).toHaveLength(1);

    const finished = makeCampaign({
      status: 'FINALIZADA',
      completedAt: '2026-03-05T15:00:00.000Z',
      report: makeReport({ sent: 7, pending: 0 }),
    });
    act(() => {
      socket().receive('company-1-campaign', { action: 'update', record: finished });
    });
    expect(await screen.findByText('Finalizada')).toBeTruthy();
    expect(screen.getByText('7 de 8 enviados')).toBeTruthy();
    const shippingBefore = shippingCalls(fetchMock).length;

    // The last answers settle on the server meanwhile.
    stored = { ...finished, report: makeReport({ sent: 8, failed: 0, pending: 0 }) };
    await act(() => vi.advanceTimersByTimeAsync(4900));
    expect(detailCalls()).toHaveLength(1);
    await act(() => vi.advanceTimersByTimeAsync(100));
    expect(await screen.findByText('8 de 8 enviados')).toBeTruthy();
    expect(detailCalls()).toHaveLength(2);
    await waitFor(() => expect(shippingCalls(fetchMock).length).toBe(shippingBefore + 1));
  });

  it('says when the campaign is deleted while open', async () => {
    stubApi({
      'GET /campaigns/7': () => jsonResponse(200, makeCampaign()),
      'GET /campaigns/7/shipping': () => shippingOf(recipients),
    });
    renderPage(<CampaignReportPage />, PATH, makeAuth(), { route: '/campaign/:campaignId/report' });
    await screen.findByText('3 de 8 enviados');

    act(() => {
      socket().receive('company-1-campaign', { action: 'delete', id: 8 });
    });
    expect(screen.getByText('3 de 8 enviados')).toBeTruthy();
    act(() => {
      socket().receive('company-1-campaign', { action: 'delete', id: 7 });
    });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Campaña eliminada' }),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Volver a las campañas' })).toBeTruthy();
  });

  it('says why the campaign waits for its number and when it sends again', async () => {
    stubApi({
      'GET /campaigns/7': () =>
        jsonResponse(
          200,
          makeCampaign({
            held: { reason: 'warm_up', until: new Date(2026, 10, 30, 14, 5).toISOString() },
          }),
        ),
      'GET /campaigns/7/shipping': () => shippingOf(recipients),
    });
    renderPage(<CampaignReportPage />, PATH, makeAuth(), { route: '/campaign/:campaignId/report' });

    const notice = await screen.findByRole('alert');
    expect(
      within(notice).getByText(
        'En espera: calentamiento del número nuevo · se reanuda el 30/11/2026 14:05',
      ),
    ).toBeTruthy();
    expect(notice.textContent).toContain('El número se vinculó hace poco');
    expect(screen.getByText('3 de 8 enviados')).toBeTruthy();

    act(() => {
      socket().receive('company-1-campaign', {
        action: 'update',
        record: makeCampaign({
          held: { reason: 'tier', until: new Date(2026, 11, 1, 9, 0).toISOString() },
        }),
      });
    });
    expect(
      await within(screen.getByRole('alert')).findByText(
        'En espera: límite de WhatsApp (nivel del número) · se reanuda el 01/12/2026 09:00',
      ),
    ).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('nivel de mensajería');

    // Sending again: the notice goes.
    act(() => {
      socket().receive('company-1-campaign', {
        action: 'update',
        record: makeCampaign({ report: makeReport({ sent: 4, pending: 3 }) }),
      });
    });
    expect(await screen.findByText('4 de 8 enviados')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('filters the recipients by status and searches them', async () => {
    const fetchMock = stubApi({
      'GET /campaigns/7': () => jsonResponse(200, makeCampaign()),
      'GET /campaigns/7/shipping': ({ url }) =>
        url.searchParams.get('status') === 'failed'
          ? shippingOf([recipients[1]!])
          : url.searchParams.get('searchParam') === 'lucia'
            ? shippingOf([recipients[0]!])
            : shippingOf(recipients),
    });
    const user = setupUser();
    renderPage(<CampaignReportPage />, PATH, makeAuth(), { route: '/campaign/:campaignId/report' });
    const table = await screen.findByRole('table', { name: 'Destinatarios de la campaña' });
    await within(table).findByText('Lucía Pérez');

    await user.click(screen.getByRole('combobox', { name: 'Estado' }));
    const listbox = await screen.findByRole('listbox');
    expect(
      within(listbox)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual([
      'Todos',
      'Pendiente',
      'Enviando',
      'Esperando confirmación',
      'Enviado',
      'Falló',
      'Dado de baja',
    ]);
    await user.click(within(listbox).getByRole('option', { name: 'Falló' }));
    await waitFor(() => expect(within(table).queryByText('Lucía Pérez')).toBeNull());
    expect(await within(table).findByText('Mario Gómez')).toBeTruthy();

    await user.click(screen.getByRole('combobox', { name: 'Estado' }));
    await user.click(await screen.findByRole('option', { name: 'Todos' }));
    await user.type(screen.getByRole('searchbox', { name: 'Buscar por número o nombre' }), 'lucia');
    await waitFor(() => expect(within(table).queryByText('Mario Gómez')).toBeNull());
    expect(await within(table).findByText('Lucía Pérez')).toBeTruthy();

    expect(shippingCalls(fetchMock)).toEqual([
      'GET /campaigns/7/shipping?searchParam=&pageNumber=1',
      'GET /campaigns/7/shipping?searchParam=&pageNumber=1&status=failed',
      'GET /campaigns/7/shipping?searchParam=lucia&pageNumber=1',
    ]);
    expect(unknownApiCalls(fetchMock)).toEqual([]);
  });

  describe('CSV download', () => {
    const createObjectURL = URL.createObjectURL;
    const revokeObjectURL = URL.revokeObjectURL;
    afterEach(() => {
      URL.createObjectURL = createObjectURL;
      URL.revokeObjectURL = revokeObjectURL;
      vi.restoreAllMocks();
    });

    it('downloads the recipients as campaign-{id}.csv with the session token', async () => {
      const csv =
        'number,name,variant,status,receipt,sentAt,error\r\n5491155550001,Lucía,1,delivered,sent,,\r\n';
      let blob: Blob | undefined;
      URL.createObjectURL = vi.fn((object: Blob | MediaSource) => {
        blob = object as Blob;
        return 'blob:campaign';
      });
      URL.revokeObjectURL = vi.fn();
      const clicked: { href: string; download: string }[] = [];
      vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
        this: HTMLAnchorElement,
      ) {
        clicked.push({ href: this.href, download: this.download });
      });
      let authorization: string | null = null;
      const fetchMock = stubApi({
        'GET /campaigns/7': () => jsonResponse(200, makeCampaign()),
        'GET /campaigns/7/shipping': () => shippingOf(recipients),
        'GET /campaigns/7/shipping.csv': (init) => {
          authorization = new Headers(init.headers).get('Authorization');
          return new Response(csv, {
            status: 200,
            headers: {
              'Content-Type': 'text/csv; charset=utf-8',
              'Content-Disposition': 'attachment; filename="campaign-7.csv"',
            },
          });
        },
      });
      const auth = makeAuth();
      const user = setupUser();
      renderPage(<CampaignReportPage />, PATH, auth, { route: '/campaign/:campaignId/report' });

      await user.click(await screen.findByRole('button', { name: 'Descargar CSV' }));
      await waitFor(() =>
        expect(clicked).toEqual([{ href: 'blob:campaign', download: 'campaign-7.csv' }]),
      );
      expect(callsOf(fetchMock)).toContain('GET /campaigns/7/shipping.csv');
      expect(unknownApiCalls(fetchMock)).toEqual([]);
      expect(authorization).toBe(`Bearer ${auth.token}`);
      expect(blob!.type).toBe('text/csv;charset=utf-8');
      // The server's text, behind a BOM so spreadsheet programs read the accents as UTF-8.
      expect(await bytesOf(blob!)).toEqual(
        new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(csv)]),
      );
    });

    it('shows why the download failed', async () => {
      stubApi({
        'GET /campaigns/7': () => jsonResponse(200, makeCampaign()),
        'GET /campaigns/7/shipping': () => shippingOf(recipients),
        'GET /campaigns/7/shipping.csv': () =>
          jsonResponse(404, { error: 'ERR_NO_CAMPAIGN_FOUND', message: 'Not found' }),
      });
      const user = setupUser();
      renderPage(<CampaignReportPage />, PATH, makeAuth(), {
        route: '/campaign/:campaignId/report',
      });

      await user.click(await screen.findByRole('button', { name: 'Descargar CSV' }));
      expect(await screen.findByText('No se encontró la campaña.')).toBeTruthy();
    });
  });

  it('says when the campaign does not exist and leads back to the campaigns', async () => {
    const fetchMock = stubApi({
      'GET /campaigns/77': () =>
        jsonResponse(404, { error: 'ERR_NO_CAMPAIGN_FOUND', message: 'Not found' }),
    });
    renderPage(<CampaignReportPage />, '/campaign/77/report', makeAuth(), {
      route: '/campaign/:campaignId/report',
    });

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Campaña no encontrada' }),
    ).toBeTruthy();
    expect(screen.getByText('No se encontró la campaña.')).toBeTruthy();
    expect(callsOf(fetchMock).some((call) => call.includes('/shipping'))).toBe(false);

    expect(screen.getByRole('link', { name: 'Volver a las campañas' }).getAttribute('href')).toBe(
      '/campaigns',
    );
  });
});
