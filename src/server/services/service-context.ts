import type { Database, Db, Tx } from '../db/client';

/**
 * What every service function receives: the database, and for writes a hook that runs inside the transaction
 * right before it commits. The hook exists so API tests can prove that a failure after the first statement
 * leaves nothing written; production never sets it.
 */
export interface ServiceContext {
  db: Db;
  kind: Database['kind'];
  beforeCommit?: ((operation: string) => void | Promise<void>) | undefined;
  /**
   * The request's own transaction, when the route runs in one (a write's answer is stored with it): a service's
   * write joins it instead of opening a savepoint, which is two round trips more while the write holds its locks.
   * An error still undoes everything: it leaves the request's transaction, which rolls back.
   */
  tx?: Tx | undefined;
}

/**
 * The caller a service acts for. Every query is scoped to `legalentitynodeid`: another tenant's record is not
 * found (404), never forbidden (which would reveal that it exists).
 */
export interface Actor {
  usernodeid: string;
  legalentitynodeid: string;
  /**
   * When the user made this write on their device (X-Made-At of a queued write, plugins/mutation-log.ts), and which
   * device it came from; the record history keeps the time beside the server's. Undefined for a write without it.
   */
  madeAt?: MadeOnDevice | undefined;
}

/** A queued write's time on the device, with the device (its X-Client-Id) that bounds it (record-history.ts). */
export interface MadeOnDevice {
  at: Date;
  clientid: string;
}

/**
 * One database transaction per write request (never a partial write). Everything the service
 * does in `work` commits together or not at all; an error thrown anywhere inside rolls all of it back.
 */
export function writeTransaction<T>(ctx: ServiceContext, operation: string, work: (tx: Tx) => Promise<T>): Promise<T> {
  const run = async (tx: Tx) => {
    const result = await work(tx);
    await ctx.beforeCommit?.(operation);
    return result;
  };
  return ctx.tx ? run(ctx.tx) : ctx.db.transaction(run);
}
