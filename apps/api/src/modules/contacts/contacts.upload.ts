import {
  contactSchema,
  type ContactUploadError,
  type ContactUploadInput,
  type ContactUploadResult,
  type Provider,
  type SheetField,
  sheetFieldOf,
} from '@atendi/shared';
import { and, eq, inArray } from 'drizzle-orm';
import { contacts } from '../../db/schema';
import { normalizeNumber } from '../../channels/numbers';
import { readPhoneContacts } from '../../channels/phone-book';
import { AppError, pgErrorOf } from '../../platform/errors';
import type { AuthContext } from '../../platform/context';
import { typedNumberReader, type TypedNumber } from '../settings';
import { serializeContact } from '../tickets';
import { findWhatsapp, getDefaultWhatsapp } from '../whatsapps';
import { emitContact, whatsappLookup, type ContactDeps } from './contacts.service';

// New numbers asked of WhatsApp at a time, as the contact dialog asks for one.
const LOOKUPS_AT_ONCE = 4;

// The linked-device drivers see the phone's address book; the Cloud API never does.
const PHONE_BOOK_PROVIDERS = new Set<Provider>(['beta', 'simulator']);

// POST /contacts/upload (SPEC §7, §5 "Contact import"): every row is judged on its own, so a bad row
// is listed in errorBag and never stops the others. The good rows go in with one statement.

type Cell = string | number | boolean | null;
type Row = Record<string, Cell>;
type Field = SheetField;

const cellText = (cell: Cell | undefined) =>
  cell === null || cell === undefined || typeof cell === 'boolean' ? '' : String(cell).trim();

const readRow = (row: Row): Record<Field, string> => {
  const found: Record<Field, string> = { name: '', number: '', email: '' };
  for (const [header, cell] of Object.entries(row)) {
    const field = sheetFieldOf(header);
    if (field && !found[field]) found[field] = cellText(cell);
  }
  return found;
};

type Judged =
  | { ok: true; row: number; name: string; number: string; email: string }
  | { ok: false; error: ContactUploadError };

// How a row's number is stored: typed numbers through the company's reader, the phone's own address
// book (WhatsApp's numbers) as the ingest stores them.
type NumberOf = (cell: string) => TypedNumber;

const judge = (cells: Record<Field, string>, row: number, numberOf: NumberOf): Judged => {
  const refuse = (field: Field | undefined, message: string, error: ContactUploadError['error']) =>
    ({
      ok: false,
      error: { row, name: cells.name, number: cells.number, error, message, field },
    }) as const;
  const parsed = contactSchema.safeParse(cells);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return refuse(issue.path[0] as Field, issue.message, 'ERR_VALIDATION');
  }
  // Phone numbers only: a WhatsApp id is never imported.
  if (parsed.data.number.includes('@'))
    return refuse('number', 'Not a phone number', 'ERR_INVALID_NUMBER');
  const read = numberOf(parsed.data.number);
  if (!read.ok) return refuse('number', read.message, 'ERR_INVALID_NUMBER');
  return { ok: true, row, name: parsed.data.name, number: read.number, email: parsed.data.email };
};

const isBlank = (cells: Record<Field, string>) => !cells.name && !cells.number && !cells.email;

// A row's number is judged as the contact dialog judges one: a number WhatsApp says it does not know
// is refused, and one it could not check is refused to be tried again. Numbers the company already
// has are not asked (they are duplicates).
const lookUpNew = async (
  deps: ContactDeps,
  ctx: AuthContext,
  accepted: Map<string, Extract<Judged, { ok: true }>>,
  errorBag: ContactUploadError[],
) => {
  const lookUp = await whatsappLookup(deps, ctx);
  if (!lookUp || accepted.size === 0) return;
  const known = new Set(
    (
      await deps.db
        .select({ number: contacts.number })
        .from(contacts)
        .where(
          and(
            eq(contacts.companyId, ctx.companyId),
            inArray(contacts.number, [...accepted.keys()]),
          ),
        )
    ).map((row) => row.number),
  );
  const queue = [...accepted.values()].filter((candidate) => !known.has(candidate.number));
  const askNext = async (): Promise<void> => {
    const candidate = queue.shift();
    if (!candidate) return;
    const found = await lookUp(candidate.number);
    if (!found.ok) {
      accepted.delete(candidate.number);
      errorBag.push({
        row: candidate.row,
        name: candidate.name,
        number: candidate.number,
        error: found.code,
        field: 'number',
        message:
          found.code === 'ERR_WAPP_INVALID_CONTACT'
            ? 'This number is not on WhatsApp'
            : 'WhatsApp could not check this number',
      });
    }
    return askNext();
  };
  await Promise.all(Array.from({ length: LOOKUPS_AT_ONCE }, askNext));
};

