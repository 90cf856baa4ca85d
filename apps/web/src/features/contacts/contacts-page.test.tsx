import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { ContactDetailView, ContactView } from '@atendi/shared';
import { getSocket } from '../../api/socket';
import type { FakeSocket } from '../../test/fake-socket';
import { callsOf, jsonResponse, makeAuth, stubApi } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';
import { renderPage } from '../../test/render-page';
import { cellTextsOf } from '../../test/tables';
import { fill, refill, setupUser } from '../../test/user-event';
import { contactsCsv } from './contacts.api';
import { ContactsPage } from './contacts-page';

const sheet = vi.hoisted(() => ({ rows: [] as unknown[][] }));
vi.mock('read-excel-file/browser', () => ({ readSheet: async () => sheet.rows }));

const makeContact = (overrides: Partial<ContactView> = {}): ContactView => ({
  id: 7,
  name: 'Lucía Pérez',
  number: '5491155550001',
  email: 'lucia@example.com',
  profilePicUrl: '',
  urlPicture: '',
  isGroup: false,
  whatsappId: null,
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-01T10:00:00.000Z',
  ...overrides,
});
const detailOf = (contact: ContactView): ContactDetailView => ({ ...contact, extraInfo: [] });

const listOf =
  (contacts: ContactView[], hasMore = false) =>
  () =>
    jsonResponse(200, { contacts, hasMore, count: contacts.length });

const bodyOf = (init: RequestInit) => JSON.parse(String(init.body)) as Record<string, unknown>;
const socket = () => getSocket() as unknown as FakeSocket;
const rowOf = async (text: string) => (await screen.findByText(text)).closest('tr')!;

