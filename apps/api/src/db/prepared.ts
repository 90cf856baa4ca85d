import type { Db } from './client';

// A hot statement built once per database connection and prepared (named, `.prepare(name)` in build):
// no call pays for building its SQL, and PostgreSQL parses and plans it once per connection.
// A statement is kept per driver client, not per handle: a transaction is a handle of its own (a
// statement prepared on the pool would run outside it), but on PostgreSQL it runs on one of the pool's
// few connections, and every later transaction on that connection reuses what was built for it (the
// connection is the transaction's alone while it is open). On PGlite a transaction's client is new
// each time, so there a transaction builds its own copy; the same name with the same text is fine on
// one connection.
type Handle = { session?: { client?: object } };

const clientOf = (db: Db): object => (db as unknown as Handle).session?.client ?? db;

export const preparedPer = <T>(build: (db: Db) => T) => {
  const built = new WeakMap<object, T>();
  return (db: Db) => {
    const key = clientOf(db);
    let statement = built.get(key);
    if (!statement) {
      statement = build(db);
      built.set(key, statement);
    }
    return statement;
  };
};
