import { asc, eq, ilike, or } from 'drizzle-orm';
import type { z } from 'zod';
import type { helpSchema, helpUpdateSchema } from '@atendi/shared';
import type { Db } from '../../db/client';
import { helps } from '../../db/schema';
import { foundOr404 } from '../../platform/tenancy';

const serialize = (row: typeof helps.$inferSelect) => ({
  id: row.id,
  title: row.title,
  video: row.video,
  description: row.description,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

export const listHelps = async (db: Db, searchParam = '') => {
  const term = searchParam.trim();
  const rows = await db
    .select()
    .from(helps)
    .where(
      term ? or(ilike(helps.title, `%${term}%`), ilike(helps.description, `%${term}%`)) : undefined,
    )
    .orderBy(asc(helps.title), asc(helps.id));
  return rows.map(serialize);
};

export const getHelp = async (db: Db, id: number) =>
  serialize(
    foundOr404((await db.select().from(helps).where(eq(helps.id, id)))[0], 'ERR_NO_HELP_FOUND'),
  );

export const createHelp = async (db: Db, input: z.infer<typeof helpSchema>) =>
  serialize((await db.insert(helps).values(input).returning())[0]);

export const updateHelp = async (db: Db, id: number, input: z.infer<typeof helpUpdateSchema>) => {
  await getHelp(db, id);
  return serialize((await db.update(helps).set(input).where(eq(helps.id, id)).returning())[0]);
};

export const deleteHelp = async (db: Db, id: number) => {
  await getHelp(db, id);
  await db.delete(helps).where(eq(helps.id, id));
};
