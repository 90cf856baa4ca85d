import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  CONTACT_LIST_UPLOAD_MAX_ROWS,
  type ContactListItemView,
  type ContactListView,
} from '@atendi/shared';
import { contactListItems, plans } from '../../db/schema';
import {
  sharedTestApp,
  inject,
  login,
  makeCompany,
  makeUser,
  type Method,
  type Session,
  type SharedTestContext,
} from '../../../test/harness';
import { eventually } from '../../../test/eventually';
import { pairedSimulator } from '../../../test/inbox';
import { caughtUp, closeSockets, listenAs } from '../../../test/sockets';
import { multipart } from '../../../test/multipart';
import { sheetWithRows, spreadsheetBomb } from '../../../test/spreadsheets';
import writeXlsxFile from 'write-excel-file/node';
import { CHECK_QUEUE } from './contact-list-upload';

// Contact lists and their items (SPEC §3, §5, §7): the campaigns' audiences.

let t: SharedTestContext;
let company: Awaited<ReturnType<typeof makeCompany>>;
let admin: Session;

beforeAll(async () => {
  t = await sharedTestApp();
});
afterAll(async () => {
  closeSockets();
});
beforeEach(async () => {
  company = await makeCompany(t.db);
  admin = await login(t.app, company.admin.email);
});

const call = (method: Method, url: string, body?: object, session = admin) =>
  inject(t.app, session, method, url, body);
const newList = async (name = 'Clientes VIP') => {
  const res = await call('POST', '/contact-lists', { name });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as ContactListView;
};
const addItem = async (contactListId: number, fields: Partial<Record<string, string>> = {}) =>
  call('POST', '/contact-list-items', {
    name: 'Lucía Díaz',
    number: '5491188880001',
    email: '',
    contactListId,
    ...fields,
  });

describe('contact lists', () => {
  it('creates, renames, searches, pages and deletes lists with their contacts count', async () => {
    const vip = await newList('Clientes VIP');
    expect(vip).toMatchObject({ name: 'Clientes VIP', contactsCount: 0 });
    for (let i = 0; i < 21; i += 1) await newList(`Lista ${String(i).padStart(2, '0')}`);
    await addItem(vip.id);
    await addItem(vip.id, { number: '5491188880002', name: 'Pedro' });

    const first = (await call('GET', '/contact-lists?pageNumber=1')).json();
    expect(first).toMatchObject({ count: 22, hasMore: true });
    expect(first.records).toHaveLength(20);
    const second = (await call('GET', '/contact-lists?pageNumber=2')).json();
    expect(second).toMatchObject({ hasMore: false });
    expect(second.records).toHaveLength(2);
    const found = (await call('GET', '/contact-lists?searchParam=vip')).json();
    expect(found.records).toEqual([expect.objectContaining({ id: vip.id, contactsCount: 2 })]);
    // Search text is literal: "%" matches nothing here.
    expect((await call('GET', '/contact-lists?searchParam=%25')).json().records).toEqual([]);
    expect((await call('GET', '/contact-lists/list')).json()).toHaveLength(22);

    const renamed = await call('PUT', `/contact-lists/${vip.id}`, { name: 'Clientes oro' });
    expect(renamed.json()).toMatchObject({ name: 'Clientes oro', contactsCount: 2 });
    expect((await call('PUT', `/contact-lists/${vip.id}`, { name: 'x' })).statusCode).toBe(400);

    expect((await call('DELETE', `/contact-lists/${vip.id}`)).statusCode).toBe(204);
    expect((await call('GET', `/contact-lists/${vip.id}`)).statusCode).toBe(404);
    // Its items went with it.
    expect(
      await t.db.select().from(contactListItems).where(eq(contactListItems.contactListId, vip.id)),
    ).toEqual([]);
  });

  it('is for admins of a company whose plan has campaigns; another company’s lists are 404', async () => {
    const list = await newList();
    const agentRow = await makeUser(t.db, company.company.id, 'user');
    const agent = await login(t.app, agentRow.email);
    const refused = await call('GET', '/contact-lists', undefined, agent);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe('ERR_NO_PERMISSION');

    const other = await makeCompany(t.db);
    const stranger = await login(t.app, other.admin.email);
    for (const [method, url] of [
      ['GET', `/contact-lists/${list.id}`],
      ['PUT', `/contact-lists/${list.id}`],
      ['DELETE', `/contact-lists/${list.id}`],
      ['GET', `/contact-list-items?contactListId=${list.id}`],
    ] as const) {
      const res = await call(method, url, method === 'PUT' ? { name: 'Mía' } : undefined, stranger);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().error).toBe('ERR_NO_CONTACT_LIST_FOUND');
    }
    const intruder = await call(
      'POST',
      '/contact-list-items',
      { name: 'Intruso', number: '5491188880009', contactListId: list.id },
      stranger,
    );
    expect(intruder.statusCode).toBe(404);
    expect((await call('GET', '/contact-lists', undefined, stranger)).json().count).toBe(0);

    await t.db.update(plans).set({ useCampaigns: false }).where(eq(plans.id, company.planId));
    const noPlan = await call('GET', '/contact-lists');
    expect(noPlan.statusCode).toBe(403);
    expect(noPlan.json().error).toBe('ERR_PLAN_FEATURE_DISABLED');
  });
});

