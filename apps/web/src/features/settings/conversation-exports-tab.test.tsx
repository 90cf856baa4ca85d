import { screen, waitFor, within } from '@testing-library/react';
import { format, startOfMonth } from 'date-fns';
import type { ConversationExport } from '@atendi/shared';
import { describe, expect, it, vi } from 'vitest';
import { unknownApiCalls } from '../../test/api-routes';
import { advanceClock } from '../../test/clock';
import { dateInput, setDate } from '../../test/date-fields';
import { callsOf, jsonResponse, makeAuth, stubApi } from '../../test/fixtures';
import { renderPage } from '../../test/render-page';
import { setupUser } from '../../test/user-event';
import { formatDateTime } from '../../lib/dates';
import { SettingsPage } from './settings-page';

const exportRow = (overrides: Partial<ConversationExport> = {}): ConversationExport => ({
  id: 1,
  status: 'done',
  format: 'jsonl',
  includeMedia: false,
  dateFrom: '2026-11-01',
  dateTo: '2026-11-30',
  total: 120,
  done: 120,
  size: 1_572_864,
  error: null,
  createdAt: '2026-12-01T10:00:00.000Z',
  finishedAt: '2026-12-01T10:02:00.000Z',
  expiresAt: '2099-12-04T10:02:00.000Z',
  createdBy: { id: 1, name: 'Ana Admin' },
  ...overrides,
});

const running = (overrides: Partial<ConversationExport> = {}) =>
  exportRow({
    status: 'running',
    done: 30,
    size: null,
    finishedAt: null,
    expiresAt: null,
    ...overrides,
  });

const LIST = 'GET /conversation-exports';

const openTab = () => renderPage(<SettingsPage />, '/settings?tab=exports', makeAuth());
const table = () => screen.getByRole('table', { name: 'Exportaciones' });
const rowOf = async (text: string) =>
  (
    await within(await screen.findByRole('table', { name: 'Exportaciones' })).findByText(text)
  ).closest('tr') as HTMLTableRowElement;
const listCalls = (fetchMock: ReturnType<typeof stubApi>) =>
  callsOf(fetchMock).filter((call) => call === LIST);

const bytesOf = (blob: Blob) =>
  new Promise<Uint8Array>((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.readAsArrayBuffer(blob);
  });

// Every file handed to the browser's downloads: its name and what it holds.
const recordSaves = () => {
  const blobs: Blob[] = [];
  URL.createObjectURL = vi.fn((object: Blob | MediaSource) => {
    blobs.push(object as Blob);
    return `blob:${blobs.length}`;
  });
  URL.revokeObjectURL = vi.fn();
  const saved: { name: string; blob: Blob }[] = [];
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    saved.push({ name: this.download, blob: blobs[Number(this.href.split(':')[1]) - 1]! });
  });
  return saved;
};

