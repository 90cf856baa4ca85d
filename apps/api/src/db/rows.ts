import {
  getTableColumns,
  getTableName,
  sql,
  type Column,
  type SQLChunk,
  type InferSelectModel,
  type Table,
} from 'drizzle-orm';
import { toSnakeCase } from 'drizzle-orm/casing';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { queryRows, type Db } from './client';

// Set-based statements written in SQL (one array per column, `unnest`ed): their size does not grow
// with the number of rows, so building them costs the same for one row or a hundred, where the query
// builder's multi-row VALUES costs a parameter per row and column (inbound/ingest-batch.ts).

// One parameter holding a whole array (the query builder would spread a JS array into a list).
export const arrayParam = (values: unknown[]) => sql.param(values);

// The rows a raw statement returns (`returning *`: snake_case names, driver values) as the query
// builder gives them for the table: camelCase keys, dates as Date, JSON parsed.
// A column's name in the database (the app's drizzle instance writes keys in snake_case).
export const columnNameOf = (key: string, column: Column) =>
  column.keyAsName ? toSnakeCase(key) : column.name;

export const rowMapper = <T extends Table>(table: T) => {
  const columns = Object.entries(getTableColumns(table)).map(([key, column]) => ({
    key,
    name: columnNameOf(key, column),
    column,
  }));
  return (raw: Record<string, unknown>): InferSelectModel<T> => {
    const row: Record<string, unknown> = {};
    for (const { key, name, column } of columns) {
      const value = raw[name];
      row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
    }
    return row as InferSelectModel<T>;
  };
};

// `insert … select … from unnest(…)` of rows of one table: one statement the same size for any number
// of rows, each value written as the query builder writes it (mapToDriverValue), a column left out
// taking the table's default. Every row gives the same columns (a column given in some rows only
// would need its default in the others, which one statement cannot say), and no array column (unnest
// would flatten it). Answers the inserted rows, in the order given, as the query builder gives them.
export const insertRows = async <T extends PgTable>(
  db: Db,
  table: T,
  rows: T['$inferInsert'][],
  options: { onConflictDoNothing?: boolean } = {},
): Promise<InferSelectModel<T>[]> => {
  if (!rows.length) return [];
  const all = getTableColumns(table) as Record<string, PgColumn>;
  const records = rows as Record<string, unknown>[];
  const givenOf = (row: Record<string, unknown>) =>
    Object.keys(row).filter((key) => row[key] !== undefined);
  const keys = givenOf(records[0]);
  if (records.some((row) => givenOf(row).join() !== keys.join()))
    throw new Error(`insertRows into ${getTableName(table)}: every row must give the same columns`);
  const columns = keys.map((key) => {
    const column = all[key];
    if (!column) throw new Error(`${getTableName(table)} has no column ${key}`);
    const type = column.getSQLType();
    if (type.endsWith(']')) throw new Error(`insertRows cannot unnest the array column ${key}`);
    const values = records.map((row) =>
      row[key] === null ? null : column.mapToDriverValue(row[key]),
    );
    return { name: columnNameOf(key, column), type: type === 'serial' ? 'integer' : type, values };
  });
  const list = (parts: SQLChunk[]) => sql.join(parts, sql`, `);
  const aliases = list(columns.map((_, i) => sql.raw(`c${i}`)));
  const raw = await queryRows<Record<string, unknown>>(
    db,
    sql`insert into ${table} (${list(columns.map((c) => sql.identifier(c.name)))})
        select ${aliases}
          from unnest(${list(columns.map((c) => sql`${arrayParam(c.values)}::${sql.raw(c.type)}[]`))})
               with ordinality as x(${aliases}, n)
         order by x.n${options.onConflictDoNothing ? sql` on conflict do nothing` : sql``}
        returning *`,
  );
  return raw.map(rowMapper(table));
};
