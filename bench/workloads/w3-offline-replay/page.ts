/**
 * W3's code inside the app's page, bundled by the workload (esbuild) and served from the app's origin: the app's
 * OWN write path (src/client/sync/repositories/notifications.ts → mutate.ts → outbox.ts, the function the quick
 * fault report dialog calls) on the same IndexedDB database the running app uses, and the PouchDB comparison.
 * Nothing here is part of the app's bundle; the app's running sync engine sends what this queues.
 */
import '../../../src/client/lib/zod-config';
import PouchDB from 'pouchdb-browser';
import { getLocalDb } from '../../../src/client/db/local-db';
import { createNotification } from '../../../src/client/sync/repositories/notifications';
import { readState, stateKeys, type WriteContext } from '../../../src/client/sync/outbox';

const photos: ArrayBuffer[] = [];

async function context(): Promise<WriteContext> {
  const usernodeid = await readState<string>(getLocalDb(), stateKeys.mirrorOwner);
  if (!usernodeid) throw new Error('no synced user in this profile');
  return { db: getLocalDb(), usernodeid };
}

/** Real JPEG bytes from the browser's encoder (noise, so they do not compress away), between minBytes and maxBytes. */
export async function makePhotos(count: number, minBytes: number, maxBytes: number): Promise<number[]> {
  photos.length = 0;
  let bytesPerPixel = 1.5;
  for (let i = 0; i < count; i++) {
    const target = minBytes + ((maxBytes - minBytes) * i) / Math.max(1, count - 1);
    for (let attempt = 0; attempt < 3; attempt++) {
      const side = Math.max(64, Math.round(Math.sqrt(target / bytesPerPixel)));
      const canvas = new OffscreenCanvas(side, side);
      const context2d = canvas.getContext('2d')!;
      const image = context2d.createImageData(side, side);
      const data = new Uint32Array(image.data.buffer);
      let seed = (i + 1) * 7919;
      for (let p = 0; p < data.length; p++) {
        seed = (seed * 1_664_525 + 1_013_904_223) >>> 0;
        data[p] = seed | 0xff000000;
      }
      context2d.putImageData(image, 0, 0);
      const bytes = await (await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.85 })).arrayBuffer();
      bytesPerPixel = bytes.byteLength / (side * side);
      if (attempt === 2 || Math.abs(bytes.byteLength - target) / target < 0.15) {
        photos.push(bytes);
        break;
      }
    }
  }
  return photos.map((photo) => photo.byteLength);
}

/** True once the first full pull of this profile completed (the app writes the flag at its end). */
export async function initialSyncDone(): Promise<boolean> {
  return (await readState<boolean>(getLocalDb(), stateKeys.initialSyncDone)) === true;
}

export async function equipmentIds(limit: number): Promise<string[]> {
  return (await getLocalDb().mirror('equipment').limit(limit).toArray()).map((row) => row.nodeid);
}

export interface QueueTimes {
  /** Milliseconds per queued report without a photo, in order. */
  plain: number[];
  /** Milliseconds per queued report with its photo (three outbox entries and the bytes, one transaction). */
  withPhoto: number[];
}

/** `count` quick fault reports through the app's write path, every `photoEvery`-th with the next photo. */
export async function queueReports(tag: string, count: number, photoEvery: number, equipment: string[]): Promise<QueueTimes> {
  const writeContext = await context();
  const times: QueueTimes = { plain: [], withPhoto: [] };
  let photoIndex = 0;
  for (let i = 0; i < count; i++) {
    const photo = photoEvery > 0 && i % photoEvery === 0 && photoIndex < photos.length ? photos[photoIndex++]! : null;
    const started = performance.now();
    await createNotification(writeContext, {
      type: 1,
      title: `${tag} #${i}`,
      description: 'Hydraulikdruck schwankt beim Anfahren; Leitungen ohne sichtbaren Befund.',
      equipmentnodeid: equipment[i % equipment.length]!,
      ...(photo ? { photo: { bytes: photo, mimetype: 'image/jpeg', name: `foto-${i}.jpg` } } : {}),
    });
    (photo ? times.withPhoto : times.plain).push(performance.now() - started);
  }
  return times;
}

export async function outboxState(): Promise<{ outbox: number; deadLetters: number; storedFiles: number }> {
  const db = getLocalDb();
  return { outbox: await db.outbox.count(), deadLetters: await db.deadLetters.count(), storedFiles: await db.fileBytes.count() };
}

/** The same reports as PouchDB documents (photos as attachments) in a local PouchDB. */
export async function queuePouch(name: string, tag: string, count: number, photoEvery: number, equipment: string[]): Promise<QueueTimes> {
  const db = new PouchDB(name);
  const times: QueueTimes = { plain: [], withPhoto: [] };
  let photoIndex = 0;
  for (let i = 0; i < count; i++) {
    const photo = photoEvery > 0 && i % photoEvery === 0 && photoIndex < photos.length ? photos[photoIndex++]! : null;
    const started = performance.now();
    await db.put({
      _id: crypto.randomUUID(),
      type: 1,
      status: 0,
      title: `${tag} #${i}`,
      description: 'Hydraulikdruck schwankt beim Anfahren; Leitungen ohne sichtbaren Befund.',
      equipmentnodeid: equipment[i % equipment.length]!,
      created: Date.now(),
      ...(photo ? { _attachments: { [`foto-${i}.jpg`]: { content_type: 'image/jpeg', data: new Blob([photo], { type: 'image/jpeg' }) } } } : {}),
    });
    (photo ? times.withPhoto : times.plain).push(performance.now() - started);
  }
  await db.close();
  return times;
}

/** One-shot push to the remote, started again after a failure (a pause of the app's first backoff's ceiling, 250 ms) until it completes. */
export async function pushPouch(name: string, remote: string): Promise<{ attempts: number; docsWritten: number }> {
  const db = new PouchDB(name);
  let attempts = 0;
  let docsWritten = 0;
  for (;;) {
    attempts += 1;
    try {
      const result = await PouchDB.replicate(db, remote, {});
      docsWritten += result.docs_written;
      if (result.ok && result.errors.length === 0) break;
    } catch {
      // a dropped connection or a 503: start again, as a one-shot replication must
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await db.close();
  return { attempts, docsWritten };
}
