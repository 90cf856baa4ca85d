import { and, asc, count, eq, ilike, or, sql } from 'drizzle-orm';
import {
  CONTACT_LIST_ITEMS_PAGE_SIZE,
  CONTACT_LISTS_PAGE_SIZE,
  type ContactListEvent,
  type ContactListInput,
  type ContactListItemEvent,
  type ContactListItemInput,
  type ContactListItemUpdateInput,
  type ContactListItemView,
  type ContactListView,
} from '@atendi/shared';
import type { AppDeps } from '../../deps';
import type { Db } from '../../db/client';
import { contactListItems, contactLists, whatsapps } from '../../db/schema';
import { ChannelError } from '../../channels/driver';
import type { AuthContext } from '../../platform/context';
import { AppError, pgErrorOf } from '../../platform/errors';
import { containsPattern } from '../../platform/like';
import { foundOr404, ofCompany, ownedRow } from '../../platform/tenancy';
import { updateReturning } from '../../platform/update';
import { readTypedNumber } from '../settings';

// Contact lists (SPEC §3, §5, §7): the audiences of campaigns. An item is a number to message, stored
// as WhatsApp knows it (modules/settings/typed-numbers.ts), at most once per list, with whether
// WhatsApp has it.

type Deps = Pick<AppDeps, 'db' | 'realtime' | 'channels'>;
type ListRow = typeof contactLists.$inferSelect;
type ItemRow = typeof contactListItems.$inferSelect;

// Qualified by hand: inside the subquery drizzle would write a bare "id", which is the item's.
const itemsCount = sql<number>`(select count(*)::int from contact_list_items i where i.contact_list_id = "contact_lists"."id")`;

