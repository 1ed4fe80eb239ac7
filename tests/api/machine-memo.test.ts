/**
 * The machine memo (part 1 §2.1, §7) through its declaration `updateEquipmentMemo`: every request here is built
 * from the declaration (method, path, body) exactly as the device queues it, and goes through the real route.
 */
import { eq } from 'drizzle-orm';
import { v4 as uuidv4 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_DENIED_MESSAGE, apiErrorSchema } from '../../src/shared/api/errors';
import { updateEquipmentMemo } from '../../src/shared/mutations/machine-memo';
import { mutationPath, parseMutation } from '../../src/shared/mutations/mutation';
import { equipment, syncMutations } from '../../src/server/db/schema';
import { insertEquipment } from '../factories/structure';
import type { TestTenant } from '../factories/tenant';
import { rowCount, tenantVersion } from './support/db-queries';
import { allFlagsBut, userWithFlags } from './support/requests';
import { changeOf, pullChanges, send, sentTwice } from './support/structure';
import { createTwoTenantApp, type TestApp } from './support/test-app';

describe('machine memo (updateEquipmentMemo)', () => {
  let t: TestApp;
  let a: TestTenant;
  let adminA: string;
  let adminB: string;

  const memoBody = (machine: string, memo: string | null) => ({ lang: 'de' as const, equipmentnodeid: machine, memo });
  /** The memo save as the device sends it: the declaration's method and path, optionally with the outbox headers. */
  const memoUrl = (machine: string) => `/api/${mutationPath(updateEquipmentMemo, { id: machine })}`;
  const saveMemo = (authorization: string, machine: string, memo: string | null, headers: Record<string, string> = {}) =>
    send(t, authorization, updateEquipmentMemo.method, memoUrl(machine), memoBody(machine, memo), headers);
  const newMachine = async (memo: string | null = null) => (await insertEquipment(t.database.db, { legalentitynodeid: a.legalEntity.nodeid, name: 'BAZ 02 Fräszentrum', memo })).nodeid;

  beforeAll(async () => {
    ({ t, a, adminA, adminB } = await createTwoTenantApp());
  });
  afterAll(() => t?.close());

  it('is a route of the server (the declaration names an existing write, nothing new is registered)', () => {
    expect(t.app.hasRoute({ method: updateEquipmentMemo.method, url: `/api${updateEquipmentMemo.route}` })).toBe(true);
  });

  it('stores the memo and answers 200 with it; the change feed row is what the declaration computes on the device', async () => {
    const machine = await newMachine('Alt');
    const typed = '  Ölstand wöchentlich prüfen\nSpannmittel-Satz 3 im Schrank  ';

    const response = await saveMemo(adminA, machine, typed);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ nodeid: machine, memo: 'Ölstand wöchentlich prüfen\nSpannmittel-Satz 3 im Schrank' });

    const device = updateEquipmentMemo.apply!({ nodeid: machine, memo: 'Alt' }, parseMutation(updateEquipmentMemo, { params: { id: machine }, body: memoBody(machine, typed) }), { now: Date.now(), usernodeid: a.admin.nodeid });
    const change = changeOf(await pullChanges(t, adminA, 0), 'equipment', machine);
    expect(change.data).toMatchObject({ ...device, name: 'BAZ 02 Fräszentrum' });
  });

  it('an empty memo unsets it (null), as on the device', async () => {
    const machine = await newMachine('Alt');
    const response = await saveMemo(adminA, machine, '   ');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ memo: null });
    expect(changeOf(await pullChanges(t, adminA, 0), 'equipment', machine).data).toMatchObject({ memo: null });
  });

  it('refuses a memo over 5000 characters with 400 naming `memo`, writing nothing', async () => {
    const machine = await newMachine('Alt');
    const version = await tenantVersion(t.database.db, a.legalEntity.nodeid);
    const response = await saveMemo(adminA, machine, 'x'.repeat(5001));
    expect(response.statusCode).toBe(400);
    expect(apiErrorSchema.parse(response.json()).details?.map((detail) => detail.field)).toEqual(['memo']);
    expect(await tenantVersion(t.database.db, a.legalEntity.nodeid)).toBe(version);
    const [row] = await t.database.db.select({ memo: equipment.memo }).from(equipment).where(eq(equipment.nodeid, machine));
    expect(row?.memo).toBe('Alt');
  });

  it('answers 403 to a user without the equipment update flag (the permission the declaration names)', async () => {
    expect(updateEquipmentMemo.permission).toEqual({ feature: 'equipment', flag: 'update' });
    const machine = await newMachine('Alt');
    const { authorization } = await userWithFlags(t, a.legalEntity.nodeid, 'equipment', allFlagsBut('update'));
    const response = await saveMemo(authorization, machine, 'Neu');
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ message: ACCESS_DENIED_MESSAGE });
  });

  it('answers 404 for another tenant’s machine and leaves its memo alone', async () => {
    const machine = await newMachine('Alt');
    const response = await saveMemo(adminB, machine, 'Gekapert');
    expect(response.statusCode).toBe(404);
    const [row] = await t.database.db.select({ memo: equipment.memo }).from(equipment).where(eq(equipment.nodeid, machine));
    expect(row?.memo).toBe('Alt');
  });

  it('with X-Client-Id/X-Mutation-Id: applied once, a resend answers the stored result', async () => {
    const machine = await newMachine(null);
    const clientid = uuidv4();
    const unchanged = () => tenantVersion(t.database.db, a.legalEntity.nodeid);
    await sentTwice(t, adminA, updateEquipmentMemo.method, memoUrl(machine), memoBody(machine, 'Offline geschrieben'), { clientid, status: 200, unchanged });
    expect(await rowCount(t.database.db, syncMutations, eq(syncMutations.clientid, clientid))).toBe(1);
    expect(changeOf(await pullChanges(t, adminA, 0), 'equipment', machine).data).toMatchObject({ memo: 'Offline geschrieben' });
  });
});
