/**
 * The PUT of a photo's or document's stored bytes to its signed URL (docs/sync.md § Files offline), off the main
 * thread. A replay of a day offline sends dozens of photos of up to a few MB; on the page, each PUT's body was read
 * out of IndexedDB and handed to `fetch` by the main thread — W3's profile at 4× CPU: ~5 s of main-thread time for
 * 55 MB, a tenth of a second per photo during which the open screen does not answer. A dedicated worker
 * (`file-put.worker.ts`) reads the bytes from the device database itself and sends them; the page only posts the
 * file's key and URL and gets the answer's status and text back.
 *
 * This module is imported by the worker too: no Dexie, no app code, only IndexedDB and fetch.
 */

/** A stored file's PUT: the server's answer, a network failure's message, or null when the device no longer has the bytes. */
export type FilePut = (url: URL, key: string, timeoutMs: number) => Promise<Response | string | null>;

export interface FilePutRequest {
  id: number;
  /** The device database's name (its Dexie name). */
  database: string;
  key: string;
  url: string;
  timeoutMs: number;
}

export type FilePutReply = { id: number; type: 'answer'; status: number; body: string } | { id: number; type: 'missing' } | { id: number; type: 'failed'; message: string };

/** The object store and fields the worker reads: `fileBytes` of local-db.ts (`StoredFileBytes`). */
const FILE_BYTES_STORE = 'fileBytes';
export interface StoredBytes {
  bytes: ArrayBuffer;
  mimetype: string;
}

/**
 * The PUT itself, the same in the worker and in the page's fallback: the stored bytes with their type, given up
 * after `timeoutMs`. The server's answer, or a network failure's message (the sender retries on it).
 */
export async function sendStoredBytes(doFetch: typeof fetch, url: string | URL, stored: StoredBytes, timeoutMs: number): Promise<Response | string> {
  try {
    return await doFetch(url, { method: 'PUT', body: stored.bytes, headers: { 'content-type': stored.mimetype }, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    return error instanceof Error ? error.message : 'upload failed';
  }
}

/**
 * Reads one file's bytes from the device database without a version: whatever version the page opened it at. A
 * database that does not exist is not created (the upgrade is aborted: nothing to send). The connection closes
 * after the read and gives way at once when the page upgrades the schema.
 */
function readStoredBytes(indexedDB: IDBFactory, database: string, key: string): Promise<StoredBytes | undefined> {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open(database);
    open.onupgradeneeded = () => open.transaction?.abort();
    open.onerror = () => reject(open.error ?? new Error('IndexedDB open failed'));
    open.onsuccess = () => {
      const db = open.result;
      db.onversionchange = () => db.close();
      try {
        const read = db.transaction(FILE_BYTES_STORE, 'readonly').objectStore(FILE_BYTES_STORE).get(key);
        read.onsuccess = () => {
          db.close();
          resolve(read.result as StoredBytes | undefined);
        };
        read.onerror = () => {
          db.close();
          reject(read.error ?? new Error('IndexedDB read failed'));
        };
      } catch (error) {
        db.close();
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    };
  });
}

/** The worker's side of one request (the worker script only wires it to its messages; tests call it directly). */
export async function answerFilePut(
  request: FilePutRequest,
  post: (reply: FilePutReply) => void,
  env: { indexedDB: IDBFactory; fetch: typeof fetch } = { indexedDB: globalThis.indexedDB, fetch: (input, init) => globalThis.fetch(input, init) },
): Promise<void> {
  const { id } = request;
  let stored: StoredBytes | undefined;
  try {
    stored = await readStoredBytes(env.indexedDB, request.database, request.key);
  } catch (error) {
    // why an IndexedDB failure is 'failed', not 'missing': the bytes may well be there; the sender retries.
    post({ id, type: 'failed', message: error instanceof Error ? error.message : 'IndexedDB read failed' });
    return;
  }
  if (!stored) {
    post({ id, type: 'missing' });
    return;
  }
  const response = await sendStoredBytes(env.fetch, request.url, stored, request.timeoutMs);
  if (typeof response === 'string') post({ id, type: 'failed', message: response });
  else post({ id, type: 'answer', status: response.status, body: await response.text().catch(() => '') });
}

/** What the main thread needs of a Worker (a fake in tests). */
export interface FilePutWorker {
  postMessage(request: FilePutRequest): void;
  addEventListener(type: 'message', listener: (event: { data: FilePutReply }) => void): void;
  addEventListener(type: 'error', listener: () => void): void;
}

/** Statuses whose answer has no body (the Response constructor refuses one). */
const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304]);

/**
 * The page's side: a FilePut that runs in `worker`. Requests are told apart by id (three uploads run at once). A
 * worker that fails (its script could not load) hands what it was sending, and everything after, to `fallback`,
 * the same PUT on the main thread: a photo is never stuck because the worker is.
 */
export function createWorkerFilePut(worker: FilePutWorker, database: string, fallback: FilePut): FilePut {
  const sending = new Map<number, { resolve: (result: Response | string | null) => void; retry: () => Promise<Response | string | null> }>();
  let broken = false;
  let nextId = 1;
  worker.addEventListener('message', ({ data: reply }) => {
    const entry = sending.get(reply.id);
    if (!entry) return;
    sending.delete(reply.id);
    if (reply.type === 'missing') entry.resolve(null);
    else if (reply.type === 'failed') entry.resolve(reply.message);
    else entry.resolve(new Response(NULL_BODY_STATUS.has(reply.status) ? null : reply.body, { status: reply.status }));
  });
  worker.addEventListener('error', () => {
    broken = true;
    for (const [id, entry] of sending) {
      sending.delete(id);
      void entry.retry().then(entry.resolve);
    }
  });
  return (url, key, timeoutMs) => {
    if (broken) return fallback(url, key, timeoutMs);
    const id = nextId++;
    return new Promise((resolve) => {
      sending.set(id, { resolve, retry: () => fallback(url, key, timeoutMs) });
      worker.postMessage({ id, database, key, url: url.href, timeoutMs });
    });
  };
}
