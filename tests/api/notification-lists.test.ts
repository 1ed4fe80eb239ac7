/**
 * The notification lists of part 1 §7: POST /notifications/equipments, /unassigned, /assigned with
 * {equipmentnodeids, lang}; tenant-scoped, newest first (contract: src/shared/api/notification-lists.ts).
 */
import { v4 as uuidv4 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notificationListSchema } from '../../src/shared/api/notification-lists';
import { notificationAssignments } from '../../src/server/db/schema';
import { insertRow } from '../factories/insert';
import { insertNotification } from '../factories/notifications';
import { insertEquipment } from '../factories/structure';
import type { TestTenant } from '../factories/tenant';
import { allFlagsBut, call, userWithFlags } from './support/requests';
import { createTwoTenantApp, type TestApp } from './support/test-app';

describe('notification lists (equipments, unassigned, assigned)', () => {
  let t: TestApp;
  let a: TestTenant;
  let b: TestTenant;
  let adminA: string;
  let adminB: string;
  const ids: Record<string, string> = {};
  let press: string;
  let lathe: string;
  let foreign: string;

  const list = async (authorization: string, name: string, equipmentnodeids: string[] = []) => {
    const response = await call(t, authorization, 'POST', `/api/notifications/${name}`, { equipmentnodeids, lang: 'de' });
    expect(response.statusCode, response.body).toBe(200);
    return notificationListSchema.parse(response.json());
  };
  const titles = (items: { title: string }[]) => items.map((item) => item.title);

  beforeAll(async () => {
    ({ t, a, b, adminA, adminB } = await createTwoTenantApp());
    const db = t.database.db;
    const le = { legalentitynodeid: a.legalEntity.nodeid };
    press = (await insertEquipment(db, { ...le, name: 'Presse' })).nodeid;
    lathe = (await insertEquipment(db, { ...le, name: 'Drehbank' })).nodeid;
    const at = (day: number) => new Date(Date.UTC(2026, 0, day));
    ids.pressOpen = (await insertNotification(db, { ...le, equipmentnodeid: press, title: 'Presse offen', status: 0, created: at(1) })).nodeid;
    ids.pressClosed = (await insertNotification(db, { ...le, equipmentnodeid: press, title: 'Presse erledigt', status: 2, created: at(2), closed: at(3) })).nodeid;
    ids.pressMine = (await insertNotification(db, { ...le, equipmentnodeid: press, title: 'Presse mir zugewiesen', status: 1, created: at(4) })).nodeid;
    ids.latheOther = (await insertNotification(db, { ...le, equipmentnodeid: lathe, title: 'Drehbank anderem zugewiesen', status: 0, created: at(5) })).nodeid;
    ids.latheOpen = (await insertNotification(db, { ...le, equipmentnodeid: lathe, title: 'Drehbank offen', status: 0, created: at(6) })).nodeid;
    const colleague = await userWithFlags(t, a.legalEntity.nodeid, 'notification', [true, true, true, true]);
    await insertRow(db, notificationAssignments, { ...le, nodeid: uuidv4(), notificationnodeid: ids.pressMine, usernodeid: a.admin.nodeid });
    await insertRow(db, notificationAssignments, { ...le, nodeid: uuidv4(), notificationnodeid: ids.latheOther, usernodeid: colleague.usernodeid });
    foreign = (await insertEquipment(db, { legalentitynodeid: b.legalEntity.nodeid, name: 'Fremde Maschine' })).nodeid;
    await insertNotification(db, { legalentitynodeid: b.legalEntity.nodeid, equipmentnodeid: foreign, title: 'Fremd', status: 0 });
  });
  afterAll(() => t?.close());

  it('equipments: every notification of the machines named, all statuses, newest first, with machine and assignees', async () => {
    const items = await list(adminA, 'equipments', [press]);
    expect(titles(items)).toEqual(['Presse mir zugewiesen', 'Presse erledigt', 'Presse offen']);
    expect(items[0]).toMatchObject({ equipmentnodeid: press, isnotificationof: { nodeid: press, name: 'Presse' }, isassignedto: [a.admin.nodeid], status: 1 });
    expect(items[1]!.closed).toBe(Date.UTC(2026, 0, 3));
    expect(titles(await list(adminA, 'equipments', [press, lathe]))).toHaveLength(5);
    expect(await list(adminA, 'equipments', [])).toEqual([]);
  });

  it('unassigned: open notifications nobody is assigned to, of the machines named or of all', async () => {
    expect(titles(await list(adminA, 'unassigned'))).toEqual(['Drehbank offen', 'Presse offen']);
    expect(titles(await list(adminA, 'unassigned', [lathe]))).toEqual(['Drehbank offen']);
  });

  it('assigned: open notifications assigned to the caller', async () => {
    expect(titles(await list(adminA, 'assigned'))).toEqual(['Presse mir zugewiesen']);
    expect(await list(adminA, 'assigned', [lathe])).toEqual([]);
  });

  it('never shows another tenant\'s notifications, even for its machine ids', async () => {
    expect(await list(adminA, 'equipments', [foreign])).toEqual([]);
    expect(titles(await list(adminB, 'equipments', [press, foreign]))).toEqual(['Fremd']);
    expect(titles(await list(adminB, 'unassigned'))).toEqual(['Fremd']);
  });

  it('needs notification read (403) and a valid body (400)', async () => {
    const noRead = await userWithFlags(t, a.legalEntity.nodeid, 'notification', allFlagsBut('read'));
    for (const name of ['equipments', 'unassigned', 'assigned']) {
      expect((await call(t, noRead.authorization, 'POST', `/api/notifications/${name}`, { equipmentnodeids: [press], lang: 'de' })).statusCode).toBe(403);
    }
    expect((await call(t, adminA, 'POST', '/api/notifications/equipments', { equipmentnodeids: ['nope'], lang: 'de' })).statusCode).toBe(400);
    expect((await call(t, adminA, 'POST', '/api/notifications/equipments', { equipmentnodeids: [press], lang: 'fr' })).statusCode).toBe(400);
  });
});
