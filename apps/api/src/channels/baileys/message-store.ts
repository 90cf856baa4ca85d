import { stripNul } from '../../platform/nul';
import { and, eq, inArray, lt } from 'drizzle-orm';
import { proto, type WAMessage, type WAMessageKey } from '@whiskeysockets/baileys';
import type { Db } from '../../db/client';
import { whatsappMessageStore } from '../../db/schema';
import { fromStoredJson, toStoredJson, type ConnectionIds } from './auth-state';

export type MessageStore = {
  // Keeps a message by its id; a second copy of the same id replaces the first.
  remember(message: WAMessage): Promise<void>;
  load(keyId: string): Promise<WAMessage | undefined>;
  loadMany(keyIds: string[]): Promise<WAMessage[]>;
  // Baileys' getMessage callback: the content WhatsApp asks for when a recipient retries decryption.
  getMessage(key: WAMessageKey): Promise<proto.IMessage | undefined>;
  // Deletes the messages kept before olderThan; answers how many went.
  prune(olderThan: Date): Promise<number>;
  clear(): Promise<void>;
};

// A WAMessage as a plain object, safe to serialise: a proto instance's own toJSON would drop the
// v7 key fields (remoteJidAlt, participantAlt) that are not part of the proto.
export const plainWAMessage = (message: WAMessage): WAMessage => ({
  ...message,
  key: { ...message.key },
});

// A WAMessage back from JSON (stored, or kept in InboundMessage.raw): protobuf's own JSON form
// turns bytes into base64 and longs into strings, so the message is rebuilt through the proto.
// The key is copied as is because v7's extra fields (remoteJidAlt, participantAlt) are not proto.
export const reviveWAMessage = (value: unknown): WAMessage => {
  const plain = fromStoredJson<WAMessage>(value);
  const message = proto.WebMessageInfo.fromObject(plain) as WAMessage;
  message.key = { ...plain.key };
  return message;
};

// Messages of one Baileys connection in whatsapp_message_store, keyed by WhatsApp message id.
export const createMessageStore = (
  db: Db,
  { whatsappId, companyId }: ConnectionIds,
): MessageStore => {
  const ofConnection = and(
    eq(whatsappMessageStore.whatsappId, whatsappId),
    eq(whatsappMessageStore.companyId, companyId),
  );

  const loadMany = async (keyIds: string[]) => {
    if (keyIds.length === 0) return [];
    const rows = await db
      .select({ message: whatsappMessageStore.message })
      .from(whatsappMessageStore)
      .where(and(ofConnection, inArray(whatsappMessageStore.keyId, keyIds)));
    return rows.map((row) => reviveWAMessage(row.message));
  };

  const load = async (keyId: string) => (await loadMany([keyId]))[0];

  return {
    remember: async (message) => {
      const keyId = message.key.id;
      if (!keyId) return;
      const stored = stripNul(toStoredJson(plainWAMessage(message)));
      await db
        .insert(whatsappMessageStore)
        .values({ whatsappId, companyId, keyId, message: stored })
        .onConflictDoUpdate({
          target: [whatsappMessageStore.whatsappId, whatsappMessageStore.keyId],
          set: { message: stored },
        });
    },
    load,
    loadMany,
    getMessage: async (key) => (key.id ? (await load(key.id))?.message : undefined) ?? undefined,
    prune: async (olderThan) => {
      const gone = await db
        .delete(whatsappMessageStore)
        .where(and(ofConnection, lt(whatsappMessageStore.createdAt, olderThan)))
        .returning({ keyId: whatsappMessageStore.keyId });
      return gone.length;
    },
    clear: async () => {
      await db.delete(whatsappMessageStore).where(ofConnection);
    },
  };
};
