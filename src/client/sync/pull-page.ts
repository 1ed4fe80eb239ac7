/**
 * Fetching a pull page, reading its body into a checked page, and in the worker writing it (docs/sync.md § Applying
 * a pulled page). An initial page is up to 5,000 rows and 2.6 MB of JSON: loading and decoding the compressed body,
 * `JSON.parse`, the contract check and the clone of every row into IndexedDB were the longest tasks of the initial
 * sync on a throttled tablet. So a module Web Worker (pull-page.worker.ts) sends the request itself (the main thread
 * hands it the URL and the bearer), parses and checks the body and, given an ApplyTarget, writes it into the device
 * database (page-apply.ts), and posts back only the head and the counts. An answer that is not OK goes back to the
 * main thread, whose API client asks again (a token refresh, the error's message). Without a target the rows come
 * back in slices of PAGE_SLICE, each its own message. Where no worker can be started (tests, an old browser), the
 * main thread fetches, the same check runs there with a yield between slices, and the main thread writes the rows.
 */
// why no zod here: this module is the worker's bundle, which shares no chunk with the page; the check is the
// contract's, written out without zod (pull-page-check.ts, held to the zod schemas by its test).
import { checkPullEnvelope, checkSyncChanges, ContractMismatch, type PullPageHead } from '../../shared/api/pull-page-check';
import type { SyncChange } from '../../shared/api/sync';
import type { PreparedRequest } from '../lib/api-client';
import { applyPage, type ApplyTarget } from './page-apply';
import { countByKind, pageNeedsReset } from './page-plan';

/** Rows per slice: a slice's check, and its unpacking on the main thread, stay a few milliseconds. */
export const PAGE_SLICE = 500;

export type PageHead = PullPageHead;

/** The body does not match the contract (or is no JSON); `cause` says where (a ContractMismatch) when there is one. */
export class InvalidPageError extends Error {
  /** `message`: the one the worker's error had (from the worker only the message comes back). */
  constructor(cause?: unknown, message?: string) {
    // The mismatch's place goes into the message, so it survives the way back from the worker.
    super(message ?? (cause instanceof ContractMismatch ? `Pull answer does not match the contract (${cause.message})` : 'Pull answer does not match the contract'), cause === undefined ? undefined : { cause });
  }
}

/**
 * Parses and checks a body slice by slice: `onSlice` gets every slice of checked changes in page order, then the
 * page's head (cursor, hasMore, …) is returned. `between` runs between two slices (a yield on the main thread).
 */
export async function readPage(text: string, onSlice: (changes: SyncChange[]) => void, between?: () => Promise<void>): Promise<PageHead> {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw new InvalidPageError(error);
  }
  let envelope: ReturnType<typeof checkPullEnvelope>;
  try {
    envelope = checkPullEnvelope(body);
  } catch (error) {
    throw new InvalidPageError(error);
  }
  const { head, changes } = envelope;
  // Checked whole before the first slice goes out, so a bad row never leaves half a page behind.
  const slices: SyncChange[][] = [];
  for (let start = 0; start < changes.length; start += PAGE_SLICE) {
    if (start > 0) await between?.();
    try {
      slices.push(checkSyncChanges(changes.slice(start, start + PAGE_SLICE), start));
    } catch (error) {
      throw new InvalidPageError(error);
    }
  }
  for (const slice of slices) onSlice(slice);
  return head;
}

/**
 * The worker got no page to read. `no-answer`: no network, the timeout, the connection lost in the body. `not-ok`:
 * an answer with `status` that was not OK, and `worker-failed`: the worker died while it fetched — both are asked
 * again by the main thread itself.
 */
export type PageNotFetchedReason = 'no-answer' | 'not-ok' | 'worker-failed';

export class PageNotFetchedError extends Error {
  constructor(
    readonly reason: PageNotFetchedReason,
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'PageNotFetchedError';
  }
}

/**
 * main → worker: one page to read — its body, or the request to send for it (`fetch`) — and with `apply` to write
 * into the device database as well (page-apply.ts).
 */
export type PageRequest = { id: number; apply?: ApplyTarget } & ({ body: ArrayBuffer } | { fetch: PreparedRequest });

/**
 * worker → main. Without `apply`: the slices in order, then `head` (or `invalid` instead). With `apply`: `head` with
 * the counts per kind and whether the page is being written (false: it needs a reset, page-plan.ts), then `applied`
 * or `apply-failed` once its transaction has ended; no rows.
 */