describe('contact list items', () => {
  it('stores numbers as the ingest does, once per list, and searches by name, number or email', async () => {
    const list = await newList();
    const created = await addItem(list.id, {
      name: 'Lucía Díaz',
      number: '+55 (11) 8888-7777',
      email: 'Lucia@Example.com',
    });
    expect(created.statusCode, created.body).toBe(201);
    // A Brazilian mobile written without its ninth digit gains it.
    expect(created.json()).toMatchObject({
      number: '5511988887777',
      email: 'lucia@example.com',
      contactListId: list.id,
      companyId: company.company.id,
    });
    const twin = await addItem(list.id, { number: '5511988887777', name: 'Otra' });
    expect(twin.statusCode).toBe(409);
    expect(twin.json().error).toBe('ERR_DUPLICATED_LIST_ITEM');
    // Another list may hold the same number.
    expect(
      (await addItem((await newList('Otra')).id, { number: '5511988887777' })).statusCode,
    ).toBe(201);
    await addItem(list.id, { name: 'Pedro Gómez', number: '5491188880002', email: 'p@x.com' });

    const search = (term: string) =>
      call('GET', `/contact-list-items?contactListId=${list.id}&searchParam=${term}`).then(
        (res) => res.json().contacts.map((c: ContactListItemView) => c.name) as string[],
      );
    expect(await search('')).toEqual(['Lucía Díaz', 'Pedro Gómez']);
    expect(await search('pedro')).toEqual(['Pedro Gómez']);
    expect(await search('98888')).toEqual(['Lucía Díaz']);
    expect(await search('example')).toEqual(['Lucía Díaz']);
    expect((await call('GET', `/contact-lists/${list.id}`)).json().contactsCount).toBe(2);

    for (const bad of [
      { name: 'x' },
      { number: '123' },
      { number: 'abcdefghij' },
      { email: 'not-an-email' },
    ]) {
      const res = await addItem(list.id, { number: '5491188880077', ...bad });
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
    }
  });

  it('lets one of several people adding the same number at once keep it', async () => {
    const list = await newList();
    const attempts = await Promise.all(
      Array.from({ length: 5 }, () => addItem(list.id, { number: '5491188880050' })),
    );
    expect(attempts.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409, 409]);
    expect((await call('GET', `/contact-lists/${list.id}`)).json().contactsCount).toBe(1);
  });

  it('asks WhatsApp through the default connection whether each number has an account', async () => {
    const list = await newList();
    // No connected connection: nobody can tell.
    expect((await addItem(list.id, { number: '5491188880010' })).json().isWhatsappValid).toBeNull();
    await pairedSimulator(t.app, admin, { isDefault: true });
    // The simulated network: numbers starting 800 have no account, a lookup of 808… fails.
    expect((await addItem(list.id, { number: '5491188880011' })).json().isWhatsappValid).toBe(true);
    const invalid = (await addItem(list.id, { number: '80011888800' })).json();
    expect(invalid.isWhatsappValid).toBe(false);
    expect((await addItem(list.id, { number: '80811888800' })).json().isWhatsappValid).toBeNull();

    // A corrected number is looked up again; a renamed item keeps its verdict.
    const fixed = await call('PUT', `/contact-list-items/${invalid.id}`, {
      number: '5491188880012',
    });
    expect(fixed.json()).toMatchObject({ number: '5491188880012', isWhatsappValid: true });
    const renamed = await call('PUT', `/contact-list-items/${invalid.id}`, { name: 'Nuevo' });
    expect(renamed.json()).toMatchObject({ name: 'Nuevo', isWhatsappValid: true });
    const clash = await call('PUT', `/contact-list-items/${invalid.id}`, {
      number: '5491188880011',
    });
    expect(clash.statusCode).toBe(409);

    expect((await call('DELETE', `/contact-list-items/${invalid.id}`)).statusCode).toBe(204);
    expect((await call('GET', `/contact-list-items/${invalid.id}`)).statusCode).toBe(404);
  });

  it('tells the company’s screens of every change, and no other company', async () => {
    const list = await newList();
    const colleague = await listenAs(t.app, admin);
    const other = await makeCompany(t.db);
    const stranger = await listenAs(t.app, await login(t.app, other.admin.email));
    const item = (await addItem(list.id)).json() as ContactListItemView;
    await call('DELETE', `/contact-list-items/${item.id}`);
    const channel = (name: string) =>
      colleague.filter((h) => h.event === `company-${company.company.id}-${name}`);
    const items = await eventually(
      async () => channel('ContactListItem'),
      (heard) => heard.length >= 2,
      'item events',
    );
    expect(items.map((h) => h.payload)).toEqual([
      { action: 'create', record: expect.objectContaining({ id: item.id }) },
      { action: 'delete', id: item.id, contactListId: list.id },
    ]);
    // The list's count follows.
    const lists = await eventually(
      async () => channel('ContactList'),
      (heard) => heard.length >= 2,
      'list events',
    );
    expect(
      lists.map((h) => (h.payload.record as ContactListView | undefined)?.contactsCount),
    ).toEqual([1, 0]);
    await caughtUp(stranger);
    expect(stranger.filter((h) => h.event.includes('ContactList'))).toEqual([]);
  });
});

