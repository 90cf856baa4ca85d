import { and, eq, inArray, sql } from 'drizzle-orm';
import { MB } from '@atendi/shared';
import type { Db } from '../db/client';
import { companies, plans, storedFiles } from '../db/schema';
import { AppError } from './errors';
import type { FileStore } from './file-store';

// What each company keeps under {companyId}/ in the file store (the folder DATA_DIR/uploads or the
// bucket's uploads/ prefix, platform/file-store.ts): one stored_files row per file and
// companies.storage_used, their sum. A file is counted by inserting its row (once: the primary key)
// and adding its bytes with one conditional UPDATE of the company row, so uploads racing for the last
// megabytes of a plan are serialised by that row and never pass it; it is uncounted by deleting its
// row (once) and subtracting what the delete returned.

const gb = (bytes: number) => `${(bytes / 1024 / MB).toFixed(2)} GB`;

// How old a file (or a row) must be before the reconciliation may count (or drop) it: long past the
// moment between writing a file and counting it, or between counting a copy and writing it.
export const RECONCILE_MIN_AGE_MS = 60_000;
const RECONCILE_CHUNK = 500;

class Refused extends Error {}

export const createStorage = (options: { db: Db; files: FileStore }) => {
  const { db } = options;

  const quotaError = async (run: Db, companyId: number) => {
    const [row] = await run
      .select({ used: companies.storageUsed, storageMb: plans.storageMb })
      .from(companies)
      .innerJoin(plans, eq(plans.id, companies.planId))
      .where(eq(companies.id, companyId));
    const usedBytes = row?.used ?? 0;
    const limitBytes = (row?.storageMb ?? 0) * MB;
    return new AppError(
      'ERR_STORAGE_QUOTA_EXCEEDED',
      `The company's storage is full: ${gb(usedBytes)} of the plan's ${gb(limitBytes)} are used. ` +
        'Delete files or move to a larger plan.',
      { details: { usedBytes, limitBytes } },
    );
  };

  // Counts bytes more against the company, unless they would pass its plan's storage.
  const add = async (tx: Db, companyId: number, bytes: number, force: boolean) => {
    const fits = sql`(${plans.storageMb} = 0 or ${companies.storageUsed} + ${bytes} <= ${plans.storageMb}::bigint * ${MB})`;
    const [row] = await tx
      .update(companies)
      .set({ storageUsed: sql`${companies.storageUsed} + ${bytes}` })
      .from(plans)
      .where(
        and(eq(companies.id, companyId), eq(plans.id, companies.planId), force ? undefined : fits),
      )
      .returning({ used: companies.storageUsed });
    return Boolean(row);
  };

  const subtract = (tx: Db, companyId: number, bytes: number) =>
    tx
      .update(companies)
      .set({ storageUsed: sql`greatest(${companies.storageUsed} - ${bytes}, 0)` })
      .where(eq(companies.id, companyId));

  return {
    // Counts a new file (in `within`, a transaction the caller holds, if given); refused with
    // ERR_STORAGE_QUOTA_EXCEEDED, counting nothing, when the plan's storage cannot take it.
    async charge(companyId: number, name: string, bytes: number, within?: Db) {
      const run = within ?? db;
      try {
        await run.transaction(async (tx) => {
          const [fresh] = await tx
            .insert(storedFiles)
            .values({ companyId, name, bytes })
            .onConflictDoNothing()
            .returning({ name: storedFiles.name });
          // Already counted (the reconciliation found the file first).
          if (fresh && !(await add(tx, companyId, bytes, false))) throw new Refused();
        });
      } catch (error) {
        if (error instanceof Refused) throw await quotaError(run, companyId);
        throw error;
      }
    },

    // Uncounts a file that is gone; a file never counted (or uncounted already) changes nothing.
    async release(companyId: number, name: string) {
      await db.transaction(async (tx) => {
        const gone = await tx
          .delete(storedFiles)
          .where(and(eq(storedFiles.companyId, companyId), eq(storedFiles.name, name)))
          .returning({ bytes: storedFiles.bytes });
        if (gone.length) await subtract(tx, companyId, gone[0].bytes);
      });
    },

    // Brings the counts back to what is stored (the folder's files, the bucket's listing): files
    // nobody counted (stored before the count existed, or by a process that died before counting
    // them) are counted, rows of files that are gone are dropped. Only what is older than
    // RECONCILE_MIN_AGE_MS, so uploads under way are left to finish their own counting. Run by a
    // recurring job; repeatable.
    async reconcile(now: Date) {
      const before = now.getTime() - RECONCILE_MIN_AGE_MS;
      for (const { id: companyId } of await db.select({ id: companies.id }).from(companies)) {
        const prefix = `${companyId}/`;
        const onDisk = new Map<string, { bytes: number; old: boolean }>();
        for await (const file of options.files.list(prefix)) {
          const name = file.key.slice(prefix.length);
          // Only the company's own files, never a deeper key (a bucket has no folders to skip).
          if (!name.includes('/'))
            onDisk.set(name, { bytes: file.bytes, old: file.modifiedAt.getTime() < before });
        }
        const counted = await db
          .select({ name: storedFiles.name, createdAt: storedFiles.createdAt })
          .from(storedFiles)
          .where(eq(storedFiles.companyId, companyId));
        const known = new Set(counted.map((row) => row.name));
        const missing = [...onDisk]
          .filter(([name, file]) => file.old && !known.has(name))
          .map(([name, file]) => ({ companyId, name, bytes: file.bytes }));
        const gone = counted
          .filter((row) => !onDisk.has(row.name) && row.createdAt.getTime() < before)
          .map((row) => row.name);
        for (let i = 0; i < missing.length; i += RECONCILE_CHUNK)
          await db.transaction(async (tx) => {
            const added = await tx
              .insert(storedFiles)
              .values(missing.slice(i, i + RECONCILE_CHUNK))
              .onConflictDoNothing()
              .returning({ bytes: storedFiles.bytes });
            const bytes = added.reduce((sum, row) => sum + row.bytes, 0);
            // Files already kept are counted even past the plan's storage: they are there.
            if (bytes) await add(tx, companyId, bytes, true);
          });
        for (let i = 0; i < gone.length; i += RECONCILE_CHUNK)
          await db.transaction(async (tx) => {
            const dropped = await tx
              .delete(storedFiles)
              .where(
                and(
                  eq(storedFiles.companyId, companyId),
                  inArray(storedFiles.name, gone.slice(i, i + RECONCILE_CHUNK)),
                ),
              )
              .returning({ bytes: storedFiles.bytes });
            const bytes = dropped.reduce((sum, row) => sum + row.bytes, 0);
            if (bytes) await subtract(tx, companyId, bytes);
          });
      }
    },
  };
};
