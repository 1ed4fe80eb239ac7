import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorSchema } from '../../src/shared/api/errors';
import { isStaleStatusRefusal, notificationChangesSchema, notificationSchema, type CreateNotificationInput } from '../../src/shared/api/notifications';
import type { NotificationStatus } from '../../src/shared/domain/notification';
import { notificationRowSchema, type NotificationRow } from '../../src/shared/rows/notifications';
import type { Db } from '../../src/server/db/client';
import { attachments, notifications, recordHistory, reports, syncClients, tombstones, workflowSteps, workflows } from '../../src/server/db/schema';
import { insertFile } from '../factories/files';
import { insertArea, insertEquipment } from '../factories/structure';
import type { TestTenant } from '../factories/tenant';
import { itChecksEachFlag } from './support/permission-matrix';
import { call, type Method, postCreated } from './support/requests';
import { changeOf, pullChanges, send, sentTwice } from './support/structure';
import { createTwoTenantApp, type TestApp } from './support/test-app';
import { rowCount, tenantVersion } from './support/db-queries';

const HOUR = 3_600_000;

const notificationCount = (db: Db) => rowCount(db, notifications);

describe('notifications', () => {
  let t: TestApp;
  let a: TestTenant;
  let b: TestTenant;
  let adminA: string;
  let adminB: string;
  let machineA: string;
  let machineB: string;

  const input = (overrides: Partial<CreateNotificationInput> = {}): CreateNotificationInput => ({
    lang: 'de',
    nodeid: uuidv7(),
    type: 0,
    title: 'Spindel blockiert',
    description: 'Spindel dreht nicht mehr hoch',
    errorcode: 'E-4711',
    equipmentnodeid: machineA,
    dueuntil: null,
    ...overrides,
  });

  /** The create's answer: the notification's row as the change feed sends it (unset times null). */
  const create = (overrides: Partial<CreateNotificationInput> = {}, authorization = adminA): Promise<NotificationRow> => postCreated(t, authorization, '/api/notifications', input(overrides), notificationRowSchema);
  const put = (nodeid: string, body: Record<string, unknown>, authorization = adminA) => call(t, authorization, 'PUT', `/api/notifications/${nodeid}`, body);

  beforeAll(async () => {
    ({ t, a, b, adminA, adminB } = await createTwoTenantApp());
    const area = await insertArea(t.database.db, { legalentitynodeid: a.legalEntity.nodeid, name: 'Halle 1' });
    machineA = (await insertEquipment(t.database.db, { legalentitynodeid: a.legalEntity.nodeid, name: 'Fräse DMU 50', areanodeid: area.nodeid })).nodeid;
    machineB = (await insertEquipment(t.database.db, { legalentitynodeid: b.legalEntity.nodeid })).nodeid;
  });
  afterAll(() => t?.close());

  describe('create and read', () => {
    it('creates with the device-chosen nodeid; the author is the caller; answers the row the change feed sends; GET shows machine, area and author', async () => {
      const before = await tenantVersion(t.database.db, a.legalEntity.nodeid);
      const nodeid = uuidv7();
      const created = await create({ nodeid });
      expect(created).toMatchObject({
        nodeid,
        type: 0,
        status: 0,
        title: 'Spindel blockiert',
        errorcode: 'E-4711',
        progressstarted: null,
        closed: null,
        equipmentnodeid: machineA,
        authornodeid: a.admin.nodeid,
      });
      expect(created.version).toBe(before + 1);
      expect(changeOf(await pullChanges(t, adminA, before), 'notifications', nodeid).data).toEqual(created);

      const read = await call(t, adminA, 'GET', `/api/notifications/${nodeid}?lang=de`);
      expect(read.statusCode).toBe(200);
      const shown = notificationSchema.parse(read.json());
      expect(shown).toMatchObject({
        nodeid,
        title: 'Spindel blockiert',
        created: created.created,
        progressstarted: 0,
        closed: 0,
        isnotificationof: { nodeid: machineA, name: 'Fräse DMU 50', area: { name: 'Halle 1' }, pool: null },
        hasauthor: { nodeid: a.admin.nodeid, givenname: a.admin.givenname, surname: a.admin.surname },
        counts: { hasworkflow: 0, hasreport: 0, hasattachment: 0, hascost: 0 },
        version: created.version,
      });
      expect(shown.isnotificationof.brand).toEqual(expect.any(String));
    });

    it('answers 409 for a plain re-POST of an existing nodeid, and writes nothing', async () => {
      const created = await create();
      const before = await notificationCount(t.database.db);
      const again = await call(t, adminA, 'POST', '/api/notifications', input({ nodeid: created.nodeid, title: 'Anders' }));
      expect(again.statusCode).toBe(409);
      expect(await notificationCount(t.database.db)).toBe(before);
    });

    it('two creates of one nodeid at once: one is created, the other answers 409; one row, one version', async () => {
      for (let round = 0; round < 5; round++) {
        const nodeid = uuidv7();
        const before = await tenantVersion(t.database.db, a.legalEntity.nodeid);
        const answers = await Promise.all([0, 1].map((n) => call(t, adminA, 'POST', '/api/notifications', input({ nodeid, title: `Gleichzeitig ${n}` }))));
        expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409]);
        expect(await rowCount(t.database.db, notifications, eq(notifications.nodeid, nodeid))).toBe(1);
        expect(await tenantVersion(t.database.db, a.legalEntity.nodeid)).toBe(before + 1);
      }
    });

    it('clamps the device creation time to the server now', async () => {
      const created = await create({ created: Date.now() + 24 * HOUR });
      expect(created.created).toBeLessThanOrEqual(Date.now());
      const earlier = Date.now() - 5 * 24 * HOUR;
      expect((await create({ created: earlier })).created).toBe(earlier);
    });

    it('takes the server time for a report dated by a clock that was never set (1970)', async () => {
      const before = Date.now();
      for (const created of [0, 86_400_000]) {
        const answer = await create({ created, status: 2, progressstarted: created, closed: created });
        expect(answer.created).toBeGreaterThanOrEqual(before);
        expect(answer.progressstarted).toBeGreaterThanOrEqual(before);
        expect(answer.closed).toBeGreaterThanOrEqual(before);
      }
    });

    it('creates directly as closed with both timestamps from the device, clamped', async () => {
      const createdAt = Date.now() - 2 * HOUR;
      const created = await create({ created: createdAt, status: 2, progressstarted: createdAt - HOUR, closed: createdAt + HOUR });
      expect(created).toMatchObject({ status: 2, progressstarted: createdAt, closed: createdAt + HOUR });
    });
  });

  describe('validation', () => {
    it.each([
      ['title', undefined],
      ['title', '   '],
      ['type', 4],
      ['type', 13],
      ['equipmentnodeid', 'nope'],
      ['status', 3],
      ['dueuntil', -5],
    ])('%s = %j answers 400 naming the field; nothing is written', async (field, value) => {
      const before = await notificationCount(t.database.db);
      const body: Record<string, unknown> = { ...input() };
      if (value === undefined) delete body[field];
      else body[field] = value;
      const response = await call(t, adminA, 'POST', '/api/notifications', body);
      expect(response.statusCode).toBe(400);
      expect(apiErrorSchema.parse(response.json()).details?.map((d) => d.field)).toEqual([field]);
      expect(await notificationCount(t.database.db)).toBe(before);
    });

    it('rejects an update to type 4 and a body nodeid other than the path', async () => {
      const n = await create();
      const typed = await put(n.nodeid, { type: 4 });
      expect(typed.statusCode).toBe(400);
      expect(typed.json()).toMatchObject({ details: [{ field: 'type' }] });
      const wrongId = await put(n.nodeid, { nodeid: uuidv7(), title: 'X' });
      expect(wrongId.statusCode).toBe(400);
      expect((await call(t, adminA, 'GET', `/api/notifications/${n.nodeid}`)).json()).toMatchObject({ title: 'Spindel blockiert', type: 0 });
    });
  });

  describe('tenant scope', () => {
    it("answers 404 for another tenant's machine on create and on update", async () => {
      const before = await notificationCount(t.database.db);
      expect((await call(t, adminA, 'POST', '/api/notifications', input({ equipmentnodeid: machineB }))).statusCode).toBe(404);
      expect(await notificationCount(t.database.db)).toBe(before);
      const n = await create();
      expect((await put(n.nodeid, { equipmentnodeid: machineB })).statusCode).toBe(404);
    });

    it("answers 404 for another tenant's notification on every route, and changes nothing", async () => {
      const n = await create();
      for (const [method, payload] of [['GET'], ['PUT', { title: 'Fremd' }], ['DELETE']] as [Method, unknown?][]) {
        const response = await call(t, adminB, method, `/api/notifications/${n.nodeid}`, payload);
        expect(response.statusCode, method).toBe(404);
      }
      expect((await call(t, adminA, 'GET', `/api/notifications/${n.nodeid}`)).json()).toMatchObject({ title: 'Spindel blockiert' });
    });
  });

  describe('permissions (feature key notification)', () => {
    itChecksEachFlag({
      tenant: () => ({ t, legalentitynodeid: a.legalEntity.nodeid }),
      feature: 'notification',
      routes: [
        { flag: 'create', name: 'POST /api/notifications', request: () => ['POST', '/api/notifications', input()], ok: 201 },
        { flag: 'read', name: 'GET /api/notifications/{nodeid}', request: (n) => ['GET', `/api/notifications/${n}`], ok: 200 },
        { flag: 'update', name: 'PUT /api/notifications/{nodeid}', request: (n) => ['PUT', `/api/notifications/${n}`, { title: 'Neu' }], ok: 200 },
        { flag: 'delete', name: 'DELETE /api/notifications/{nodeid}', request: (n) => ['DELETE', `/api/notifications/${n}`], ok: 200 },
      ],
      subject: async () => (await create()).nodeid,
      state: () => notificationCount(t.database.db),
      afterRefusal: async (n) => {
        expect((await call(t, adminA, 'GET', `/api/notifications/${n}`)).json()).toMatchObject({ title: 'Spindel blockiert' });
      },
    });
  });

  describe('status transitions (§4.2) on the server status', () => {
    /** Brings a fresh notification to `from` and returns it with its timestamps. */
    async function notificationIn(from: NotificationStatus): Promise<NotificationRow> {
      const created = await create({ created: Date.now() - 10 * HOUR });
      if (from === 0) return created;
      const response = await put(created.nodeid, { status: from, previousStatus: 0, onlyStatusUpdate: true, progressstarted: Date.now() - 5 * HOUR, closed: Date.now() - 5 * HOUR });
      expect(response.statusCode).toBe(200);
      return notificationRowSchema.parse(response.json());
    }

    it.each([
      { from: 0, to: 1, progressstarted: 'device', closed: 'unset' },
      { from: 0, to: 2, progressstarted: 'device', closed: 'device' },
      { from: 1, to: 2, progressstarted: 'kept', closed: 'device' },
      { from: 1, to: 0, progressstarted: 'unset', closed: 'unset' },
      { from: 2, to: 1, progressstarted: 'kept', closed: 'unset' },
      { from: 2, to: 0, progressstarted: 'unset', closed: 'unset' },
    ] as const)('$from → $to: progressstarted $progressstarted, closed $closed', async ({ from, to, progressstarted, closed }) => {
      const n = await notificationIn(from);
      const deviceTime = Date.now() - HOUR;
      const response = await put(n.nodeid, { nodeid: n.nodeid, status: to, previousStatus: from, onlyStatusUpdate: true, progressstarted: deviceTime, closed: deviceTime, title: n.title, type: n.type, description: n.description, equipmentnodeid: n.equipmentnodeid });
      expect(response.statusCode, response.body).toBe(200);
      const after = notificationRowSchema.parse(response.json());
      expect(after.status).toBe(to);
      const expected = (rule: 'device' | 'unset' | 'kept', before: number | null) => (rule === 'device' ? deviceTime : rule === 'unset' ? null : before);
      expect(after.progressstarted).toBe(expected(progressstarted, n.progressstarted));
      expect(after.closed).toBe(expected(closed, n.closed));
    });

    it('sets server now when the device sends no timestamp', async () => {
      const n = await notificationIn(0);
      const before = Date.now();
      const after = notificationRowSchema.parse((await put(n.nodeid, { status: 1, onlyStatusUpdate: true })).json());
      expect(after.progressstarted).toBeGreaterThanOrEqual(before);
      expect(after.progressstarted).toBeLessThanOrEqual(Date.now());
    });

    it('clamps device timestamps to [created, server now]', async () => {
      const createdAt = Date.now() - 10 * HOUR;
      const n = await create({ created: createdAt });
      const early = notificationRowSchema.parse((await put(n.nodeid, { status: 1, previousStatus: 0, progressstarted: createdAt - 48 * HOUR })).json());
      expect(early.progressstarted).toBe(createdAt);
      const late = notificationRowSchema.parse((await put(n.nodeid, { status: 2, previousStatus: 1, closed: Date.now() + 48 * HOUR })).json());
      expect(late.closed).toBeLessThanOrEqual(Date.now());
      expect(late.closed).toBeGreaterThan(Date.now() - 60_000);
    });

    it('applies the transition from the server status, not the one the device saw, and records what the device saw', async () => {
      const n = await notificationIn(1);
      // The device still saw "open" and closes it: the server goes 1 → 2, keeping progress started.
      const after = notificationRowSchema.parse((await put(n.nodeid, { status: 2, previousStatus: 0, onlyStatusUpdate: true, progressstarted: 123, closed: Date.now() - 1000 })).json());
      expect(after).toMatchObject({ status: 2, progressstarted: n.progressstarted });
      const [history] = await t.database.db
        .select()
        .from(recordHistory)
        .where(and(eq(recordHistory.nodeid, n.nodeid), eq(recordHistory.version, after.version)));
      expect(history).toMatchObject({ kind: 'notifications', usernodeid: a.admin.nodeid, context: { status: 2, previousStatus: 0, serverStatus: 1 } });
      expect(history!.changes).toMatchObject({ status: { old: 1, new: 2 }, closed: { old: null, new: after.closed } });
    });

    it('refuses a stale change that would take the notification back: the first transition wins (found offline: a stale "In Bearbeitung" reopened what a colleague had closed)', async () => {
      const closed = await notificationIn(2);
      // The tablet saw it open and started work offline; a colleague closed it meanwhile.
      const reopen = await put(closed.nodeid, { nodeid: closed.nodeid, status: 1, previousStatus: 0, onlyStatusUpdate: true, progressstarted: Date.now() - HOUR, title: closed.title });
      expect(reopen.statusCode, reopen.body).toBe(409);
      expect(isStaleStatusRefusal(reopen.json())).toBe(true);
      expect((await call(t, adminA, 'GET', `/api/notifications/${closed.nodeid}`)).json()).toMatchObject({ status: 2, closed: closed.closed, version: closed.version });
      // A stale reset of what a colleague reopened is refused too; a stale close of what a colleague started is not.
      const started = await notificationIn(1);
      expect((await put(started.nodeid, { status: 0, previousStatus: 2, onlyStatusUpdate: true })).statusCode).toBe(409);
      expect((await put(started.nodeid, { status: 2, previousStatus: 0, onlyStatusUpdate: true })).json()).toMatchObject({ status: 2 });
      // Asking for the status the server already has changes nothing, whatever the device saw.
      expect((await put(closed.nodeid, { status: 2, previousStatus: 0, onlyStatusUpdate: true })).json()).toMatchObject({ status: 2, version: closed.version });
      // A reopen by whoever saw it closed is an ordinary transition.
      expect((await put(closed.nodeid, { status: 1, previousStatus: 2, onlyStatusUpdate: true })).json()).toMatchObject({ status: 1, closed: null });
    });

    it("takes the report's status-only close (previousStatus 0, a hardcoded old progressstarted) without dating progress before the notification", async () => {
      const createdAt = Date.now() - 3 * HOUR;
      const n = await create({ created: createdAt });
      const closedAt = Date.now() - 1000;
      const after = notificationRowSchema.parse((await put(n.nodeid, { nodeid: n.nodeid, status: 2, previousStatus: 0, onlyStatusUpdate: true, progressstarted: 1_600_000_000_000, closed: closedAt })).json());
      expect(after).toMatchObject({ status: 2, progressstarted: createdAt, closed: closedAt });
    });

    it('with onlyStatusUpdate ignores the context fields, so a status change never reverts an edit', async () => {
      const n = await create();
      expect((await put(n.nodeid, { title: 'Neuer Titel von Tablet B' })).statusCode).toBe(200);
      const after = notificationRowSchema.parse((await put(n.nodeid, { status: 1, previousStatus: 0, onlyStatusUpdate: true, title: n.title, type: n.type })).json());
      expect(after).toMatchObject({ status: 1, title: 'Neuer Titel von Tablet B' });
    });
  });

  describe('record history: what writes overwrote, readable', () => {
    it('lists who changed which field from what to what, newest first, a lost status change too; another tenant gets 404', async () => {
      const n = await create({ title: 'Spindel laut', description: 'Beim Anlauf' });
      expect((await put(n.nodeid, { description: 'Lager getauscht' })).statusCode).toBe(200);
      expect((await put(n.nodeid, { title: 'Spindel laut (erledigt)', status: 2, previousStatus: 0, onlyStatusUpdate: false })).statusCode).toBe(200);
      // A status the server already has, sent by a device that saw another one: nothing changes, and it shows.
      expect((await put(n.nodeid, { status: 2, previousStatus: 1, onlyStatusUpdate: true })).statusCode).toBe(200);
      const response = await call(t, adminA, 'GET', `/api/notifications/${n.nodeid}/changes`);
      expect(response.statusCode, response.body).toBe(200);
      const changes = notificationChangesSchema.parse(response.json());
      expect(changes.map((change) => Object.keys(change.changes).sort())).toEqual([[], ['closed', 'progressstarted', 'status', 'title'], ['description']]);
      expect(changes[0]!.lostStatus).toEqual({ status: 2, previousStatus: 1 });
      expect(changes[1]!.changes.title).toEqual({ old: 'Spindel laut', new: 'Spindel laut (erledigt)' });
      expect(changes[2]).toMatchObject({ changes: { description: { old: 'Beim Anlauf', new: 'Lager getauscht' } }, lostStatus: null, author: { nodeid: a.admin.nodeid } });
      expect(changes[0]!.version).toBeGreaterThanOrEqual(changes[1]!.version);
      expect((await call(t, adminB, 'GET', `/api/notifications/${n.nodeid}/changes`)).statusCode).toBe(404);
      expect((await call(t, adminA, 'GET', `/api/notifications/${randomUUID()}/changes`)).statusCode).toBe(404);
    });

    /** A tablet that has been syncing since `since` (its first pull registered it). */
    const deviceSince = async (since: number): Promise<string> => {
      const clientid = uuidv7();
      await t.database.db.insert(syncClients).values({ clientid, usernodeid: a.admin.nodeid, legalentitynodeid: a.legalEntity.nodeid, createdAt: new Date(since) });
      return clientid;
    };

    it('keeps when a queued change was made on the device beside when it reached the server (found offline: a fix documented in the morning read as the afternoon\'s)', async () => {
      const n = await create({ description: 'Beim Anlauf' });
      const clientid = await deviceSince(Date.now() - 24 * HOUR);
      const madeAt = Date.now() - 5 * HOUR;
      const path = `/api/notifications/${n.nodeid}`;
      const batch = await send(t, adminA, 'POST', '/api/sync/batch', { mutations: [{ mutationId: 1, method: 'PUT', path, body: { description: 'Lager getauscht' }, madeAt }] }, { 'x-client-id': clientid });
      expect(batch.statusCode, batch.body).toBe(200);
      expect(batch.json().results[0]).toMatchObject({ status: 200 });
      // A device clock ahead of the server's counts as the server's now; no header: sent as made (null).
      const ahead = await send(t, adminA, 'PUT', path, { title: 'Spindel (Uhr vor)' }, { 'x-client-id': clientid, 'x-mutation-id': '2', 'x-made-at': String(Date.now() + 24 * HOUR) });
      expect(ahead.statusCode, ahead.body).toBe(200);
      expect((await put(n.nodeid, { errorcode: 'E-1' })).statusCode).toBe(200);

      const changes = notificationChangesSchema.parse((await call(t, adminA, 'GET', `${path}/changes`)).json());
      expect(changes.map((change) => Object.keys(change.changes))).toEqual([['errorcode'], ['title'], ['description']]);
      expect(changes[2]).toMatchObject({ madeAt, changes: { description: { old: 'Beim Anlauf', new: 'Lager getauscht' } } });
      expect(changes[2]!.at - madeAt).toBeGreaterThanOrEqual(5 * HOUR);
      expect(changes[1]!.madeAt).not.toBeNull();
      expect(changes[1]!.madeAt!).toBeLessThanOrEqual(changes[1]!.at);
      expect(changes[0]!.madeAt).toBeNull();
    });

    it('reads the device times of a batch on the server clock: a tablet whose clock is a day ahead still records the morning', async () => {
      const n = await create({ description: 'Beim Anlauf' });
      const path = `/api/notifications/${n.nodeid}`;
      const skew = 24 * HOUR;
      const sentAt = Date.now() + skew;
      const mutations = [{ mutationId: 1, method: 'PUT', path, body: { description: 'Lager getauscht' }, madeAt: sentAt - 5 * HOUR }];
      const batch = await send(t, adminA, 'POST', '/api/sync/batch', { mutations, sentAt }, { 'x-client-id': await deviceSince(Date.now() - 24 * HOUR) });
      expect(batch.statusCode, batch.body).toBe(200);
      const [change] = notificationChangesSchema.parse((await call(t, adminA, 'GET', `${path}/changes`)).json());
      expect(change!.at - change!.madeAt!).toBeGreaterThanOrEqual(5 * HOUR);
      expect(change!.at - change!.madeAt!).toBeLessThan(5 * HOUR + 60_000);
    });

    it('never records a change as made before its device first spoke to the server (penetration run: an edit dated to the year 2000)', async () => {
      const n = await create({ description: 'Beim Anlauf' });
      const path = `/api/notifications/${n.nodeid}`;
      const since = Date.now() - 2 * HOUR;
      const clientid = await deviceSince(since);
      const direct = await send(t, adminA, 'PUT', path, { title: 'Rückdatiert' }, { 'x-client-id': clientid, 'x-mutation-id': '1', 'x-made-at': String(Date.UTC(2000, 0, 1)) });
      expect(direct.statusCode, direct.body).toBe(200);
      const mutations = [{ mutationId: 2, method: 'PUT', path, body: { description: 'Rückdatiert' }, madeAt: 0 }];
      expect((await send(t, adminA, 'POST', '/api/sync/batch', { mutations }, { 'x-client-id': clientid })).statusCode).toBe(200);
      // A device registered by this very write (no pull before): its changes count as made now.
      const fresh = await send(t, adminA, 'PUT', path, { errorcode: 'E-2000' }, { 'x-client-id': uuidv7(), 'x-mutation-id': '1', 'x-made-at': String(Date.now() - 24 * HOUR) });
      expect(fresh.statusCode, fresh.body).toBe(200);

      const changes = notificationChangesSchema.parse((await call(t, adminA, 'GET', `${path}/changes`)).json());
      expect(changes.map((change) => Object.keys(change.changes))).toEqual([['errorcode'], ['description'], ['title']]);
      expect(changes[1]!.madeAt).toBe(since);
      expect(changes[2]!.madeAt).toBe(since);
      expect(changes[0]!.at - changes[0]!.madeAt!).toBeLessThan(60_000);
    });

    it('refuses an X-Made-At that is no time in epoch milliseconds, or comes without a mutation id, and writes nothing', async () => {
      const n = await create({ description: 'Beim Anlauf' });
      const path = `/api/notifications/${n.nodeid}`;
      const clientid = uuidv7();
      for (const value of ['gestern', '-5', '1.5', '9'.repeat(20)]) {
        const response = await send(t, adminA, 'PUT', path, { description: 'Geändert' }, { 'x-client-id': clientid, 'x-mutation-id': '1', 'x-made-at': value });
        expect(response.statusCode, value).toBe(400);
        expect(apiErrorSchema.parse(response.json())).toMatchObject({ message: 'Invalid X-Made-At' });
      }
      // Only a queued write has a time the device made it; a direct write cannot claim one.
      const direct = await send(t, adminA, 'PUT', path, { description: 'Geändert' }, { 'x-made-at': String(Date.now() - HOUR) });
      expect(direct.statusCode).toBe(400);
      expect(apiErrorSchema.parse(direct.json())).toMatchObject({ message: 'X-Made-At needs X-Mutation-Id' });
      const batch = await send(t, adminA, 'POST', '/api/sync/batch', { mutations: [{ mutationId: 1, method: 'PUT', path, body: { description: 'Geändert' }, madeAt: -1 }] }, { 'x-client-id': uuidv7() });
      expect(batch.statusCode).toBe(400);
      expect((await call(t, adminA, 'GET', path)).json()).toMatchObject({ description: 'Beim Anlauf', version: n.version });
      expect(await t.database.db.select().from(recordHistory).where(eq(recordHistory.nodeid, n.nodeid))).toEqual([]);
    });
  });

  describe('field updates', () => {
    it('changes only the fields sent, bumps the version and keeps the old values in the history', async () => {
      const n = await create({ dueuntil: Date.UTC(2026, 11, 1) });
      const response = await put(n.nodeid, { description: 'Lager getauscht', errorcode: '' });
      expect(response.statusCode).toBe(200);
      const after = notificationRowSchema.parse(response.json());
      expect(after).toMatchObject({ title: n.title, type: n.type, description: 'Lager getauscht', errorcode: null, dueuntil: Date.UTC(2026, 11, 1) });
      expect(after.version).toBeGreaterThan(n.version);
      const rows = await t.database.db.select().from(recordHistory).where(eq(recordHistory.nodeid, n.nodeid));
      expect(rows).toHaveLength(1);
      expect(rows[0]!.changes).toEqual({ description: { old: 'Spindel dreht nicht mehr hoch', new: 'Lager getauscht' }, errorcode: { old: 'E-4711', new: null } });
    });

    it('stamps the row and its history with one new version, answered as stored; concurrent updates of one row each take their own', async () => {
      const n = await create();
      for (let round = 0; round < 5; round++) {
        const before = await tenantVersion(t.database.db, a.legalEntity.nodeid);
        const answers = await Promise.all([0, 1].map((i) => put(n.nodeid, { description: `Gleichzeitig ${round}.${i}` })));
        expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
        const rows = answers.map((answer) => notificationRowSchema.parse(answer.json()));
        expect(rows.map((row) => row.version).sort((x, y) => x - y)).toEqual([before + 1, before + 2]);
        expect(await tenantVersion(t.database.db, a.legalEntity.nodeid)).toBe(before + 2);
        const last = rows.find((row) => row.version === before + 2)!;
        expect((await call(t, adminA, 'GET', `/api/notifications/${n.nodeid}`)).json()).toMatchObject({ description: last.description, version: last.version });
        const history = await t.database.db.select().from(recordHistory).where(eq(recordHistory.nodeid, n.nodeid));
        for (const row of rows) expect(history.find((entry) => entry.version === row.version)?.changes).toMatchObject({ description: { new: row.description } });
      }
    });

    it('a write that changes nothing takes no version', async () => {
      const n = await create();
      const before = await tenantVersion(t.database.db, a.legalEntity.nodeid);
      expect((await put(n.nodeid, { title: n.title })).statusCode).toBe(200);
      expect(await tenantVersion(t.database.db, a.legalEntity.nodeid)).toBe(before);
    });
  });

  describe('delete', () => {
    it('deletes with a tombstone; later writes and reads answer 410 Gone (deletes win)', async () => {
      const n = await create();
      const deleted = await call(t, adminA, 'DELETE', `/api/notifications/${n.nodeid}`, { nodeid: n.nodeid });
      expect(deleted.statusCode).toBe(200);
      const { version } = deleted.json() as { version: number };
      const [tombstone] = await t.database.db.select().from(tombstones).where(eq(tombstones.nodeid, n.nodeid));
      expect(tombstone).toMatchObject({ kind: 'notifications', legalentitynodeid: a.legalEntity.nodeid, version });

      expect((await put(n.nodeid, { title: 'Zu spät' })).statusCode).toBe(410);
      expect((await call(t, adminA, 'GET', `/api/notifications/${n.nodeid}`)).statusCode).toBe(410);
      expect((await call(t, adminA, 'DELETE', `/api/notifications/${n.nodeid}`)).statusCode).toBe(410);
      expect((await call(t, adminA, 'POST', '/api/notifications', input({ nodeid: n.nodeid }))).statusCode).toBe(410);
      // Another tenant learns nothing: 404.
      expect((await put(n.nodeid, { title: 'Fremd' }, adminB)).statusCode).toBe(404);
    });

    it('takes its solutions, steps, reports, costs and attachments along, each with a tombstone', async () => {
      const db = t.database.db;
      const le = a.legalEntity.nodeid;
      const n = await create();
      const workflow = { nodeid: uuidv7(), legalentitynodeid: le, notificationnodeid: n.nodeid, title: 'Lager getauscht', created: new Date() };
      await db.insert(workflows).values(workflow);
      const step = { nodeid: uuidv7(), legalentitynodeid: le, workflownodeid: workflow.nodeid, description: 'Alt raus, neu rein', created: new Date() };
      await db.insert(workflowSteps).values(step);
      const report = { nodeid: uuidv7(), legalentitynodeid: le, notificationnodeid: n.nodeid, executed: new Date(), created: new Date() };
      await db.insert(reports).values(report);
      const file = await insertFile(db, { legalentitynodeid: le, status: 'complete' });
      const onStep = { nodeid: uuidv7(), legalentitynodeid: le, title: 'Foto', filenodeid: file.nodeid, isattachmentof: step.nodeid, targetkind: 'workflowstep' as const };
      await db.insert(attachments).values(onStep);

      const deleted = await call(t, adminA, 'DELETE', `/api/notifications/${n.nodeid}`);
      expect(deleted.statusCode, deleted.body).toBe(200);
      const stones = await db.select({ kind: tombstones.kind, nodeid: tombstones.nodeid }).from(tombstones).where(eq(tombstones.version, (deleted.json() as { version: number }).version));
      expect(stones.sort((x, y) => x.kind.localeCompare(y.kind))).toEqual([
        { kind: 'attachments', nodeid: onStep.nodeid },
        { kind: 'notifications', nodeid: n.nodeid },
        { kind: 'reports', nodeid: report.nodeid },
        { kind: 'workflow_steps', nodeid: step.nodeid },
        { kind: 'workflows', nodeid: workflow.nodeid },
      ]);
      expect(await db.select().from(attachments).where(eq(attachments.nodeid, onStep.nodeid))).toEqual([]);
    });

    it('refuses a body nodeid other than the path (400) and keeps the notification', async () => {
      const n = await create();
      expect((await call(t, adminA, 'DELETE', `/api/notifications/${n.nodeid}`, { nodeid: uuidv7() })).statusCode).toBe(400);
      expect((await call(t, adminA, 'GET', `/api/notifications/${n.nodeid}`)).statusCode).toBe(200);
    });

    it('answers 404 for an id that never existed', async () => {
      expect((await call(t, adminA, 'DELETE', `/api/notifications/${uuidv7()}`)).statusCode).toBe(404);
      expect((await put(uuidv7(), { title: 'X' })).statusCode).toBe(404);
    });
  });

  it('is described in the OpenAPI document', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as { paths: Record<string, Record<string, unknown>> };
    const operations = Object.entries(document.paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`));
    expect(operations).toEqual(
      expect.arrayContaining([
        'POST /api/notifications',
        'GET /api/notifications/{nodeid}',
        'PUT /api/notifications/{nodeid}',
        'DELETE /api/notifications/{nodeid}',
        'POST /api/counters/create',
        'PUT /api/counters/update/{id}',
        'GET /api/counters',
        'DELETE /api/counters/delete/{id}',
        'POST /api/countertypes/create',
        'GET /api/countertypes',
        'POST /api/files',
        'PUT /api/files/{fileid}/{fileversion}/content',
        'GET /api/files/{fileid}/{fileversion}/content',
        'POST /api/attachments',
        'GET /api/attachments/{id}',
        'PUT /api/attachments/{id}',
        'DELETE /api/attachments/{id}',
      ]),
    );
  });

  describe('through the mutation log (offline outbox)', () => {
    it('a resent create and status change are applied once and answered the same', async () => {
      const clientid = uuidv7();
      const headers = (mutationId: number) => ({ authorization: adminA, 'x-client-id': clientid, 'x-mutation-id': String(mutationId) });
      const body = input();
      await sentTwice(t, adminA, 'POST', '/api/notifications', body, { clientid, status: 201, unchanged: () => notificationCount(t.database.db) });

      const status = { nodeid: body.nodeid, status: 1, previousStatus: 0, onlyStatusUpdate: true };
      const closed = await t.app.inject({ method: 'PUT', url: `/api/notifications/${body.nodeid}`, headers: headers(2), payload: status });
      expect(closed.statusCode, closed.body).toBe(200);
      const version = notificationRowSchema.parse(closed.json()).version;
      const again = await t.app.inject({ method: 'PUT', url: `/api/notifications/${body.nodeid}`, headers: headers(2), payload: status });
      expect(again.json()).toEqual(closed.json());
      expect((await call(t, adminA, 'GET', `/api/notifications/${body.nodeid}`)).json()).toMatchObject({ status: 1, version });
    });
  });
});
