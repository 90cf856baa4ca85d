import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type {
  ContactDetailView,
  ContactListItemView,
  ContactListUploadResult,
  ContactUploadResult,
  ExternalSendResponse,
} from '@atendi/shared';
import { contactListItems, contacts } from '../../db/schema';
import {
  inject,
  login,
  makeCompany,
  sharedTestApp,
  type Session,
  type SharedTestContext,
} from '../../../test/harness';
import { inbound, pairedSimulator, ticketOf } from '../../../test/inbox';
import { multipart } from '../../../test/multipart';

// Numbers people type are read with the company's country (Settings › country) and stored as
// WhatsApp needs them; numbers WhatsApp reports keep their own path to the same contact.

let t: SharedTestContext;

beforeAll(async () => {
  t = await sharedTestApp();
});

// A company whose admin has set its country (none when not given), through the settings route.
const companyIn = async (country?: string) => {
  const made = await makeCompany(t.db);
  const admin = await login(t.app, made.admin.email);
  if (country) {
    const set = await inject(t.app, admin, 'PUT', '/settings/country', { value: country });
    expect(set.statusCode, set.body).toBe(200);
  }
  return { companyId: made.company.id, admin };
};

const createContact = (admin: Session, number: string, name = 'Cliente') =>
  inject(t.app, admin, 'POST', '/contacts', { name, number });

const numbersOf = async (companyId: number) =>
  (await t.db.select().from(contacts).where(eq(contacts.companyId, companyId)))
    .map((c) => c.number)
    .sort();

describe("the company's country", () => {
  it('is a setting its admin chooses among known countries, none at first', async () => {
    const { admin } = await companyIn();
    const listed = (await inject(t.app, admin, 'GET', '/settings')).json() as {
      key: string;
      value: string;
    }[];
    expect(listed.find((s) => s.key === 'country')).toEqual({ key: 'country', value: '' });
    for (const value of ['ZZ', 'mx', 'MEX', 'Mexico'])
      expect(
        (await inject(t.app, admin, 'PUT', '/settings/country', { value })).json(),
      ).toMatchObject({ error: 'ERR_VALIDATION' });
    expect(
      (await inject(t.app, admin, 'PUT', '/settings/country', { value: 'MX' })).json(),
    ).toEqual({ key: 'country', value: 'MX' });
    expect((await inject(t.app, admin, 'PUT', '/settings/country', { value: '' })).json()).toEqual({
      key: 'country',
      value: '',
    });
  });
});

describe('a contact typed with a local number', () => {
  it.each([
    ['MX', '55 1234 5678', '525512345678'],
    ['MX', '521 55 1234 5678', '525512345678'],
    ['AR', '011 15 1234-5678', '5491112345678'],
    ['AR', '11 15 1234 5678', '5491112345678'],
    ['BR', '(11) 8888-7777', '5511988887777'],
    ['BR', '(11) 98888-7777', '5511988887777'],
    ['CO', '300 123 4567', '573001234567'],
  ])('in %s, %s is stored as %s', async (country, typed, stored) => {
    const { companyId, admin } = await companyIn(country);
    const res = await createContact(admin, typed);
    expect(res.statusCode, res.body).toBe(201);
    expect((res.json() as ContactDetailView).number).toBe(stored);
    expect(await numbersOf(companyId)).toEqual([stored]);
  });

  it('takes a number with + or 00 and its country code whatever the country, and a change too', async () => {
    const { admin } = await companyIn('MX');
    const spanish = await createContact(admin, '+34 600 11 12 22');
    expect(spanish.json()).toMatchObject({ number: '34600111222' });
    const colombian = await createContact(admin, '0057 300 123 4567');
    expect(colombian.json()).toMatchObject({ number: '573001234567' });
    const changed = await inject(t.app, admin, 'PUT', `/contacts/${spanish.json().id}`, {
      number: '33 1234 5678',
    });
    expect(changed.json()).toMatchObject({ number: '523312345678' });
  });

  it('is refused with 400 ERR_INVALID_NUMBER when it is none, and nothing is written', async () => {
    const { companyId, admin } = await companyIn('AR');
    const kept = await createContact(admin, '11 15 1234 5678');
    for (const typed of ['11 1234 56', '+52 1234 56', '+999 1234 5678', '0000 0000 0000']) {
      const res = await createContact(admin, typed);
      expect(res.statusCode, typed).toBe(400);
      expect(res.json()).toMatchObject({
        error: 'ERR_INVALID_NUMBER',
        message: 'Not a phone number of AR, nor one written with its country code',
        fields: { number: ['Not a phone number of AR, nor one written with its country code'] },
      });
    }
    const renumbered = await inject(t.app, admin, 'PUT', `/contacts/${kept.json().id}`, {
      name: 'Otro nombre',
      number: '11 1234 56',
    });
    expect(renumbered.statusCode).toBe(400);
    expect(renumbered.json()).toMatchObject({ error: 'ERR_INVALID_NUMBER' });
    const [row] = await t.db.select().from(contacts).where(eq(contacts.companyId, companyId));
    expect(row).toMatchObject({ name: 'Cliente', number: '5491112345678' });
    expect(await numbersOf(companyId)).toEqual(['5491112345678']);
  });

  it('needs its country code where the company has no country', async () => {
    const { companyId, admin } = await companyIn();
    const local = await createContact(admin, '55 1234 5678');
    expect(local.statusCode).toBe(400);
    expect(local.json()).toMatchObject({
      error: 'ERR_INVALID_NUMBER',
      message:
        "Write the number with its country code (+52 55 1234 5678), or set the company's country in Settings",
    });
    expect(await numbersOf(companyId)).toEqual([]);
    // With it (with or without '+'), the same number is taken.
    expect((await createContact(admin, '+52 55 1234 5678')).json()).toMatchObject({
      number: '525512345678',
    });
    expect((await createContact(admin, '5491112345678')).json()).toMatchObject({
      number: '5491112345678',
    });
  });

  it("is read with its own company's country only", async () => {
    const mexico = await companyIn('MX');
    const colombia = await companyIn('CO');
    const none = await companyIn();
    // The same ten digits are a Mexican number in one company and a Colombian one in the other.
    expect((await createContact(mexico.admin, '3001234567')).json()).toMatchObject({
      number: '523001234567',
    });
    expect((await createContact(colombia.admin, '3001234567')).json()).toMatchObject({
      number: '573001234567',
    });
    expect((await createContact(none.admin, '3001234567')).json()).toMatchObject({
      error: 'ERR_INVALID_NUMBER',
    });
    expect(await numbersOf(none.companyId)).toEqual([]);
  });

  it("is the contact a Mexican number writes in to, whether WhatsApp reports it with the old '1' or not", async () => {
    const { companyId, admin } = await companyIn('MX');
    const typed = (
      await createContact(admin, '55 1234 5678', 'Lupita')
    ).json() as ContactDetailView;
    const connection = await pairedSimulator(t.app, admin, {});
    const old = await inbound(t.app, admin, connection.id, { from: '5215512345678', body: 'Hola' });
    expect(old.statusCode, old.body).toBeLessThan(300);
    const ticket = await ticketOf(t.db, companyId, '525512345678');
    expect(ticket?.contactId).toBe(typed.id);
    await inbound(t.app, admin, connection.id, { from: '525512345678', body: 'Otra vez' });
    expect(await numbersOf(companyId)).toEqual(['525512345678']);
  });
});

