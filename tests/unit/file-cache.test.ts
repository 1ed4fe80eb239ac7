import { describe, expect, it } from 'vitest';
import { LocalDatabase } from '../../src/client/db/local-db';
import {
  CHROMIUM_QUOTA_PAD,
  FILE_CACHE_CAP,
  fileCacheBudget,
  isQuotaMeaningful,
  pinMachineFiles,
  planEviction,
  readCachedFile,
  readFileCacheUsage,
  storeCachedFile,
  unpinMachine,
} from '../../src/client/lib/file-cache';
import { formatBytes } from '../../src/client/lib/format-bytes';
import { collectMachineFiles } from '../../src/client/sync/offline-files';

const freshDb = () => new LocalDatabase(`file-cache-${Math.random()}`);
const bytes = (size: number) => new Uint8Array(size).fill(7).buffer;
const MACHINE = 'machine-1';

async function store(db: LocalDatabase, nodeid: string, size: number, now: number, budget = 1000, pinFor?: string) {
  await storeCachedFile(db, { nodeid, bytes: bytes(size), mimetype: 'image/png' }, { now, budget, pinFor });
}
const keptIds = async (db: LocalDatabase) => (await db.cachedFiles.toArray()).map((meta) => meta.nodeid).sort();

describe('eviction order (pure)', () => {
  const entry = (nodeid: string, size: number, lastUsed: number, pinnedBy: string[] = []) => ({ nodeid, size, lastUsed, pinnedBy });

  it('evicts least recently used first until the unpinned files fit, and nothing when they fit', () => {
    const entries = [entry('c', 300, 30), entry('a', 300, 10), entry('b', 300, 20)];
    expect(planEviction(entries, 900)).toEqual([]);
    expect(planEviction(entries, 600)).toEqual(['a']);
    expect(planEviction(entries, 299)).toEqual(['a', 'b', 'c']);
  });

  it('never picks a pinned file, and pinned bytes do not count against the budget', () => {
    const entries = [entry('old-pinned', 5000, 1, [MACHINE]), entry('a', 300, 10), entry('b', 300, 20)];
    expect(planEviction(entries, 600)).toEqual([]);
    expect(planEviction(entries, 300)).toEqual(['a']);
    expect(planEviction(entries, 0)).toEqual(['a', 'b']);
  });

  it('keeps the file being stored even when it alone exceeds the budget', () => {
    expect(planEviction([entry('a', 100, 1), entry('new', 900, 2)], 500, 'new')).toEqual(['a']);
  });

  it('breaks ties of last use by nodeid, so the order is stable', () => {
    expect(planEviction([entry('y', 100, 5), entry('x', 100, 5)], 100)).toEqual(['x']);
  });
});

describe('budget and quota (pure)', () => {
  it('is a fifth of a real quota, at most the cap; the cap without an estimate', () => {
    expect(fileCacheBudget(undefined)).toBe(FILE_CACHE_CAP);
    expect(fileCacheBudget({ quota: 500 * 1024 * 1024, usage: 0 })).toBe(100 * 1024 * 1024);
    expect(fileCacheBudget({ quota: 100 * 1024 * 1024 * 1024, usage: 0 })).toBe(FILE_CACHE_CAP);
  });

  it("recognises Chromium's padded quota (usage + 10 GiB) as not meaningful", () => {
    expect(isQuotaMeaningful({ usage: 12_345_678, quota: 12_345_678 + CHROMIUM_QUOTA_PAD })).toBe(false);
    expect(isQuotaMeaningful({ usage: 12_345_678, quota: 1_000_000_000 })).toBe(true);
    expect(isQuotaMeaningful({ usage: 1 })).toBe(false);
    expect(isQuotaMeaningful(null)).toBe(false);
  });
});

