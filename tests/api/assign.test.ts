import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import { ACCESS_DENIED_MESSAGE } from '../../src/shared/api/errors';
import { ALL } from '../../src/shared/permissions';
import { equipment, recordHistory } from '../../src/server/db/schema';
import { insertArea, insertEquipment, insertEquipmentPool, insertSite } from '../factories/structure';
import type { TestTenant } from '../factories/tenant';
import { tenantVersion } from './support/db-queries';
import { allFlagsBut, call, onlyFlag, userWithFlags } from './support/requests';
import { changeOf, pullChanges, sentTwice } from './support/structure';
import { createTwoTenantApp, type TestApp } from './support/test-app';

describe('POST /api/assign/equipments (selection dialog, §4 moving semantics)', () => {
  let t: TestApp;
  let a: TestTenant;
  let b: TestTenant;
  let adminA: string;
  let adminB: string;
  let ids: { area1: string; area2: string; pool1: string; pool2: string };

  const links = async (nodeids: string[]) =>
    Object.fromEntries(
      (await t.database.db.select({ nodeid: equipment.nodeid, areanodeid: equipment.areanodeid, equipmentpoolnodeid: equipment.equipmentpoolnodeid }).from(equipment).where(inArray(equipment.nodeid, nodeids))).map((r) => [
        r.nodeid,
        [r.areanodeid, r.equipmentpoolnodeid],
      ]),
    );

  beforeAll(async () => {
    ({ t, a, b, adminA, adminB } = await createTwoTenantApp());
    const le = a.legalEntity.nodeid;
    ids = {
      area1: (await insertArea(t.database.db, { legalentitynodeid: le })).nodeid,
      area2: (await insertArea(t.database.db, { legalentitynodeid: le })).nodeid,
      pool1: (await insertEquipmentPool(t.database.db, { legalentitynodeid: le })).nodeid,
      pool2: (await insertEquipmentPool(t.database.db, { legalentitynodeid: le })).nodeid,
    };
  });
  afterAll(() => t?.close());

  it('moves checked machines in (replacing the old link of that kind), removes unchecked ones, all in one version', async () => {
    const le = a.legalEntity.nodeid;
    const m1 = (await insertEquipment(t.database.db, { legalentitynodeid: le, areanodeid: ids.area1, equipmentpoolnodeid: ids.pool1 })).nodeid;
    const m2 = (await insertEquipment(t.database.db, { legalentitynodeid: le, areanodeid: ids.area2 })).nodeid;
    const m3 = (await insertEquipment(t.database.db, { legalentitynodeid: le, equipmentpoolnodeid: ids.pool1 })).nodeid;
    const v0 = await tenantVersion(t.database.db, le);
    const response = await call(t, adminA, 'POST', '/api/assign/equipments', {
      payload: [
        // checked in area 2: leaves area 1, keeps pool 1
        { equipmentnodeid: m1, isequipmentof: ids.area2, deleteequipmentof: [{ type: 'area', nodeid: ids.area1 }] },
        // unchecked in area 2
        { equipmentnodeid: m2, isequipmentof: null, deleteequipmentof: [{ type: 'area', nodeid: ids.area2 }] },
        // checked in pool 2: leaves pool 1
        { equipmentnodeid: m3, isequipmentof: ids.pool2 },
      ],
    });
    expect(response.statusCode, response.body).toBe(200);
    // The answer: each machine's row, in payload order, all with the write's one version.
    const result = response.json() as { nodeid: string; areanodeid: string | null; equipmentpoolnodeid: string | null; version: number }[];
    expect(await tenantVersion(t.database.db, le)).toBe(v0 + 1);
    expect(await links([m1, m2, m3])).toEqual({ [m1]: [ids.area2, ids.pool1], [m2]: [null, null], [m3]: [null, ids.pool2] });
    expect(result.map(({ nodeid, areanodeid, equipmentpoolnodeid, version }) => ({ nodeid, areanodeid, equipmentpoolnodeid, version }))).toEqual([
      { nodeid: m1, areanodeid: ids.area2, equipmentpoolnodeid: ids.pool1, version: v0 + 1 },
      { nodeid: m2, areanodeid: null, equipmentpoolnodeid: null, version: v0 + 1 },
      { nodeid: m3, areanodeid: null, equipmentpoolnodeid: ids.pool2, version: v0 + 1 },
    ]);
    const history = await t.database.db.select().from(recordHistory).where(eq(recordHistory.nodeid, m1));
    expect(history.at(-1)?.changes).toEqual({ areanodeid: { old: ids.area1, new: ids.area2 } });
    // Each answered row is the row the next pull brings.
    const changes = await pullChanges(t, adminA, v0);
    expect(changeOf(changes, 'equipment', m2)).toMatchObject({ version: v0 + 1, data: { areanodeid: null } });
    for (const row of result) expect(changeOf(changes, 'equipment', row.nodeid).data).toEqual(row);
  });

  it('ignores removing a link the machine no longer has (another device moved it first)', async () => {
    const m = (await insertEquipment(t.database.db, { legalentitynodeid: a.legalEntity.nodeid, areanodeid: ids.area2 })).nodeid;
    const response = await call(t, adminA, 'POST', '/api/assign/equipments', { payload: [{ equipmentnodeid: m, deleteequipmentof: [{ type: 'area', nodeid: ids.area1 }] }] });
    expect(response.statusCode).toBe(200);
    expect(await links([m])).toEqual({ [m]: [ids.area2, null] });
  });

  it('400 for a bad type or a missing target, 404 for unknown or foreign machines and targets; nothing written', async () => {
    const m = (await insertEquipment(t.database.db, { legalentitynodeid: a.legalEntity.nodeid, areanodeid: ids.area1 })).nodeid;
    const bad = await call(t, adminA, 'POST', '/api/assign/equipments', { payload: [{ equipmentnodeid: m, deleteequipmentof: [{ type: 'site', nodeid: ids.area1 }] }] });
    expect(bad.json()).toMatchObject({ statusCode: 400, details: [{ field: 'payload.0.deleteequipmentof.0.type' }] });
    expect((await call(t, adminA, 'POST', '/api/assign/equipments', { payload: [{ equipmentnodeid: m }] })).json()).toMatchObject({ statusCode: 400, details: [{ field: 'payload.0.isequipmentof' }] });
    const foreignArea = await insertArea(t.database.db, { legalentitynodeid: b.legalEntity.nodeid });
    const v0 = await tenantVersion(t.database.db, a.legalEntity.nodeid);
    const response = await call(t, adminA, 'POST', '/api/assign/equipments', {
      payload: [
        { equipmentnodeid: m, isequipmentof: ids.area2 },
        { equipmentnodeid: m, isequipmentof: foreignArea.nodeid },
      ],
    });
    expect(response.statusCode).toBe(404);
    expect(await links([m])).toEqual({ [m]: [ids.area1, null] });
    expect(await tenantVersion(t.database.db, a.legalEntity.nodeid)).toBe(v0);
    expect((await call(t, adminB, 'POST', '/api/assign/equipments', { payload: [{ equipmentnodeid: m, isequipmentof: foreignArea.nodeid }] })).statusCode).toBe(404);
  });

  it('404 for an unknown or foreign deleteequipmentof target too, nothing written for the whole request; an area or pool the tenant deleted is a no-op', async () => {
    const le = a.legalEntity.nodeid;
    const m = (await insertEquipment(t.database.db, { legalentitynodeid: le, areanodeid: ids.area1, equipmentpoolnodeid: ids.pool1 })).nodeid;
    const foreignArea = (await insertArea(t.database.db, { legalentitynodeid: b.legalEntity.nodeid })).nodeid;
    const foreignDeleted = (await insertArea(t.database.db, { legalentitynodeid: b.legalEntity.nodeid })).nodeid;
    expect((await call(t, adminB, 'DELETE', `/api/areas/${foreignDeleted}`)).statusCode).toBe(200);
    const v0 = await tenantVersion(t.database.db, le);
    for (const [what, removal] of [
      ['an unknown area', { type: 'area', nodeid: uuidv7() }],
      ['an unknown pool', { type: 'pool', nodeid: uuidv7() }],
      ["another tenant's area", { type: 'area', nodeid: foreignArea }],
      ['an area another tenant deleted', { type: 'area', nodeid: foreignDeleted }],
      ['an area named as a pool', { type: 'pool', nodeid: ids.area1 }],
    ] as const) {
      const response = await call(t, adminA, 'POST', '/api/assign/equipments', {
        payload: [
          // a valid move first: the refusal takes it back too
          { equipmentnodeid: m, isequipmentof: ids.area2, deleteequipmentof: [{ type: 'area', nodeid: ids.area1 }] },
          { equipmentnodeid: m, deleteequipmentof: [removal] },
        ],
      });
      expect(response.statusCode, what).toBe(404);
      expect(response.json(), what).toMatchObject({ message: 'Area or equipment pool not found' });
      expect(response.body, what).not.toContain(removal.nodeid);
    }
    expect(await links([m])).toEqual({ [m]: [ids.area1, ids.pool1] });
    expect(await tenantVersion(t.database.db, le)).toBe(v0);

    // A colleague deleted the area and the pool the device still shows the machine in: the device's queued move
    // names them as the old links; they are gone already, so removing them is nothing, and the move goes through.
    const goneArea = (await insertArea(t.database.db, { legalentitynodeid: le })).nodeid;
    const gonePool = (await insertEquipmentPool(t.database.db, { legalentitynodeid: le })).nodeid;
    const n = (await insertEquipment(t.database.db, { legalentitynodeid: le, areanodeid: goneArea, equipmentpoolnodeid: gonePool })).nodeid;
    expect((await call(t, adminA, 'DELETE', `/api/areas/${goneArea}`)).statusCode).toBe(200);
    expect((await call(t, adminA, 'DELETE', `/api/equipmentpools/${gonePool}`)).statusCode).toBe(200);
    const moved = await call(t, adminA, 'POST', '/api/assign/equipments', {
      payload: [
        { equipmentnodeid: n, isequipmentof: ids.area2, deleteequipmentof: [{ type: 'area', nodeid: goneArea }] },
        { equipmentnodeid: n, isequipmentof: null, deleteequipmentof: [{ type: 'pool', nodeid: gonePool }] },
      ],
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(await links([n])).toEqual({ [n]: [ids.area2, null] });
    // Only the removal of a deleted one: nothing changes, no version.
    const v1 = await tenantVersion(t.database.db, le);
    const removal = await call(t, adminA, 'POST', '/api/assign/equipments', { payload: [{ equipmentnodeid: n, deleteequipmentof: [{ type: 'area', nodeid: goneArea }] }] });
    expect(removal.statusCode, removal.body).toBe(200);
    expect(await tenantVersion(t.database.db, le)).toBe(v1);
  });

  it('401 without a token; 403 without equipment update, allowed with only it', async () => {
    expect((await t.app.inject({ method: 'POST', url: '/api/assign/equipments', payload: { payload: [] } })).statusCode).toBe(401);
    const m = (await insertEquipment(t.database.db, { legalentitynodeid: a.legalEntity.nodeid })).nodeid;
    const body = { payload: [{ equipmentnodeid: m, isequipmentof: ids.pool1 }] };
    const without = await userWithFlags(t, a.legalEntity.nodeid, 'equipment', allFlagsBut('update'));
    const denied = await call(t, without.authorization, 'POST', '/api/assign/equipments', body);
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toMatchObject({ message: ACCESS_DENIED_MESSAGE });
    const withOnly = await userWithFlags(t, a.legalEntity.nodeid, 'equipment', onlyFlag('update'));
    expect((await call(t, withOnly.authorization, 'POST', '/api/assign/equipments', body)).statusCode).toBe(200);
  });

  it('a create that carries moves of existing machines (area, pool, machine, import) needs equipment update too: 403, nothing moved or created', async () => {
    const le = a.legalEntity.nodeid;
    const m = (await insertEquipment(t.database.db, { legalentitynodeid: le, areanodeid: ids.area1, equipmentpoolnodeid: ids.pool1 })).nodeid;
    const site = (await insertSite(t.database.db, { legalentitynodeid: le })).nodeid;
    // Every flag (site, pool and machine create included) but equipment update.
    const without = await userWithFlags(t, le, 'equipment', allFlagsBut('update'));
    const [{ type }] = (await t.database.db.select({ type: equipment.equipmenttypenodeid }).from(equipment).where(eq(equipment.nodeid, m))) as [{ type: string }];
    const machine = (overrides: Record<string, unknown>) => ({ lang: 'de', name: 'Neu', constructiondate: Date.UTC(2015, 0, 1), isequipmentof: [ids.area2], equipmenttypenodeid: type, ...overrides });
    const carriers: [string, string, unknown][] = [
      ['area', '/api/areas', { lang: 'de', name: 'Neuer Bereich', sitenodeid: site, assign: { payload: [{ equipmentnodeid: m, deleteequipmentof: [{ type: 'pool', nodeid: ids.pool1 }] }] } }],
      ['pool', '/api/equipmentpools', { lang: 'de', name: 'Neuer Pool', assign: { payload: [{ equipmentnodeid: m }] } }],
      ['machine', '/api/equipments', machine({ assign: { payload: [{ equipmentnodeid: m, isequipmentof: ids.area2 }] } })],
      ['import', '/api/equipments/bulk', { items: [machine({ assign: { payload: [{ equipmentnodeid: m, isequipmentof: ids.pool2 }] } })] }],
    ];
    const v0 = await tenantVersion(t.database.db, le);
    for (const [what, url, body] of carriers) {
      const denied = await call(t, without.authorization, 'POST', url, body);
      expect(denied.statusCode, `${what}: ${denied.body}`).toBe(403);
      // (the import names the item: `items.0: …`)
      expect((denied.json() as { message: string }).message).toContain(ACCESS_DENIED_MESSAGE);
    }
    expect(await links([m])).toEqual({ [m]: [ids.area1, ids.pool1] });
    expect(await tenantVersion(t.database.db, le)).toBe(v0);

    // The creates themselves stay theirs: without moves, or moving only the machine the write creates.
    expect((await call(t, without.authorization, 'POST', '/api/areas', { lang: 'de', name: 'Bereich ohne Geräte', sitenodeid: site })).statusCode).toBe(201);
    expect((await call(t, without.authorization, 'POST', '/api/equipmentpools', { lang: 'de', name: 'Pool ohne Geräte', assign: { payload: [] } })).statusCode).toBe(201);
    const own = uuidv7();
    const created = await call(t, without.authorization, 'POST', '/api/equipments', machine({ equipmentnodeid: own, assign: { payload: [{ equipmentnodeid: own, isequipmentof: ids.pool2 }] } }));
    expect(created.statusCode, created.body).toBe(201);
    expect(await links([own])).toEqual({ [own]: [ids.area2, ids.pool2] });

    // With equipment update the same move through an area's create goes through.
    const mover = await userWithFlags(t, le, 'site', ALL);
    const moved = await call(t, mover.authorization, 'POST', '/api/areas', carriers[0]![2]);
    expect(moved.statusCode, moved.body).toBe(201);
    expect(await links([m])).toEqual({ [m]: [(moved.json() as { nodeid: string }).nodeid, null] });
  });

  it('replays under the same mutation id without a second version', async () => {
    const m = (await insertEquipment(t.database.db, { legalentitynodeid: a.legalEntity.nodeid })).nodeid;
    const body = { payload: [{ equipmentnodeid: m, isequipmentof: ids.area1 }] };
    await sentTwice(t, adminA, 'POST', '/api/assign/equipments', body, { unchanged: () => tenantVersion(t.database.db, a.legalEntity.nodeid) });
  });
});
