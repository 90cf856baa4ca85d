import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type {
  ContactDetailView,
  ContactListPage,
  ContactUploadResult,
  ContactView,
} from '@atendi/shared';
import { contacts, tickets } from '../../db/schema';
import {
  sharedTestApp,
  inject,
  login,
  makeCompany,
  makeUser,
  makeWhatsapp,
  type Session,
  type SharedTestContext,
} from '../../../test/harness';
import { eventually } from '../../../test/eventually';
import { pairedSimulator } from '../../../test/inbox';
import { closeSockets, listenAs } from '../../../test/sockets';
import { multipart } from '../../../test/multipart';
import { spreadsheetBomb } from '../../../test/spreadsheets';
import type { EventOf } from '../../events/domain-events';
import { uploadContacts } from './contacts.upload';

let t: SharedTestContext;
let admin: Session;
let agent: Session;
let outsider: Session;
let companyId: number;

beforeAll(async () => {
  t = await sharedTestApp();
  const company = await makeCompany(t.db);
  companyId = company.company.id;
  admin = await login(t.app, company.admin.email);
  agent = await login(t.app, (await makeUser(t.db, companyId, 'user')).email);
  const other = await makeCompany(t.db);
  outsider = await login(t.app, other.admin.email);
});
afterAll(async () => {
  closeSockets();
});

const create = (body: Record<string, unknown>, session = admin) =>
  inject(t.app, session, 'POST', '/contacts', body);

// The contact.changed events of the test company from now on.
const contactChanges = () => {
  const heard: EventOf<'contact.changed'>[] = [];
  t.app.deps.events.on('contact.changed', (event) => {
    if (event.companyId === companyId) heard.push(event);
  });
  return heard;
};

const page = async (query: string, session = admin) => {
  const res = await inject(t.app, session, 'GET', `/contacts?${query}`);
  expect(res.statusCode).toBe(200);
  return res.json() as ContactListPage;
};

