import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { makeConnectionIds, sharedTestApp, type SharedTestContext } from '../../test/harness';
import { insertRows } from './rows';
import { simulatorMessages, whatsappMessageStore } from './schema';

// insertRows writes a set of rows in one statement and must store each exactly as the query builder's
// insert would: its values (dates, JSON, nulls), the table's defaults, and the rows in order.
describe('insertRows', () => {
  let t: SharedTestContext;
  beforeAll(async () => {
    t = await sharedTestApp();
  });

  const phoneRow = (
    ids: { whatsappId: number; companyId: number },
    providerId: string,
  ): typeof simulatorMessages.$inferInsert => ({
    ...ids,
    providerId,
    direction: 'in',
    to: '5511999990001',
    body: `hola ${providerId}`,
    mediaType: 'chat',
    fileName: null,
    quotedId: null,
    ack: 0,
    createdAt: new Date('2026-11-29T10:00:00.123Z'),
  });

  it('stores the rows as the query builder would, in order, and answers them', async () => {
    const ids = await makeConnectionIds(t.db);
    const built = await t.db.insert(simulatorMessages).values(phoneRow(ids, 'built')).returning();
    const rows = await insertRows(t.db, simulatorMessages, [
      phoneRow(ids, 'uno'),
      phoneRow(ids, 'dos'),
    ]);
    expect(rows.map((row) => row.providerId)).toEqual(['uno', 'dos']);
    expect(rows[0].id).toBeLessThan(rows[1].id);
    const stored = await t.db
      .select()
      .from(simulatorMessages)
      .where(eq(simulatorMessages.whatsappId, ids.whatsappId))
      .orderBy(simulatorMessages.id);
    expect(stored.slice(1)).toEqual(rows);
    // Everything but the id and provider id is what the builder stored for the same values.
    const strip = ({ id: _id, providerId: _p, body: _b, ...rest }: (typeof stored)[number]) => rest;
    expect(stored.slice(1).map(strip)).toEqual([strip(built[0]), strip(built[0])]);
    expect(rows[0].createdAt).toEqual(new Date('2026-11-29T10:00:00.123Z'));
  });

  it('keeps JSON values whole', async () => {
    const ids = await makeConnectionIds(t.db);
    const message = { text: 'ñandú "citado"', list: [1, { a: null }] };
    const [row] = await insertRows(t.db, whatsappMessageStore, [{ ...ids, keyId: 'k1', message }]);
    expect(row.message).toEqual(message);
    const [read] = await t.db
      .select()
      .from(whatsappMessageStore)
      .where(eq(whatsappMessageStore.whatsappId, ids.whatsappId));
    expect(read.message).toEqual(message);
    expect(read.createdAt).toBeInstanceOf(Date);
  });

  it('skips rows that meet a unique row when asked, keeping the first of a repeated key', async () => {
    const ids = await makeConnectionIds(t.db);
    await insertRows(t.db, simulatorMessages, [phoneRow(ids, 'ya')]);
    const first = { ...phoneRow(ids, 'nuevo'), body: 'primero' };
    const kept = await insertRows(
      t.db,
      simulatorMessages,
      [phoneRow(ids, 'ya'), first, { ...phoneRow(ids, 'nuevo'), body: 'segundo' }],
      { onConflictDoNothing: true },
    );
    expect(kept.map((row) => [row.providerId, row.body])).toEqual([['nuevo', 'primero']]);
    await expect(insertRows(t.db, simulatorMessages, [phoneRow(ids, 'ya')])).rejects.toThrow();
  });

  it('refuses rows that do not all give the same columns, writing nothing', async () => {
    const ids = await makeConnectionIds(t.db);
    const { fileName: _f, ...withoutFile } = phoneRow(ids, 'b');
    await expect(
      insertRows(t.db, simulatorMessages, [phoneRow(ids, 'a'), withoutFile]),
    ).rejects.toThrow(/same columns/);
    const stored = await t.db
      .select()
      .from(simulatorMessages)
      .where(eq(simulatorMessages.whatsappId, ids.whatsappId));
    expect(stored).toEqual([]);
  });
});