export type PageReply =
  | { id: number; type: 'slice'; changes: SyncChange[] }
  | { id: number; type: 'head'; head: PageHead; counts?: Record<string, number>; applying?: boolean }
  | { id: number; type: 'applied' }
  | { id: number; type: 'apply-failed'; name: string; message: string }
  | { id: number; type: 'invalid'; message: string }
  | { id: number; type: 'unfetched'; reason: PageNotFetchedReason; status: number; message: string };

/** Sends a prepared GET and returns its body; a failure or an answer that is not OK is a PageNotFetchedError. */
async function fetchBody(request: PreparedRequest, fetchImpl: typeof fetch): Promise<ArrayBuffer> {
  let response: Response;
  // As the API client's timeout: until the answer's headers, not over the body (a big page on a weak network).
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error(`No answer within ${request.timeoutMs} ms`)), request.timeoutMs);
  try {
    response = await fetchImpl(request.url, { headers: request.headers, signal: controller.signal });
  } catch (error) {
    throw new PageNotFetchedError('no-answer', 0, error instanceof Error ? error.message : 'Network error');
  } finally {
    clearTimeout(timer);
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    throw new PageNotFetchedError('not-ok', response.status, `HTTP ${response.status}`);
  }
  try {
    return await response.arrayBuffer();
  } catch (error) {
    throw new PageNotFetchedError('no-answer', 0, error instanceof Error ? error.message : 'Network error');
  }
}

/**
 * The worker's side: fetches (for a `fetch` request) and reads one page and posts its replies. `indexedDB`: the
 * worker's (tests: fake-indexeddb).
 */
export async function answerPageRequest(request: PageRequest, post: (reply: PageReply) => void, indexedDB: IDBFactory = globalThis.indexedDB, fetchImpl: typeof fetch = globalThis.fetch): Promise<void> {
  const { id, apply } = request;
  let body: ArrayBuffer;
  try {
    body = 'body' in request ? request.body : await fetchBody(request.fetch, fetchImpl);
  } catch (error) {
    const failure = error instanceof PageNotFetchedError ? error : new PageNotFetchedError('no-answer', 0, String(error));
    post({ id, type: 'unfetched', reason: failure.reason, status: failure.status, message: failure.message });
    return;
  }
  const changes: SyncChange[] = [];
  let head: PageHead;
  try {
    head = await readPage(new TextDecoder().decode(body), apply ? (slice) => void changes.push(...slice) : (slice) => post({ id, type: 'slice', changes: slice }));
  } catch (error) {
    post({ id, type: 'invalid', message: error instanceof Error ? error.message : String(error) });
    return;
  }
  if (!apply) {
    post({ id, type: 'head', head });
    return;
  }
  const applying = !pageNeedsReset(head, apply.mirror, apply.formatVersion);
  post({ id, type: 'head', head, counts: countByKind(changes), applying });
  if (!applying) return;
  try {
    await applyPage(indexedDB, changes, head, apply);
    post({ id, type: 'applied' });
  } catch (error) {
    post({ id, type: 'apply-failed', name: error instanceof Error ? error.name : 'Error', message: error instanceof Error ? error.message : String(error) });
  }
}

/** What the main thread needs of a Worker (a fake in tests). */
export interface PageWorker {
  postMessage(request: PageRequest): void;
  addEventListener(type: 'message', listener: (event: { data: PageReply }) => void): void;
  addEventListener(type: 'error', listener: () => void): void;
}

/**
 * A read page. `changes`: the rows, for the main thread to write (pull.ts applyChanges). `applied`: the worker
 * writes the page itself and this settles when its transaction has; null when the worker did not write it because
 * it needs a reset.
 */
export type ReadPage = { head: PageHead; counts: Record<string, number> } & ({ changes: SyncChange[] } | { applied: Promise<void> | null });

/** Reads a page's body; with `apply`, a reader that can writes it into the device database too. */
export interface PageReader {
  (body: ArrayBuffer, apply?: ApplyTarget): Promise<ReadPage>;
  /**
   * Sends the page's request itself and reads the answer (the worker); rejects with PageNotFetchedError when it got
   * no page to read. Absent where the main thread fetches.
   */
  fetchAndRead?(request: PreparedRequest, apply?: ApplyTarget): Promise<ReadPage>;
}

