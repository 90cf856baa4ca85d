import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { whatsappAuthKeys } from '../db/schema';
import { isGroupId, normalizeNumber } from './numbers';

// The paired phone's address book, as WhatsApp shares it with a linked device (history sync and
// contact updates). Kept beside the pairing's keys, so unpairing (which clears them) forgets it too.
// POST /contacts/import reads it.

export type PhoneContact = { number: string; name: string };

const TYPE = 'phone-contact';

// A shared entry worth importing: a phone number (not a group or a bare LID) with a name.
export const phoneContactOf = (entry: {
  id?: string | null;
  phoneNumber?: string | null;
  name?: string | null;
  notify?: string | null;
  verifiedName?: string | null;
}): PhoneContact | undefined => {
  const jid = [entry.id, entry.phoneNumber].find((id) => id?.endsWith('@s.whatsapp.net'));
  const name = (entry.name || entry.notify || entry.verifiedName || '').trim();
  if (!jid || isGroupId(jid) || !name) return undefined;
  const number = normalizeNumber(jid);
  return number.length >= 8 ? { number, name } : undefined;
};

export const savePhoneContacts = async (
  db: Db,
  connection: { id: number; companyId: number },
  contacts: PhoneContact[],
) => {
  const unique = new Map(contacts.map((contact) => [contact.number, contact]));
  if (unique.size === 0) return;
  await db
    .insert(whatsappAuthKeys)
    .values(
      [...unique.values()].map(({ number, name }) => ({
        whatsappId: connection.id,
        companyId: connection.companyId,
        type: TYPE,
        keyId: number,
        value: { name },
      })),
    )
    .onConflictDoUpdate({
      target: [whatsappAuthKeys.whatsappId, whatsappAuthKeys.type, whatsappAuthKeys.keyId],
      set: { value: sql`excluded.value`, updatedAt: new Date() },
    });
};

export const readPhoneContacts = async (db: Db, whatsappId: number): Promise<PhoneContact[]> => {
  const rows = await db
    .select({ keyId: whatsappAuthKeys.keyId, value: whatsappAuthKeys.value })
    .from(whatsappAuthKeys)
    .where(and(eq(whatsappAuthKeys.whatsappId, whatsappId), eq(whatsappAuthKeys.type, TYPE)))
    .orderBy(asc(whatsappAuthKeys.keyId));
  return rows.map(({ keyId, value }) => ({
    number: keyId,
    name: (value as { name: string }).name,
  }));
};