describe('numbers read with the company country elsewhere', () => {
  it("reads a contacts sheet's local numbers and lists the rows that are none", async () => {
    const { admin } = await companyIn('AR');
    const res = await inject(t.app, admin, 'POST', '/contacts/upload', {
      rows: [
        { Nombre: 'Local', Número: '011 15 4444-0001' },
        { Nombre: 'Internacional', Número: '+52 55 1234 5678' },
        { Nombre: 'Con código', Número: '5491144440002' },
        { Nombre: 'Corto', Número: '11 4444 00' },
        { Nombre: 'Inexistente', Número: '+999 1234 5678' },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const result = res.json() as ContactUploadResult;
    expect(result.newContacts.map((c) => [c.name, c.number])).toEqual([
      ['Local', '5491144440001'],
      ['Internacional', '525512345678'],
      ['Con código', '5491144440002'],
    ]);
    expect(result.errorBag.map((e) => [e.row, e.name, e.error, e.field])).toEqual([
      [5, 'Corto', 'ERR_INVALID_NUMBER', 'number'],
      [6, 'Inexistente', 'ERR_INVALID_NUMBER', 'number'],
    ]);
  });

  it("reads a campaign list's items and its CSV with the company's country", async () => {
    const { companyId, admin } = await companyIn('CO');
    const list = (await inject(t.app, admin, 'POST', '/contact-lists', { name: 'Bogotá' })).json();
    const item = await inject(t.app, admin, 'POST', '/contact-list-items', {
      name: 'Camila',
      number: '300 123 4567',
      contactListId: list.id,
    });
    expect(item.statusCode, item.body).toBe(201);
    expect((item.json() as ContactListItemView).number).toBe('573001234567');
    const refused = await inject(t.app, admin, 'PUT', `/contact-list-items/${item.json().id}`, {
      number: '300 123 45',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ error: 'ERR_INVALID_NUMBER' });

    const form = multipart({}, [
      {
        field: 'file',
        name: 'lista.csv',
        type: 'text/csv',
        data: Buffer.from('Nombre;Número\r\nJuan;310 555 0101\r\nMal;12345678\r\n'),
      },
    ]);
    const upload = await t.app.inject({
      method: 'POST',
      url: `/contact-lists/${list.id}/upload`,
      headers: { authorization: `Bearer ${admin.token}`, ...form.headers },
      payload: form.payload,
    });
    expect(upload.statusCode, upload.body).toBe(200);
    const result = upload.json() as ContactListUploadResult;
    expect(result.errors.map((e) => [e.row, e.error, e.field])).toEqual([
      [3, 'ERR_INVALID_NUMBER', 'number'],
    ]);
    const stored = await t.db
      .select({ number: contactListItems.number })
      .from(contactListItems)
      .where(eq(contactListItems.companyId, companyId));
    expect(stored.map((s) => s.number).sort()).toEqual(['573001234567', '573105550101']);
  });

  it('sends through the external API to a local number, and refuses one that is none', async () => {
    const { companyId, admin } = await companyIn('MX');
    const connection = await pairedSimulator(t.app, admin, {});
    const send = (number: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/messages/send',
        headers: { authorization: `Bearer ${connection.token}` },
        payload: { number, body: 'Su pedido salió' },
      });
    const sent = await send('55 1234 5678');
    expect(sent.statusCode, sent.body).toBe(201);
    expect((sent.json() as ExternalSendResponse).number).toBe('525512345678');
    const refused = await send('55 1234 56');
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      error: 'ERR_INVALID_NUMBER',
      fields: { number: ['Not a phone number of MX, nor one written with its country code'] },
    });
    expect(await numbersOf(companyId)).toEqual(['525512345678']);
  });
});