/** The error of a write the worker could not make, with the browser's name (QuotaExceededError, …). */
function workerError(name: string, message: string): Error {
  const error = new Error(message);
  error.name = name;
  return error;
}

interface Reading {
  /** The body to read again with the fallback if the worker fails; none when the worker fetched it. */
  body: ArrayBuffer | undefined;
  changes: SyncChange[];
  resolve: (page: ReadPage) => void;
  reject: (error: Error) => void;
  /** Once the head is in, for a page the worker writes. */
  applied?: { resolve: () => void; reject: (error: Error) => void };
}

/**
 * The main thread's side: `read(body, apply?)` resolves to the page once the worker posted its head. Requests are
 * told apart by id, so pages read at the same time (a prefetched next page) do not mix. A worker that fails (its
 * script could not load, or it died) rejects what it was writing, reads what it was reading with `fallback`, and
 * is not used again.
 */
export function createPageReader(worker: PageWorker, fallback: PageReader): PageReader {
  const reading = new Map<number, Reading>();
  let broken = false;
  let nextId = 1;
  worker.addEventListener('message', ({ data: reply }) => {
    const entry = reading.get(reply.id);
    if (!entry) return;
    switch (reply.type) {
      case 'slice':
        for (const change of reply.changes) entry.changes.push(change);
        return;
      case 'head': {
        const counts = reply.counts ?? countByKind(entry.changes);
        if (reply.applying === undefined) {
          reading.delete(reply.id);
          entry.resolve({ head: reply.head, counts, changes: entry.changes });
        } else if (!reply.applying) {
          reading.delete(reply.id);
          entry.resolve({ head: reply.head, counts, applied: null });
        } else {
          const applied = new Promise<void>((resolve, reject) => (entry.applied = { resolve, reject }));
          // why: a failure is thrown where `applied` is awaited; a page fetched ahead may never be.
          applied.catch(() => undefined);
          entry.resolve({ head: reply.head, counts, applied });
        }
        return;
      }
      case 'applied':
        reading.delete(reply.id);
        entry.applied?.resolve();
        return;
      case 'apply-failed':
        reading.delete(reply.id);
        entry.applied?.reject(workerError(reply.name, reply.message));
        return;
      case 'invalid':
        reading.delete(reply.id);
        entry.reject(new InvalidPageError(undefined, reply.message));
        return;
      case 'unfetched':
        reading.delete(reply.id);
        entry.reject(new PageNotFetchedError(reply.reason, reply.status, reply.message));
    }
  });
  worker.addEventListener('error', () => {
    broken = true;
    for (const [id, entry] of reading) {
      reading.delete(id);
      // Whether the write committed before the worker died is not known here: the pull stops, the next one
      // starts from the stored cursor.
      if (entry.applied) entry.applied.reject(new Error('pull page worker failed'));
      else if (entry.body) fallback(entry.body).then(entry.resolve, entry.reject);
      // A page the worker was fetching: the main thread asks for it again.
      else entry.reject(new PageNotFetchedError('worker-failed', 0, 'pull page worker failed'));
    }
  });
  const post = (request: PageRequest, body: ArrayBuffer | undefined) => {
    const id = request.id;
    return new Promise<ReadPage>((resolve, reject) => {
      reading.set(id, { changes: [], resolve, reject, body });
      worker.postMessage(request);
    });
  };
  const reader: PageReader = (body, apply) => {
    if (broken) return fallback(body);
    // why no transfer: the body is kept for the fallback; copying it is one memcpy, not a parse.
    return post(apply ? { id: nextId++, body, apply } : { id: nextId++, body }, body);
  };
  reader.fetchAndRead = (request, apply) => {
    if (broken) return Promise.reject(new PageNotFetchedError('worker-failed', 0, 'pull page worker failed'));
    return post(apply ? { id: nextId++, fetch: request, apply } : { id: nextId++, fetch: request }, undefined);
  };
  return reader;
}

/** Lets the browser run other tasks (input, rendering) before the work goes on. */
export function yieldToBrowser(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (scheduler?.yield) return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** The same check on the main thread, a slice per task; the rows come back to be written there. */
export async function readPageHere(body: ArrayBuffer): Promise<ReadPage> {
  const changes: SyncChange[] = [];
  const head = await readPage(new TextDecoder().decode(body), (slice) => changes.push(...slice), yieldToBrowser);
  return { head, counts: countByKind(changes), changes };
}