describe('conversation exports tab', () => {
  it('lists the exports with their state: queued, building, ready, failed', async () => {
    const fetchMock = stubApi({
      [LIST]: () =>
        jsonResponse(200, {
          exports: [
            exportRow({
              id: 5,
              status: 'pending',
              dateFrom: '2026-12-01',
              dateTo: '2026-12-15',
              total: null,
              done: 0,
              size: null,
              finishedAt: null,
              expiresAt: null,
            }),
            running({ id: 4, dateFrom: '2026-10-01', dateTo: '2026-10-31', format: 'csv' }),
            exportRow({ id: 3, includeMedia: true }),
            exportRow({
              id: 2,
              status: 'failed',
              dateFrom: '2026-09-01',
              dateTo: '2026-09-30',
              size: null,
              error: 'The file store could not be reached',
              expiresAt: null,
              createdBy: null,
            }),
            exportRow({
              id: 1,
              dateFrom: '2026-08-01',
              dateTo: '2026-08-31',
              expiresAt: '2026-09-04T10:02:00.000Z',
            }),
          ],
        }),
    });
    openTab();

    expect(await screen.findByRole('tab', { name: 'Exportaciones', selected: true })).toBeTruthy();
    expect(screen.getByText(/un mensaje por fila, que se abre en Excel/)).toBeTruthy();

    const queued = within(await rowOf('01/12/2026 – 15/12/2026'));
    expect(queued.getByText('En cola')).toBeTruthy();
    expect(queued.getByText('JSON Lines')).toBeTruthy();
    expect(queued.getByText('Ana Admin')).toBeTruthy();
    expect(queued.getByText(formatDateTime('2026-12-01T10:00:00.000Z'))).toBeTruthy();
    expect(queued.queryByRole('button', { name: /^Descargar/ })).toBeNull();
    expect(queued.getByRole('button', { name: 'Eliminar 01/12/2026 – 15/12/2026' })).toBeTruthy();

    const building = within(await rowOf('01/10/2026 – 31/10/2026'));
    expect(building.getByText('Generando')).toBeTruthy();
    expect(building.getByText('CSV')).toBeTruthy();
    expect(building.getByText('30 de 120 conversaciones')).toBeTruthy();
    const progress = building.getByRole('progressbar', {
      name: 'Progreso de la exportación 01/10/2026 – 31/10/2026',
    });
    expect(progress.getAttribute('aria-valuenow')).toBe('25');
    expect(building.queryByRole('button', { name: /^Descargar/ })).toBeNull();

    const ready = within(await rowOf('01/11/2026 – 30/11/2026'));
    expect(ready.getByText('Lista')).toBeTruthy();
    expect(ready.getByText('con archivos')).toBeTruthy();
    expect(
      ready.getByText(`1,5 MB · Disponible hasta ${formatDateTime('2099-12-04T10:02:00.000Z')}`),
    ).toBeTruthy();
    expect(ready.getByRole('button', { name: 'Descargar 01/11/2026 – 30/11/2026' })).toBeTruthy();

    const failed = within(await rowOf('01/09/2026 – 30/09/2026'));
    expect(failed.getByText('Falló')).toBeTruthy();
    expect(failed.getByText('The file store could not be reached')).toBeTruthy();
    expect(failed.getByText('—')).toBeTruthy();
    expect(failed.queryByRole('button', { name: /^Descargar/ })).toBeNull();

    // Its file is gone: nothing to download.
    const expired = within(await rowOf('01/08/2026 – 31/08/2026'));
    expect(expired.getByText('Vencida')).toBeTruthy();
    expect(
      expired.getByText(`1,5 MB · Se borró el ${formatDateTime('2026-09-04T10:02:00.000Z')}`),
    ).toBeTruthy();
    expect(expired.queryByRole('button', { name: /^Descargar/ })).toBeNull();
    expect(unknownApiCalls(fetchMock)).toEqual([]);
  });

  it('shows each export as a card on a phone', async () => {
    window.innerWidth = 390;
    stubApi({ [LIST]: () => jsonResponse(200, { exports: [exportRow()] }) });
    openTab();

    const cards = await screen.findByRole('list', { name: 'Exportaciones' });
    const card = within(within(cards).getByRole('listitem'));
    expect(card.getByText('01/11/2026 – 30/11/2026')).toBeTruthy();
    expect(card.getByText('Lista')).toBeTruthy();
    expect(card.getByRole('button', { name: 'Descargar 01/11/2026 – 30/11/2026' })).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('asks for an export of the days, format and files chosen and lists it', async () => {
    let exports: ConversationExport[] = [];
    const sent: unknown[] = [];
    const fetchMock = stubApi({
      [LIST]: () => jsonResponse(200, { exports }),
      'POST /conversation-exports': (init) => {
        const body = JSON.parse(String(init.body));
        sent.push(body);
        const created = exportRow({
          id: 9,
          ...body,
          status: 'pending',
          total: null,
          done: 0,
          size: null,
          finishedAt: null,
          expiresAt: null,
        });
        exports = [created];
        return jsonResponse(201, created);
      },
    });
    const user = setupUser();
    openTab();

    expect(await screen.findByText('Aún no hay exportaciones.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Nueva exportación' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Nueva exportación' }));
    // From the first of this month to today.
    const today = new Date();
    expect(dateInput('Primer día', dialog).value).toBe(format(startOfMonth(today), 'dd/MM/yyyy'));
    expect(dateInput('Último día', dialog).value).toBe(format(today, 'dd/MM/yyyy'));
    expect(dialog.getByRole('combobox', { name: 'Formato' }).textContent).toBe('JSON Lines');
    expect(dialog.getByRole('switch', { name: 'Incluir archivos (ZIP)' })).toHaveProperty(
      'checked',
      false,
    );

    // The last day before the first: said under it, nothing sent.
    setDate('Primer día', '10/10/2026', dialog);
    setDate('Último día', '09/10/2026', dialog);
    await user.click(dialog.getByRole('button', { name: 'Exportar' }));
    expect(await dialog.findByText('El último día no puede ser anterior al primero')).toBeTruthy();
    expect(sent).toHaveLength(0);

    setDate('Primer día', '01/10/2026', dialog);
    setDate('Último día', '31/10/2026', dialog);
    await user.click(dialog.getByRole('combobox', { name: 'Formato' }));
    await user.click(await screen.findByRole('option', { name: 'CSV' }));
    expect(dialog.getByText(/se abre en Excel u otra hoja de cálculo/)).toBeTruthy();
    await user.click(dialog.getByRole('switch', { name: 'Incluir archivos (ZIP)' }));
    await user.click(dialog.getByRole('button', { name: 'Exportar' }));

    expect(await screen.findByText('Exportación creada: se está generando.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent).toEqual([
      { dateFrom: '2026-10-01', dateTo: '2026-10-31', format: 'csv', includeMedia: true },
    ]);
    const row = within(await rowOf('01/10/2026 – 31/10/2026'));
    expect(row.getByText('En cola')).toBeTruthy();
    expect(row.getByText('CSV')).toBeTruthy();
    expect(row.getByText('con archivos')).toBeTruthy();
    expect(within(table()).getAllByRole('row')).toHaveLength(2);
    expect(unknownApiCalls(fetchMock)).toEqual([]);
  });

  it('says under the last day why the API refused the range', async () => {
    const sent: unknown[] = [];
    stubApi({
      [LIST]: () => jsonResponse(200, { exports: [exportRow()] }),
      'POST /conversation-exports': (init) => {
        sent.push(JSON.parse(String(init.body)));
        return jsonResponse(400, {
          error: 'ERR_VALIDATION',
          message: 'Invalid body',
          fields: { dateTo: ['At most 366 days'] },
        });
      },
    });
    const user = setupUser();
    openTab();

    await rowOf('01/11/2026 – 30/11/2026');
    await user.click(screen.getByRole('button', { name: 'Nueva exportación' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Nueva exportación' }));
    setDate('Primer día', '01/01/2026', dialog);
    setDate('Último día', '31/12/2026', dialog);
    await user.click(dialog.getByRole('button', { name: 'Exportar' }));

    const refusal =
      'Revise el período: el último día no puede ser anterior al primero y abarca hasta 366 días.';
    expect(await dialog.findByText(refusal)).toBeTruthy();
    // The field (a group of the day's parts) is marked, and names the text as its description.
    const dateTo = dialog.getByRole('group', { name: 'Último día' });
    expect(dateTo.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(dateTo.getAttribute('aria-describedby')!)?.textContent).toBe(
      refusal,
    );
    expect(sent).toEqual([
      { dateFrom: '2026-01-01', dateTo: '2026-12-31', format: 'jsonl', includeMedia: false },
    ]);
    expect(screen.getByRole('dialog', { name: 'Nueva exportación' })).toBeTruthy();
  });

  it('reads the list again every 2 seconds while an export is built, and stops when none is', async () => {
    // Only the intervals are faked: TanStack's refetchInterval moves when the test moves the clock.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const answers = [running({ total: null, done: 0 }), running({ done: 60 }), exportRow()];
    let calls = 0;
    const fetchMock = stubApi({
      [LIST]: () => {
        const item = answers[Math.min(calls, answers.length - 1)]!;
        calls += 1;
        return jsonResponse(200, { exports: [item] });
      },
    });
    openTab();

    const row = async () => within(await rowOf('01/11/2026 – 30/11/2026'));
    expect(await (await row()).findByText('Contando conversaciones…')).toBeTruthy();
    expect(listCalls(fetchMock)).toHaveLength(1);

    await advanceClock(1999);
    expect(listCalls(fetchMock)).toHaveLength(1);
    await advanceClock(1);
    expect(await (await row()).findByText('60 de 120 conversaciones')).toBeTruthy();
    expect(listCalls(fetchMock)).toHaveLength(2);

    await advanceClock(2000);
    expect(await (await row()).findByText('Lista')).toBeTruthy();
    expect(listCalls(fetchMock)).toHaveLength(3);

    // Nothing on its way: the list rests.
    await advanceClock(10_000);
    expect(listCalls(fetchMock)).toHaveLength(3);
    expect(
      (await row()).getByRole('button', { name: 'Descargar 01/11/2026 – 30/11/2026' }),
    ).toBeTruthy();
  });

  it('downloads a ready export through the API under its name', async () => {
    const saved = recordSaves();
    const jsonl = '{"ticket":{"id":7}}\n{"ticket":{"id":8}}\n';
    const csv = '\uFEFFticketId,body\n7,Hola señor\n';
    const zip = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0xff, 0x00, 0xe2]);
    const authorizations: (string | null)[] = [];
    const file = (body: BodyInit, type: string, name: string) => (init: RequestInit) => {
      authorizations.push(new Headers(init.headers).get('Authorization'));
      return new Response(body, {
        status: 200,
        headers: { 'Content-Type': type, 'Content-Disposition': `attachment; filename="${name}"` },
      });
    };
    const fetchMock = stubApi({
      [LIST]: () =>
        jsonResponse(200, {
          exports: [
            exportRow({ id: 3 }),
            exportRow({ id: 2, format: 'csv', dateFrom: '2026-10-01', dateTo: '2026-10-31' }),
            exportRow({ id: 1, includeMedia: true, dateFrom: '2026-09-01', dateTo: '2026-09-30' }),
            exportRow({ id: 4, dateFrom: '2026-08-01', dateTo: '2026-08-31' }),
          ],
        }),
      'GET /conversation-exports/3/download': file(
        jsonl,
        'application/x-ndjson; charset=utf-8',
        'conversaciones-2026-11-01-2026-11-30.jsonl',
      ),
      'GET /conversation-exports/2/download': file(
        csv,
        'text/csv; charset=utf-8',
        'conversaciones-2026-10-01-2026-10-31.csv',
      ),
      'GET /conversation-exports/1/download': file(
        zip,
        'application/zip',
        'conversaciones-2026-09-01-2026-09-30.zip',
      ),
      'GET /conversation-exports/4/download': () =>
        jsonResponse(404, { error: 'ERR_NOT_FOUND', message: 'The export’s file is gone' }),
    });
    const auth = makeAuth();
    const user = setupUser();
    renderPage(<SettingsPage />, '/settings?tab=exports', auth);

    const download = async (range: string) =>
      user.click(within(await rowOf(range)).getByRole('button', { name: `Descargar ${range}` }));
    await download('01/11/2026 – 30/11/2026');
    await waitFor(() => expect(saved).toHaveLength(1));
    await download('01/10/2026 – 31/10/2026');
    await waitFor(() => expect(saved).toHaveLength(2));
    await download('01/09/2026 – 30/09/2026');
    await waitFor(() => expect(saved).toHaveLength(3));

    expect(saved.map(({ name }) => name)).toEqual([
      'conversaciones-2026-11-01-2026-11-30.jsonl',
      'conversaciones-2026-10-01-2026-10-31.csv',
      'conversaciones-2026-09-01-2026-09-30.zip',
    ]);
    expect(await saved[0]!.blob.text()).toBe(jsonl);
    // The CSV keeps its byte order mark, so that Excel reads the accents.
    expect([...(await bytesOf(saved[1]!.blob))]).toEqual([...new TextEncoder().encode(csv)]);
    // The ZIP's bytes as they came, not read as text.
    expect(await bytesOf(saved[2]!.blob)).toEqual(zip);

    await download('01/08/2026 – 31/08/2026');
    expect(await screen.findByText('No se encontró el registro.')).toBeTruthy();
    expect(saved).toHaveLength(3);

    expect(callsOf(fetchMock).filter((call) => call.endsWith('/download'))).toEqual([
      'GET /conversation-exports/3/download',
      'GET /conversation-exports/2/download',
      'GET /conversation-exports/1/download',
      'GET /conversation-exports/4/download',
    ]);
    expect(authorizations).toEqual(Array(3).fill(`Bearer ${auth.token}`));
    expect(unknownApiCalls(fetchMock)).toEqual([]);
  });

  it('deletes an export after a confirmation, stopping one being built', async () => {
    let exports = [exportRow(), running({ id: 2, dateFrom: '2026-10-01', dateTo: '2026-10-31' })];
    const deleted: string[] = [];
    const fetchMock = stubApi({
      [LIST]: () => jsonResponse(200, { exports }),
      'DELETE /conversation-exports/2': ({ url }) => {
        deleted.push(url.pathname);
        exports = exports.filter((item) => item.id !== 2);
        return jsonResponse(204);
      },
    });
    const user = setupUser();
    openTab();

    await user.click(
      within(await rowOf('01/10/2026 – 31/10/2026')).getByRole('button', {
        name: 'Eliminar 01/10/2026 – 31/10/2026',
      }),
    );
    const confirm = within(await screen.findByRole('dialog'));
    expect(confirm.getByText('¿Eliminar la exportación del 01/10/2026 – 31/10/2026?')).toBeTruthy();
    expect(confirm.getByText(/Todavía se está generando: se detiene/)).toBeTruthy();
    expect(deleted).toHaveLength(0);
    await user.click(confirm.getByRole('button', { name: 'Eliminar' }));

    expect(await screen.findByText('Exportación eliminada.')).toBeTruthy();
    expect(deleted).toEqual(['/conversation-exports/2']);
    await waitFor(() => expect(within(table()).queryByText('01/10/2026 – 31/10/2026')).toBeNull());
    expect(within(table()).getByText('01/11/2026 – 30/11/2026')).toBeTruthy();
    expect(unknownApiCalls(fetchMock)).toEqual([]);
  });
});
