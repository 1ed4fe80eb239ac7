import { describe, expect, it } from 'vitest';
import { LocalDatabase } from '../../src/client/db/local-db';
import { countUserActions, onLocalWrite, writeTogether } from '../../src/client/sync/outbox';
import { createBrand } from '../../src/client/sync/repositories/brands';

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
    // The sender is nudged once the whole write committed (and by each action inside it, which waits for that).
    expect(nudged).toBeGreaterThanOrEqual(1);
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
});