describe('contacts page', () => {
  it('lists contacts with their number as people write it and email, counted in the title', async () => {
    stubApi({
      'GET /contacts': listOf([
        makeContact(),
        makeContact({ id: 8, name: 'Bruno', email: '', number: '525512345678' }),
        makeContact({ id: 9, name: 'Ventas', number: '120363025246125486@g.us', isGroup: true }),
      ]),
    });
    renderPage(<ContactsPage />, '/contacts', makeAuth());
    const row = await rowOf('Lucía Pérez');
    expect(await within(row).findByText('+54 9 11 5555 0001')).toBeTruthy();
    expect(within(row).getByText('lucia@example.com')).toBeTruthy();
    expect(within(await rowOf('Bruno')).getByText('+52 55 1234 5678')).toBeTruthy();
    // A group keeps its WhatsApp id.
    expect(within(await rowOf('Ventas')).getByText('120363025246125486@g.us')).toBeTruthy();
    expect(await screen.findByRole('heading', { level: 1, name: 'Contactos (3)' })).toBeTruthy();
  });

  it('adds a contact, and shows a number not on WhatsApp or taken under the field', async () => {
    let attempts = 0;
    const fetchMock = stubApi({
      'GET /contacts': listOf([]),
      'POST /contacts': (request) => {
        attempts += 1;
        if (attempts === 1)
          return jsonResponse(400, {
            error: 'ERR_WAPP_INVALID_CONTACT',
            message: 'not on WhatsApp',
            fields: { number: ['ERR_WAPP_INVALID_CONTACT'] },
          });
        if (attempts === 2)
          return jsonResponse(409, {
            error: 'ERR_DUPLICATED_CONTACT',
            message: 'A contact with this number already exists',
          });
        const body = bodyOf(request);
        return jsonResponse(201, detailOf(makeContact({ id: 9, name: String(body.name) })));
      },
    });
    const user = setupUser();
    renderPage(<ContactsPage />, '/contacts', makeAuth());
    expect(await screen.findByRole('heading', { level: 1, name: 'Contactos (0)' })).toBeTruthy();
    await user.click(await screen.findByRole('button', { name: 'Agregar contacto' }));
    const dialog = await screen.findByRole('dialog');
    await fill(user, within(dialog).getByLabelText('Nombre'), 'Carla Gómez');
    await fill(user, within(dialog).getByLabelText('Número de WhatsApp'), '5491155550009');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(
      await within(dialog).findByText('Este no es un número de WhatsApp válido.'),
    ).toBeTruthy();

    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(await within(dialog).findByText('Ya existe un contacto con este número.')).toBeTruthy();

    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByText('Carla Gómez')).toBeTruthy();
    // The title counts the new contact at once (and once, whatever live event follows).
    expect(screen.getByRole('heading', { level: 1, name: 'Contactos (1)' })).toBeTruthy();
    act(() =>
      socket().receive('company-1-contact', {
        action: 'create',
        contact: detailOf(makeContact({ id: 9, name: 'Carla Gómez' })),
      }),
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Contactos (1)' })).toBeTruthy();
    const posted = fetchMock.mock.calls
      .filter(([, init]) => init?.method === 'POST')
      .map(([, init]) => bodyOf(init!));
    expect(posted[2]).toMatchObject({ name: 'Carla Gómez', number: '5491155550009' });
  });

  it('edits a contact showing its number as people write it, sent back as stored when untouched', async () => {
    const contact = makeContact();
    const fetchMock = stubApi({
      'GET /contacts': listOf([contact]),
      'GET /contacts/7': () => jsonResponse(200, detailOf(contact)),
      'PUT /contacts/7': (request) =>
        jsonResponse(200, detailOf({ ...contact, name: String(bodyOf(request).name) })),
    });
    const user = setupUser();
    renderPage(<ContactsPage />, '/contacts', makeAuth());
    await screen.findByText('+54 9 11 5555 0001');
    await user.click(await screen.findByRole('button', { name: 'Editar Lucía Pérez' }));
    const dialog = await screen.findByRole('dialog');
    expect((within(dialog).getByLabelText('Número de WhatsApp') as HTMLInputElement).value).toBe(
      '+54 9 11 5555 0001',
    );
    await refill(user, within(dialog).getByLabelText('Nombre'), 'Lucía P.');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Lucía P.')).toBeTruthy();
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT')!;
    expect(bodyOf(put[1]!)).toMatchObject({ name: 'Lucía P.', number: '5491155550001' });
  });

  it("says how a local number is read in the company's country, and a number that is none under the field", async () => {
    let attempts = 0;
    const fetchMock = stubApi({
      'GET /contacts': listOf([]),
      'GET /settings/': () => jsonResponse(200, [{ key: 'country', value: 'MX' }]),
      'POST /contacts': () => {
        attempts += 1;
        if (attempts === 1)
          return jsonResponse(400, {
            error: 'ERR_INVALID_NUMBER',
            message: 'Not a phone number of MX, nor one written with its country code',
            fields: { number: ['Not a phone number of MX, nor one written with its country code'] },
          });
        return jsonResponse(
          201,
          detailOf(makeContact({ id: 9, name: 'Lupita', number: '525512345678' })),
        );
      },
    });
    const user = setupUser();
    renderPage(<ContactsPage />, '/contacts', makeAuth());
    await user.click(await screen.findByRole('button', { name: 'Agregar contacto' }));
    const dialog = await screen.findByRole('dialog');
    expect(
      await within(dialog).findByText('Sin código de país, se lee como un número de México.'),
    ).toBeTruthy();
    await fill(user, within(dialog).getByLabelText('Nombre'), 'Lupita');
    await fill(user, within(dialog).getByLabelText('Número de WhatsApp'), '55 1234 56');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(await within(dialog).findByText(/^No es un número de teléfono válido\./)).toBeTruthy();

    await refill(user, within(dialog).getByLabelText('Número de WhatsApp'), '55 1234 5678');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByText('+52 55 1234 5678')).toBeTruthy();
    const posted = fetchMock.mock.calls
      .filter(([, init]) => init?.method === 'POST')
      .map(([, init]) => bodyOf(init!));
    // The API reads the number with the company's country.
    expect(posted.map((body) => body.number)).toEqual(['55 1234 56', '55 1234 5678']);
  });

  it('lets only those allowed delete a contact, after confirming', async () => {
    stubApi({
      'GET /contacts': listOf([makeContact()]),
      'DELETE /contacts/7': () => jsonResponse(204),
    });
    const user = setupUser();
    const view = renderPage(<ContactsPage />, '/contacts', makeAuth({ user: { profile: 'user' } }));
    await rowOf('Lucía Pérez');
    expect(screen.queryByRole('button', { name: 'Eliminar Lucía Pérez' })).toBeNull();
    view.unmount();

    renderPage(<ContactsPage />, '/contacts', makeAuth());
    await user.click(await screen.findByRole('button', { name: 'Eliminar Lucía Pérez' }));
    const confirm = await screen.findByRole('dialog');
    await user.click(within(confirm).getByRole('button', { name: 'Eliminar' }));
    await waitFor(() => expect(screen.queryByText('Lucía Pérez')).toBeNull());
    expect(await screen.findByRole('heading', { level: 1, name: 'Contactos (0)' })).toBeTruthy();
  });

  it('opens the contact’s conversation, also when it already has one waiting', async () => {
    const fetchMock = stubApi({
      'GET /contacts': listOf([makeContact()]),
      'POST /tickets': () =>
        jsonResponse(409, {
          error: 'ERR_OTHER_OPEN_TICKET',
          message: 'The contact already has an open ticket on this connection',
          details: { ticket: { id: 3, uuid: 'waiting-uuid', status: 'pending' }, user: null },
        }),
    });
    const user = setupUser();
    // The journey ends in the inbox, another feature: the whole app renders.
    renderApp(
      '/contacts',
      makeAuth({ user: { profile: 'user', queues: [{ id: 4, name: 'Ventas', color: '#00f' }] } }),
    );
    await user.click(
      await screen.findByRole('button', { name: 'Abrir conversación con Lucía Pérez' }),
    );
    await waitFor(() => expect(callsOf(fetchMock)).toContain('GET /tickets/u/waiting-uuid'));
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST')!;
    // An attendant opens it in their queue.
    expect(bodyOf(post[1]!)).toMatchObject({ contactId: 7, queueId: 4, status: 'open' });
  });

  it('imports a sheet and lists each refused row by name and reason', async () => {
    sheet.rows = [
      ['Nombre', 'Número', 'Email'],
      ['Ana', '5491155550002', ''],
      ['X', '5491155550003', ''],
      ['Sin cuenta', '9991155550004', ''],
    ];
    const fetchMock = stubApi({
      'GET /contacts': listOf([]),
      'POST /contacts/upload': () =>
        jsonResponse(200, {
          newContacts: [makeContact({ id: 11, name: 'Ana', number: '5491155550002' })],
          errorBag: [
            {
              row: 3,
              name: 'X',
              number: '5491155550003',
              error: 'ERR_VALIDATION',
              field: 'name',
              message: 'Too small',
            },
            {
              row: 4,
              name: 'Sin cuenta',
              number: '9991155550004',
              error: 'ERR_WAPP_INVALID_CONTACT',
              field: 'number',
              message: 'This number is not on WhatsApp',
            },
          ],
        }),
    });
    const user = setupUser();
    renderPage(<ContactsPage />, '/contacts', makeAuth());
    await user.click(await screen.findByRole('button', { name: 'Importar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Importar contactos' });
    await user.upload(screen.getByTestId('import-file'), new File(['xlsx'], 'contactos.xlsx'));
    // Read in the browser and counted before anything is sent.
    expect(await within(dialog).findByText('contactos.xlsx: 3 filas de contactos.')).toBeTruthy();
    expect(callsOf(fetchMock).some((call) => call.includes('/contacts/upload'))).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Importar' }));

    expect(await within(dialog).findByText('1 contacto importado')).toBeTruthy();
    expect(within(dialog).getByText('2 filas con errores')).toBeTruthy();
    const table = within(dialog).getByRole('table', { name: 'Filas no importadas' });
    expect(cellTextsOf(table)).toEqual([
      ['3', 'X', '5491155550003', 'Nombre: Debe tener entre 2 y 50 caracteres'],
      // What the contact dialog would say of a number WhatsApp does not know.
      ['4', 'Sin cuenta', '9991155550004', 'Este no es un número de WhatsApp válido.'],
    ]);
    const upload = fetchMock.mock.calls.find(([url]) => String(url).includes('/contacts/upload'))!;
    expect(bodyOf(upload[1]!)).toEqual({
      rows: [
        { Nombre: 'Ana', Número: '5491155550002', Email: '' },
        { Nombre: 'X', Número: '5491155550003', Email: '' },
        { Nombre: 'Sin cuenta', Número: '9991155550004', Email: '' },
      ],
      firstRow: 2,
    });
  });

  it('imports the phone’s contacts, and says when the connection cannot', async () => {
    let calls = 0;
    stubApi({
      'GET /contacts': listOf([]),
      'POST /contacts/import': () => {
        calls += 1;
        return calls === 1
          ? jsonResponse(400, { error: 'ERR_IMPORT_NOT_SUPPORTED', message: 'no' })
          : jsonResponse(200, {
              newContacts: [makeContact({ id: 13, name: 'Agenda Ana' })],
              errorBag: [],
            });
      },
    });
    const user = setupUser();
    renderPage(<ContactsPage />, '/contacts', makeAuth());
    await user.click(await screen.findByRole('button', { name: 'Importar' }));
    await user.click(await screen.findByRole('button', { name: 'Contactos del teléfono' }));
    await user.click(await screen.findByRole('button', { name: 'Importar' }));
    expect(
      await screen.findByText(
        'Esta conexión no puede leer los contactos del teléfono (la API oficial de WhatsApp no los comparte).',
      ),
    ).toBeTruthy();
    // Nothing came in: the same dialog offers both sources again.
    expect(screen.queryByText(/importado/)).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Cerrar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await user.click(screen.getByRole('button', { name: 'Importar' }));
    await user.click(await screen.findByRole('button', { name: 'Contactos del teléfono' }));
    await user.click(await screen.findByRole('button', { name: 'Importar' }));
    expect(await screen.findByText('1 contacto importado')).toBeTruthy();
    expect(screen.queryByRole('table', { name: 'Filas no importadas' })).toBeNull();
  });

  it('imports a CSV as Excel writes it in Spanish: semicolons, Latin-1', async () => {
    const fetchMock = stubApi({
      'GET /contacts': listOf([]),
      'POST /contacts/upload': () =>
        jsonResponse(200, {
          newContacts: [makeContact({ id: 12, name: 'José Pérez', number: '5491122223333' })],
          errorBag: [],
        }),
    });
    // "Nombre;Número\r\nJosé Pérez;5491122223333" in Windows-1252: ú is 0xFA, é is 0xE9.
    const bytes = new Uint8Array([
      ...[0x4e, 0x6f, 0x6d, 0x62, 0x72, 0x65, 0x3b], // Nombre;
      ...[0x4e, 0xfa, 0x6d, 0x65, 0x72, 0x6f, 0x0d, 0x0a], // Número\r\n
      ...[0x4a, 0x6f, 0x73, 0xe9, 0x20, 0x50, 0xe9, 0x72, 0x65, 0x7a, 0x3b], // José Pérez;
      ...new TextEncoder().encode('5491122223333'),
    ]);
    const user = setupUser();
    renderPage(<ContactsPage />, '/contacts', makeAuth());
    await user.click(await screen.findByRole('button', { name: 'Importar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Importar contactos' });
    await user.upload(
      screen.getByTestId('import-file'),
      new File([bytes], 'Contactos.CSV', { type: 'application/vnd.ms-excel' }),
    );
    expect(await within(dialog).findByText('Contactos.CSV: 1 fila de contactos.')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Importar' }));

    expect(await within(dialog).findByText('1 contacto importado')).toBeTruthy();
    const upload = fetchMock.mock.calls.find(([url]) => String(url).includes('/contacts/upload'))!;
    expect(bodyOf(upload[1]!)).toEqual({
      rows: [{ Nombre: 'José Pérez', Número: '5491122223333' }],
      firstRow: 2,
    });
  });

  it('refuses a file that is neither .xlsx nor .csv without sending anything', async () => {
    const fetchMock = stubApi({ 'GET /contacts': listOf([]) });
    const user = setupUser({ applyAccept: false });
    renderPage(<ContactsPage />, '/contacts', makeAuth());
    await user.click(await screen.findByRole('button', { name: 'Importar' }));
    await user.upload(screen.getByTestId('import-file'), new File(['a;b'], 'c.ods'));
    expect(
      await screen.findByText(
        'c.ods no es una planilla de Excel ni un archivo CSV. Suba una planilla de Excel (.xlsx) ' +
          'o un archivo CSV (.csv): ábralo en Excel, LibreOffice o Google Sheets, guárdelo como ' +
          '.xlsx o .csv y elíjalo de nuevo.',
      ),
    ).toBeTruthy();
    expect(callsOf(fetchMock).some((call) => call.includes('/contacts/upload'))).toBe(false);
  });

  it('adds a contact another user created, live', async () => {
    stubApi({ 'GET /contacts': listOf([makeContact()]) });
    renderPage(<ContactsPage />, '/contacts', makeAuth());
    await rowOf('Lucía Pérez');
    act(() =>
      socket().receive('company-1-contact', {
        action: 'create',
        contact: detailOf(makeContact({ id: 12, name: 'Nuevo en vivo' })),
      }),
    );
    expect(await screen.findByText('Nuevo en vivo')).toBeTruthy();
  });
});

describe('contacts CSV', () => {
  it('writes name, number and email separated by semicolons, quoting what needs it', () => {
    expect(
      contactsCsv([
        { name: 'Ana', number: '5491155550001', email: 'ana@example.com' },
        { name: 'Pérez; Juan "JP"', number: '5491155550002', email: '' },
      ]),
    ).toBe(
      'name;number;email\r\nAna;5491155550001;ana@example.com\r\n"Pérez; Juan ""JP""";5491155550002;',
    );
  });

  it('neutralises cells a spreadsheet would run as a formula, and leaves plain numbers alone', () => {
    const names = ['=HYPERLINK("http://x")', '+1+2', '-2+3', '@SUM(A1)', '\tTab', '\rCR'];
    const csv = contactsCsv(
      names.map((name, index) => ({ name, number: `549115555000${index}`, email: '' })),
    );
    expect(csv).toBe(
      [
        'name;number;email',
        `"'=HYPERLINK(""http://x"")";5491155550000;`,
        `"'+1+2";5491155550001;`,
        `"'-2+3";5491155550002;`,
        `"'@SUM(A1)";5491155550003;`,
        `"'\tTab";5491155550004;`,
        `"'\rCR";5491155550005;`,
      ].join('\r\n'),
    );
    expect(contactsCsv([{ name: 'Ana', number: '', email: '=cmd|x@example.com' }])).toBe(
      `name;number;email\r\nAna;;"'=cmd|x@example.com"`,
    );
  });
});