describe('the file cache in the local database', () => {
  it('returns a kept file with its type, and a read moves it to the back of the eviction order', async () => {
    const db = freshDb();
    await store(db, 'a', 400, 1);
    await store(db, 'b', 400, 2);
    const blob = await readCachedFile(db, 'a', 3);
    expect(blob?.type).toBe('image/png');
    expect(blob?.size).toBe(400);
    // 'a' was used last: storing 'c' over the budget evicts 'b', the least recently used.
    await store(db, 'c', 400, 4);
    expect(await keptIds(db)).toEqual(['a', 'c']);
    expect(await db.cachedFileBytes.get('b')).toBeUndefined();
    expect(await readCachedFile(db, 'b')).toBeNull();
  });

  it('never evicts the bytes of unsynced work (fileBytes), however full the cache gets', async () => {
    const db = freshDb();
    await db.fileBytes.put({ fileid: 'unsent-photo', bytes: bytes(5000), mimetype: 'image/jpeg', name: 'stoerung.jpg', size: 5000, createdAt: 0 });
    for (let i = 0; i < 5; i += 1) await store(db, `f${i}`, 600, i, 1000);
    expect(await keptIds(db)).toEqual(['f4']);
    expect(await db.fileBytes.get('unsent-photo')).toMatchObject({ size: 5000 });
    await unpinMachine(db, MACHINE, 0);
    expect(await db.fileBytes.count()).toBe(1);
  });

  it('keeps the files of a machine made available offline until it is released, then they are ordinary entries', async () => {
    const db = freshDb();
    await store(db, 'manual', 800, 1, 1000, MACHINE);
    await store(db, 'photo', 100, 2, 1000, MACHINE);
    await pinMachineFiles(db, MACHINE, ['manual', 'photo'], 3);
    for (let i = 0; i < 4; i += 1) await store(db, `seen${i}`, 600, 10 + i);
    expect(await keptIds(db)).toEqual(['manual', 'photo', 'seen3']);
    expect(await db.offlineMachines.get(MACHINE)).toMatchObject({ files: 2, bytes: 900, refreshedAt: 3 });
    expect(await readFileCacheUsage(db)).toEqual({ files: 3, bytes: 1500, pinnedBytes: 900, machines: 1 });

    await unpinMachine(db, MACHINE, 1000);
    // Released: all three are unpinned now (1,500 > 1,000); the least recently used goes first.
    expect(await keptIds(db)).toEqual(['photo', 'seen3']);
    expect(await db.offlineMachines.get(MACHINE)).toBeUndefined();
  });

  it('a file pinned by two machines stays while either keeps it; pinning again drops files the machine no longer has', async () => {
    const db = freshDb();
    await store(db, 'shared', 500, 1, 1000, 'm1');
    await store(db, 'shared', 500, 2, 1000, 'm2');
    await store(db, 'old-doc', 500, 3, 1000, 'm1');
    await pinMachineFiles(db, 'm1', ['shared', 'old-doc']);
    await pinMachineFiles(db, 'm2', ['shared']);
    expect((await db.cachedFiles.get('shared'))?.pinnedBy.sort()).toEqual(['m1', 'm2']);
    await pinMachineFiles(db, 'm1', ['shared']);
    expect((await db.cachedFiles.get('old-doc'))?.pinnedBy).toEqual([]);
    await unpinMachine(db, 'm1', 0);
    expect(await keptIds(db)).toEqual(['shared']);
    expect((await db.cachedFiles.get('shared'))?.pinnedBy).toEqual(['m2']);
  });
});

describe("a machine's files in the mirror", () => {
  it('are its photo, nameplate, documents, FAQ files and the photos of its notifications, reports and steps; complete files only', async () => {
    const db = freshDb();
    const file = (nodeid: string, status = 'complete') => ({ nodeid, fileid: nodeid, fileversion: 1, status, size: 10, mimetype: 'image/png' });
    await db.mirror('files').bulkPut(['photo', 'plate', 'manual', 'faqfile', 'fault', 'report', 'step', 'other'].map((id) => file(id)).concat([file('pending', 'pending')]));
    await db.mirror('equipment').put({ nodeid: MACHINE, imagefilenodeid: 'photo', typenameplatefilenodeid: 'plate' });
    await db.mirror('notifications').put({ nodeid: 'n1', equipmentnodeid: MACHINE, status: 2, created: 1 });
    await db.mirror('reports').put({ nodeid: 'r1', notificationnodeid: 'n1' });
    await db.mirror('workflows').put({ nodeid: 'w1', notificationnodeid: 'n1' });
    await db.mirror('workflowsteps').put({ nodeid: 's1', workflownodeid: 'w1' });
    await db.mirror('faqs').put({ nodeid: 'q1', equipmentnodeid: MACHINE });
    await db.mirror('attachments').bulkPut([
      { nodeid: 'a1', isattachmentof: MACHINE, filenodeid: 'manual' },
      { nodeid: 'a2', isattachmentof: 'n1', filenodeid: 'fault' },
      { nodeid: 'a3', isattachmentof: 'r1', filenodeid: 'report' },
      { nodeid: 'a4', isattachmentof: 's1', filenodeid: 'step' },
      { nodeid: 'a5', isattachmentof: 'q1', filenodeid: 'faqfile' },
      { nodeid: 'a6', isattachmentof: 'another-machine', filenodeid: 'other' },
      { nodeid: 'a7', isattachmentof: MACHINE, filenodeid: 'pending' },
      { nodeid: 'a8', isattachmentof: MACHINE, filenodeid: 'manual' },
    ]);
    const files = await collectMachineFiles(db, MACHINE);
    expect(files.map((f) => f.nodeid).sort()).toEqual(['faqfile', 'fault', 'manual', 'photo', 'plate', 'report', 'step']);
    expect(files.every((f) => f.size === 10)).toBe(true);
    expect(await collectMachineFiles(db, 'unknown')).toEqual([]);
  });
});

describe('sizes in words', () => {
  it('uses the decimal mark of the language and sensible units', () => {
    expect(formatBytes(0, 'de')).toBe('0 B');
    expect(formatBytes(850 * 1024, 'de')).toBe('850 KB');
    expect(formatBytes(4.24 * 1024 * 1024, 'de')).toBe('4,2 MB');
    expect(formatBytes(4.24 * 1024 * 1024, 'en')).toBe('4.2 MB');
    expect(formatBytes(1.3 * 1024 ** 3, 'de')).toBe('1,3 GB');
  });
});