const serializeList = (row: ListRow & { contactsCount: number }): ContactListView => ({
  id: row.id,
  name: row.name,
  companyId: row.companyId,
  contactsCount: row.contactsCount,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

export const serializeItem = (row: ItemRow): ContactListItemView => ({
  id: row.id,
  name: row.name,
  number: row.number,
  email: row.email,
  companyId: row.companyId,
  contactListId: row.contactListId,
  isWhatsappValid: row.isWhatsappValid,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

const listViews = (db: Db) =>
  db
    .select({
      id: contactLists.id,
      name: contactLists.name,
      companyId: contactLists.companyId,
      createdAt: contactLists.createdAt,
      updatedAt: contactLists.updatedAt,
      contactsCount: itemsCount,
    })
    .from(contactLists)
    .$dynamic();

export const loadList = async (db: Db, ctx: Pick<AuthContext, 'companyId'>, id: number) =>
  serializeList(
    foundOr404(
      (await listViews(db).where(ownedRow(contactLists, id, ctx)))[0],
      'ERR_NO_CONTACT_LIST_FOUND',
    ),
  );

const emitList = (deps: Deps, ctx: Pick<AuthContext, 'companyId'>, event: ContactListEvent) =>
  deps.realtime.toCompany(ctx.companyId).emit('ContactList', event);
export const emitItem = (
  deps: Deps,
  ctx: Pick<AuthContext, 'companyId'>,
  event: ContactListItemEvent,
) => deps.realtime.toCompany(ctx.companyId).emit('ContactListItem', event);

// A list's count changed: screens showing it hear the list again.
export const announceList = async (deps: Deps, ctx: Pick<AuthContext, 'companyId'>, id: number) => {
  const [row] = await listViews(deps.db).where(ownedRow(contactLists, id, ctx));
  if (!row) return undefined;
  const view = serializeList(row);
  emitList(deps, ctx, { action: 'update', record: view });
  return view;
};

// GET /contact-lists: the lists page's search, newest name order.
export const listContactLists = async (
  deps: Deps,
  ctx: AuthContext,
  query: { searchParam: string; pageNumber: number },
) => {
  const term = query.searchParam.trim();
  const where = ofCompany(
    contactLists,
    ctx,
    term ? ilike(contactLists.name, containsPattern(term)) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    listViews(deps.db)
      .where(where)
      .orderBy(asc(contactLists.name), asc(contactLists.id))
      .limit(CONTACT_LISTS_PAGE_SIZE + 1)
      .offset((query.pageNumber - 1) * CONTACT_LISTS_PAGE_SIZE),
    deps.db.select({ n: count() }).from(contactLists).where(where),
  ]);
  return {
    records: rows.slice(0, CONTACT_LISTS_PAGE_SIZE).map(serializeList),
    count: total?.n ?? 0,
    hasMore: rows.length > CONTACT_LISTS_PAGE_SIZE,
  };
};

// GET /contact-lists/list: every list, for pickers (the campaign form).
export const listAllContactLists = async (deps: Deps, ctx: AuthContext) =>
  (
    await listViews(deps.db)
      .where(ofCompany(contactLists, ctx))
      .orderBy(asc(contactLists.name), asc(contactLists.id))
  ).map(serializeList);

export const getContactList = (deps: Deps, ctx: AuthContext, id: number) =>
  loadList(deps.db, ctx, id);

export const createContactList = async (deps: Deps, ctx: AuthContext, input: ContactListInput) => {
  const [row] = await deps.db
    .insert(contactLists)
    .values({ companyId: ctx.companyId, name: input.name })
    .returning();
  const view = serializeList({ ...row!, contactsCount: 0 });
  emitList(deps, ctx, { action: 'create', record: view });
  return view;
};

export const updateContactList = async (
  deps: Deps,
  ctx: AuthContext,
  id: number,
  input: ContactListInput,
) => {
  const [row] = await deps.db
    .update(contactLists)
    .set({ name: input.name, updatedAt: new Date() })
    .where(ownedRow(contactLists, id, ctx))
    .returning({ id: contactLists.id });
  foundOr404(row, 'ERR_NO_CONTACT_LIST_FOUND');
  const view = await loadList(deps.db, ctx, id);
  emitList(deps, ctx, { action: 'update', record: view });
  return view;
};

// Its items go with it (cascade).
export const deleteContactList = async (deps: Deps, ctx: AuthContext, id: number) => {
  const [row] = await deps.db
    .delete(contactLists)
    .where(ownedRow(contactLists, id, ctx))
    .returning({ id: contactLists.id });
  foundOr404(row, 'ERR_NO_CONTACT_LIST_FOUND');
  emitList(deps, ctx, { action: 'delete', id });
};

// Whether WhatsApp has the number, asked through the company's default connection when it is
// connected: true or false when it could tell, null when it could not (no connected default, a
// provider that cannot look numbers up, or a lookup that failed).
// The company's default connection when it is connected (the one that can look numbers up).
export const checkingConnection = async (deps: Deps, ctx: Pick<AuthContext, 'companyId'>) => {
  const [connection] = await deps.db
    .select({ id: whatsapps.id, status: whatsapps.status })
    .from(whatsapps)
    .where(ofCompany(whatsapps, ctx, eq(whatsapps.isDefault, true)));
  return connection?.status === 'CONNECTED' ? connection.id : null;
};

export const validityVia = async (
  deps: Deps,
  connectionId: number,
  number: string,
): Promise<boolean | null> => {
  try {
    return (await deps.channels.checkNumber(connectionId, number)) ? true : null;
  } catch (error) {
    if (error instanceof ChannelError && error.code === 'ERR_WAPP_INVALID_CONTACT') return false;
    return null;
  }
};

const whatsappValidity = async (
  deps: Deps,
  ctx: Pick<AuthContext, 'companyId'>,
  number: string,
): Promise<boolean | null> => {
  const connectionId = await checkingConnection(deps, ctx);
  return connectionId === null ? null : validityVia(deps, connectionId, number);
};

const duplicated = () =>
  new AppError('ERR_DUPLICATED_LIST_ITEM', 'This number is already in the list', {
    fields: { number: ['ERR_DUPLICATED_LIST_ITEM'] },
  });

// Asked before the WhatsApp lookup, so a duplicate costs none; the unique index still decides races.
const assertNumberFree = async (db: Db, contactListId: number, number: string) => {
  const [taken] = await db
    .select({ id: contactListItems.id })
    .from(contactListItems)
    .where(
      and(eq(contactListItems.contactListId, contactListId), eq(contactListItems.number, number)),
    );
  if (taken) throw duplicated();
};

// Two people adding one number at once meet at the unique index (list, number): one of them is told.
const storeItem = async <T>(write: () => Promise<T>) => {
  try {
    return await write();
  } catch (error) {
    if (pgErrorOf(error)?.code === '23505') throw duplicated();
    throw error;
  }
};

const findItem = async (db: Db, ctx: AuthContext, id: number) =>
  foundOr404(
    (
      await db
        .select()
        .from(contactListItems)
        .where(ownedRow(contactListItems, id, ctx))
    )[0],
    'ERR_NO_CONTACT_LIST_ITEM_FOUND',
  );

// GET /contact-list-items: one list's items, searched by name, number or email.
export const listContactListItems = async (
  deps: Deps,
  ctx: AuthContext,
  query: { searchParam: string; pageNumber: number; contactListId: number },
) => {
  await loadList(deps.db, ctx, query.contactListId);
  const term = query.searchParam.trim();
  const pattern = containsPattern(term);
  const where = ofCompany(
    contactListItems,
    ctx,
    eq(contactListItems.contactListId, query.contactListId),
    term
      ? or(
          ilike(contactListItems.name, pattern),
          ilike(contactListItems.number, pattern),
          ilike(contactListItems.email, pattern),
        )
      : undefined,
  );
  const [rows, [total]] = await Promise.all([
    deps.db
      .select()
      .from(contactListItems)
      .where(where)
      .orderBy(asc(contactListItems.name), asc(contactListItems.id))
      .limit(CONTACT_LIST_ITEMS_PAGE_SIZE + 1)
      .offset((query.pageNumber - 1) * CONTACT_LIST_ITEMS_PAGE_SIZE),
    deps.db.select({ n: count() }).from(contactListItems).where(where),
  ]);
  return {
    contacts: rows.slice(0, CONTACT_LIST_ITEMS_PAGE_SIZE).map(serializeItem),
    count: total?.n ?? 0,
    hasMore: rows.length > CONTACT_LIST_ITEMS_PAGE_SIZE,
  };
};

export const getContactListItem = async (deps: Deps, ctx: AuthContext, id: number) =>
  serializeItem(await findItem(deps.db, ctx, id));

export const createContactListItem = async (
  deps: Deps,
  ctx: AuthContext,
  input: ContactListItemInput,
) => {
  await loadList(deps.db, ctx, input.contactListId);
  // Stored as WhatsApp knows it; typed without its country code, a number of the company's country.
  const number = await readTypedNumber(deps.db, ctx.companyId, input.number);
  await assertNumberFree(deps.db, input.contactListId, number);
  const isWhatsappValid = await whatsappValidity(deps, ctx, number);
  const [row] = await storeItem(() =>
    deps.db
      .insert(contactListItems)
      .values({
        companyId: ctx.companyId,
        contactListId: input.contactListId,
        name: input.name,
        number,
        email: input.email,
        isWhatsappValid,
      })
      .returning(),
  );
  const view = serializeItem(row!);
  emitItem(deps, ctx, { action: 'create', record: view });
  await announceList(deps, ctx, input.contactListId);
  return view;
};

export const updateContactListItem = async (
  deps: Deps,
  ctx: AuthContext,
  id: number,
  input: ContactListItemUpdateInput,
) => {
  const current = await findItem(deps.db, ctx, id);
  const number =
    input.number === undefined || input.number === current.number
      ? current.number
      : await readTypedNumber(deps.db, ctx.companyId, input.number);
  if (number !== current.number) await assertNumberFree(deps.db, current.contactListId, number);
  const changes = {
    ...(input.name === undefined ? {} : { name: input.name }),
    ...(input.email === undefined ? {} : { email: input.email }),
    ...(number === current.number
      ? {}
      : { number, isWhatsappValid: await whatsappValidity(deps, ctx, number) }),
  };
  const changed = Object.keys(changes).length > 0;
  const [row] = await storeItem(() =>
    updateReturning(
      deps.db,
      contactListItems,
      changed ? { ...changes, updatedAt: new Date() } : {},
      ownedRow(contactListItems, id, ctx),
    ),
  );
  const view = serializeItem(foundOr404(row, 'ERR_NO_CONTACT_LIST_ITEM_FOUND'));
  if (changed) emitItem(deps, ctx, { action: 'update', record: view });
  return view;
};

export const deleteContactListItem = async (deps: Deps, ctx: AuthContext, id: number) => {
  const [row] = await deps.db
    .delete(contactListItems)
    .where(ownedRow(contactListItems, id, ctx))
    .returning({ id: contactListItems.id, contactListId: contactListItems.contactListId });
  foundOr404(row, 'ERR_NO_CONTACT_LIST_ITEM_FOUND');
  emitItem(deps, ctx, { action: 'delete', id, contactListId: row!.contactListId });
  await announceList(deps, ctx, row!.contactListId);
};
