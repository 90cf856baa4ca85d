import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CONTACT_LIST_UPLOAD_MAX_BYTES,
  type ContactListItemView,
  type ContactListUploadResult,
  type ContactListView,
} from '@atendi/shared';
import { getApiUrl } from '../../api/runtime-config';
import { isApiRoute, unknownApiCalls } from '../../test/api-routes';
import { callsOf, jsonResponse, makeAuth, makeToken, stubApi } from '../../test/fixtures';
import { renderPage } from '../../test/render-page';
import { cellTextsOf } from '../../test/tables';
import { setupUser } from '../../test/user-event';
import { ContactListItemsPage } from './contact-list-items-page';

// The sheet the browser reads (jsdom cannot unzip an .xlsx): its header and contact rows.
const sheet = vi.hoisted(() => ({ rows: [] as unknown[][] }));
vi.mock('read-excel-file/browser', () => ({ readSheet: async () => sheet.rows }));

const makeList = (overrides: Partial<ContactListView> = {}): ContactListView => ({
  id: 5,
  name: 'Clientes VIP',
  companyId: 1,
  contactsCount: 1,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...overrides,
});

const makeItem = (overrides: Partial<ContactListItemView> = {}): ContactListItemView => ({
  id: 41,
  name: 'Lucía Pérez',
  number: '5491155550001',
  email: 'lucia@example.com',
  companyId: 1,
  contactListId: 5,
  isWhatsappValid: true,
  createdAt: '2026-01-02T00:00:00.000Z',
  updatedAt: '2026-01-02T00:00:00.000Z',
  ...overrides,
});

const itemsOf = (contacts: ContactListItemView[]) =>
  jsonResponse(200, { contacts, count: contacts.length, hasMore: false });

type Listener = (event: ProgressEvent) => void;

const listenersOf = () => {
  const listeners = new Map<string, Listener[]>();
  return {
    addEventListener: (type: string, listener: Listener) =>
      listeners.set(type, [...(listeners.get(type) ?? []), listener]),
    fire: (type: string, init: ProgressEventInit = {}) =>
      (listeners.get(type) ?? []).forEach((listener) => listener(new ProgressEvent(type, init))),
  };
};

// A stand-in for XMLHttpRequest: records what the page sends and lets the test play the upload's
// progress and the server's answer.
class FakeXhr {
  static sent: FakeXhr[] = [];
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: unknown;
  withCredentials = false;
  status = 0;
  responseText = '';
  private events = listenersOf();
  private uploadEvents = listenersOf();
  upload = { addEventListener: this.uploadEvents.addEventListener };
  addEventListener = this.events.addEventListener;

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: unknown) {
    this.body = body;
    FakeXhr.sent.push(this);
  }

  progress(loaded: number, total: number) {
    act(() => this.uploadEvents.fire('progress', { lengthComputable: true, loaded, total }));
  }
  uploaded() {
    act(() => this.uploadEvents.fire('load'));
  }
  respond(status: number, body: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    act(() => this.events.fire('load'));
  }
}

const lastXhr = () => FakeXhr.sent[FakeXhr.sent.length - 1]!;
const fileInput = () => screen.getByTestId('import-file') as HTMLInputElement;
const PATH = '/contact-lists/5/contacts';
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const openImport = async (user: ReturnType<typeof setupUser>) => {
  await user.click(await screen.findByRole('button', { name: 'Importar' }));
  return screen.findByRole('dialog', { name: 'Importar contactos' });
};

// SPEC §2: the campaign routes exist only with the local cshow flag (and a plan with campaigns).
beforeEach(() => {
  window.localStorage.setItem('cshow', 'true');
  FakeXhr.sent = [];
  sheet.rows = [
    ['Nombre', 'Número', 'Email'],
    ['Ana Nueva', '5215500001111', ''],
  ];
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
});
const { createObjectURL, revokeObjectURL } = URL;
afterEach(() => {
  URL.createObjectURL = createObjectURL;
  URL.revokeObjectURL = revokeObjectURL;
  vi.restoreAllMocks();
});

