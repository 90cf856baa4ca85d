import { serial, timestamp } from 'drizzle-orm/pg-core';

// Columns every table shares. Names are camelCase in TypeScript and snake_case in SQL (casing option).
export const id = () => serial().primaryKey();
export const createdAt = () =>
  timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow();
export const updatedAt = () =>
  timestamp({ withTimezone: true, mode: 'date' })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date());
export const timestamps = () => ({ createdAt: createdAt(), updatedAt: updatedAt() });