describe('contacts', () => {
  it('creates a contact with its number normalised and its extra info, and reads it back', async () => {
    const res = await create({
      name: '  Lucía Pérez ',
      number: '+55 (11) 8888-7777',
      email: 'Lucia@Example.com',
      extraInfo: [
        { name: 'CPF', value: '123' },
        { name: 'Cliente desde', value: '2020' },
      ],
    });
    expect(res.statusCode).toBe(201);
    const created = res.json() as ContactDetailView;
    // Brazil's ninth digit is added, as the ingest pipeline does for the same person.
    expect(created).toMatchObject({
      name: 'Lucía Pérez',
      number: '5511988887777',
      email: 'lucia@example.com',
      isGroup: false,
      extraInfo: [
        { name: 'CPF', value: '123' },
        { name: 'Cliente desde', value: '2020' },
      ],
    });

    const read = await inject(t.app, agent, 'GET', `/contacts/${created.id}`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(created);
  });

  it('refuses a second contact with the same number, however it is written', async () => {
    await create({ name: 'Primero', number: '5491155550001' });
    const again = await create({ name: 'Segundo', number: '+54 9 11 5555-0001' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe('ERR_DUPLICATED_CONTACT');
    // Another company may have the same number.
    expect((await create({ name: 'Otro', number: '5491155550001' }, outsider)).statusCode).toBe(
      201,
    );
  });

  it('updates the fields given, replaces the extra info, and refuses a number already taken', async () => {
    const taken = (await create({ name: 'Tomado', number: '5491155550002' })).json();
    const contact = (
      await create({
        name: 'Editar',
        number: '5491155550003',
        extraInfo: [{ name: 'Viejo', value: 'x' }],
      })
    ).json() as ContactDetailView;

    const res = await inject(t.app, agent, 'PUT', `/contacts/${contact.id}`, {
      name: 'Editado',
      extraInfo: [{ id: contact.extraInfo[0].id, name: 'Nuevo', value: 'y' }],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      name: 'Editado',
      number: '5491155550003',
      email: '',
      extraInfo: [{ name: 'Nuevo', value: 'y' }],
    });
    expect(res.json().extraInfo).toHaveLength(1);

    const clash = await inject(t.app, admin, 'PUT', `/contacts/${contact.id}`, {
      number: taken.number,
    });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().error).toBe('ERR_DUPLICATED_CONTACT');
    // Saving its own number unchanged is no clash.
    const same = await inject(t.app, admin, 'PUT', `/contacts/${contact.id}`, {
      number: '+54 9 11 5555 0003',
      email: 'nuevo@example.com',
    });
    expect(same.statusCode).toBe(200);
    expect(same.json().email).toBe('nuevo@example.com');
  });

  it('tells contact.changed when a contact is created, and when an edit changes it', async () => {
    const heard = contactChanges();
    const contact = (
      await create({
        name: 'Evento',
        number: '5491155550090',
        extraInfo: [{ name: 'A', value: '1' }],
      })
    ).json() as ContactDetailView;
    expect(heard).toEqual([
      { type: 'contact.changed', companyId, contactId: contact.id, created: true },
    ]);
    const edit = async (body: Record<string, unknown>) =>
      expect((await inject(t.app, admin, 'PUT', `/contacts/${contact.id}`, body)).statusCode).toBe(
        200,
      );
    await edit({ name: 'Evento editado' });
    await edit({ extraInfo: [{ name: 'A', value: '2' }] });
    expect(heard.slice(1)).toEqual([
      { type: 'contact.changed', companyId, contactId: contact.id, created: false },
      { type: 'contact.changed', companyId, contactId: contact.id, created: false },
    ]);
    // Saved as it stands (the dialog sends every field): nothing changed, nothing to tell.
    await edit({
      name: 'Evento editado',
      number: contact.number,
      email: '',
      extraInfo: [{ name: 'A', value: '2' }],
    });
    expect(heard).toHaveLength(3);
  });

  it('keeps a group’s WhatsApp id when it is saved unchanged, and refuses typing one', async () => {
    const [group] = await t.db
      .insert(contacts)
      .values({ companyId, name: 'Grupo', number: '120363025246125486@g.us', isGroup: true })
      .returning();
    const kept = await inject(t.app, admin, 'PUT', `/contacts/${group.id}`, {
      name: 'Grupo ventas',
      number: group.number,
    });
    expect(kept.statusCode).toBe(200);
    expect(kept.json().number).toBe(group.number);
    const typed = await create({ name: 'Falso', number: '120363999999999999@g.us' });
    expect(typed.statusCode).toBe(400);
    expect(typed.json().fields).toHaveProperty('number');
  });

  it('validates the input (400 with the fields)', async () => {
    const res = await create({ name: 'A', number: '12ab', email: 'no-es-email' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('ERR_VALIDATION');
    expect(Object.keys(res.json().fields).sort()).toEqual(['email', 'name', 'number']);
    // Punctuation only: long enough as typed, too few digits once normalised.
    const short = await create({ name: 'Corto', number: '(11) 1234' });
    expect(short.statusCode).toBe(400);
    expect(short.json().fields).toHaveProperty('number');
    const bad = await inject(t.app, admin, 'GET', '/contacts?pageNumber=0');
    expect(bad.statusCode).toBe(400);
  });

  it('searches name or number without regard to case and pages by 20', async () => {
    const company = await makeCompany(t.db);
    const owner = await login(t.app, company.admin.email);
    await t.db.insert(contacts).values(
      Array.from({ length: 23 }, (_, i) => ({
        companyId: company.company.id,
        name: `Cliente ${String(i).padStart(2, '0')}`,
        number: `54911400000${String(i).padStart(2, '0')}`,
      })),
    );
    await t.db.insert(contacts).values([
      { companyId: company.company.id, name: 'María Gómez', number: '5215512345678' },
      { companyId: company.company.id, name: '100% real', number: '5215599999999' },
    ]);

    const first = await page('pageNumber=1', owner);
    expect(first.contacts).toHaveLength(20);
    expect(first).toMatchObject({ count: 25, hasMore: true });
    expect(first.contacts[0].name).toBe('100% real');
    const second = await page('pageNumber=2', owner);
    expect(second.contacts).toHaveLength(5);
    expect(second.hasMore).toBe(false);

    const byName = await page('searchParam=MARÍA', owner);
    expect(byName.contacts.map((c) => c.name)).toEqual(['María Gómez']);
    expect(byName.count).toBe(1);
    const byNumber = await page(`searchParam=${encodeURIComponent('+52 155 1234')}`, owner);
    expect(byNumber.contacts.map((c) => c.name)).toEqual(['María Gómez']);
    // A % is a character to find, not a wildcard.
    const percent = await page('searchParam=%25', owner);
    expect(percent.contacts.map((c) => c.name)).toEqual(['100% real']);

    const options = await inject(t.app, owner, 'GET', '/contacts/list');
    expect(options.statusCode).toBe(200);
    expect(options.json()).toHaveLength(25);
    expect(options.json()[0]).toEqual({
      id: expect.any(Number),
      name: '100% real',
      number: '5215599999999',
      email: '',
    });
  });

  it('lets only those with the delete permission delete, and deletes the contact’s tickets', async () => {
    const contact = (await create({ name: 'Borrar', number: '5491155550004' })).json();
    const whatsapp = await makeWhatsapp(t.db, companyId);
    await t.db
      .insert(tickets)
      .values({ companyId, contactId: contact.id, whatsappId: whatsapp.id, status: 'pending' });

    const refused = await inject(t.app, agent, 'DELETE', `/contacts/${contact.id}`);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe('ERR_NO_PERMISSION');

    expect((await inject(t.app, admin, 'DELETE', `/contacts/${contact.id}`)).statusCode).toBe(204);
    const gone = await inject(t.app, admin, 'GET', `/contacts/${contact.id}`);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().error).toBe('ERR_NO_CONTACT_FOUND');
    expect(await t.db.select().from(tickets).where(eq(tickets.contactId, contact.id))).toEqual([]);
  });

  it('answers 404 for another company’s contact and leaves it unchanged', async () => {
    const theirs = (await create({ name: 'Ajeno', number: '5491155550005' }, outsider)).json();
    for (const [method, body] of [
      ['GET', undefined],
      ['PUT', { name: 'Robado' }],
      ['DELETE', undefined],
    ] as const) {
      const res = await inject(t.app, admin, method, `/contacts/${theirs.id}`, body);
      expect(res.statusCode, method).toBe(404);
    }
    const [row] = await t.db.select().from(contacts).where(eq(contacts.id, theirs.id));
    expect(row.name).toBe('Ajeno');
    const search = await page('searchParam=Ajeno');
    expect(search.contacts).toEqual([]);
  });

  it('tells the own company’s sockets about creates, updates and deletes, and nobody else', async () => {
    const mine = await listenAs(t.app, agent);
    const theirs = await listenAs(t.app, outsider);
    const created = (await create({ name: 'En vivo', number: '5491155550006' })).json();
    await inject(t.app, admin, 'PUT', `/contacts/${created.id}`, { name: 'En vivo 2' });
    await inject(t.app, admin, 'DELETE', `/contacts/${created.id}`);

    const contactEvents = () => mine.filter((h) => h.event === `company-${companyId}-contact`);
    await eventually(contactEvents, (events) => events.length === 3, 'three contact events');
    const [onCreate, onUpdate, onDelete] = contactEvents().map((h) => h.payload);
    expect(onCreate).toMatchObject({ action: 'create', contact: { id: created.id } });
    expect(onUpdate).toMatchObject({
      action: 'update',
      contact: { id: created.id, name: 'En vivo 2', extraInfo: [] },
    });
    expect(onDelete).toEqual({ action: 'delete', contactId: created.id });
    expect(theirs.filter((h) => h.event.endsWith('-contact'))).toEqual([]);
  });

  it('lists contacts created on a day or between days', async () => {
    const company = await makeCompany(t.db);
    const owner = await login(t.app, company.admin.email);
    await t.db.insert(contacts).values([
      {
        companyId: company.company.id,
        name: 'Viejo',
        number: '5491100000001',
        createdAt: new Date('2024-01-10T12:00:00Z'),
      },
      {
        companyId: company.company.id,
        name: 'Nuevo',
        number: '5491100000002',
        createdAt: new Date('2024-03-10T12:00:00Z'),
      },
    ]);
    const names = (result: ContactListPage) => result.contacts.map((c: ContactView) => c.name);
    expect(names(await page('date=2024-01-10', owner))).toEqual(['Viejo']);
    expect(names(await page('dateStart=2024-02-01&dateEnd=2024-12-31', owner))).toEqual(['Nuevo']);
  });
});

describe('contact upload', () => {
  const upload = (body: Record<string, unknown>, session = admin) =>
    inject(t.app, session, 'POST', '/contacts/upload', body);

  it('adds the good rows and lists every bad one by row and name, without stopping', async () => {
    await create({ name: 'Already Here', number: '5491177770000' });
    const res = await upload({
      rows: [
        { Nombre: 'Ana Gómez', Número: '+54 9 11 7777-0001', Email: 'ANA@example.com' },
        { Nombre: 'X', Número: '5491177770002', Email: '' },
        { Nombre: 'Bad Mail', Número: '5491177770003', Email: 'not-an-email' },
        { Nombre: '', Número: '', Email: '' },
        { Nombre: 'Old Friend', Número: 5491177770000, Email: '' },
        { Nombre: 'Twice In Sheet', Número: '5491177770001', Email: '' },
        { name: 'Bruno Díaz', number: 5491177770004, email: null },
        { nome: 'No Number', telefone: 'abc', email: '' },
        // What the contact dialog refuses, the sheet refuses: too short, or only punctuation.
        { name: 'Short Number', number: 999, email: '' },
        { name: 'Dashes', number: '---------', email: '' },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const result = res.json() as ContactUploadResult;
    expect(result.newContacts.map((c) => [c.name, c.number, c.email])).toEqual([
      ['Ana Gómez', '5491177770001', 'ana@example.com'],
      ['Bruno Díaz', '5491177770004', ''],
    ]);
    // Rows are counted as in the sheet: the header is row 1.
    expect(result.errorBag.map((e) => [e.row, e.name, e.error, e.field])).toEqual([
      [3, 'X', 'ERR_VALIDATION', 'name'],
      [4, 'Bad Mail', 'ERR_VALIDATION', 'email'],
      [6, 'Old Friend', 'ERR_DUPLICATED_CONTACT', undefined],
      [7, 'Twice In Sheet', 'ERR_DUPLICATED_CONTACT', undefined],
      [9, 'No Number', 'ERR_VALIDATION', 'number'],
      [10, 'Short Number', 'ERR_VALIDATION', 'number'],
      [11, 'Dashes', 'ERR_INVALID_NUMBER', 'number'],
    ]);
    const found = await page('searchParam=5491177770001');
    expect(found.contacts.map((c) => c.name)).toEqual(['Ana Gómez']);
    const old = await page('searchParam=5491177770000');
    expect(old.contacts.map((c) => c.name)).toEqual(['Already Here']);
  });

  it('a NUL byte in a cell never costs the other rows (stripped at the edge, judged per row below it)', async () => {
    const res = await upload({
      rows: [
        { name: 'Nul\u0000 Name', number: '5491177770300' },
        { name: 'Clean Row', number: '5491177770301' },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as ContactUploadResult).newContacts.map((c) => c.name)).toEqual([
      'Nul Name',
      'Clean Row',
    ]);
    // Below the HTTP edge, a row the database refuses is listed and the good rows still go in.
    const direct = await uploadContacts(
      t.app.deps,
      { userId: admin.userId, companyId, profile: 'admin', isSuper: false, sessionId: '' },
      {
        rows: [
          { name: 'Good One', number: '5491177770302' },
          { name: 'Bad\u0000 One', number: '5491177770303' },
          { name: 'Good Two', number: '5491177770304' },
        ],
        firstRow: 2,
      },
    );
    expect(direct.newContacts.map((c) => c.name)).toEqual(['Good One', 'Good Two']);
    expect(direct.errorBag).toMatchObject([{ row: 3, error: 'ERR_VALIDATION' }]);
  });

  it('tells contact.changed once for each contact a sheet created', async () => {
    await create({ name: 'Ya Estaba', number: '5491177770500' });
    const heard = contactChanges();
    const res = await upload({
      rows: [
        { name: 'Nueva Uno', number: '5491177770501' },
        { name: 'Ya Estaba', number: '5491177770500' },
        { name: 'Nueva Dos', number: '5491177770502' },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const created = (res.json() as ContactUploadResult).newContacts.map((c) => c.id);
    expect(created).toHaveLength(2);
    expect(heard.map((e) => [e.contactId, e.created]).sort()).toEqual(
      created.map((id) => [id, true]).sort(),
    );
  });

  it('numbers the rows of a later chunk from firstRow', async () => {
    const res = await upload({ rows: [{ name: 'Z', number: '5491177770100' }], firstRow: 502 });
    expect(res.statusCode).toBe(200);
    expect((res.json() as ContactUploadResult).errorBag[0]).toMatchObject({ row: 502, name: 'Z' });
  });

  it('refuses a body that is not rows, or too many rows, storing nothing', async () => {
    expect((await upload({ rows: 'nope' })).statusCode).toBe(400);
    const tooMany = Array.from({ length: 501 }, (_, i) => ({
      name: `Bulk ${i}`,
      number: `5491166${String(i).padStart(6, '0')}`,
    }));
    const res = await upload({ rows: tooMany });
    expect(res.statusCode).toBe(400);
    expect((await page('searchParam=Bulk')).count).toBe(0);
  });

  // The web reads the .xlsx in the browser and sends its rows; the API never opens a file here (one it
  // read would be refused for its size, 413, not for the missing rows).
  it('takes rows, never a spreadsheet: a zip bomb sent to it is refused unread, storing nothing', async () => {
    const before = (await page('')).count;
    const form = multipart({}, [
      {
        field: 'file',
        name: 'contactos.xlsx',
        type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        data: spreadsheetBomb(300),
      },
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/contacts/upload',
      headers: { authorization: `Bearer ${admin.token}`, ...form.headers },
      payload: form.payload,
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error).toBe('ERR_VALIDATION');
    expect((await page('')).count).toBe(before);
  });

  it('imports into the caller’s company only and tells only that company', async () => {
    const ours = await listenAs(t.app, admin);
    const theirs = await listenAs(t.app, outsider);
    const res = await upload(
      { rows: [{ name: 'Outsider Import', number: '5491177770200' }] },
      outsider,
    );
    expect((res.json() as ContactUploadResult).newContacts).toHaveLength(1);
    await eventually(
      () => theirs.some((h) => h.payload?.action === 'create'),
      Boolean,
      'the outsider’s company hears the import',
    );
    expect(ours.some((h) => JSON.stringify(h.payload).includes('Outsider Import'))).toBe(false);
    expect((await page('searchParam=Outsider')).count).toBe(0);
    // The same number is free in another company.
    const mine = await upload({ rows: [{ name: 'Our Import', number: '5491177770200' }] });
    expect((mine.json() as ContactUploadResult).newContacts).toHaveLength(1);
  });
});

describe('contact import from the phone', () => {
  const importFrom = (body: Record<string, unknown>, session = admin) =>
    inject(t.app, session, 'POST', '/contacts/import', body);

  it('adds the named contacts the phone shared, with the same rules as a sheet', async () => {
    // The company's first connection is its default one.
    const phone = await pairedSimulator(t.app, admin, {});
    await create({ name: 'Known Before', number: '5491188880003' });
    const shared = await inject(t.app, admin, 'POST', `/simulator/${phone.id}/contacts`, {
      contacts: [
        { number: '+54 9 11 8888-0001', name: 'Agenda Ana' },
        { number: '5491188880002', name: 'B' },
        { number: '5491188880003', name: 'Known Again' },
      ],
    });
    expect(shared.statusCode, shared.body).toBe(204);

    const first = (await importFrom({})).json() as ContactUploadResult;
    expect(first.newContacts.map((c) => [c.name, c.number])).toEqual([
      ['Agenda Ana', '5491188880001'],
    ]);
    expect(first.errorBag.map((e) => [e.name, e.error])).toEqual([
      ['B', 'ERR_VALIDATION'],
      ['Known Again', 'ERR_DUPLICATED_CONTACT'],
    ]);
    // Importing again adds nothing twice.
    const again = (await importFrom({ whatsappId: phone.id })).json() as ContactUploadResult;
    expect(again.newContacts).toEqual([]);

    // Unlinked from the phone, the address book is forgotten with the pairing.
    await inject(t.app, admin, 'POST', `/simulator/${phone.id}/disconnect`);
    const after = (await importFrom({ whatsappId: phone.id })).json() as ContactUploadResult;
    expect(after).toEqual({ newContacts: [], errorBag: [] });
  });

  it('refuses a Cloud API connection and another company’s connection', async () => {
    const cloud = await makeWhatsapp(t.db, companyId, { provider: 'cloud' });
    const refused = await importFrom({ whatsappId: cloud.id });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ error: 'ERR_IMPORT_NOT_SUPPORTED' });
    const foreign = await importFrom({ whatsappId: cloud.id }, outsider);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toMatchObject({ error: 'ERR_NO_WAPP_FOUND' });
  });
});

describe('checking a typed number on WhatsApp', () => {
  it('asks the connected default connection: saves a number on WhatsApp, refuses one without an account or an unanswered lookup', async () => {
    const company = await makeCompany(t.db);
    const owner = await login(t.app, company.admin.email);
    const add = (number: string) =>
      inject(t.app, owner, 'POST', '/contacts', { name: 'Check', number });
    // No connection yet: nothing to ask, the contact is kept unchecked.
    expect((await add('80011000001')).statusCode).toBe(201);

    await pairedSimulator(t.app, owner, { isDefault: true });
    const found = await add('5491166660001');
    expect(found.statusCode, found.body).toBe(201);
    // The simulated network has no account for +800… and does not answer for +808….
    const missing = await add('80011000002');
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({
      error: 'ERR_WAPP_INVALID_CONTACT',
      fields: { number: ['ERR_WAPP_INVALID_CONTACT'] },
    });
    const unanswered = await add('80811000003');
    expect(unanswered.statusCode).toBe(400);
    expect(unanswered.json()).toMatchObject({ error: 'ERR_WAPP_CHECK_CONTACT' });

    // Changing a number is checked the same way; saving other fields is not.
    const contact = found.json() as ContactDetailView;
    const renumbered = await inject(t.app, owner, 'PUT', `/contacts/${contact.id}`, {
      number: '80011000004',
    });
    expect(renumbered.json()).toMatchObject({ error: 'ERR_WAPP_INVALID_CONTACT' });
    const unchecked = (
      await t.db.select().from(contacts).where(eq(contacts.companyId, company.company.id))
    )
      .map((c) => c.number)
      .sort();
    expect(unchecked).toEqual(['5491166660001', '80011000001']);
    const old = (await t.db.select().from(contacts).where(eq(contacts.number, '80011000001')))[0];
    const renamed = await inject(t.app, owner, 'PUT', `/contacts/${old.id}`, { name: 'Kept' });
    expect(renamed.statusCode, renamed.body).toBe(200);
  });

  it("judges a sheet's new numbers as the dialog does: one without an account or an unanswered lookup is listed, the rest added", async () => {
    const company = await makeCompany(t.db);
    const owner = await login(t.app, company.admin.email);
    await pairedSimulator(t.app, owner, { isDefault: true });
    const res = await inject(t.app, owner, 'POST', '/contacts/upload', {
      rows: [
        { name: 'On WhatsApp', number: '5491166660101' },
        { name: 'No Account', number: '80011000101' },
        { name: 'No Answer', number: '80811000102' },
        { name: 'Also On WhatsApp', number: '5491166660102' },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const result = res.json() as ContactUploadResult;
    expect(result.newContacts.map((c) => c.name)).toEqual(['On WhatsApp', 'Also On WhatsApp']);
    expect(result.errorBag.map((e) => [e.row, e.name, e.error, e.field])).toEqual([
      [3, 'No Account', 'ERR_WAPP_INVALID_CONTACT', 'number'],
      [4, 'No Answer', 'ERR_WAPP_CHECK_CONTACT', 'number'],
    ]);
    const stored = await t.db
      .select()
      .from(contacts)
      .where(eq(contacts.companyId, company.company.id));
    expect(stored.map((c) => c.number).sort()).toEqual(['5491166660101', '5491166660102']);
  });
});
