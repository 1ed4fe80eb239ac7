import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LocalDatabase } from '../../src/client/db/local-db';
import { createApiClient } from '../../src/client/lib/api-client';
import { countUserActions, onLocalWrite, writeTogether } from '../../src/client/sync/outbox';
import { createBrand } from '../../src/client/sync/repositories/brands';
import { createEquipment, type EquipmentValues } from '../../src/client/sync/repositories/equipment';
import { createSyncEngine } from '../../src/client/sync/sync-engine';
import { fixedTokens, USER as SERVER_USER, useSyncTestServer } from './support/sync-test-server';

const USER = '0190f5a0-0000-7000-8000-0000000000aa';
const newDb = () => new LocalDatabase(`write-together-test-${Math.random()}`);

/** The CSV import writes its machines as one: all of them on the device, or none (docs/decisions.md, CSV import). */
describe('writeTogether', () => {
  it('several user actions in one transaction keep their own ids and user actions', async () => {
    const db = newDb();
    const context = { db, usernodeid: USER };
    let nudged = 0;
    const stop = onLocalWrite(() => (nudged += 1));
    try {
      await writeTogether(context, async () => {
        await createBrand(context, { name: 'Trumpf', manufacturer: { isnew: true, name: 'TRUMPF SE' } });
        await createBrand(context, { name: 'Hermle', manufacturer: { isnew: true, name: 'Maschinenfabrik Berthold Hermle AG' } });
      });
    } finally {
      stop();
    }
    const entries = await db.outbox.orderBy('mutationId').toArray();
    expect(entries.map((entry) => [entry.mutationId, entry.action, entry.userAction])).toEqual([
      [1, 'createManufacturer', 2],
      [2, 'createBrand', 2],
      [3, 'createManufacturer', 4],
      [4, 'createBrand', 4],
    ]);
    expect(countUserActions(entries)).toBe(2);
    expect(await db.mirror('brands').count()).toBe(2);
    // Nudged once, after the commit: an action inside nudges nobody (a sender started then would run inside it).
    expect(nudged).toBe(1);
  });

  it('a failure halfway leaves nothing: no mirror row, no outbox entry, the mutation counter untouched', async () => {
    const db = newDb();
    const context = { db, usernodeid: USER };
    await expect(
      writeTogether(context, async () => {
        await createBrand(context, { name: 'Trumpf', manufacturer: { isnew: true, name: 'TRUMPF SE' } });
        throw new Error('the tab closes');
      }),
    ).rejects.toThrow('the tab closes');
    expect(await db.outbox.count()).toBe(0);
    expect(await db.mirror('brands').count()).toBe(0);
    expect(await db.mirror('manufacturers').count()).toBe(0);
    // The next write starts where nothing was taken.
    await createBrand(context, { name: 'Hermle', manufacturer: { isnew: false, nodeid: '0190f5a0-0000-7000-8000-0000000000cc' } });
    expect((await db.outbox.toArray()).map((entry) => entry.mutationId)).toEqual([1]);
  });
  it('a write that committed early and then failed still nudges the sender for what it wrote', async () => {
    const db = newDb();
    const context = { db, usernodeid: USER };
    let nudged = 0;
    const stop = onLocalWrite(() => (nudged += 1));
    try {
      await expect(
        writeTogether(context, async () => {
          await createBrand(context, { name: 'Trumpf', manufacturer: { isnew: true, name: 'TRUMPF SE' } });
          // Not database work: the transaction commits meanwhile, the next write inside it fails.
          await new Promise((resolve) => setTimeout(resolve, 10));
          await createBrand(context, { name: 'Hermle', manufacturer: { isnew: true, name: 'Maschinenfabrik Berthold Hermle AG' } });
        }),
      ).rejects.toThrow();
    } finally {
      stop();
    }
    expect(await db.outbox.count()).toBe(2);
    expect(nudged).toBe(1);
  });
});

describe('writeTogether while the sync engine runs without Web Locks', () => {
  const server = useSyncTestServer();
  beforeEach(() => {
    // why stubs: the engine listens on window and document; this browser has no navigator.locks (docs/sync.md).
    vi.stubGlobal('window', new EventTarget());
    vi.stubGlobal('document', Object.assign(new EventTarget(), { visibilityState: 'visible' }));
    vi.stubGlobal('navigator', { onLine: true });
  });
  afterEach(() => vi.unstubAllGlobals());

  const AREA = '0190f5a0-0000-7000-8000-0000000000a1';
  const id = (n: number, tag: string) => `0190f5a0-0000-7000-8${tag}-${String(n).padStart(12, '0')}`;
  const values = (i: number): EquipmentValues => ({
    name: `Importmaschine ${i}`, equipmentid: `IMP-${i}`, inventoryid: '', manufacturerserialnumber: '', constructionyear: 2019, commissioningyear: 2020, costcenter: '',
    inspectionbooknumber: '', dimensions: undefined, electricalpower: null, mediasupply: [], controller: { manufacturer: '', type: '', softwareversion: '' },
    hourlyrate: null, equipmentclassnodeid: null, useareashiftmodel: true, shifts: [],
  });

  it('commits all rows at once; nothing is sent before the commit (found: the sender ran inside the import and committed it early)', async () => {
    const db = new LocalDatabase(`write-together-engine-${Math.random()}`);
    const engine = createSyncEngine({ db, api: createApiClient({ baseUrl: server.baseUrl, tokens: fixedTokens }), getUser: () => SERVER_USER, origin: server.origin });
    const stop = engine.start();
    try {
      await engine.syncNow();
      const context = { db, usernodeid: SERVER_USER };
      const sentBefore = server.requests.filter((request) => request.inBatch).length;
      let sentDuring = 0;
      await writeTogether(context, async () => {
        for (let i = 0; i < 20; i++) {
          const group = Math.floor(i / 10);
          await createEquipment(context, {
            nodeid: id(i, '000'), values: values(i), areanodeid: AREA, equipmentpoolnodeid: null, photos: {}, lang: 'de',
            catalog: i % 10 === 0
              ? { legalentity: { isnew: true, nodeid: id(group, '001'), name: `Hersteller ${group}` }, brand: { isnew: true, nodeid: id(group, '002'), name: `Marke ${group}`, isbrandof: id(group, '001') }, equipmenttype: { isnew: true, nodeid: id(group, '003'), model: `Typ ${group}`, brandnodeid: id(group, '002') } }
              : { legalentity: { isnew: false, nodeid: id(group, '001') }, brand: { isnew: false, nodeid: id(group, '002') }, equipmenttype: { isnew: false, nodeid: id(group, '003') } },
          });
          // Give a sender that was started inside the transaction the chance to send.
          await db.syncState.get('nothing');
          sentDuring = server.requests.filter((request) => request.inBatch).length - sentBefore;
        }
      });
      expect(sentDuring).toBe(0);
      expect(await db.mirror('equipment').count()).toBe(20);
      expect(await db.outbox.count()).toBeGreaterThanOrEqual(20);
    } finally {
      stop();
    }
  });
});
