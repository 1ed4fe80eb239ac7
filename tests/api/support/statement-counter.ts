import type pg from 'pg';
import type { Database } from '../../../src/server/db/client';

/**
 * Records every SQL statement the app sends to its database, at the driver: PGlite's `query`/`exec`/`transaction`
 * or each pooled pg client's `query`. A transaction on PGlite counts as one entry ('transaction'), its
 * statements after it (read through the transaction's own handle). Start with `start()`, read with `stop()`.
 */
export interface StatementCounter {
  start(): void;
  stop(): string[];
}

export function countStatements(database: Database): StatementCounter {
  let recording: string[] | undefined;
  const record = (text: unknown) => recording?.push(typeof text === 'string' ? text : String((text as { text?: string }).text ?? text));
  const client = (database.db as unknown as { $client: unknown }).$client;

  if (database.kind === 'pglite') {
    type Callable = Record<string, (...args: unknown[]) => unknown>;
    // why a wrapper on the instance (and on each transaction's handle): the count must see exactly what reaches
    // the driver, whatever Drizzle builds.
    const wrapQueries = (target: Callable) => {
      for (const method of ['query', 'exec'] as const) {
        const original = target[method]!.bind(target);
        target[method] = (...args: unknown[]) => {
          record(args[0]);
          return original(...args);
        };
      }
    };
    const lite = client as unknown as Callable;
    wrapQueries(lite);
    const transaction = lite.transaction!.bind(lite);
    lite.transaction = (callback: unknown) => {
      record('transaction');
      return transaction((tx: Callable) => {
        wrapQueries(tx);
        return (callback as (tx: Callable) => unknown)(tx);
      });
    };
  } else {
    const pool = client as pg.Pool;
    const wrapped = new WeakSet<object>();
    // why on 'acquire': pool.query and transactions both check a client out, so wrapping each checked-out client
    // once sees every statement, including those of clients connected before the counter was made.
    pool.on('acquire', (pooled) => {
      if (wrapped.has(pooled)) return;
      wrapped.add(pooled);
      const original = pooled.query.bind(pooled) as (...args: unknown[]) => unknown;
      (pooled as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
        record(args[0]);
        return original(...args);
      };
    });
  }
  return {
    start() {
      recording = [];
    },
    stop() {
      const statements = recording ?? [];
      recording = undefined;
      return statements;
    },
  };
}
