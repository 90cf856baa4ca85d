import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { initAuthCreds, proto } from '@whiskeysockets/baileys';
import { createTestApp, makeConnectionIds, type TestContext } from '../../../test/harness';
import { whatsappAuthKeys } from '../../db/schema';
import { useDatabaseAuthState } from './auth-state';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const connection = (companyId?: number) => makeConnectionIds(t.db, companyId);

const rowsOf = (whatsappId: number) =>
  t.db.select().from(whatsappAuthKeys).where(eq(whatsappAuthKeys.whatsappId, whatsappId));

const bytes = (...values: number[]) => Uint8Array.from(values);

describe('useDatabaseAuthState', () => {
  it('starts an unpaired connection with fresh credentials and stores nothing until saved', async () => {
    const ids = await connection();
    const { state } = await useDatabaseAuthState(t.db, ids);
    expect(state.creds.registered).toBe(false);
    expect(Buffer.isBuffer(state.creds.noiseKey.public)).toBe(true);
    expect(await rowsOf(ids.whatsappId)).toEqual([]);
  });

  it('round-trips the credentials with their buffers', async () => {
    const ids = await connection();
    const first = await useDatabaseAuthState(t.db, ids);
    first.state.creds.me = { id: '5511999998888:7@s.whatsapp.net', name: 'Loja' };
    first.state.creds.registered = true;
    await first.saveCreds();
    // Saving again updates the one row.
    first.state.creds.nextPreKeyId = 42;
    await first.saveCreds();

    const again = await useDatabaseAuthState(t.db, ids);
    expect(again.state.creds.me).toEqual({ id: '5511999998888:7@s.whatsapp.net', name: 'Loja' });
    expect(again.state.creds.registered).toBe(true);
    expect(again.state.creds.nextPreKeyId).toBe(42);
    expect(Buffer.isBuffer(again.state.creds.signedIdentityKey.private)).toBe(true);
    expect(Buffer.from(again.state.creds.signedIdentityKey.private)).toEqual(
      Buffer.from(first.state.creds.signedIdentityKey.private),
    );
    expect(Buffer.from(again.state.creds.signedPreKey.signature)).toEqual(
      Buffer.from(first.state.creds.signedPreKey.signature),
    );
    const rows = await rowsOf(ids.whatsappId);
    expect(rows.map((r) => [r.type, r.keyId])).toEqual([['creds', '']]);
  });

  it('stores keys of several types, reads many ids at once and keeps their buffers', async () => {
    const ids = await connection();
    const { state } = await useDatabaseAuthState(t.db, ids);
    await state.keys.set({
      'pre-key': {
        '1': { public: bytes(1, 2, 3), private: bytes(4, 5, 6) },
        '2': { public: Buffer.from([7, 8]), private: Buffer.from([9]) },
      },
      session: { '5511999998888.0': Buffer.from('session-bytes') },
      'app-state-sync-key': {
        AAAA: { keyData: bytes(10, 11), timestamp: 1_700_000_000 },
      },
      'lid-mapping': { '5511999998888': '123456789012345' },
    });

    const preKeys = await state.keys.get('pre-key', ['1', '2', '3']);
    expect(Object.keys(preKeys).sort()).toEqual(['1', '2']);
    expect(Buffer.isBuffer(preKeys['1'].public)).toBe(true);
    expect([...preKeys['1'].public]).toEqual([1, 2, 3]);
    expect([...preKeys['2'].private]).toEqual([9]);

    const sessions = await state.keys.get('session', ['5511999998888.0']);
    expect(Buffer.from(sessions['5511999998888.0']).toString()).toBe('session-bytes');

    const appState = await state.keys.get('app-state-sync-key', ['AAAA']);
    expect(appState.AAAA).toBeInstanceOf(proto.Message.AppStateSyncKeyData);
    expect([...(appState.AAAA.keyData ?? [])]).toEqual([10, 11]);

    expect(await state.keys.get('lid-mapping', ['5511999998888'])).toEqual({
      '5511999998888': '123456789012345',
    });
    expect(await state.keys.get('session', [])).toEqual({});
  });

  it('reads many ids with one query and writes a batch in one transaction', async () => {
    const ids = await connection();
    // Counted on the state's own handle: the app's recurring jobs read through t.db meanwhile.
    const calls = { select: 0, transaction: 0 };
    const db = new Proxy(t.db, {
      get(target, name, receiver) {
        const value: unknown = Reflect.get(target, name, receiver);
        if ((name === 'select' || name === 'transaction') && typeof value === 'function')
          return (...args: unknown[]) => {
            calls[name] += 1;
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          };
        return value;
      },
    });
    const { state } = await useDatabaseAuthState(db, ids);
    calls.transaction = 0;
    await state.keys.set({
      'pre-key': Object.fromEntries(
        Array.from({ length: 600 }, (_, i) => [
          String(i),
          { public: bytes(i % 256), private: bytes(1) },
        ]),
      ),
      session: { gone: null },
    });
    expect(calls.transaction).toBe(1);

    calls.select = 0;
    const keys = await state.keys.get('pre-key', ['0', '299', '599', '600']);
    expect(calls.select).toBe(1);
    expect(Object.keys(keys).sort()).toEqual(['0', '299', '599']);
    expect([...keys['299'].public]).toEqual([299 % 256]);
  });

  it('replaces a key written twice and deletes the keys set to null', async () => {
    const ids = await connection();
    const { state } = await useDatabaseAuthState(t.db, ids);
    await state.keys.set({
      'pre-key': {
        '1': { public: bytes(1), private: bytes(1) },
        '2': { public: bytes(2), private: bytes(2) },
      },
    });
    await state.keys.set({
      'pre-key': { '1': null, '2': { public: bytes(22), private: bytes(22) } },
    });
    const keys = await state.keys.get('pre-key', ['1', '2']);
    expect(Object.keys(keys)).toEqual(['2']);
    expect([...keys['2'].public]).toEqual([22]);
  });

  it('never touches the keys of another connection', async () => {
    const mine = await connection();
    const other = await connection(mine.companyId);
    const a = await useDatabaseAuthState(t.db, mine);
    const b = await useDatabaseAuthState(t.db, other);
    await a.state.keys.set({ session: { same: Buffer.from('a') } });
    await b.state.keys.set({ session: { same: Buffer.from('b') } });
    await b.saveCreds();

    await a.state.keys.set({ session: { same: null } });
    expect(await a.state.keys.get('session', ['same'])).toEqual({});
    const theirs = await b.state.keys.get('session', ['same']);
    expect(Buffer.from(theirs.same).toString()).toBe('b');

    await a.saveCreds();
    await a.clear();
    expect(await rowsOf(mine.whatsappId)).toEqual([]);
    expect((await rowsOf(other.whatsappId)).map((r) => r.type).sort()).toEqual([
      'creds',
      'session',
    ]);
  });

  it('clear() forgets the pairing so the next state starts fresh', async () => {
    const ids = await connection();
    const auth = await useDatabaseAuthState(t.db, ids);
    auth.state.creds.registered = true;
    await auth.saveCreds();
    await auth.state.keys.set({ 'pre-key': { '1': { public: bytes(1), private: bytes(1) } } });
    await auth.clear();
    expect(auth.state.creds.registered).toBe(false);
    expect(
      await t.db
        .select()
        .from(whatsappAuthKeys)
        .where(
          and(
            eq(whatsappAuthKeys.whatsappId, ids.whatsappId),
            eq(whatsappAuthKeys.companyId, ids.companyId),
          ),
        ),
    ).toEqual([]);
    const next = await useDatabaseAuthState(t.db, ids);
    expect(next.state.creds.registered).toBe(false);
    expect(next.state.creds.advSecretKey).not.toBe(initAuthCreds().advSecretKey);
  });
});
