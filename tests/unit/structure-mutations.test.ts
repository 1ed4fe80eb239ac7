import { describe, expect, it } from 'vitest';
import { moveLinks } from '../../src/shared/domain/assignment';
import { subscriptionNodeId } from '../../src/shared/domain/subscription';
import { MutationInputError, parseMutation } from '../../src/shared/mutations/mutation';
import { assignEquipment, createShifts, updatePool, updateSite } from '../../src/shared/mutations/structure';
import { followStructure } from '../../src/shared/mutations/subscriptions';
import { mutationStep } from '../../src/client/sync/mutate';

const MACHINE = '0190f5a0-0000-7000-8000-000000000101';
const HALL_1 = '0190f5a0-0000-7000-8000-000000000011';
const HALL_2 = '0190f5a0-0000-7000-8000-000000000012';
const POOL = '0190f5a0-0000-7000-8000-000000000021';
const USER = '0190f5a0-0000-7000-8000-0000000000aa';
const context = { now: 1_700_000_000_000, usernodeid: USER };

describe('moving semantics (spec part 2 §4), one rule for server and device', () => {
  it('removes only links the machine still has, then links the target, keeping the link of the other type', () => {
    const links = { areanodeid: HALL_1, equipmentpoolnodeid: POOL };
    expect(moveLinks(links, [{ type: 'area', nodeid: HALL_1 }], { type: 'area', nodeid: HALL_2 })).toEqual({ areanodeid: HALL_2, equipmentpoolnodeid: POOL });
    // Another device moved it to hall 2 meanwhile: unchecking hall 1 leaves it there.
    expect(moveLinks({ areanodeid: HALL_2, equipmentpoolnodeid: null }, [{ type: 'area', nodeid: HALL_1 }], undefined)).toEqual({ areanodeid: HALL_2, equipmentpoolnodeid: null });
    expect(moveLinks(links, [{ type: 'pool', nodeid: POOL }], undefined)).toEqual({ areanodeid: HALL_1, equipmentpoolnodeid: null });
  });
});

describe('assignEquipment', () => {
  const row = { nodeid: MACHINE, areanodeid: HALL_1, equipmentpoolnodeid: POOL, version: 3 };
  const args = (item: Record<string, unknown>) => parseMutation(assignEquipment, { params: {}, body: { payload: [{ equipmentnodeid: MACHINE, ...item }] } });

  it('removes the links the entry names on the first machine of the payload; the new link is not its to guess', () => {
    const move = args({ isequipmentof: HALL_2, deleteequipmentof: [{ type: 'area', nodeid: HALL_1 }] });
    expect(assignEquipment.target(move)).toBe(MACHINE);
    expect(assignEquipment.apply!(row, move, context)).toEqual({ areanodeid: null });
    expect(assignEquipment.apply!(row, args({ isequipmentof: HALL_2 }), context)).toEqual({});
    expect(assignEquipment.apply!(row, args({ isequipmentof: null, deleteequipmentof: [{ type: 'pool', nodeid: POOL }] }), context)).toEqual({ equipmentpoolnodeid: null });
    // Another device moved it meanwhile: unchecking hall 2 leaves hall 1.
    expect(assignEquipment.apply!(row, args({ isequipmentof: null, deleteequipmentof: [{ type: 'area', nodeid: HALL_2 }] }), context)).toEqual({ areanodeid: HALL_1 });
  });

  it('the device writes the new link from its form over the removal; only the payload reaches the wire', async () => {
    const step = mutationStep(assignEquipment, { params: {}, body: { payload: [{ equipmentnodeid: MACHINE, isequipmentof: HALL_2, deleteequipmentof: [{ type: 'area', nodeid: HALL_1 }] }] } }, { values: { areanodeid: HALL_2 } });
    expect(step).toMatchObject({ method: 'POST', path: 'assign/equipments', kind: 'equipment', nodeid: MACHINE, body: { payload: [{ equipmentnodeid: MACHINE, isequipmentof: HALL_2 }] } });
    const values = step.values as (existing: typeof row, applyContext: typeof context) => Record<string, unknown>;
    expect(values(row, context)).toEqual({ areanodeid: HALL_2 });
  });
});

describe('structure declarations', () => {
  it('updateSite changes only the fields sent; input the route refuses is a MutationInputError naming the field', () => {
    const site = '0190f5a0-0000-7000-8000-000000000001';
    expect(updateSite.apply!(undefined, parseMutation(updateSite, { params: { id: site }, body: { sitenodeid: site, city: ' Ulm ' } }), context)).toEqual({ city: 'Ulm' });
    const refused = (() => {
      try {
        mutationStep(updateSite, { params: { id: site }, body: { sitenodeid: site, zipcode: ' ' } });
      } catch (error) {
        return error;
      }
    })();
    expect(refused).toBeInstanceOf(MutationInputError);
    expect((refused as MutationInputError).fieldErrors()).toEqual({ zipcode: 'Required' });
  });

  it('updatePool writes the name under lang and keeps the other languages of the row', () => {
    const parsed = parseMutation(updatePool, { params: { id: POOL }, body: { lang: 'en', name: 'Industrial trucks' } });
    expect(updatePool.apply!({ nodeid: POOL, name: { de: 'Flurförderzeuge' } }, parsed, context)).toEqual({ name: { de: 'Flurförderzeuge', en: 'Industrial trucks' } });
  });

  it('createShifts keeps the saved rows and the owner on the model row (mirror-only fields)', () => {
    const nodeid = '0190f5a0-0000-7000-8000-000000000201';
    const parsed = parseMutation(createShifts, { params: {}, body: { nodeid, shiftmodelof: HALL_1, shifts: [{ start: '06:00', end: '13:59', weekdays: [1] }] } });
    expect(createShifts.apply!(undefined, parsed, context)).toEqual({ shifts: [{ start: '06:00', end: '13:59', weekdays: [1], unmanned: false }], ownernodeid: HALL_1 });
  });

  it('followStructure writes the entry under the id derived from user and target', () => {
    const parsed = parseMutation(followStructure, { params: {}, body: { usernodeid: USER, areanodeid: HALL_1 } });
    expect(followStructure.target(parsed)).toBe(subscriptionNodeId(USER, HALL_1));
    expect(followStructure.apply!(undefined, parsed, context)).toEqual({ usernodeid: USER, sitenodeid: null, areanodeid: HALL_1, equipmentpoolnodeid: null });
  });
});
