import { getTableColumns, sql, type InferSelectModel, type Table } from 'drizzle-orm';
import { toSnakeCase } from 'drizzle-orm/casing';

// Set-based statements written in SQL (one array per column, `unnest`ed): their size does not grow
// with the number of rows, so building them costs the same for one row or a hundred, where the query
// builder's multi-row VALUES costs a parameter per row and column (inbound/ingest-batch.ts).

// One parameter holding a whole array (the query builder would spread a JS array into a list).
export const arrayParam = (values: unknown[]) => sql.param(values);

// The rows a raw statement returns (`returning *`: snake_case names, driver values) as the query
// builder gives them for the table: camelCase keys, dates as Date, JSON parsed.
export const rowMapper = <T extends Table>(table: T) => {
  const columns = Object.entries(getTableColumns(table)).map(([key, column]) => ({
    key,
    name: column.keyAsName ? toSnakeCase(key) : column.name,
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
