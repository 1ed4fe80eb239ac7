import type { Db } from '../db/client';

/**
 * A query built once per database (or transaction) and kept as a prepared statement: Drizzle builds its SQL text
 * once instead of on every request, and PostgreSQL parses and plans it once per connection (a named statement).
 * For the queries every request or every dashboard read runs, where that building was a large part of the
 * request's CPU (docs/decisions.md). Only the statement is kept: each call reads the rows as they are now.
 *
 * `build` must give the same SQL text for every database: its name is sent to PostgreSQL, and one name may only
 * ever stand for one text on a connection.
 */
export function preparedPerDatabase<Query>(build: (db: Db) => Query): (db: Db) => Query {
  const built = new WeakMap<Db, Query>();
  return (db) => {
    let query = built.get(db);
    if (query === undefined) built.set(db, (query = build(db)));
    return query;
  };
}
