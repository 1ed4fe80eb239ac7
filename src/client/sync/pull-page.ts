/**
 * Reading a pull answer's body into a checked page (docs/sync.md § Applying a pulled page). An initial page is up
 * to 5,000 rows and 2.6 MB of JSON: `JSON.parse` and the contract check of it were the longest tasks of the initial
 * sync on a throttled tablet. So the body goes to a module Web Worker (pull-page.worker.ts) that parses and checks
 * it and hands the rows back in slices of PAGE_SLICE, each its own message: the main thread only ever unpacks one
 * slice at a time. Where no worker can be started (tests, an old browser), the same check runs on the main thread
 * with a yield between slices.
 */
// why no zod here: this module is the worker's bundle, which shares no chunk with the page; the check is the
// contract's, written out without zod (pull-page-check.ts, held to the zod schemas by its test).
import { checkPullEnvelope, checkSyncChanges, ContractMismatch, type PullPageHead } from '../../shared/api/pull-page-check';
import type { PullResponse, SyncChange } from '../../shared/api/sync';

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

/** main → worker: one body to read. */
export interface PageRequest {
  id: number;
  body: ArrayBuffer;
}

/** worker → main: the slices in order, then `head` (or `invalid` instead). */
export type PageReply = { id: number; type: 'slice'; changes: SyncChange[] } | { id: number; type: 'head'; head: PageHead } | { id: number; type: 'invalid'; message: string };

/** The worker's side: reads one request and posts its replies. */
export async function answerPageRequest(request: PageRequest, post: (reply: PageReply) => void): Promise<void> {
  const { id } = request;
  try {
    const head = await readPage(new TextDecoder().decode(request.body), (changes) => post({ id, type: 'slice', changes }));
    post({ id, type: 'head', head });
  } catch (error) {
    post({ id, type: 'invalid', message: error instanceof Error ? error.message : String(error) });
  }
}

/** What the main thread needs of a Worker (a fake in tests). */
export interface PageWorker {
  postMessage(request: PageRequest): void;
  addEventListener(type: 'message', listener: (event: { data: PageReply }) => void): void;
  addEventListener(type: 'error', listener: () => void): void;
}

export type PageReader = (body: ArrayBuffer) => Promise<PullResponse>;

/**
 * The main thread's side: `read(body)` resolves to the whole page once the worker posted its head. Requests are
 * told apart by id, so pages read at the same time (a prefetched next page) do not mix. A worker that fails
 * (its script could not load) rejects what it was reading and is not used again: `fallback` reads it instead.
 */
export function createPageReader(worker: PageWorker, fallback: PageReader): PageReader {
  const reading = new Map<number, { changes: SyncChange[]; resolve: (page: PullResponse) => void; reject: (error: Error) => void; body: ArrayBuffer }>();
  let broken = false;
  let nextId = 1;
  worker.addEventListener('message', ({ data: reply }) => {
    const entry = reading.get(reply.id);
    if (!entry) return;
    if (reply.type === 'slice') {
      for (const change of reply.changes) entry.changes.push(change);
      return;
    }
    reading.delete(reply.id);
    if (reply.type === 'head') entry.resolve({ ...reply.head, changes: entry.changes });
    else entry.reject(new InvalidPageError(undefined, reply.message));
  });
  worker.addEventListener('error', () => {
    broken = true;
    for (const [id, entry] of reading) {
      reading.delete(id);
      fallback(entry.body).then(entry.resolve, entry.reject);
    }
  });
  return (body) => {
    if (broken) return fallback(body);
    const id = nextId++;
    return new Promise<PullResponse>((resolve, reject) => {
      reading.set(id, { changes: [], resolve, reject, body });
      // why no transfer: the body is kept for the fallback; copying it is one memcpy, not a parse.
      worker.postMessage({ id, body });
    });
  };
}

/** Lets the browser run other tasks (input, rendering) before the work goes on. */
export function yieldToBrowser(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (scheduler?.yield) return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** The same check on the main thread, a slice per task. */
export async function readPageHere(body: ArrayBuffer): Promise<PullResponse> {
  const changes: SyncChange[] = [];
  const head = await readPage(new TextDecoder().decode(body), (slice) => changes.push(...slice), yieldToBrowser);
  return { ...head, changes };
}
