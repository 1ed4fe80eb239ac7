/**
 * The scan dialog's typed Equipment-ID (a sticker that cannot be read) finds the machine on the device as the server
 * compares Equipment-IDs (matchKey), and never one the device is deleting.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { getLocalDb } from '../../src/client/db/local-db';
import { PENDING_DELETE } from '../../src/client/sync/mirror-fields';
import { findMachineByEquipmentId } from '../../src/client/sync/use-mirror';

const DRILL = '0190f5a0-0000-7000-8000-0000000000b1';
const LATHE = '0190f5a0-0000-7000-8000-0000000000b2';
const GOING = '0190f5a0-0000-7000-8000-0000000000b3';

describe('findMachineByEquipmentId', () => {
  beforeEach(async () => {
    const machines = getLocalDb().mirror('equipment');
    await machines.clear();
    await machines.bulkPut([
      { nodeid: DRILL, name: 'DRE 02', equipmentid: 'STR-BAZ-01', version: 1 },
      { nodeid: LATHE, name: 'Drehbank', equipmentid: null, version: 1 },
      { nodeid: GOING, name: 'Alt', equipmentid: 'ALT-7', version: 1, [PENDING_DELETE]: true },
    ]);
  });

  it('finds the machine whatever the case, width or surrounding spaces of the typed ID', async () => {
    for (const typed of ['STR-BAZ-01', 'str-baz-01', '  STR-BAZ-01 ', 'ＳＴＲ－ＢＡＺ－０１']) {
      expect((await findMachineByEquipmentId(typed))?.nodeid, typed).toBe(DRILL);
    }
  });

  it('finds none for another ID, a part of one, an empty text or a machine being deleted on this device', async () => {
    for (const typed of ['STR-BAZ-02', 'BAZ-01', '', '   ', 'ALT-7']) {
      expect(await findMachineByEquipmentId(typed), typed).toBeUndefined();
    }
  });
});
