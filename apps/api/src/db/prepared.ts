import type { Db } from './client';

// A hot statement built once per database handle and prepared (named, `.prepare(name)` in build): no
// call pays for building its SQL, and PostgreSQL parses and plans it once per pooled connection. A
// transaction is a handle of its own and gets its own copy (a statement prepared on the pool would run
// outside the transaction); the same name with the same text is fine on one connection.
export const preparedPer = <T>(build: (db: Db) => T) => {
  const built = new WeakMap<Db, T>();
  return (db: Db) => {
    let statement = built.get(db);
    if (!statement) {
      statement = build(db);
      built.set(db, statement);
    }
    return statement;
  };
};
