/**
 * Sends the outbox to the server, oldest mutation first (docs/sync.md § Client side). One `drain()` sends
 * entries until the queue is empty or something blocks it, and reports why it stopped. Consecutive entries go in
 * one `POST /api/sync/batch` (`nextBatch`); the server runs them in order as if each had come alone and answers
 * each, stopping at the first answer below that stops the queue. Each entry's answer is handled alike:
 *
 * - 2xx, also a replay (`Idempotent-Replayed: true`): the entry is removed; an answer that is the written row
 *   replaces the mirror row unless the mirror holds a later version (`acknowledge`).
 * - no answer, 408, 429, 5xx: stop; retry after an exponential backoff with jitter, forever (attempts are shown).
 * - 401: the API client already refreshed once and resent; if the session then has ended (refresh token dead)
 *   the queue stays as it is and waits for the next login. Not counted as a failed attempt.
 * - 409 {expectedMutationId}: the server wants an earlier id: resend from there (see `recoverGap`).
 * - any other 4xx: the server stored the refusal and moved on; the entry becomes a dead letter with its payload
 *   and the server's error, and the next entry is sent.
 *
 * Headers (bearer, X-Client-Id) and the batch's mutation ids are built here at send time, never stored with the entry.
 * Correctness does not depend on there being only one sender (the server deduplicates by mutation id); the
 * engine (sync-engine.ts) still runs it in one tab at a time to avoid needless double sends.
 */
import {
  SYNC_BATCH_MAX,
  SYNC_BATCH_MAX_BYTES,
  SYNC_BATCH_PATH,
  SYNC_HEADERS,
  SYNC_SET_ASIDE_PATH,
  mutationGapSchema,
  syncBatchResponseSchema,
  syncSetAsideResponseSchema,
} from '../../shared/api/sync';
import type { DeadLetter, LocalDatabase, OutboxEntry, SubjectNames } from '../db/local-db';
import { sendStoredBytes, type FilePut } from './file-put';
import { isApiError, type ApiClient } from '../lib/api-client';
import { CREATE_REFUSED, PENDING_DELETE } from './mirror-fields';
import { isRowOf, rowFieldsOf } from '../../shared/rows/registry';
import { filesStillNeeded, getClientId, pendingEntries, readState, requestPullFrom, stateKeys, writeState } from './outbox';
import { isServerFault, mayBeSetAside, serverErrorStatusOf } from './stuck-entry';

/**
 * How many files go up ahead of their registration's turn at the same time (see `uploadAhead`). Four: a batch of
 * 100 reports carries about five photos, and with three at a time their uploads (registration and PUT, two round
 * trips each) often took longer than the batch before them, which then waited (W3 trace). Leaves Chromium's six
 * connections per host room for the batch and a pull.
 */
export const UPLOADS_AHEAD = 4;

/**
 * How far the sender looks into the queue: the next batch and the two after it (files to upload ahead). The files
 * of the batch after next go up as soon as the next batch's are done, not only once that batch is on its way.
 */
const LOOKAHEAD = 3 * SYNC_BATCH_MAX;

export interface BackoffOptions {
  baseMs: number;
  maxMs: number;
}

/**
 * The first retry comes after 125–250 ms: most faults on a flaky network are one lost request, and a replay of
 * many writes paid 0.5–1 s for each. Still doubling to 5 minutes for a server that stays down.
 */
export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 250, maxMs: 5 * 60_000 };

/**
 * Delay before retry number `attempt` (1 = after the first failure): the ceiling doubles per attempt up to
 * `maxMs`; the delay is drawn from [ceiling/2, ceiling] ("equal jitter"), so many tablets coming back online at
 * once do not hit the server in lockstep, yet the wait still grows.
 */
