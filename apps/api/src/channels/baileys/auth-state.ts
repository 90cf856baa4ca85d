import { and, eq, inArray, sql } from 'drizzle-orm';
import {
  BufferJSON,
  initAuthCreds,
  proto,
  type AuthenticationCreds,
  type AuthenticationState,
  type SignalDataSet,
  type SignalDataTypeMap,
} from '@whiskeysockets/baileys';
import type { Db } from '../../db/client';
import { whatsappAuthKeys } from '../../db/schema';

// The connection a Baileys auth state or message store belongs to.
export type ConnectionIds = { whatsappId: number; companyId: number };

export type DatabaseAuthState = {
  state: AuthenticationState;
  saveCreds(): Promise<void>;
  // Forgets the pairing: the next socket starts with fresh credentials and shows a QR.
  clear(): Promise<void>;
};

// jsonb holds plain JSON; Baileys' BufferJSON turns buffers into tagged base64 and back.
// A bare string ('lid-mapping' values are digits) is wrapped: drizzle parses a jsonb string once
// more on read, which would turn '123' into the number 123.
const PRIMITIVE = '$primitive';
export const toStoredJson = (value: unknown): unknown => {
  const json: unknown = JSON.parse(JSON.stringify(value, BufferJSON.replacer));
  return json !== null && typeof json === 'object' ? json : { [PRIMITIVE]: json };
};
export const fromStoredJson = <T>(value: unknown): T => {
  const revived: unknown = JSON.parse(JSON.stringify(value), BufferJSON.reviver);
  const wrapped =
    revived !== null && typeof revived === 'object' && Object.keys(revived).join() === PRIMITIVE;
  return (wrapped ? (revived as Record<string, unknown>)[PRIMITIVE] : revived) as T;
};

const CREDS = 'creds';
// Keeps one statement well under PostgreSQL's parameter limit when Baileys uploads its pre-keys.
const CHUNK = 500;

const chunks = <T>(items: T[]) =>
  Array.from({ length: Math.ceil(items.length / CHUNK) }, (_, i) =>
    items.slice(i * CHUNK, (i + 1) * CHUNK),
  );

// Baileys' auth state (credentials and signal keys) in whatsapp_auth_keys, one row per key, so a
// session survives restarts and moves between API nodes without files.
export const useDatabaseAuthState = async (
  db: Db,
  { whatsappId, companyId }: ConnectionIds,
): Promise<DatabaseAuthState> => {
  const ofConnection = and(
    eq(whatsappAuthKeys.whatsappId, whatsappId),
    eq(whatsappAuthKeys.companyId, companyId),
  );

  const upsert = (tx: Db, rows: { type: string; keyId: string; value: unknown }[]) =>
    tx
      .insert(whatsappAuthKeys)
      .values(rows.map((row) => ({ ...row, whatsappId, companyId })))
      .onConflictDoUpdate({
        target: [whatsappAuthKeys.whatsappId, whatsappAuthKeys.type, whatsappAuthKeys.keyId],
        set: { value: sql`excluded.value`, updatedAt: new Date() },
      });

  const [stored] = await db
    .select({ value: whatsappAuthKeys.value })
    .from(whatsappAuthKeys)
    .where(and(ofConnection, eq(whatsappAuthKeys.type, CREDS), eq(whatsappAuthKeys.keyId, '')));
  const state: AuthenticationState = {
    creds: stored ? fromStoredJson<AuthenticationCreds>(stored.value) : initAuthCreds(),
    keys: {
      get: async <T extends keyof SignalDataTypeMap>(type: T, ids: string[]) => {
        const found: { [id: string]: SignalDataTypeMap[T] } = {};
        if (ids.length === 0) return found;
        const rows = await db
          .select({ keyId: whatsappAuthKeys.keyId, value: whatsappAuthKeys.value })
          .from(whatsappAuthKeys)
          .where(
            and(
              ofConnection,
              eq(whatsappAuthKeys.type, type),
              inArray(whatsappAuthKeys.keyId, ids),
            ),
          );
        for (const row of rows) {
          const value = fromStoredJson<SignalDataTypeMap[T]>(row.value);
          // Stored as JSON, app-state keys come back as plain objects; Baileys expects the proto.
          found[row.keyId] =
            type === 'app-state-sync-key'
              ? (proto.Message.AppStateSyncKeyData.fromObject(
                  value as object,
                ) as unknown as SignalDataTypeMap[T])
              : value;
        }
        return found;
      },
      set: async (data: SignalDataSet) => {
        const writes: { type: string; keyId: string; value: unknown }[] = [];
        const deletes = new Map<string, string[]>();
        for (const [type, entries] of Object.entries(data)) {
          for (const [keyId, value] of Object.entries(entries ?? {})) {
            if (value === null || value === undefined) {
              deletes.set(type, [...(deletes.get(type) ?? []), keyId]);
            } else {
              writes.push({ type, keyId, value: toStoredJson(value) });
            }
          }
        }
        if (writes.length === 0 && deletes.size === 0) return;
        await db.transaction(async (tx) => {
          for (const part of chunks(writes)) await upsert(tx, part);
          for (const [type, keyIds] of deletes) {
            for (const part of chunks(keyIds)) {
              await tx
                .delete(whatsappAuthKeys)
                .where(
                  and(
                    ofConnection,
                    eq(whatsappAuthKeys.type, type),
                    inArray(whatsappAuthKeys.keyId, part),
                  ),
                );
            }
          }
        });
      },
    },
  };

  return {
    state,
    saveCreds: async () => {
      await upsert(db, [{ type: CREDS, keyId: '', value: toStoredJson(state.creds) }]);
    },
    clear: async () => {
      await db.delete(whatsappAuthKeys).where(ofConnection);
      state.creds = initAuthCreds();
    },
  };
};
