import { auditAs } from '../../platform/audit';
import { asc, count, eq, ilike, ne, or, sql, type SQL } from 'drizzle-orm';
import {
  CONTACTS_PAGE_SIZE,
  type ContactDetailView,
  type ContactEvent,
  type ContactInput,
  type ContactListQuery,
  type ContactUpdateInput,
} from '@atendi/shared';
import type { AppDeps } from '../../deps';
import type { Db } from '../../db/client';
import { contactCustomFields, contacts, tickets, whatsapps } from '../../db/schema';
import { ChannelError } from '../../channels/driver';
import type { AuthContext } from '../../platform/context';
import { AppError } from '../../platform/errors';
import { containsPattern } from '../../platform/like';
import { foundOr404, ofCompany, ownedRow } from '../../platform/tenancy';
import { readTypedNumber } from '../settings';
import { messageFilesOf, serializeContact, snapshotOf } from '../tickets';

// The company's address book (SPEC §7 "Contacts and lists"): every user of the company reads it.

export type ContactDeps = Pick<AppDeps, 'db' | 'realtime' | 'channels' | 'uploads' | 'events'>;
type Deps = ContactDeps;
type ContactRow = typeof contacts.$inferSelect;

// Numbers are stored as WhatsApp knows them (digits with the country code), so a contact typed by
// hand and the same person writing in on WhatsApp are one contact; one typed without its country code
// is a local number of the company's country. WhatsApp ids (groups, LIDs) are not typed: they may
// only be kept as they are.
const storedNumber = async (db: Db, ctx: AuthContext, typed: string, current?: string) => {
  if (typed === current) return typed;
  if (typed.includes('@'))
    throw new AppError('ERR_VALIDATION', 'A WhatsApp id cannot be typed', {
      fields: { number: ['A WhatsApp id cannot be typed'] },
    });
  return readTypedNumber(db, ctx.companyId, typed);
};