export function backoffDelay(attempt: number, random: () => number = Math.random, options: BackoffOptions = DEFAULT_BACKOFF): number {
  const ceiling = Math.min(options.maxMs, options.baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

export type DrainOutcome =
  /** Queue empty (for this user). */
  | { type: 'idle' }
  /** A transient failure: try again after `retryInMs`. */
  | { type: 'backoff'; retryInMs: number; error: string }
  /** The refresh token is dead: the queue waits for the next login. */
  | { type: 'session-expired' }
  /** Nobody is logged in. */
  | { type: 'no-session' };

/**
 * What `setAside` did: `set-aside` — the entry is among the refused changes now and the queue goes on behind it;
 * `answered` — the server had an answer for it meanwhile, so the next run gets it; `not-stuck` — it is not (or no
 * longer) the head of the queue failing on server errors, nothing done.
 */
export type SetAsideOutcome = 'set-aside' | 'answered' | 'not-stuck';

export interface DrainResult {
  outcome: DrainOutcome;
  acknowledged: number;
  deadLettered: number;
}

export interface SenderDeps {
  db: LocalDatabase;
  api: Pick<ApiClient, 'send'>;
  /** The logged-in user, or null. Only that user's entries are sent. */
  getUser(): string | null;
  /** PUT of file bytes to the signed URL (no bearer: the URL is the permission). */
  fetch?: typeof fetch;
  /**
   * Where a stored file's bytes are PUT (the app: a worker, file-put.ts), given the PUT on this thread (with
   * `fetch`) as the fallback. Default: on this thread.
   */
  putFileVia?: (onThisThread: FilePut) => FilePut;
  /** Base for signed URLs the server returns as paths (browser: location.origin). */
  origin?: string;
  random?: () => number;
  now?: () => number;
  backoff?: BackoffOptions;
  /** How many acknowledged entries to keep for a server restored from a backup. */
  ackedLogSize?: number;
  timeoutMs?: number;
}

type SendResult =
  | { type: 'ack'; body: unknown }
  | { type: 'dead'; status: number; error: unknown }
  | { type: 'gap'; expected: number }
  | { type: 'retry'; error: string }
  | { type: 'session-expired' };

const RETRYABLE = new Set([408, 425, 429]);

/** What a file reference needs of its registered file (the attachment's body). */
type Registered = Pick<Record<string, unknown>, 'fileid' | 'fileversion' | 'bucketid'>;

/** The registration of `nodeid` in POST /files' answer (a list, one per registered file). */
function registrationOf(answer: unknown, nodeid: string): Record<string, unknown> | undefined {
  const list = Array.isArray(answer) ? answer : [answer];
  return (list.find((r) => (r as { nodeid?: unknown } | null)?.nodeid === nodeid) ?? list[0]) as Record<string, unknown> | undefined;
}

/** The version of an answer that names this record and nothing more than its version (a delete's answer). */
function versionOnlyAnswer(body: unknown, nodeid: string): number | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const record = body as Record<string, unknown>;
  const keys = Object.keys(record);
  return record.nodeid === nodeid && typeof record.version === 'number' && keys.every((key) => key === 'nodeid' || key === 'version') ? record.version : undefined;
}

export function createSender(deps: SenderDeps) {
  const { db } = deps;
  const random = deps.random ?? Math.random;
  const now = deps.now ?? Date.now;
  const ackedLogSize = deps.ackedLogSize ?? 500;
  const doFetch = deps.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
  /** Files whose bytes this sender put on the server ahead of their registration's turn (file key → registered). */
  const uploadedAhead = new Map<string, Registered>();
  /** Uploads ahead started, by file key; a failed one is forgotten when the next run starts (`aheadFailed`). */
  const aheadRuns = new Map<string, Promise<void>>();
  const aheadFailed = new Set<string>();
  let aheadRunning = 0;
  const aheadWaiting: (() => void)[] = [];

  async function readBody(response: Response): Promise<unknown> {
    const text = await response.text().catch(() => '');
    if (!text) return undefined;
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }

  /** The attachment's file reference gets the registered file's id, version and bucket (known after POST /files). */
  async function bodyFor(entry: OutboxEntry): Promise<unknown> {
    // A file reference made on the device names the registration's key; the server's fileid, version and bucket
    // are known only once that registration was acknowledged (attachments' `file`, equipment's `image`, …).
    if (entry.upload || entry.dependsOn.length === 0 || typeof entry.body !== 'object' || entry.body === null) return entry.body;
    const body: Record<string, unknown> = { ...(entry.body as Record<string, unknown>) };
    for (const [field, value] of Object.entries(body)) {
      const ref = value as { fileid?: unknown } | null;
      if (typeof ref !== 'object' || ref === null || typeof ref.fileid !== 'string' || !entry.dependsOn.includes(ref.fileid)) continue;
      const registered = uploadedAhead.get(ref.fileid) ?? (await db.fileBytes.get(ref.fileid))?.registered;
      if (registered) body[field] = { ...ref, fileid: registered.fileid, fileversion: registered.fileversion, bucketid: registered.bucketid };
    }
    return body;
  }

  /** What an entry's answer means for the queue: the same for an answer alone and for one inside a batch answer. */
  function classify(status: number, body: unknown, userBefore: string): SendResult {
    if (status >= 200 && status < 300) return { type: 'ack', body };
    if (status === 401) {
      // The API client refreshed and resent once. A dead refresh token ended the session: keep the queue.
      if (deps.getUser() !== userBefore) return { type: 'session-expired' };
      return { type: 'retry', error: 'HTTP 401' };
    }
    if (status === 409) {
      const gap = mutationGapSchema.safeParse(body);
      if (gap.success) return { type: 'gap', expected: gap.data.expectedMutationId };
    }
    if (status >= 500 || RETRYABLE.has(status)) return { type: 'retry', error: `HTTP ${status}` };
    return { type: 'dead', status, error: body ?? { statusCode: status } };
  }

  /** The PUT on this thread: the bytes read here and handed to `fetch`. */
  const putHere: FilePut = async (url, key, timeoutMs) => {
    const stored = await db.fileBytes.get(key);
    return stored ? sendStoredBytes(doFetch, url, stored, timeoutMs) : null;
  };
  const putFile = deps.putFileVia?.(putHere) ?? putHere;

  /** PUT of the stored bytes of file `key` to a signed URL; the server's answer decides (null: the device no longer has them). */
  function putBytes(url: string, key: string): Promise<Response | string | null> {
    return putFile(new URL(url, deps.origin ?? 'http://localhost'), key, deps.timeoutMs ?? 120_000);
  }

  /**
   * After POST /files was acknowledged: PUT the stored bytes to the signed URL it returned. A replayed answer
   * carries the first URL, which may have expired (403): the registration is then sent again as a plain REST call
   * (no mutation headers; it is idempotent by the registration's nodeid) for a fresh URL.
   */
  async function uploadBytes(entry: OutboxEntry, registration: unknown): Promise<SendResult> {
    const key = entry.upload!.fileid;
    let item = registrationOf(registration, entry.nodeid);
    if (typeof item?.url !== 'string' || typeof item.fileid !== 'string') return { type: 'dead', status: 0, error: { message: 'registration answer without url', body: registration } };
    const registered = { fileid: item.fileid, fileversion: item.fileversion, bucketid: item.bucketid };
    // Complete already (its bytes went up ahead, or an earlier send's did): the bytes are not even read.
    if (item.status !== 'complete') {
      let response = await putBytes(item.url, key);
      if (response === null) return { type: 'dead', status: 0, error: { message: 'file bytes missing on this device' } };
      if (typeof response !== 'string' && response.status === 403) {
        const fresh = await deps.api.send('POST', entry.path, { json: entry.body, timeout: deps.timeoutMs ?? 30_000 }).catch(() => null);
        if (!fresh?.ok) return { type: 'retry', error: `upload HTTP 403, re-sign ${fresh ? `HTTP ${fresh.status}` : 'network'}` };
        item = registrationOf(await readBody(fresh), entry.nodeid);
        if (typeof item?.url !== 'string') return { type: 'retry', error: 'upload re-sign without url' };
        response = item.status === 'complete' ? new Response(null, { status: 204 }) : await putBytes(item.url, key);
      }
      if (response === null) return { type: 'dead', status: 0, error: { message: 'file bytes missing on this device' } };
      if (typeof response === 'string') return { type: 'retry', error: 'network' };
      if (!response.ok) {
        const body = await readBody(response);
        if (response.status >= 500 || RETRYABLE.has(response.status) || response.status === 403) return { type: 'retry', error: `upload HTTP ${response.status}` };
        return { type: 'dead', status: response.status, error: body ?? { statusCode: response.status } };
      }
    }
    await db.fileBytes.update(key, { registered });
    return { type: 'ack', body: registration };
  }

  /** Runs `work` once fewer than UPLOADS_AHEAD uploads ahead are running. */
  async function inUploadSlot(work: () => Promise<void>): Promise<void> {
    while (aheadRunning >= UPLOADS_AHEAD) await new Promise<void>((resolve) => aheadWaiting.push(resolve));
    aheadRunning += 1;
    try {
      await work();
    } finally {
      aheadRunning -= 1;
      aheadWaiting.shift()?.();
    }
  }

  /**
   * A file's bytes up ahead of its registration's turn in the queue (docs/sync.md § Files offline): the
   * registration sent as a plain REST call (no mutation id; idempotent by its nodeid, as the re-sign of an expired
   * URL), then the PUT. When the queue reaches the logged registration, the server answers the same file, already
   * complete, so nothing is uploaded then and the entries that name the file ride in the same batch. Nothing here
   * is a write of the queue: the mutation ids, their order and their answers are untouched. Any failure just
   * leaves the file to the usual path (registration, then its upload, then what follows).
   */
  function uploadAhead(entry: OutboxEntry): Promise<void> {
    const key = entry.upload!.fileid;
    const started = aheadRuns.get(key);
    if (started) return started;
    const run = inUploadSlot(async () => {
      const answer = await deps.api.send('POST', entry.path, { json: entry.body, timeout: deps.timeoutMs ?? 30_000 }).catch(() => null);
      if (!answer?.ok) return;
      const item = registrationOf(await readBody(answer), entry.nodeid);
      if (typeof item?.url !== 'string' || typeof item.fileid !== 'string') return;
      if (item.status !== 'complete') {
        // One more try at once: on a flaky network a PUT is mostly lost alone, and a file that falls back to the
        // usual way ends its batch again.
        let response = await putBytes(item.url, key);
        if (typeof response === 'string' || (response !== null && response.status >= 500)) response = await putBytes(item.url, key);
        if (response === null || typeof response === 'string' || !response.ok) return;
      }
      uploadedAhead.set(key, { fileid: item.fileid, fileversion: item.fileversion, bucketid: item.bucketid });
    })
      .catch(() => undefined)
      .then(() => {
        if (!uploadedAhead.has(key)) aheadFailed.add(key);
      });
    aheadRuns.set(key, run);
    return run;
  }

  /**
   * Sends `batch` (consecutive entries, see `nextBatch`) as one `POST /api/sync/batch` and returns one result per
   * entry the server ran, in order — fewer than sent when it stopped at a retry or a gap, or had spent its budget for
   * one batch (then `drain` goes on from the queue's head, which the rest is now). A failure of the request
   * as a whole (network, 5xx, 401, …) is the first entry's result, as if it had been sent alone; a batch refused
   * as a whole (4xx) or failed as a whole with a server error that is no outage (500, not 502–504) is sent again as
   * the first entry alone, so only that entry's own refusal ever dead-letters it, and only its own server errors
   * count towards offering to set it aside — a batch failing on a later entry made the head look stuck.
   */
  async function sendBatch(batch: OutboxEntry[], user: string): Promise<SendResult[]> {
    const [head] = batch;
    let response: Response;
    try {
      const mutations = await Promise.all(
        batch.map(async (entry) => ({ mutationId: entry.mutationId, method: entry.method, path: `/api/${entry.path.replace(/^\/+/, '')}`, body: await bodyFor(entry), madeAt: entry.createdAt })),
      );
      response = await deps.api.send('POST', SYNC_BATCH_PATH, {
        // sentAt: the device's clock now, so the server reads the entries' madeAt on its own clock.
        json: { mutations, sentAt: now() },
        headers: { [SYNC_HEADERS.clientId]: head!.clientId },
        timeout: deps.timeoutMs ?? 30_000,
      });
    } catch (error) {
      if (deps.getUser() !== user) return [{ type: 'session-expired' }];
      // 'network' is shown as "keine Verbindung"; anything else (a bug) with its message.
      return [{ type: 'retry', error: isApiError(error) && error.isNetworkError ? 'network' : error instanceof Error ? error.message : 'network' }];
    }
    const body = await readBody(response);
    if (!response.ok) {
      const alone = classify(response.status, body, user);
      return batch.length > 1 && (alone.type === 'dead' || isServerFault(response.status)) ? sendBatch([head!], user) : [alone];
    }
    const answer = syncBatchResponseSchema.safeParse(body);
    if (!answer.success || answer.data.results.length === 0) return [{ type: 'retry', error: 'invalid batch answer' }];
    const results: SendResult[] = [];
    for (const [index, result] of answer.data.results.entries()) {
      const entry = batch[index];
      if (entry?.mutationId !== result.mutationId) break;
      const classified = classify(result.status, result.body, user);
      results.push(classified.type === 'ack' && entry.upload ? await uploadBytes(entry, classified.body) : classified);
    }
    return results.length > 0 ? results : [{ type: 'retry', error: 'invalid batch answer' }];
  }

  /**
   * The head of the queue and the entries after it that can go in the same request: up to SYNC_BATCH_MAX entries
   * and SYNC_BATCH_MAX_BYTES of bodies. A registration whose bytes must still be uploaded ends the batch (the
   * upload runs after its answer, before any later entry, which may name the registered file); one whose bytes
   * went up ahead (`uploaded`) does not.
   */
  function nextBatch(pending: OutboxEntry[], uploaded: (key: string) => boolean = (key) => uploadedAhead.has(key)): OutboxEntry[] {
    const batch: OutboxEntry[] = [];
    let bytes = 0;
    for (const entry of pending) {
      bytes += JSON.stringify(entry.body ?? null).length;
      if (batch.length > 0 && (batch.length >= SYNC_BATCH_MAX || bytes > SYNC_BATCH_MAX_BYTES)) break;
      batch.push(entry);
      if (entry.upload && !uploaded(entry.upload.fileid)) break;
    }
    return batch;
  }

  /** What the acknowledgements of one batch read once: the pull's cursor and scope, and what they leave to its end. */
  interface AckRound {
    cursor: number;
    hidden: string[];
    /** The last acknowledged mutation id per client. */
    lastAck: Map<string, number>;
    /** File keys of acknowledged records that used them: their bytes go unless a pending entry still needs them. */
    freed: Set<string>;
  }

  /**
   * The answers of one batch up to the first that stops the queue — acknowledgements and dead letters, in order —
   * in ONE transaction: each entry exactly as if it were settled alone (`acknowledgeIn`, `deadLetter`), but the
   * cursor and scope are read once, and the acked log's trim, the last acknowledged id and the freeing of bytes
   * happen once at the end. A failure leaves all of them queued (the server answers them again from its log).
   */
  async function settleAnswers(settled: { entry: OutboxEntry; result: Extract<SendResult, { type: 'ack' | 'dead' }> }[], counts: { acknowledged: number; deadLettered: number }): Promise<void> {
    const refused = settled.filter(({ result }) => result.type === 'dead').map(({ entry }) => entry);
    // Rare, so the declarations that say what an entry is about load only when the server refuses one.
    const subjectNames = refused.length > 0 ? await (await import('./entry-subject')).subjectNamesOf(db, refused) : new Map<number, SubjectNames>();
    const mirrors = [...new Set(settled.map(({ entry }) => entry.kind))].map((kind) => db.mirror(kind));
    await db.transaction('rw', [db.outbox, db.acked, db.deadLetters, db.syncState, db.fileBytes, ...mirrors], async () => {
      const round: AckRound = {
        cursor: (await readState<number>(db, stateKeys.cursor)) ?? 0,
        hidden: (await readState<string>(db, stateKeys.pullScope))?.split(',') ?? [],
        lastAck: new Map(),
        freed: new Set(),
      };
      for (const { entry, result } of settled) {
        if (result.type === 'ack') await acknowledgeIn(entry, result.body, round);
        else await deadLetter(entry, result.status, result.error, subjectNames.get(entry.seq!));
      }
      for (const [clientId, mutationId] of round.lastAck) {
        await writeState(db, stateKeys.lastMutationAck(clientId), mutationId);
        const log = db.acked.where('[clientId+mutationId]').between([clientId, 0], [clientId, Infinity]);
        const size = await log.count();
        if (size > ackedLogSize) await db.acked.bulkDelete(await log.limit(size - ackedLogSize).primaryKeys());
      }
      // Bytes are kept until the record that uses them (an attachment, a machine's photo) is acknowledged.
      if (round.freed.size > 0) {
        const stillNeeded = await filesStillNeeded(db, [...round.freed]);
        await db.fileBytes.bulkDelete([...round.freed].filter((key) => !stillNeeded.has(key)));
      }
    });
    for (const { entry, result } of settled) {
      if (result.type === 'ack') counts.acknowledged += 1;
      else counts.deadLettered += 1;
      if (entry.upload) uploadedAhead.delete(entry.upload.fileid);
    }
  }

  /** Removes an acknowledged entry, keeps it in the acked log, applies the server's answer (in `settleAnswers`' transaction). */
  async function acknowledgeIn(entry: OutboxEntry, body: unknown, round: AckRound): Promise<void> {
    const table = db.mirror(entry.kind);
    const { seq: _seq, ...rest } = entry;
    // One round of requests: nothing here depends on another's result (the other entries of the row are told
    // apart from this one by their seq, whichever order the requests run in).
    const [, , existing, rowEntries] = await Promise.all([
      db.outbox.delete(entry.seq!),
      db.acked.put({ ...rest, ackedAt: now() }),
      table.get(entry.nodeid),
      db.outbox.where('[kind+nodeid]').equals([entry.kind, entry.nodeid]).toArray(),
    ]);
    const others = rowEntries.filter((other) => other.seq !== entry.seq);
    round.lastAck.set(entry.clientId, Math.max(round.lastAck.get(entry.clientId) ?? 0, entry.mutationId));
    // Reconciled by version: an answer that is the written row (src/shared/rows) is the server's row as this
    // write left it. It replaces the mirror row — except fields of other pending writes, which stay on top until
    // they are answered — unless the mirror already holds a later version (a replayed answer is the row as it
    // was at the first commit, and a pull may have brought a newer one since).
    const row = isRowOf(entry.kind, body) && body.nodeid === entry.nodeid && typeof body.version === 'number' ? body : undefined;
    const newer = row !== undefined && !(typeof existing?.version === 'number' && existing.version > (row.version as number));
    let after = existing;
    if (row && newer && existing) {
      const pending = Object.fromEntries(others.flatMap((other) => other.fields).filter((field) => field in existing).map((field) => [field, existing[field]]));
      // Mirror-only fields (no field of the row shape: a saved shift plan riding on its model, its owner) stay
      // until the pull brings the rows they stand in for; the pull's row then replaces them.
      const shape = new Set(rowFieldsOf(entry.kind));
      const mirrorOnly = Object.fromEntries(Object.entries(existing).filter(([field]) => !shape.has(field)));
      after = { ...mirrorOnly, ...row, ...pending, nodeid: entry.nodeid };
      await table.put(after);
    }
    // Only the version this write took (a delete's `{nodeid, version}`): the pull brings the row or its
    // tombstone at that version — still ahead of the cursor, or, for a delete, already applied (a tombstone
    // removes the row whatever is pending). Either way nothing to fetch again.
    const answered = versionOnlyAnswer(body, entry.nodeid);
    const settled = newer || (answered !== undefined && (entry.values[PENDING_DELETE] === true || answered > round.cursor));
    // Anything else (a list, another kind's record, a stale replay): a row a pull delivered may still show this
    // entry's values over the server's, so the next pull fetches its version again. A row no pull has delivered
    // yet needs nothing: the write's own version is still ahead of the cursor.
    if (!settled && typeof existing?.version === 'number') await requestPullFrom(db, existing.version - 1);
    // A kind the user may write but not read (the pull's scope leaves it out): once the server has it, the row
    // leaves the mirror, which shows what the user may read.
    if (round.hidden.includes(entry.kind) && others.length === 0 && after) {
      await table.delete(entry.nodeid);
      after = undefined;
    }
    // The record's create was refused: the server has no such record (a retried create puts it back first).
    if (entry.creates && after?.[CREATE_REFUSED] === true) await table.update(entry.nodeid, { [CREATE_REFUSED]: undefined });
    else if (others.length === 0 && after?.[CREATE_REFUSED] === true) await table.delete(entry.nodeid);
    if (!entry.upload) entry.dependsOn.forEach((key) => round.freed.add(key));
  }

  /** The server refused the write for good: keep it, with payload and error, where the user sees it. */
  async function deadLetter(entry: OutboxEntry, status: number, error: unknown, subjectNames: SubjectNames | undefined): Promise<void> {
    await db.transaction('rw', [db.outbox, db.deadLetters, db.syncState, db.mirror(entry.kind)], async () => {
      // Settled already (another tab's sender, or set aside meanwhile), or renumbered since (a server restored from
      // a backup, `recoverGap`): the refusal was of an id the entry no longer has. One letter per entry and id.
      const current = await db.outbox.get(entry.seq!);
      if (current?.mutationId !== entry.mutationId) return;
      await db.outbox.delete(entry.seq!);
      const { seq: _seq, ...rest } = entry;
      const letter: DeadLetter = { ...rest, failedAt: now(), status, error, ...(subjectNames && { subjectNames }) };
      await db.deadLetters.add(letter);
      // Take the refused change back out of the mirror (fields no other pending write changed), so the screens
      // show the server's truth again; the dead letter keeps the content.
      const table = db.mirror(entry.kind);
      const others = await db.outbox.where('[kind+nodeid]').equals([entry.kind, entry.nodeid]).toArray();
      if (entry.creates) {
        if (others.length === 0) await table.delete(entry.nodeid);
        else await table.update(entry.nodeid, { [CREATE_REFUSED]: true });
        return;
      }
      const keep = new Set(others.flatMap((other) => other.fields));
      const row = await table.get(entry.nodeid);
      if (!row) return;
      if (others.length === 0 && row[CREATE_REFUSED] === true) {
        await table.delete(entry.nodeid);
        return;
      }
      const restored: Record<string, unknown> = { ...row };
      for (const field of entry.fields) if (!keep.has(field) && !entry.creates) restored[field] = entry.previous[field];
      await table.put({ ...restored, nodeid: entry.nodeid });
      // `previous` is what the device showed before the write; a pull may have brought a later server version
      // under the pending value since. The next pull fetches the row again so the mirror shows the server's truth.
      if (!entry.creates && typeof row.version === 'number') await requestPullFrom(db, row.version - 1);
    });
  }

  async function markFailure(entry: OutboxEntry, error: string): Promise<number> {
    const attempts = entry.attempts + 1;
    await db.outbox.update(entry.seq!, { attempts, lastError: error });
    return attempts;
  }

  /**
   * 409: the server expects `expected`, lower than our oldest pending id. Either a request got lost in between
   * (the entry with that id is still pending: the loop simply resends from it), or the server was restored from
   * a backup and lost writes it had acknowledged (scenario 15). Then the acknowledged entries still in the acked
   * log are put back in front of the queue and everything is renumbered from `expected`, so no write is silently
   * ignored; writes that had already left the log are counted and shown (`serverLostWrites`).
   */
  async function recoverGap(clientId: string, head: OutboxEntry, expected: number): Promise<'resend' | 'stuck'> {
    if (expected >= head.mutationId) return 'stuck';
    return db.transaction('rw', [db.outbox, db.acked, db.deadLetters, db.syncState], async () => {
      // Another tab may have recovered (renumbered) meanwhile: then just send what is there now.
      const [current] = await pendingEntries(db, clientId);
      if (!current || current.seq !== head.seq || current.mutationId !== head.mutationId) return 'resend' as const;
      const recovered = await db.acked.where('[clientId+mutationId]').between([clientId, expected], [clientId, head.mutationId - 1], true, true).toArray();
      const deadInRange = await db.deadLetters
        .where('clientId')
        .equals(clientId)
        .filter((letter) => letter.mutationId >= expected && letter.mutationId < head.mutationId)
        .count();
      const pending = await pendingEntries(db, clientId);
      await db.acked.bulkDelete(recovered.map((entry) => [entry.clientId, entry.mutationId] as [string, number]));
      let mutationId = expected;
      for (const { ackedAt: _ackedAt, ...entry } of recovered) {
        await db.outbox.add({ ...entry, mutationId, attempts: 0, lastError: null });
        mutationId += 1;
      }
      for (const entry of pending) {
        await db.outbox.update(entry.seq!, { mutationId });
        mutationId += 1;
      }
      await writeState(db, stateKeys.mutationCounter(clientId), mutationId - 1);
      const lost = head.mutationId - expected - recovered.length - deadInRange;
      if (lost > 0) await writeState(db, stateKeys.serverLostWrites, ((await readState<number>(db, stateKeys.serverLostWrites)) ?? 0) + lost);
      // The restored server's change versions went back too: the next pull starts over from 0.
      await writeState(db, stateKeys.fullResyncNeeded, true);
      return 'resend' as const;
    });
  }

  type Settled = 'next' | DrainOutcome;

  /** Applies one entry's result to the device: the entry goes (acked, dead letter), or the run stops with why. */
  async function settle(clientId: string, entry: OutboxEntry, result: SendResult, counts: { acknowledged: number; deadLettered: number; gaps: number }): Promise<Settled> {
    switch (result.type) {
      case 'ack':
      case 'dead':
        await settleAnswers([{ entry, result }], counts);
        return 'next';
      case 'gap': {
        counts.gaps += 1;
        const recovered = counts.gaps <= 3 ? await recoverGap(clientId, entry, result.expected) : 'stuck';
        if (recovered === 'resend') return 'next';
        const attempts = await markFailure(entry, `HTTP 409 (expected ${result.expected})`);
        return { type: 'backoff', retryInMs: backoffDelay(attempts, random, deps.backoff), error: 'HTTP 409' };
      }
      case 'retry': {
        // A 401 that survived the refresh is not the entry's fault: wait, but do not count it.
        const attempts = result.error === 'HTTP 401' ? Math.max(1, entry.attempts) : await markFailure(entry, result.error);
        return { type: 'backoff', retryInMs: backoffDelay(attempts, random, deps.backoff), error: result.error };
      }
      case 'session-expired':
        return { type: 'session-expired' };
    }
  }

  /**
   * The user sets aside the head of the queue the server keeps failing on (a 5xx that is no outage, `mayBeSetAside`;
   * docs/sync.md § Setting aside). The server gives up the entry's mutation id first (`POST /api/sync/set-aside`,
   * under the device's lock there); only then does the entry become a refused change on the device, with its
   * content, to be sent again or discarded — so the ids the server expects and the queue never part. A file whose
   * registration the server has answered but whose bytes keep failing to go up needs nothing of the server: its id
   * is used, and the entries behind it go on either way. Must not run beside `drain` (the engine holds its lock).
   * Throws when the server cannot be asked (offline, an error): nothing changed.
   */
  async function setAside(seq: number): Promise<SetAsideOutcome> {
    const user = deps.getUser();
    if (!user) return 'not-stuck';
    const clientId = await getClientId(db, user);
    const [head] = await pendingEntries(db, clientId, 1);
    if (!head || head.seq !== seq || !mayBeSetAside(head)) return 'not-stuck';
    const response = await deps.api.send('POST', SYNC_SET_ASIDE_PATH, {
      json: { mutationId: head.mutationId },
      headers: { [SYNC_HEADERS.clientId]: clientId },
      timeout: deps.timeoutMs ?? 30_000,
    });
    const body = await readBody(response);
    // The server expects an earlier id (a request lost on the way): the next run resends from there.
    if (response.status === 409 && mutationGapSchema.safeParse(body).success) return 'answered';
    const answer = syncSetAsideResponseSchema.safeParse(body);
    if (!response.ok || !answer.success) throw new Error(`set-aside: HTTP ${response.status}`);
    const uploadFailing = head.upload !== undefined && head.lastError?.startsWith('upload ') === true;
    if (answer.data.outcome === 'answered' && !(uploadFailing && answer.data.status !== undefined && answer.data.status < 300)) return 'answered';
    const status = serverErrorStatusOf(head.lastError) ?? 500;
    const error = { statusCode: status, message: head.lastError ?? `HTTP ${status}`, setAside: true };
    const counts = { acknowledged: 0, deadLettered: 0 };
    // The entry as it is now: another tab may have settled it meanwhile (then `deadLetter` leaves it).
    await settleAnswers([{ entry: head, result: { type: 'dead', status, error } }], counts);
    const lettered = await db.deadLetters.where('clientId').equals(head.clientId).filter((letter) => letter.mutationId === head.mutationId && letter.nodeid === head.nodeid && letter.createdAt === head.createdAt).count();
    return lettered > 0 ? 'set-aside' : 'answered';
  }

  async function drain(): Promise<DrainResult> {
    const counts = { acknowledged: 0, deadLettered: 0, gaps: 0 };
    const done = (outcome: DrainOutcome): DrainResult => ({ outcome, acknowledged: counts.acknowledged, deadLettered: counts.deadLettered });
    const user = deps.getUser();
    if (!user) return done({ type: 'no-session' });
    const clientId = await getClientId(db, user);
    // Uploads ahead that failed in an earlier run may be tried again in this one (those still going up are kept).
    for (const key of aheadFailed) aheadRuns.delete(key);
    aheadFailed.clear();
    // A batch the server answered in full is settled on the device while the next one is on its way: the device's
    // part (one IndexedDB transaction for up to 100 answers) overlaps the server's instead of following it. The
    // settles run one after the other, in queue order; `after` is the last mutation id sent, so the next batch is
    // read behind the entries still being settled. Anything short of a full answer (a retry, a gap, the session
    // ending) waits for the settles first and then reads the queue from its head again, as before.
    let settling: Promise<void> = Promise.resolve();
    let settleFailed = false;
    let after = 0;
    let next: Promise<OutboxEntry[]> | undefined;
    try {
      for (;;) {
        // A settle that failed ends the run (below, in `finally`): nothing more is sent behind it.
        if (settleFailed) await settling;
        let pending = await (next ?? pendingEntries(db, clientId, LOOKAHEAD, after));
        next = undefined;
        if (pending.length === 0 && after > 0) {
          await settling;
          after = 0;
          pending = await pendingEntries(db, clientId, LOOKAHEAD);
        }
        if (pending.length === 0) return done({ type: 'idle' });
        // Files already going up ahead for this batch's registrations: wait for them, so the registrations do not end it.
        await Promise.all(nextBatch(pending, () => true).flatMap((entry) => (entry.upload ? [aheadRuns.get(entry.upload.fileid)] : [])));
        const batch = nextBatch(pending);
        // The files of the registrations after this batch (the next 200 entries) go up while it is sent, at most
        // UPLOADS_AHEAD at a time, in queue order. This batch's own registrations go the usual way.
        for (const entry of pending.slice(batch.length)) if (entry.upload) void uploadAhead(entry);
        const results = await sendBatch(batch, user);
        // The answers up to the first that stops the queue: settled in one transaction.
        const leading: { entry: OutboxEntry; result: Extract<SendResult, { type: 'ack' | 'dead' }> }[] = [];
        for (const [index, result] of results.entries()) {
          if (result.type !== 'ack' && result.type !== 'dead') break;
          leading.push({ entry: batch[index]!, result });
        }
        const stop = results[leading.length];
        const answeredInFull = !stop && leading.length === batch.length;
        after = answeredInFull ? batch[batch.length - 1]!.mutationId : 0;
        // why the read before the settle: IndexedDB runs a read after a read-write transaction created before it
        // on the same table, so read first, the next batch does not wait for this one's settle.
        if (answeredInFull) next = pendingEntries(db, clientId, LOOKAHEAD, after);
        if (leading.length > 0) {
          settling = settling.then(() => settleAnswers(leading, counts));
          settling.catch(() => (settleFailed = true));
        }
        if (answeredInFull) continue;
        await settling;
        if (stop) {
          // A gap that renumbered the queue answers 'next': what is left of this batch is sent again from the new head.
          const settled = await settle(clientId, batch[leading.length]!, stop, counts);
          if (settled !== 'next') return done(settled);
        }
      }
    } finally {
      // A read ahead that is not used any more (the run ended before it): its outcome is of no interest.
      void next?.catch(() => undefined);
      // Every answer received is settled before the run ends, whichever way it ends (a failed settle leaves its
      // entries queued: the server answers them again from its log).
      await settling;
    }
  }

  return { drain, setAside };
}

export type Sender = ReturnType<typeof createSender>;
