import { and, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { tryJobLock } from '../db/job-lock';
import { syncClients, syncMutations } from '../db/schema';
import { SET_ASIDE_REFUSAL } from '../../shared/api/sync';

/**
 * The server half of exactly-once writes (docs/sync.md § Writes): devices registered by X-Client-Id, and the
 * stored outcome of every mutation id a device sent.
 */

/** `too-many`: the caller registered `newPerDay` devices in the last 24 hours already. */
export type ClientRegistration = 'ok' | 'other-user' | 'too-many';

/**
 * Binds a client id to the caller on first use. The same id presented by another user is refused, so one
 * user's outbox can never replay or skip another's mutations. Concurrent first uses agree: only one insert wins.
 *
 * A new id is bound only while the caller registered fewer than `newPerDay` in the last 24 hours (config
 * NEW_DEVICES_PER_DAY; concurrent first uses may pass it by as many as run at once). A device is a browser profile:
 * a technician gets a new one with a new tablet, a reinstalled app or cleared site data — a handful a year. Without
 * a limit every write with a random X-Client-Id stored a device row that is never removed (its mutation log is what
 * keeps a late resend exactly-once), so one account could fill the table (attacker's probe). A device known already
 * is never refused.
 */
export async function registerSyncClient(
  db: Db,
  caller: { usernodeid: string; legalentitynodeid: string },
  clientid: string,
  newPerDay = Number.MAX_SAFE_INTEGER,
): Promise<ClientRegistration> {
  // One statement for the usual cases (a known device, a new one): every write of a device runs it first. The count
  // reads the caller's devices on sync_clients_user_idx (a handful of rows); for a known device the insert finds the
  // conflict either way.
  const result = await db.execute<{ usernodeid: string }>(sql`
    with inserted as (
      insert into ${syncClients} (clientid, usernodeid, legalentitynodeid)
      select ${clientid}, ${caller.usernodeid}, ${caller.legalentitynodeid}
      where (select count(*) from ${syncClients} where usernodeid = ${caller.usernodeid} and created_at > now() - interval '1 day') < ${newPerDay}
      on conflict do nothing
      returning usernodeid
    )
    select usernodeid from inserted
    union all
    select usernodeid from ${syncClients} where clientid = ${clientid}`);
  let owner = (result as unknown as { rows: { usernodeid: string }[] }).rows[0]?.usernodeid;
  // why a second read: a concurrent first use that won the insert committed after this statement's snapshot was
  // taken, so the statement saw neither its own insert nor the winner's row.
  if (owner === undefined) {
    const [row] = await db.select({ usernodeid: syncClients.usernodeid }).from(syncClients).where(eq(syncClients.clientid, clientid));
    // Still none: nobody inserted it, so the limit held the insert back.
    if (!row) return 'too-many';
    owner = row.usernodeid;
  }
  return owner === caller.usernodeid ? 'ok' : 'other-user';
}

export interface MutationKey {
  clientid: string;
  mutationId: number;
  /** SHA-256 of method + path + canonical JSON body (plugins/mutation-log.ts). */
  requestHash: string;
  method: string;
  path: string;
}

/** What a mutation answered: the status and the JSON body, exactly as a replay must answer it again. */
export interface MutationOutcome {
  status: number;
  body: unknown;
  /** `body` as JSON text when the caller has it already (the serialized answer): stored as it is. */
  json?: string | undefined;
}

export type MutationResult =
  | { kind: 'applied'; outcome: MutationOutcome }
  | { kind: 'replayed'; outcome: MutationOutcome }
  | { kind: 'mismatch' }
  | { kind: 'gap'; expectedMutationId: number };

export interface ApplyMutationOptions {
  /**
   * Runs the write inside the transaction and returns what to store; throwing rolls back everything and stores
   * nothing (a business error is then stored by a second run whose `apply` returns it).
   */
  apply: (tx: Tx) => Promise<MutationOutcome>;
  /** Runs last inside the transaction (test fault injection: delays, failures before commit). */
  beforeCommit?: (() => Promise<void>) | undefined;
}

/**
 * One transaction: lock the client's row, then replay (mid <= last), refuse a gap (mid > last + 1) or apply, store
 * the outcome and bump the counter. The row lock serialises all mutations of one client, across server
 * instances too, so the same mid sent twice at once is applied by whichever gets the lock first and replayed by
 * the other.
 */
export async function runMutation(db: Db, key: MutationKey, options: ApplyMutationOptions): Promise<MutationResult> {
  return db.transaction(async (tx) => {
    const [client] = await tx
      .select({ last: syncClients.lastMutationId })
      .from(syncClients)
      .where(eq(syncClients.clientid, key.clientid))
      .for('update');
    // why an Error (500): the client is registered in onRequest of the same request; missing means it was deleted
    // in between (its user was deleted), which is not the caller's mistake to be stored.
    if (!client) throw new Error(`sync client ${key.clientid} vanished`);

    if (key.mutationId <= client.last) {
      const [stored] = await tx
        .select()
        .from(syncMutations)
        .where(and(eq(syncMutations.clientid, key.clientid), eq(syncMutations.mutationId, key.mutationId)));
      // A mid at or below `last` whose record is gone was purged or predates the log: nothing to compare with.
      // An id the device set aside answers its stored refusal to whatever is sent under it (a stale tab's resend).
      if (!stored || (stored.requestHash !== key.requestHash && stored.requestHash !== SET_ASIDE_HASH)) return { kind: 'mismatch' as const };
      return { kind: 'replayed' as const, outcome: { status: stored.status, body: stored.body } };
    }
    if (key.mutationId > client.last + 1) return { kind: 'gap' as const, expectedMutationId: client.last + 1 };

    const outcome = await options.apply(tx);
    // One statement for the outcome and the client's counter: the write may hold row locks and the tenant's
    // version until the commit, so every round trip less here is one less that other writers wait for.
    const body = outcome.json ?? (outcome.body === undefined || outcome.body === null ? null : JSON.stringify(outcome.body));
    await tx.execute(sql`
      with stored as (
        insert into ${syncMutations} (clientid, mutation_id, request_hash, method, path, status, body)
        values (${key.clientid}, ${key.mutationId}, ${key.requestHash}, ${key.method}, ${key.path}, ${outcome.status}, ${body}::jsonb)
      )
      update ${syncClients} set last_mutation_id = ${key.mutationId}, last_seen_at = now() where clientid = ${key.clientid}`);
    await options.beforeCommit?.();
    return { kind: 'applied' as const, outcome };
  });
}

/** The request hash stored for an id set aside: no request hashes to it (a SHA-256 is 64 hex digits). */
export const SET_ASIDE_HASH = 'set-aside';

export type SetAsideResult =
  | { kind: 'set-aside' }
  /** The id had another outcome already (its write went through, or was refused): `status` is that answer's. */
  | { kind: 'answered'; status: number | undefined }
  | { kind: 'gap'; expectedMutationId: number };

/**
 * The device gives up the id the server expects next (`POST /api/sync/set-aside`, docs/sync.md § Setting aside):
 * under the client's row lock, the same one every write of the device takes, so a write of that id running right
 * now either committed first (the id is answered) or failed (the refusal is stored). An id already answered is
 * left as it is; an id past the next one is a gap, as for a write.
 */
export async function setAsideMutation(db: Db, clientid: string, mutationId: number): Promise<SetAsideResult> {
  return db.transaction(async (tx) => {
    const [client] = await tx.select({ last: syncClients.lastMutationId }).from(syncClients).where(eq(syncClients.clientid, clientid)).for('update');
    if (!client) throw new Error(`sync client ${clientid} vanished`);
    if (mutationId <= client.last) {
      const [stored] = await tx
        .select({ status: syncMutations.status, requestHash: syncMutations.requestHash })
        .from(syncMutations)
        .where(and(eq(syncMutations.clientid, clientid), eq(syncMutations.mutationId, mutationId)));
      // Set aside already (the answer to the first request was lost, or another tab asked): the same answer again.
      if (stored?.requestHash === SET_ASIDE_HASH) return { kind: 'set-aside' as const };
      return { kind: 'answered' as const, status: stored?.status };
    }
    if (mutationId > client.last + 1) return { kind: 'gap' as const, expectedMutationId: client.last + 1 };
    await tx.execute(sql`
      with stored as (
        insert into ${syncMutations} (clientid, mutation_id, request_hash, method, path, status, body)
        values (${clientid}, ${mutationId}, ${SET_ASIDE_HASH}, 'POST', '/api/sync/set-aside', ${SET_ASIDE_REFUSAL.statusCode}, ${JSON.stringify(SET_ASIDE_REFUSAL)}::jsonb)
      )
      update ${syncClients} set last_mutation_id = ${mutationId}, last_seen_at = now() where clientid = ${clientid}`);
    return { kind: 'set-aside' as const };
  });
}

export interface PruneOptions {
  /** Outcomes kept per client however old: the newest ids below its last applied one. */
  keepLast: number;
  /** Only outcomes stored before this are removed. */
  olderThan: Date;
}

/**
 * Deletes stored outcomes no client can need again (docs/sync.md § Pruning the mutation log). A sender sends id n
 * only after every lower id has left its outbox (acknowledged or dead-lettered), so once the server applied n, an
 * id far below it comes again only from a stale duplicate: a second tab frozen with an old request. Kept are the
 * last `keepLast` ids below each client's last applied id and everything younger than `olderThan`, which covers
 * such a tab by a wide margin. The last applied id itself is never removed (it is what a lost answer replays).
 *
 * Several instances: each run takes a transaction-level advisory lock first and skips (returns 0) when another
 * instance holds it. Two DELETEs of the same rows at once were idempotent already, but each waited for the
 * other's row locks and could, with plans that visit the rows in different orders, deadlock; now only one prunes.
 */
export async function pruneMutationLog(db: Db, options: PruneOptions): Promise<number> {
  return db.transaction(async (tx) => {
    if (!(await tryJobLock(tx, MUTATION_LOG_PRUNE_LOCK))) return 0;
    const removed = await tx
      .delete(syncMutations)
      .where(
        and(
          sql`${syncMutations.createdAt} < ${options.olderThan.toISOString()}`,
          sql`${syncMutations.mutationId} <= (select ${syncClients.lastMutationId} from ${syncClients} where ${syncClients.clientid} = ${syncMutations.clientid}) - ${Math.max(1, options.keepLast)}`,
        ),
      )
      .returning({ clientid: syncMutations.clientid });
    return removed.length;
  });
}

/** Advisory lock key of the mutation log prune: a fixed bigint unique to this job ("anl:prun" in ASCII). */
export const MUTATION_LOG_PRUNE_LOCK = 0x616e6c3a7072756en;
