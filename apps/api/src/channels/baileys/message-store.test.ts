import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { proto, type WAMessage } from '@whiskeysockets/baileys';
import { sharedTestApp, makeConnectionIds, type SharedTestContext } from '../../../test/harness';
import { whatsappMessageStore } from '../../db/schema';
import { createMessageStore, plainWAMessage, reviveWAMessage } from './message-store';

let t: SharedTestContext;
beforeAll(async () => {
  t = await sharedTestApp();
});

const connection = (companyId?: number) => makeConnectionIds(t.db, companyId);

// A sent image as Baileys returns it from sendMessage: a proto instance with bytes and a long.
const sentImage = (id: string, caption = 'catalogue'): WAMessage => {
  const message = proto.WebMessageInfo.fromObject({
    key: { remoteJid: '5511999998888@s.whatsapp.net', fromMe: true, id },
    message: {
      imageMessage: {
        caption,
        mimetype: 'image/jpeg',
        mediaKey: Buffer.from([1, 2, 3, 4]),
        fileSha256: Buffer.from([5, 6]),
        fileLength: 2048,
      },
    },
    messageTimestamp: 1_700_000_000,
    status: proto.WebMessageInfo.Status.SERVER_ACK,
  }) as WAMessage;
  message.key = { ...message.key, remoteJidAlt: '123456789012345@lid' };
  return message;
};

describe('message store', () => {
  it('answers Baileys getMessage with the stored content and its bytes', async () => {
    const store = createMessageStore(t.db, await connection());
    await store.remember(sentImage('3EB0AAA'));
    const content = await store.getMessage({ remoteJid: 'x', id: '3EB0AAA', fromMe: true });
    expect(content?.imageMessage?.caption).toBe('catalogue');
    expect(Buffer.from(content?.imageMessage?.mediaKey ?? [])).toEqual(Buffer.from([1, 2, 3, 4]));
    expect(await store.getMessage({ id: 'unknown' })).toBeUndefined();
    expect(await store.getMessage({})).toBeUndefined();
  });

  it('loads whole messages with the v7 key fields, by one id or several', async () => {
    const store = createMessageStore(t.db, await connection());
    await store.remember(sentImage('A1'));
    await store.remember(sentImage('A2'));
    const one = await store.load('A1');
    expect(one?.key).toEqual({
      remoteJid: '5511999998888@s.whatsapp.net',
      fromMe: true,
      id: 'A1',
      remoteJidAlt: '123456789012345@lid',
    });
    expect(Number(one?.messageTimestamp)).toBe(1_700_000_000);
    expect(one?.status).toBe(proto.WebMessageInfo.Status.SERVER_ACK);
    const many = await store.loadMany(['A1', 'A2', 'missing']);
    expect(many.map((m) => m.key.id).sort()).toEqual(['A1', 'A2']);
    expect(await store.loadMany([])).toEqual([]);
  });

  it('replaces a message remembered twice', async () => {
    const store = createMessageStore(t.db, await connection());
    await store.remember(sentImage('B1', 'first'));
    await store.remember(sentImage('B1', 'second'));
    expect((await store.load('B1'))?.message?.imageMessage?.caption).toBe('second');
  });

  it('prunes old messages and clears only its own connection', async () => {
    const mine = await connection();
    const other = await connection(mine.companyId);
    const store = createMessageStore(t.db, mine);
    const theirs = createMessageStore(t.db, other);
    await store.remember(sentImage('OLD'));
    await store.remember(sentImage('NEW'));
    await theirs.remember(sentImage('OLD'));
    const lastMonth = new Date(Date.now() - 30 * 24 * 3600_000);
    for (const whatsappId of [mine.whatsappId, other.whatsappId]) {
      await t.db
        .update(whatsappMessageStore)
        .set({ createdAt: lastMonth })
        .where(
          and(
            eq(whatsappMessageStore.whatsappId, whatsappId),
            eq(whatsappMessageStore.keyId, 'OLD'),
          ),
        );
    }

    expect(await store.prune(new Date(Date.now() - 7 * 24 * 3600_000))).toBe(1);
    expect(await store.load('OLD')).toBeUndefined();
    expect(await store.load('NEW')).toBeDefined();
    expect(await theirs.load('OLD')).toBeDefined();

    await store.clear();
    expect(await store.load('NEW')).toBeUndefined();
    expect(await theirs.load('OLD')).toBeDefined();
  });

  it('revives a message that went through plain JSON, as InboundMessage.raw may', () => {
    const raw = JSON.parse(JSON.stringify(plainWAMessage(sentImage('C1'))));
    const revived = reviveWAMessage(raw);
    expect(Buffer.isBuffer(revived.message?.imageMessage?.mediaKey)).toBe(true);
    expect([...(revived.message?.imageMessage?.mediaKey ?? [])]).toEqual([1, 2, 3, 4]);
    expect(revived.key.remoteJidAlt).toBe('123456789012345@lid');
  });
});