export const uploadContacts = async (
  deps: ContactDeps,
  ctx: AuthContext,
  input: ContactUploadInput,
  // The phone's own address book holds WhatsApp's numbers: nothing to ask, nothing to read as local.
  options: { fromPhoneBook: boolean } = { fromPhoneBook: false },
): Promise<ContactUploadResult> => {
  const numberOf: NumberOf = options.fromPhoneBook
    ? (cell) => ({ ok: true, number: normalizeNumber(cell) })
    : await typedNumberReader(deps.db, ctx.companyId);
  const errorBag: ContactUploadError[] = [];
  const accepted = new Map<string, Extract<Judged, { ok: true }>>();
  const duplicate = (row: Extract<Judged, { ok: true }>): ContactUploadError => ({
    row: row.row,
    name: row.name,
    number: row.number,
    error: 'ERR_DUPLICATED_CONTACT',
    message: 'A contact with this number already exists',
  });

  input.rows.forEach((raw, index) => {
    const cells = readRow(raw);
    if (isBlank(cells)) return;
    const judged = judge(cells, input.firstRow + index, numberOf);
    if (!judged.ok) errorBag.push(judged.error);
    else if (accepted.has(judged.number)) errorBag.push(duplicate(judged));
    else accepted.set(judged.number, judged);
  });
  if (!options.fromPhoneBook) await lookUpNew(deps, ctx, accepted, errorBag);

  const candidates = [...accepted.values()];
  const valuesOf = (rows: typeof candidates) =>
    rows.map(({ name, number, email }) => ({ companyId: ctx.companyId, name, number, email }));
  // Each statement in a transaction of its own (a refused one must not take the others with it),
  // raising a contact.changed per contact it created.
  const insert = (rows: typeof candidates) =>
    deps.events.transaction(deps.db, async (tx, raise) => {
      const created = await tx
        .insert(contacts)
        .values(valuesOf(rows))
        .onConflictDoNothing({ target: [contacts.companyId, contacts.number] })
        .returning();
      for (const row of created)
        raise({
          type: 'contact.changed',
          companyId: row.companyId,
          contactId: row.id,
          created: true,
        });
      return created;
    });
  // Text the database refuses (class 22, data exception) must not sink the good rows with it.
  const isRefusedText = (error: unknown) => pgErrorOf(error)?.code?.startsWith('22') ?? false;
  let inserted: Awaited<ReturnType<typeof insert>> = [];
  try {
    if (candidates.length) inserted = await insert(candidates);
  } catch (error) {
    if (!isRefusedText(error)) throw error;
    // Each row on its own, and a refused one is listed.
    for (const candidate of candidates) {
      const stored = await insert([candidate]).catch((rowError: unknown) => {
        if (!isRefusedText(rowError)) throw rowError;
        accepted.delete(candidate.number);
        errorBag.push({
          row: candidate.row,
          name: candidate.name,
          number: candidate.number,
          error: 'ERR_VALIDATION',
          message: 'The database cannot store this row',
        });
        return [];
      });
      inserted.push(...stored);
    }
  }
  // A row the insert skipped holds a number the company already has.
  const stored = new Set(inserted.map((row) => row.number));
  for (const candidate of accepted.values())
    if (!stored.has(candidate.number)) errorBag.push(duplicate(candidate));
  errorBag.sort((a, b) => a.row - b.row);

  const newContacts = inserted
    .sort((a, b) => accepted.get(a.number)!.row - accepted.get(b.number)!.row)
    .map(serializeContact);
  for (const contact of newContacts)
    emitContact(deps, ctx.companyId, { action: 'create', contact: { ...contact, extraInfo: [] } });
  return { newContacts, errorBag };
};

// POST /contacts/import: the phone's address book goes through the same rules as a sheet's rows.
export const importPhoneContacts = async (
  deps: ContactDeps,
  ctx: AuthContext,
  whatsappId: number | undefined,
): Promise<ContactUploadResult> => {
  const connection = whatsappId
    ? await findWhatsapp(deps.db, ctx, whatsappId)
    : await getDefaultWhatsapp(deps.db, ctx.companyId);
  if (!PHONE_BOOK_PROVIDERS.has(connection.provider))
    throw new AppError(
      'ERR_IMPORT_NOT_SUPPORTED',
      'This connection cannot read the phone’s contacts (WhatsApp Cloud API does not share them)',
    );
  const book = await readPhoneContacts(deps.db, connection.id);
  return uploadContacts(deps, ctx, { rows: book, firstRow: 1 }, { fromPhoneBook: true });
};
