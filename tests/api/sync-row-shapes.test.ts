import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pullResponseSchema, type PullResponse, type SyncChange, type SyncKind } from '../../src/shared/api/sync';
import { notificationRowSchema } from '../../src/shared/rows/notifications';
import { rowSchemaOf } from '../../src/shared/rows/registry';
import { equipment } from '../../src/server/db/schema';
import { DEMO_PASSWORD, DEMO_USERS } from '../../src/server/db/seed/demo-users';
import { seedDemo } from '../../src/server/db/seed/seed-demo';
import { createTestApp, type TestApp } from './support/test-app';

// One row shape per synced kind (src/shared/rows): the change feed sends exactly it, and a write answers the
// same row the next pull brings.

describe('sync: the feed and the write answers are the row shape', () => {
  let t: TestApp;
  let authorization: string;
  const clientid = uuidv7();

  const pullFrom = async (cursor: number): Promise<{ changes: SyncChange[]; cursor: number }> => {
    const changes: SyncChange[] = [];
    for (;;) {
      const response = await t.app.inject({ method: 'GET', url: `/api/sync/pull?cursor=${cursor}&limit=5000`, headers: { authorization, 'x-client-id': clientid } });
      expect(response.statusCode, response.body).toBe(200);
      const page: PullResponse = pullResponseSchema.parse(response.json());
      changes.push(...page.changes);
      cursor = page.cursor;
      if (!page.hasMore) return { changes, cursor };
    }
  };

  beforeAll(async () => {
    t = await createTestApp();
    await seedDemo(t.database.db);
    const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: DEMO_USERS.admin.email, password: DEMO_PASSWORD } });
    expect(login.statusCode, login.body).toBe(200);
    authorization = `Bearer ${(login.json() as { accesstoken: string }).accesstoken}`;
  });

  afterAll(async () => {
    await t?.close();
  });

  it('every change of a full pull of the demo plant is exactly its kind’s row shape', async () => {
    const { changes } = await pullFrom(0);
    const checked = new Map<SyncKind, number>();
    const problems: string[] = [];
    for (const change of changes) {
      const schema = rowSchemaOf(change.kind);
      if (!schema || change.deleted) continue;
      checked.set(change.kind, (checked.get(change.kind) ?? 0) + 1);
      const parsed = schema.strict().safeParse(change.data);
      if (!parsed.success) problems.push(`${change.kind} ${change.nodeid}: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || '(row)'} ${issue.message}`).join('; ')}`);
      else if (change.data?.nodeid !== change.nodeid) problems.push(`${change.kind} ${change.nodeid}: data.nodeid ${String(change.data?.nodeid)}`);
    }
    expect(problems.slice(0, 20)).toEqual([]);
    // The demo has rows of these kinds, so the check above is not vacuous for them.
    for (const kind of ['units', 'attachmentcategories', 'users', 'countertypes', 'counters', 'counterreadings', 'maintenancecategories', 'maintenancetasks', 'notifications', 'workflows', 'workflowsteps', 'faqs', 'reports', 'costtypes', 'costs'] as const) {
      expect(checked.get(kind) ?? 0, kind).toBeGreaterThan(0);
    }
  });

  it('the demo reader’s and technician’s users rows keep the row shape, with no colleague’s address but their own', async () => {
    for (const role of ['reader', 'technician'] as const) {
      const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: DEMO_USERS[role].email, password: DEMO_PASSWORD } });
      expect(login.statusCode, login.body).toBe(200);
      const session = login.json() as { accesstoken: string; usernodeid: string };
      const response = await t.app.inject({ method: 'GET', url: '/api/sync/pull?cursor=0&limit=5000', headers: { authorization: `Bearer ${session.accesstoken}`, 'x-client-id': uuidv7() } });
      expect(response.statusCode, response.body).toBe(200);
      const rows = pullResponseSchema.parse(response.json()).changes.filter((change) => change.kind === 'users' && !change.deleted);
      // The demo has colleagues, deactivated ones among them (seed/demo/build-organisation.ts).
      expect(rows.length).toBeGreaterThan(3);
      for (const row of rows) {
        const user = rowSchemaOf('users').strict().parse(row.data);
        expect(user.email, `${role} gets the address of ${String(user.givenname)} ${String(user.surname)}`).toBe(row.nodeid === session.usernodeid ? DEMO_USERS[role].email : '');
      }
      expect(response.body).not.toContain(DEMO_USERS.admin.email);
    }
  });

  it('a notification create and a status change answer exactly the row the next pull brings', async () => {
    const { cursor: start } = await pullFrom(0);
    const [machine] = await t.database.db.select({ nodeid: equipment.nodeid }).from(equipment).limit(1);
    const nodeid = uuidv7();

    const created = await t.app.inject({
      method: 'POST',
      url: '/api/notifications',
      headers: { authorization },
      payload: { lang: 'de', nodeid, type: 0, title: 'Riemen quietscht', description: null, equipmentnodeid: machine!.nodeid },
    });
    expect(created.statusCode, created.body).toBe(201);
    const createdRow = notificationRowSchema.strict().parse(created.json());
    const afterCreate = await pullFrom(start);
    expect(afterCreate.changes.find((change) => change.kind === 'notifications' && change.nodeid === nodeid)?.data).toEqual(created.json());
    expect(createdRow).toMatchObject({ nodeid, status: 0, progressstarted: null, closed: null, dueuntil: null });

    const updated = await t.app.inject({
      method: 'PUT',
      url: `/api/notifications/${nodeid}`,
      headers: { authorization },
      payload: { lang: 'de', nodeid, status: 1, previousStatus: 0, onlyStatusUpdate: true, progressstarted: Date.now(), closed: Date.now(), title: 'Riemen quietscht', type: 0, equipmentnodeid: machine!.nodeid },
    });
    expect(updated.statusCode, updated.body).toBe(200);
    const updatedRow = notificationRowSchema.strict().parse(updated.json());
    expect(updatedRow.version).toBeGreaterThan(createdRow.version);
    const afterUpdate = await pullFrom(afterCreate.cursor);
    const pulled = afterUpdate.changes.filter((change) => change.kind === 'notifications' && change.nodeid === nodeid);
    expect(pulled).toHaveLength(1);
    expect(pulled[0]!.version).toBe(updatedRow.version);
    expect(pulled[0]!.data).toEqual(updated.json());
    expect(updatedRow).toMatchObject({ status: 1, closed: null });
    expect(updatedRow.progressstarted).toEqual(expect.any(Number));
  });
});