describe('contact list upload', () => {
  const sheet = async (rows: (string | number | null)[][]) =>
    Buffer.from(await writeXlsxFile(rows).toBuffer());
  const formOf = (data: Buffer, name = 'lista.xlsx') =>
    multipart({}, [
      {
        field: 'file',
        name,
        type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        data,
      },
    ]);
  const upload = (listId: number, data: Buffer, name = 'lista.xlsx') => {
    const form = formOf(data, name);
    return t.app.inject({
      method: 'POST',
      url: `/contact-lists/${listId}/upload`,
      headers: { authorization: `Bearer ${admin.token}`, ...form.headers },
      payload: form.payload,
    });
  };

  it('imports the good rows of a sheet and lists each bad one by its row', async () => {
    const list = await newList();
    await addItem(list.id, { number: '5491177770004', name: 'Ya estaba' });
    const res = await upload(
      list.id,
      await sheet([
        ['Nombre', 'Número', 'Correo'],
        ['Carla', '+54 9 11 7777-0001', 'carla@example.com'],
        ['Diego', '5491177770002', 'no-es-correo'],
        ['Eva', '123', ''],
        ['Fede', 5491177770003, ''],
        [null, null, null],
        ['Carla otra vez', '5491177770001', ''],
        ['Ya estaba', '5491177770004', ''],
        [null, '5491177770005', ''],
      ]),
    );
    expect(res.statusCode, res.body).toBe(200);
    const result = res.json();
    expect(result.created).toBe(3);
    expect(result.contactsCount).toBe(4);
    expect(result.errors.map((e: { row: number; error: string }) => [e.row, e.error])).toEqual([
      [3, 'ERR_VALIDATION'],
      [4, 'ERR_VALIDATION'],
      [7, 'ERR_DUPLICATED_LIST_ITEM'],
      [8, 'ERR_DUPLICATED_LIST_ITEM'],
    ]);
    const items = (await call('GET', `/contact-list-items?contactListId=${list.id}`)).json()
      .contacts as ContactListItemView[];
    expect(items.map((i) => [i.name, i.number]).sort()).toEqual([
      ['5491177770005', '5491177770005'],
      ['Carla', '5491177770001'],
      ['Fede', '5491177770003'],
      ['Ya estaba', '5491177770004'],
    ]);
  });

  it('imports a CSV as a CRM or Excel in Spanish writes it: semicolons, Latin-1, quotes', async () => {
    const list = await newList();
    // "Nombre;Número;Correo" then "José Pérez;…", é as Windows-1252 writes it.
    const latin1 = Buffer.from(
      'Nombre;Número;Correo\r\n"Pérez; José";+54 9 11 7777-0201;jose@example.com\r\nEva;123;\r\n',
      'latin1',
    );
    const res = await upload(list.id, latin1, 'Contactos.CSV');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ created: 1, contactsCount: 1 });
    expect(res.json().errors.map((e: { row: number }) => e.row)).toEqual([3]);
    const items = (await call('GET', `/contact-list-items?contactListId=${list.id}`)).json()
      .contacts as ContactListItemView[];
    expect(items.map((i) => [i.name, i.number])).toEqual([['Pérez; José', '5491177770201']]);

    // Google Contacts: UTF-8 with a BOM, commas; a CSV past the row limit is refused whole.
    const google = Buffer.from(
      '\ufeffName,Phone 1 - Type,Phone 1 - Value\nRosa,Mobile,5491177770202\n',
      'utf8',
    );
    const other = await newList();
    const fromGoogle = await upload(other.id, google, 'contacts.csv');
    expect(fromGoogle.statusCode, fromGoogle.body).toBe(200);
    expect(fromGoogle.json()).toMatchObject({ created: 1, errors: [] });
    const long = Buffer.from(
      [
        'number',
        ...Array.from({ length: CONTACT_LIST_UPLOAD_MAX_ROWS + 1 }, (_, i) => `54911${i}`),
      ].join('\n'),
    );
    const tooLong = await upload(list.id, long, 'long.csv');
    expect(tooLong.statusCode).toBe(413);
    expect(tooLong.json().error).toBe('ERR_SPREADSHEET_TOO_LARGE');
  });

  it('then asks WhatsApp about each new number in the background', async () => {
    const list = await newList();
    await pairedSimulator(t.app, admin, { isDefault: true });
    const res = await upload(
      list.id,
      await sheet([
        ['name', 'number'],
        ['Con cuenta', '5491177770101'],
        ['Sin cuenta', '80017777010'],
      ]),
    );
    expect(res.json().created).toBe(2);
    await t.app.deps.jobs.run(CHECK_QUEUE);
    const items = await eventually(
      async () =>
        (await call('GET', `/contact-list-items?contactListId=${list.id}`)).json()
          .contacts as ContactListItemView[],
      (rows) => rows.every((row) => row.isWhatsappValid !== null),
      'checked',
    );
    expect(items.map((i) => [i.name, i.isWhatsappValid])).toEqual([
      ['Con cuenta', true],
      ['Sin cuenta', false],
    ]);
  });

  it('refuses what is not a readable .xlsx without touching the list', async () => {
    const list = await newList();
    const xls = await upload(list.id, Buffer.from('old'), 'lista.xls');
    expect(xls.statusCode).toBe(415);
    expect(xls.json().message).toContain('.xlsx');
    expect((await upload(list.id, Buffer.from('not a zip'))).statusCode).toBe(400);
    const noNumber = await upload(list.id, await sheet([['Nombre'], ['Ana']]));
    expect(noNumber.statusCode).toBe(400);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/contact-lists/${list.id}/upload`,
          headers: { authorization: `Bearer ${admin.token}` },
          payload: {},
        })
      ).statusCode,
    ).toBe(400);
    expect((await call('GET', `/contact-lists/${list.id}`)).json().contactsCount).toBe(0);
  });

  // A 300 KB file that inflated to 300 MB once froze the API for every company for 71 s: each is
  // refused by what it unpacks to, several at once, and the reader takes the next sheet.
  it('refuses three spreadsheet bombs at once, imports nothing, then takes a good sheet', async () => {
    const list = await newList();
    // It states 4 KB in its headers: only inflating tells.
    const bomb = spreadsheetBomb(300, 4096);
    const bombs = await Promise.all([1, 2, 3].map(() => upload(list.id, bomb)));
    for (const res of bombs) {
      expect(res.statusCode, res.body).toBe(413);
      expect(res.json().error).toBe('ERR_SPREADSHEET_TOO_LARGE');
    }
    expect((await call('GET', `/contact-lists/${list.id}`)).json().contactsCount).toBe(0);
    expect(
      await t.db.select().from(contactListItems).where(eq(contactListItems.contactListId, list.id)),
    ).toEqual([]);
    // The readers' places were given back: the next upload is read.
    const good = await upload(list.id, sheetWithRows(2));
    expect(good.statusCode, good.body).toBe(200);
    expect(good.json()).toMatchObject({ created: 2, contactsCount: 2 });
  });

  it('refuses a sheet with more rows than an import takes, counted while it is read', async () => {
    const list = await newList();
    const res = await upload(list.id, sheetWithRows(CONTACT_LIST_UPLOAD_MAX_ROWS + 1));
    expect(res.statusCode, res.body).toBe(413);
    expect(res.json()).toMatchObject({
      error: 'ERR_SPREADSHEET_TOO_LARGE',
      message: `A spreadsheet may have at most ${CONTACT_LIST_UPLOAD_MAX_ROWS} rows below its header`,
    });
    expect((await call('GET', `/contact-lists/${list.id}`)).json().contactsCount).toBe(0);
  });
});
