import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { unknownApiCalls } from '../../test/api-routes';
import { callsOf, jsonResponse, makeAuth, stubApi } from '../../test/fixtures';
import { renderPage } from '../../test/render-page';
import { setupUser } from '../../test/user-event';
import { dashboardRoutes } from './dashboard.fixtures';
import { DashboardPage } from './dashboard-page';

// The getting-started checklist's lists, answered as a company that finished it (no card).
const checklistRoutes = {
  'GET /queue': () => jsonResponse(200, [{ id: 1 }]),
  'GET /users/list': () => jsonResponse(200, [{ id: 1 }, { id: 2 }]),
  'GET /tickets': () => jsonResponse(200, { tickets: [{ id: 1 }], count: 1, hasMore: false }),
};

const reportTable = () => screen.findByRole('table', { name: 'Informe' });
// Each row's cells as the admin reads them.
const rowsOf = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent));

const bytesOf = (blob: Blob) =>
  new Promise<Uint8Array>((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.readAsArrayBuffer(blob);
  });

describe('dashboard report', () => {
  const createObjectURL = URL.createObjectURL;
  const revokeObjectURL = URL.revokeObjectURL;
  beforeEach(() => {
    // Saturday 15 March 2025, 10:00 on the browser's clock: the month so far is 1–15 March.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2025, 2, 15, 10, 0));
  });
  afterEach(() => {
    vi.useRealTimers();
    URL.createObjectURL = createObjectURL;
    URL.revokeObjectURL = revokeObjectURL;
    vi.restoreAllMocks();
  });

  it('shows the period’s figures per queue, and per agent when asked', async () => {
    const fetchMock = stubApi({ ...checklistRoutes, ...dashboardRoutes() });
    const user = setupUser();
    renderPage(<DashboardPage />, '/', makeAuth());

    await waitFor(async () =>
      expect(rowsOf(await reportTable())).toEqual([
        ['Soporte', '12', '10', '4,5', '62,3', '2,5 (4 valoraciones)', '87,5 % (7 de 8)'],
        ['Ventas', '1234', '0', '—', '—', '—', '—'],
        ['Sin cola', '2', '1', '0,4', '15', '1 (1 valoración)', '—'],
      ]),
    );
    await user.click(screen.getByRole('button', { name: 'Por agente' }));
    await waitFor(async () =>
      expect(rowsOf(await reportTable())).toEqual([
        ['Ana Admin', '8', '8', '3', '20', '3 (2 valoraciones)', '60 % (3 de 5)'],
        ['Sin agente', '6', '3', '—', '45,5', '—', '—'],
      ]),
    );
    await user.click(screen.getByRole('button', { name: 'Por día' }));
    await waitFor(async () =>
      expect(rowsOf(await reportTable())).toEqual([
        ['14/03/2025', '3', '2', '1,5', '30', '—', '—'],
        ['15/03/2025', '1', '0', '—', '—', '—', '—'],
      ]),
    );
    // The period the filter chose, grouped as shown.
    expect(callsOf(fetchMock).filter((call) => call.startsWith('GET /dashboard/report'))).toEqual([
      'GET /dashboard/report?date_from=2025-03-01&date_to=2025-03-15&groupBy=queue',
      'GET /dashboard/report?date_from=2025-03-01&date_to=2025-03-15&groupBy=user',
      'GET /dashboard/report?date_from=2025-03-01&date_to=2025-03-15&groupBy=day',
    ]);
    expect(unknownApiCalls(fetchMock)).toEqual([]);
  });

  it('downloads the CSV of the period and grouping shown, with the session token', async () => {
    const csv = 'id,name,started\n3,Soporte,12\n,,2\n';
    let blob: Blob | undefined;
    URL.createObjectURL = vi.fn((object: Blob | MediaSource) => {
      blob = object as Blob;
      return 'blob:report';
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
      ...checklistRoutes,
      ...dashboardRoutes(),
      'GET /dashboard/report.csv': (init) => {
        authorization = new Headers(init.headers).get('Authorization');
        return new Response(csv, {
          status: 200,
          headers: { 'Content-Type': 'text/csv; charset=utf-8' },
        });
      },
    });
    const auth = makeAuth();
    const user = setupUser();
    renderPage(<DashboardPage />, '/', auth);
    await reportTable();

    const download = screen.getByRole('button', { name: 'Descargar CSV' });
    await waitFor(() => expect(download.hasAttribute('disabled')).toBe(false));
    await user.click(download);
    // Named as the server names it: the grouping and the period's first and last days (its zone's).
    await waitFor(() =>
      expect(clicked).toEqual([
        { href: 'blob:report', download: 'report-queue-2025-03-01-2025-03-15.csv' },
      ]),
    );
    expect(callsOf(fetchMock)).toContain(
      'GET /dashboard/report.csv?date_from=2025-03-01&date_to=2025-03-15&groupBy=queue',
    );
    expect(authorization).toBe(`Bearer ${auth.token}`);
    // The server's text behind a BOM, so spreadsheet programs read the accents as UTF-8.
    expect(await bytesOf(blob!)).toEqual(
      new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(csv)]),
    );
    expect(unknownApiCalls(fetchMock)).toEqual([]);
  });
});