describe('contact list import', () => {
  it('refuses an .xls or a file over the limit without sending it', async () => {
    const fetchMock = stubApi({
      'GET /contact-lists/5': () => jsonResponse(200, makeList()),
      'GET /contact-list-items': () => itemsOf([makeItem()]),
    });
    const user = setupUser();
    renderPage(<ContactListItemsPage />, PATH, makeAuth(), {
      route: '/contact-lists/:contactListId/contacts',
    });
    const dialog = await openImport(user);

    await user.upload(fileInput(), new File(['old'], 'clientes.xls'));
    expect(
      await within(dialog).findByText(
        'clientes.xls no es una planilla de Excel ni un archivo CSV. Suba una planilla de Excel ' +
          '(.xlsx) o un archivo CSV (.csv): ábralo en Excel, LibreOffice o Google Sheets, ' +
          'guárdelo como .xlsx o .csv y elíjalo de nuevo.',
      ),
    ).toBeTruthy();

    const big = new File([new Uint8Array(CONTACT_LIST_UPLOAD_MAX_BYTES + 1024 * 1024)], 'a.xlsx', {
      type: XLSX_TYPE,
    });
    await user.upload(fileInput(), big);
    expect(await within(dialog).findByText('a.xlsx pesa 6 MB; el máximo es 5 MB.')).toBeTruthy();

    // No confirmation was asked and nothing went to the server.
    expect(within(dialog).queryByText(/¿Continuar\?/)).toBeNull();
    expect(within(dialog).queryByRole('button', { name: 'Importar' })).toBeNull();
    expect(FakeXhr.sent).toEqual([]);
    expect(callsOf(fetchMock).some((call) => call.includes('/upload'))).toBe(false);

    // The template to fill in is offered here too.
    URL.createObjectURL = vi.fn(() => 'blob:sample');
    URL.revokeObjectURL = vi.fn();
    const downloads: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      downloads.push(this.download);
    });
    await user.click(within(dialog).getByRole('button', { name: 'Descargar planilla de ejemplo' }));
    await waitFor(() => expect(downloads).toEqual(['plantilla-contactos.xlsx']));
  });

  it('asks first, shows the upload and the processing, then the count and the refused rows', async () => {
    let imported = false;
    const fetchMock = stubApi({
      'GET /contact-lists/5': () => jsonResponse(200, makeList()),
      'GET /contact-list-items': () =>
        itemsOf(
          imported
            ? [makeItem(), makeItem({ id: 50, name: 'Ana Nueva', number: '5215500001111' })]
            : [makeItem()],
        ),
    });
    const auth = makeAuth();
    const user = setupUser();
    renderPage(<ContactListItemsPage />, PATH, auth, {
      route: '/contact-lists/:contactListId/contacts',
    });
    await screen.findByText('Lucía Pérez');
    const dialog = await openImport(user);
    sheet.rows = [
      ['Nombre', 'Número', 'Email'],
      ['Ana Nueva', '5215500001111', ''],
      ['Pedro', '5491155550001', ''],
      ['Mala', '12', ''],
      [null, null, null],
      ['Sin número', '', ''],
      ['Correo', '5215500002222', 'correo@'],
    ];

    const file = new File(['xlsx bytes'], 'clientes.xlsx', { type: XLSX_TYPE });
    await user.upload(fileInput(), file);
    // The blank row is not counted.
    expect(await within(dialog).findByText('clientes.xlsx: 5 filas de contactos.')).toBeTruthy();
    expect(
      within(dialog).getByText('Se importarán a la lista Clientes VIP. ¿Continuar?'),
    ).toBeTruthy();
    expect(FakeXhr.sent).toEqual([]);

    await user.click(within(dialog).getByRole('button', { name: 'Importar' }));
    expect(FakeXhr.sent).toHaveLength(1);
    const xhr = lastXhr();
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe(`${getApiUrl()}/contact-lists/5/upload`);
    expect(isApiRoute('POST', '/contact-lists/5/upload')).toBe(true);
    expect(xhr.headers.Authorization).toBe(`Bearer ${auth.token}`);
    expect(xhr.withCredentials).toBe(true);
    expect(xhr.body).toBeInstanceOf(FormData);
    const sentFile = (xhr.body as FormData).get('file') as File;
    expect(sentFile.name).toBe('clientes.xlsx');
    expect(sentFile.size).toBe(file.size);

    xhr.progress(256, 1024);
    const bar = within(dialog).getByRole('progressbar', { name: 'Progreso de la importación' });
    expect(bar.getAttribute('aria-valuenow')).toBe('25');
    expect(within(dialog).getByText('Importando… 25 %')).toBeTruthy();
    // While the file goes out the dialog cannot be closed.
    expect(
      (within(dialog).getByRole('button', { name: 'Cerrar' }) as HTMLButtonElement).disabled,
    ).toBe(true);

    xhr.uploaded();
    // Sent: the server reads the rows now, for a time nobody can tell.
    const processing = within(dialog).getByRole('progressbar', {
      name: 'Progreso de la importación',
    });
    expect(processing.getAttribute('aria-valuenow')).toBeNull();
    expect(within(dialog).getByText('Procesando…')).toBeTruthy();

    imported = true;
    const result: ContactListUploadResult = {
      created: 1,
      contactsCount: 2,
      errors: [
        {
          row: 3,
          name: 'Pedro',
          number: '5491155550001',
          error: 'ERR_DUPLICATED_LIST_ITEM',
          message: 'This number is already in the list',
        },
        {
          row: 4,
          name: 'Mala',
          number: '12',
          error: 'ERR_VALIDATION',
          message: 'Too small: expected string to have >=8 characters',
          field: 'number',
        },
        {
          row: 6,
          name: 'Sin número',
          number: '',
          error: 'ERR_VALIDATION',
          message: 'Too small: expected string to have >=8 characters',
          field: 'number',
        },
        {
          row: 7,
          name: 'Correo',
          number: '5215500002222',
          error: 'ERR_VALIDATION',
          message: 'Invalid email address',
          field: 'email',
        },
      ],
    };
    xhr.respond(200, result);

    expect(await within(dialog).findByText('1 contacto importado')).toBeTruthy();
    expect(within(dialog).getByText('1 fila omitida por número duplicado')).toBeTruthy();
    expect(within(dialog).getByText('3 filas con errores')).toBeTruthy();
    expect(
      within(dialog).getByText(
        'La lista tiene ahora 2 contactos. Los números nuevos se verifican en WhatsApp en segundo plano.',
      ),
    ).toBeTruthy();
    expect(within(dialog).getByText('4 filas no importadas')).toBeTruthy();
    const table = within(dialog).getByRole('table', { name: 'Filas no importadas' });
    expect(cellTextsOf(table)).toEqual([
      ['3', 'Pedro', '5491155550001', 'Número duplicado'],
      ['4', 'Mala', '12', 'Número: Use de 8 a 15 dígitos'],
      ['6', 'Sin número', '', 'Número: Campo obligatorio'],
      ['7', 'Correo', '5215500002222', 'Correo electrónico inválido'],
    ]);

    // The list's table asks again and shows the imported contact.
    await user.click(within(dialog).getByRole('button', { name: 'Cerrar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByText('Ana Nueva')).toBeTruthy();
    expect(
      callsOf(fetchMock).filter((call) => call.startsWith('GET /contact-list-items')),
    ).toHaveLength(2);
    expect(unknownApiCalls(fetchMock)).toEqual([]);
  });

  it('uploads a CSV as it was chosen, under its .csv name', async () => {
    const fetchMock = stubApi({
      'GET /contact-lists/5': () => jsonResponse(200, makeList()),
      'GET /contact-list-items': () => itemsOf([makeItem()]),
    });
    const user = setupUser();
    renderPage(<ContactListItemsPage />, PATH, makeAuth(), {
      route: '/contact-lists/:contactListId/contacts',
    });
    const dialog = await openImport(user);
    expect(fileInput().accept.split(',')).toEqual(expect.arrayContaining(['.xlsx', '.csv']));

    const file = new File(
      ['Nombre;Número;Email\r\nAna Nueva;5215500001111;\r\nPedro;5491155550001;\r\n'],
      'clientes.csv',
      { type: 'text/csv' },
    );
    await user.upload(fileInput(), file);
    // Read in the browser to count its rows, as a sheet is.
    expect(await within(dialog).findByText('clientes.csv: 2 filas de contactos.')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Importar' }));

    expect(FakeXhr.sent).toHaveLength(1);
    const xhr = lastXhr();
    expect(xhr.url).toBe(`${getApiUrl()}/contact-lists/5/upload`);
    const sentFile = (xhr.body as FormData).get('file') as File;
    expect(sentFile.name).toBe('clientes.csv');
    expect(await sentFile.text()).toBe(await file.text());
    xhr.uploaded();
    xhr.respond(200, { created: 2, errors: [], contactsCount: 3 });
    expect(await within(dialog).findByText('2 contactos importados')).toBeTruthy();
    expect(unknownApiCalls(fetchMock)).toEqual([]);
  });

  it('names a CSV the browser knew by its type only .csv for the server', async () => {
    stubApi({
      'GET /contact-lists/5': () => jsonResponse(200, makeList()),
      'GET /contact-list-items': () => itemsOf([makeItem()]),
    });
    const user = setupUser();
    renderPage(<ContactListItemsPage />, PATH, makeAuth(), {
      route: '/contact-lists/:contactListId/contacts',
    });
    const dialog = await openImport(user);
    await user.upload(
      fileInput(),
      new File(['numero\n5215500001111\n'], 'export', { type: 'text/csv' }),
    );
    await user.click(await within(dialog).findByRole('button', { name: 'Importar' }));
    expect(((lastXhr().body as FormData).get('file') as File).name).toBe('export.csv');
  });

  it("shows the server's refusal of the whole file, and lets another file be chosen", async () => {
    const fetchMock = stubApi({
      'GET /contact-lists/5': () => jsonResponse(200, makeList()),
      'GET /contact-list-items': () => itemsOf([makeItem()]),
    });
    const user = setupUser();
    renderPage(<ContactListItemsPage />, PATH, makeAuth(), {
      route: '/contact-lists/:contactListId/contacts',
    });
    const dialog = await openImport(user);

    await user.upload(fileInput(), new File(['x'], 'contactos.xlsx', { type: XLSX_TYPE }));
    await user.click(await within(dialog).findByRole('button', { name: 'Importar' }));
    lastXhr().uploaded();
    lastXhr().respond(415, {
      error: 'ERR_UPLOAD_TYPE_NOT_ALLOWED',
      message: 'Upload an Excel spreadsheet (.xlsx)',
    });

    // The words the dialog has for a file it refuses itself.
    expect(
      await within(dialog).findByText(
        'contactos.xlsx no es una planilla de Excel ni un archivo CSV. Suba una planilla de ' +
          'Excel (.xlsx) o un archivo CSV (.csv): ábralo en Excel, LibreOffice o Google Sheets, ' +
          'guárdelo como .xlsx o .csv y elíjalo de nuevo.',
      ),
    ).toBeTruthy();
    expect(within(dialog).queryByText(/importado/)).toBeNull();
    expect(within(dialog).queryByRole('progressbar')).toBeNull();

    // Another try: a sheet whose header names no number column.
    await user.click(within(dialog).getByRole('button', { name: 'Elegir otro archivo' }));
    await user.upload(fileInput(), new File(['x'], 'lista.xlsx', { type: XLSX_TYPE }));
    await user.click(await within(dialog).findByRole('button', { name: 'Importar' }));
    lastXhr().respond(400, {
      error: 'ERR_VALIDATION',
      message: 'The first row must name the columns',
      fields: { file: ['No number column'] },
    });
    expect(
      await within(dialog).findByText(
        'La primera fila de lista.xlsx debe nombrar las columnas nombre, número y email (o ' +
          'name, number, email).',
      ),
    ).toBeTruthy();

    // And a sheet past the server's reading limits (rows, unpacked size, time).
    await user.click(within(dialog).getByRole('button', { name: 'Elegir otro archivo' }));
    await user.upload(fileInput(), new File(['x'], 'enorme.xlsx', { type: XLSX_TYPE }));
    await user.click(await within(dialog).findByRole('button', { name: 'Importar' }));
    lastXhr().respond(413, {
      error: 'ERR_SPREADSHEET_TOO_LARGE',
      message: 'The spreadsheet unpacks to more than 32 MB',
    });
    expect(
      await within(dialog).findByText(
        'enorme.xlsx es demasiado grande para leerla: una planilla puede tener hasta 20.000 ' +
          'filas de contactos.',
      ),
    ).toBeTruthy();
    expect(FakeXhr.sent).toHaveLength(3);
    expect(unknownApiCalls(fetchMock)).toEqual([]);
  });

  it('sends the file again through the session refresh when the token has expired', async () => {
    const fresh = makeAuth({ token: makeToken({ sid: 'session-1', id: 1, n: 2 }) });
    let retried: { authorization: string | null; file: File } | undefined;
    const fetchMock = stubApi({
      'GET /contact-lists/5': () => jsonResponse(200, makeList()),
      'GET /contact-list-items': () => itemsOf([makeItem()]),
      'POST /auth/refresh_token': () => jsonResponse(200, fresh),
      'POST /contact-lists/5/upload': (init) => {
        const authorization = new Headers(init.headers).get('Authorization');
        if (authorization !== `Bearer ${fresh.token}`)
          return jsonResponse(403, { error: 'ERR_INVALID_TOKEN', message: 'Invalid token' });
        retried = { authorization, file: (init.body as FormData).get('file') as File };
        return jsonResponse(200, { created: 3, errors: [], contactsCount: 4 });
      },
    });
    const user = setupUser();
    renderPage(<ContactListItemsPage />, PATH, makeAuth(), {
      route: '/contact-lists/:contactListId/contacts',
    });
    const dialog = await openImport(user);

    await user.upload(fileInput(), new File(['x'], 'lista.xlsx', { type: XLSX_TYPE }));
    await user.click(await within(dialog).findByRole('button', { name: 'Importar' }));
    lastXhr().respond(403, { error: 'ERR_INVALID_TOKEN', message: 'Invalid token' });

    expect(await within(dialog).findByText('3 contactos importados')).toBeTruthy();
    expect(within(dialog).queryByRole('table')).toBeNull();
    expect(retried?.authorization).toBe(`Bearer ${fresh.token}`);
    expect(retried?.file.name).toBe('lista.xlsx');
    // Refreshed once, then sent once more, with the new token.
    expect(callsOf(fetchMock).filter((call) => call.startsWith('POST'))).toEqual([
      'POST /auth/refresh_token',
      'POST /contact-lists/5/upload',
    ]);
    expect(FakeXhr.sent).toHaveLength(1);
  });
});