const isUniqueViolation = (error: unknown) => {
  for (let e: unknown = error, depth = 0; e && depth < 4; depth += 1) {
    if (typeof e === 'object' && e !== null && 'code' in e && e.code === '23505') return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
};

const duplicated = () =>
  new AppError('ERR_DUPLICATED_CONTACT', 'A contact with this number already exists', {
    fields: { number: ['ERR_DUPLICATED_CONTACT'] },
  });

const assertNumberFree = async (db: Db, ctx: AuthContext, number: string, exceptId?: number) => {
  const [taken] = await db
    .select({ id: contacts.id })
    .from(contacts)
    .where(
      ofCompany(
        contacts,
        ctx,
        eq(contacts.number, number),
        exceptId ? ne(contacts.id, exceptId) : undefined,
      ),
    );
  if (taken) throw duplicated();
};

// A number typed by hand is looked up on WhatsApp through the company's default connection when that
// one is connected (SPEC §8 ERR_WAPP_INVALID_CONTACT, ERR_WAPP_CHECK_CONTACT). Without a connected
// default, or on a provider that cannot look numbers up (Cloud API), the contact is kept unchecked.
// This is the company's lookup (null: nobody to ask), telling what WhatsApp said of one number; the
// dialog's save and every new row of a sheet go through it.
export const whatsappLookup = async (deps: Deps, ctx: AuthContext) => {
  const [connection] = await deps.db
    .select({ id: whatsapps.id, status: whatsapps.status })
    .from(whatsapps)
    .where(ofCompany(whatsapps, ctx, eq(whatsapps.isDefault, true)));
  if (connection?.status !== 'CONNECTED') return null;
  return async (number: string) => {
    try {
      await deps.channels.checkNumber(connection.id, number);
      return { ok: true } as const;
    } catch (error) {
      if (error instanceof ChannelError && error.code === 'ERR_WAPP_INVALID_CONTACT')
        return { ok: false, code: 'ERR_WAPP_INVALID_CONTACT', error } as const;
      // The lookup failed or the session is not really up: the user may try again.
      return { ok: false, code: 'ERR_WAPP_CHECK_CONTACT', error } as const;
    }
  };
};

const assertOnWhatsApp = async (deps: Deps, ctx: AuthContext, number: string) => {
  const lookUp = await whatsappLookup(deps, ctx);
  const found = await lookUp?.(number);
  if (!found || found.ok) return;
  if (found.code === 'ERR_WAPP_INVALID_CONTACT')
    throw new AppError('ERR_WAPP_INVALID_CONTACT', `${number} is not on WhatsApp`, {
      fields: { number: ['ERR_WAPP_INVALID_CONTACT'] },
    });
  // Nothing is saved.
  throw new AppError('ERR_WAPP_CHECK_CONTACT', 'WhatsApp could not check this number', {
    cause: found.error,
  });
};

const findContact = async (db: Db, ctx: AuthContext, id: number) =>
  foundOr404(
    (
      await db
        .select()
        .from(contacts)
        .where(ownedRow(contacts, id, ctx))
    )[0],
    'ERR_NO_CONTACT_FOUND',
  );

const detailOf = async (db: Db, row: ContactRow): Promise<ContactDetailView> => {
  const extraInfo = await db
    .select({
      id: contactCustomFields.id,
      name: contactCustomFields.name,
      value: contactCustomFields.value,
    })
    .from(contactCustomFields)
    .where(eq(contactCustomFields.contactId, row.id))
    .orderBy(asc(contactCustomFields.id));
  return { ...serializeContact(row), extraInfo };
};

export const emitContact = (deps: Deps, companyId: number, event: ContactEvent) =>
  deps.realtime.toCompany(companyId).emit('contact', event);

const createdBetween = (query: ContactListQuery): (SQL | undefined)[] => [
  query.date ? sql`${contacts.createdAt}::date = ${query.date.slice(0, 10)}::date` : undefined,
  query.dateStart
    ? sql`${contacts.createdAt}::date >= ${query.dateStart.slice(0, 10)}::date`
    : undefined,
  query.dateEnd
    ? sql`${contacts.createdAt}::date <= ${query.dateEnd.slice(0, 10)}::date`
    : undefined,
];

export const listContacts = async (db: Db, ctx: AuthContext, query: ContactListQuery) => {
  const term = query.searchParam.trim();
  // '+55 (11) 9888' finds the stored '55119888…' too.
  const digits = /^[\d\s+().-]+$/.test(term) ? term.replace(/\D/g, '') : '';
  const where = ofCompany(
    contacts,
    ctx,
    term
      ? or(
          ilike(contacts.name, containsPattern(term)),
          ilike(contacts.number, containsPattern(term)),
          digits ? ilike(contacts.number, `%${digits}%`) : undefined,
        )
      : undefined,
    ...createdBetween(query),
  );
  const rows = await db
    .select()
    .from(contacts)
    .where(where)
    .orderBy(asc(contacts.name), asc(contacts.id))
    .limit(CONTACTS_PAGE_SIZE + 1)
    .offset((query.pageNumber - 1) * CONTACTS_PAGE_SIZE);
  const [{ total }] = await db.select({ total: count() }).from(contacts).where(where);
  return {
    contacts: rows.slice(0, CONTACTS_PAGE_SIZE).map(serializeContact),
    count: total,
    hasMore: rows.length > CONTACTS_PAGE_SIZE,
  };
};

// Super users may list another company's contacts (as GET /users/list allows).
export const listContactOptions = async (db: Db, ctx: AuthContext, companyId?: number) =>
  db
    .select({
      id: contacts.id,
      name: contacts.name,
      number: contacts.number,
      email: contacts.email,
    })
    .from(contacts)
    .where(eq(contacts.companyId, ctx.isSuper && companyId ? companyId : ctx.companyId))
    .orderBy(asc(contacts.name), asc(contacts.id));

export const getContact = async (db: Db, ctx: AuthContext, id: number) =>
  detailOf(db, await findContact(db, ctx, id));

// Answers whether the list differs from the one it replaced (names and values, in order).
const replaceExtraInfo = async (
  tx: Db,
  ctx: AuthContext,
  contactId: number,
  extraInfo: ContactInput['extraInfo'],
) => {
  const replaced = await tx
    .delete(contactCustomFields)
    .where(eq(contactCustomFields.contactId, contactId))
    .returning({
      id: contactCustomFields.id,
      name: contactCustomFields.name,
      value: contactCustomFields.value,
    });
  if (extraInfo.length)
    await tx
      .insert(contactCustomFields)
      .values(
        extraInfo.map(({ name, value }) => ({ companyId: ctx.companyId, contactId, name, value })),
      );
  const before = replaced.sort((a, b) => a.id - b.id);
  return (
    before.length !== extraInfo.length ||
    before.some(
      (field, i) => field.name !== extraInfo[i].name || field.value !== extraInfo[i].value,
    )
  );
};

export const createContact = async (deps: Deps, ctx: AuthContext, input: ContactInput) => {
  const number = await storedNumber(deps.db, ctx, input.number);
  await assertNumberFree(deps.db, ctx, number);
  await assertOnWhatsApp(deps, ctx, number);
  let row: ContactRow;
  try {
    row = await deps.events.transaction(deps.db, async (tx, raise) => {
      const [created] = await tx
        .insert(contacts)
        .values({ companyId: ctx.companyId, name: input.name, number, email: input.email })
        .returning();
      await replaceExtraInfo(tx, ctx, created.id, input.extraInfo);
      raise({
        type: 'contact.changed',
        companyId: ctx.companyId,
        contactId: created.id,
        created: true,
      });
      return created;
    });
  } catch (error) {
    // Someone saved the same number in between.
    if (isUniqueViolation(error)) throw duplicated();
    throw error;
  }
  const view = await detailOf(deps.db, row);
  emitContact(deps, ctx.companyId, { action: 'create', contact: view });
  return view;
};

export const updateContact = async (
  deps: Deps,
  ctx: AuthContext,
  id: number,
  input: ContactUpdateInput,
) => {
  const before = await findContact(deps.db, ctx, id);
  const number =
    input.number === undefined
      ? undefined
      : await storedNumber(deps.db, ctx, input.number, before.number);
  if (number !== undefined && number !== before.number) {
    await assertNumberFree(deps.db, ctx, number, id);
    await assertOnWhatsApp(deps, ctx, number);
  }
  let row: ContactRow;
  try {
    row = await deps.events.transaction(deps.db, async (tx, raise) => {
      // Locked, so what it was is what this change changes.
      const [was] = await tx
        .select({ name: contacts.name, number: contacts.number, email: contacts.email })
        .from(contacts)
        .where(ownedRow(contacts, id, ctx))
        .for('update');
      const [updated] = await tx
        .update(contacts)
        .set({
          ...(input.name !== undefined ? { name: input.name } : {}),
          ...(number !== undefined ? { number } : {}),
          ...(input.email !== undefined ? { email: input.email } : {}),
          updatedAt: new Date(),
        })
        .where(ownedRow(contacts, id, ctx))
        .returning();
      const fieldsChanged = input.extraInfo
        ? await replaceExtraInfo(tx, ctx, id, input.extraInfo)
        : false;
      // Saved as it was (the dialog saves every field): no change to tell.
      if (
        updated &&
        (fieldsChanged ||
          !was ||
          was.name !== updated.name ||
          was.number !== updated.number ||
          was.email !== updated.email)
      )
        raise({ type: 'contact.changed', companyId: ctx.companyId, contactId: id, created: false });
      return updated;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicated();
    throw error;
  }
  const view = await detailOf(deps.db, row);
  emitContact(deps, ctx.companyId, { action: 'update', contact: view });
  return view;
};

// Deleting a contact deletes its conversations (the tables cascade); the lists showing them are told.
export const deleteContact = async (deps: Deps, ctx: AuthContext, id: number) => {
  const contact = await findContact(deps.db, ctx, id);
  const gone = await deps.db
    .select()
    .from(tickets)
    .where(ofCompany(tickets, ctx, eq(tickets.contactId, id)));
  const files = await messageFilesOf(
    deps.db,
    ctx.companyId,
    gone.map((ticket) => ticket.id),
  );
  await deps.events.transaction(deps.db, async (tx, raise) => {
    await tx.delete(contacts).where(ownedRow(contacts, id, ctx));
    await auditAs(tx, ctx, {
      action: 'contact.deleted',
      target: `contact:${id}`,
      detail: { name: contact.name, number: contact.number, tickets: gone.length },
    });
    for (const ticket of gone)
      raise({
        type: 'ticket.deleted',
        companyId: ctx.companyId,
        ticketId: ticket.id,
        before: snapshotOf(ticket),
      });
  });
  for (const name of files) await deps.uploads.remove(ctx.companyId, name);
  emitContact(deps, ctx.companyId, { action: 'delete', contactId: id });
};
