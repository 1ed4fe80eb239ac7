import { describe, expect, it } from 'vitest';
import { LocalDatabase } from '../../src/client/db/local-db';
import { readMachineMemo } from '../../src/client/sync/machine-mirror';
import { mutate } from '../../src/client/sync/mutate';
import { enqueueMutation } from '../../src/client/sync/outbox';
import { updateEquipmentMemo } from '../../src/shared/mutations/machine-memo';
import { MutationInputError, mutationPath, parseMutation } from '../../src/shared/mutations/mutation';

const USER = '0190f5a0-0000-7000-8000-0000000000aa';
const MACHINE = '0190f5a0-0000-7000-8000-0000000000bb';
const NOW = Date.UTC(2026, 4, 4, 10);
const machineRow = { nodeid: MACHINE, legalentitynodeid: '0190f5a0-0000-7000-8000-0000000000cc', version: 7, name: 'BAZ 02 Fräszentrum', memo: 'Alt' };
const input = (memo: string | null) => ({ params: { id: MACHINE }, body: { lang: 'de' as const, equipmentnodeid: MACHINE, memo } });

/** The error `parse` throws, failing when it throws none. */
function inputError(parse: () => unknown): MutationInputError {
  try {
    parse();
  } catch (error) {
    expect(error).toBeInstanceOf(MutationInputError);
    return error as MutationInputError;
  }
  throw new Error('expected a MutationInputError');
}

describe('updateEquipmentMemo (part 1 §7 memo update)', () => {
  const applied = (memo: string | null) => updateEquipmentMemo.apply!(machineRow, parseMutation(updateEquipmentMemo, input(memo)), { now: NOW, usernodeid: USER });

  it('is the PUT of the equipment route with the part-1 payload, on the machine row', () => {
    expect(updateEquipmentMemo).toMatchObject({ name: 'updateEquipmentMemo', method: 'PUT', kind: 'equipment', permission: { feature: 'equipment', flag: 'update' } });
    expect(mutationPath(updateEquipmentMemo, { id: MACHINE })).toBe(`equipments/${MACHINE}`);
    expect(updateEquipmentMemo.target(parseMutation(updateEquipmentMemo, input('x')))).toBe(MACHINE);
  });

  it('changes the memo alone, trimmed; an empty or blank memo is unset (null)', () => {
    expect(applied('  Ölstand wöchentlich prüfen \n')).toEqual({ memo: 'Ölstand wöchentlich prüfen' });
    expect(applied('')).toEqual({ memo: null });
    expect(applied('   ')).toEqual({ memo: null });
    expect(applied(null)).toEqual({ memo: null });
  });

  it('refuses a memo over 5000 characters with the field `memo` (surrounding blanks do not count)', () => {
    expect(applied(`  ${'x'.repeat(5000)}  `)).toEqual({ memo: 'x'.repeat(5000) });
    const error = inputError(() => parseMutation(updateEquipmentMemo, input('x'.repeat(5001))));
    expect(error.action).toBe('updateEquipmentMemo');
    expect(Object.keys(error.fieldErrors())).toEqual(['memo']);
  });

  it('refuses a machine id that is no uuid, named as the path parameter', () => {
    const error = inputError(() => parseMutation(updateEquipmentMemo, { params: { id: 'BAZ-02' }, body: { lang: 'de', equipmentnodeid: MACHINE, memo: 'x' } }));
    expect(Object.keys(error.fieldErrors())).toEqual(['params.id']);
  });

  describe('on the device (mutate)', () => {
    const freshDb = async () => {
      const db = new LocalDatabase(`memo-test-${Math.random()}`);
      await db.mirror('equipment').put(machineRow);
      return db;
    };

    it('writes the memo into the mirror row and queues the request as the route takes it, in one step', async () => {
      const db = await freshDb();
      await mutate({ db, usernodeid: USER, now: () => NOW }, updateEquipmentMemo, input(' Neu '));
      expect(await db.mirror('equipment').get(MACHINE)).toMatchObject({ name: 'BAZ 02 Fräszentrum', memo: 'Neu' });
      const [entry] = await db.outbox.toArray();
      expect(entry).toMatchObject({
        action: 'updateEquipmentMemo',
        method: 'PUT',
        path: `equipments/${MACHINE}`,
        // why: the body as the user typed it; the server trims it the same way, and a resend must be identical.
        body: { lang: 'de', equipmentnodeid: MACHINE, memo: ' Neu ' },
        kind: 'equipment',
        nodeid: MACHINE,
        mutationId: 1,
      });
      expect(entry?.values).toEqual({ memo: 'Neu' });
    });

    it('the memo card reads the memo and whether a change of it still waits; a queued edit of other fields does not count', async () => {
      const db = await freshDb();
      const context = { db, usernodeid: USER };
      expect(await readMachineMemo(db, MACHINE)).toEqual({ memo: 'Alt', pending: false });
      await enqueueMutation(context, { action: 'updateEquipment', method: 'PUT', path: `equipments/${MACHINE}`, body: { name: 'BAZ 02' }, kind: 'equipment', nodeid: MACHINE, values: { name: 'BAZ 02' } });
      expect(await readMachineMemo(db, MACHINE)).toEqual({ memo: 'Alt', pending: false });
      await mutate(context, updateEquipmentMemo, input('Neu'));
      expect(await readMachineMemo(db, MACHINE)).toEqual({ memo: 'Neu', pending: true });
      await mutate(context, updateEquipmentMemo, input(''));
      expect(await readMachineMemo(db, MACHINE)).toEqual({ memo: '', pending: true });
      expect(await readMachineMemo(db, '0190f5a0-0000-7000-8000-0000000000dd')).toBeNull();
    });

    it('queues nothing and leaves the mirror as it was for a memo the server would refuse', async () => {
      const db = await freshDb();
      await expect(mutate({ db, usernodeid: USER }, updateEquipmentMemo, input('x'.repeat(5001)))).rejects.toBeInstanceOf(MutationInputError);
      expect(await db.outbox.count()).toBe(0);
      expect(await db.mirror('equipment').get(MACHINE)).toMatchObject({ memo: 'Alt' });
    });
  });
});
