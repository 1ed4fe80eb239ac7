/**
 * The solutions reader and the solution form's writes on a real local database (fake-indexeddb): one transaction
 * per user action with its files, the step's fields standing in on the workflow row until the pull brings the
 * step, and what the measures list shows.
 */
import { describe, expect, it } from 'vitest';
import { LocalDatabase } from '../../src/client/db/local-db';
import { readNotificationSolutions, readSolution } from '../../src/client/sync/notification-solutions';
import { stateKeys, writeState } from '../../src/client/sync/outbox';
import { addSolution, changeSolution, removeSolution } from '../../src/client/sync/repositories/workflows';

const USER = '0190f5a0-0000-7000-8000-0000000000aa';
const NOTIFICATION = '0190f5a0-0000-7000-8000-0000000000bb';
const SEEDED = '0190f5a0-0000-7000-8000-0000000000cc';
const DAY = 86_400_000;

async function mirror() {
  const db = new LocalDatabase(`solutions-${Math.random()}`);
  await db.mirror('users').put({ nodeid: USER, givenname: 'Katrin', surname: 'Bauer' });
  await db.mirror('notifications').put({ nodeid: NOTIFICATION, title: 'Hydraulikpumpe fördert nicht', type: 0, status: 2 });
  // A solution as the pull delivers it: the workflow, two steps (stored out of order), a photo on the second.
  await db.mirror('workflows').put({ nodeid: SEEDED, title: null, notificationnodeid: NOTIFICATION, authornodeid: USER, created: 2 * DAY, version: 5 });
  await db.mirror('workflowsteps').bulkPut([
    { nodeid: 'st2', workflownodeid: SEEDED, position: 1, description: 'Probelauf ok.', created: 2 * DAY, version: 5 },
    { nodeid: 'st1', workflownodeid: SEEDED, position: 0, description: 'Kupplung getauscht.', created: 2 * DAY, version: 5 },
  ]);
  await db.mirror('attachments').put({ nodeid: 'at1', title: 'Kupplung', isattachmentof: 'st2', filenodeid: 'f1' });
  await writeState(db, stateKeys.initialSyncDone, true);
  return { db, context: { db, usernodeid: USER, now: () => 3 * DAY } };
}

describe('solutions of a notification on the device', () => {
  it('a pulled solution: first step as description, further steps, files of every step, author; no title stays null', async () => {
    const { db } = await mirror();
    const [solution] = await readNotificationSolutions(db, NOTIFICATION);
    expect(solution).toMatchObject({ nodeid: SEEDED, title: null, stepnodeid: 'st1', description: 'Kupplung getauscht.', furtherSteps: ['Probelauf ok.'], author: 'Katrin Bauer', created: 2 * DAY, pending: false });
    expect(solution!.attachments.map((item) => item.title)).toEqual(['Kupplung']);
  });

  it('adding one with a photo queues create, file registration and attachment in one go; it shows at once, after the seeded one', async () => {
    const { db, context } = await mirror();
    const bytes = new Uint8Array([137, 80, 78, 71]).buffer;
    const nodeid = await addSolution(context, { notificationnodeid: NOTIFICATION, title: 'Schlauch getauscht', description: 'Dicht.', files: [{ bytes, mimetype: 'image/png', name: 'schlauch.png', title: 'schlauch' }] });
    expect((await db.outbox.toArray()).map((entry) => entry.action)).toEqual(['createWorkflow', 'uploadFile', 'attachFile']);
    const [, added] = await readNotificationSolutions(db, NOTIFICATION);
    expect(added).toMatchObject({ nodeid, title: 'Schlauch getauscht', description: 'Dicht.', created: 3 * DAY, author: 'Katrin Bauer', pending: true });
    expect(added!.stepnodeid).toEqual(expect.any(String));
    expect(added!.attachments).toMatchObject([{ title: 'schlauch', pending: true, local: { mimetype: 'image/png' } }]);
    // The attachment hangs on the step the create names.
    const attach = (await db.outbox.toArray()).find((entry) => entry.action === 'attachFile')!;
    expect(attach.body).toMatchObject({ isattachmentof: added!.stepnodeid });
  });

  it('an edit queues only what changed; the new description stands in for the step until the pull; delete hides it', async () => {
    const { db, context } = await mirror();
    const before = { title: '', description: 'Kupplung getauscht.' };
    expect(await changeSolution(context, { nodeid: SEEDED, stepnodeid: 'st1' }, before, { title: ' ', description: 'Kupplung getauscht.' })).toBe(false);
    expect(await changeSolution(context, { nodeid: SEEDED, stepnodeid: 'st1' }, before, { title: '', description: 'Kupplung und Stern getauscht.' })).toBe(true);
    const [entry] = await db.outbox.toArray();
    expect(entry).toMatchObject({ action: 'updateWorkflow', method: 'PUT', body: { lang: 'de', workflownodeid: SEEDED, description: 'Kupplung und Stern getauscht.' } });
    expect(await readSolution(db, SEEDED)).toMatchObject({ status: 'ready', value: { description: 'Kupplung und Stern getauscht.', pending: true } });
    // The pull's workflow row (no stand-in fields) and the step row at the same version: the step's text shows.
    await db.outbox.clear();
    await db.mirror('workflows').put({ nodeid: SEEDED, title: null, notificationnodeid: NOTIFICATION, authornodeid: USER, created: 2 * DAY, version: 6 });
    await db.mirror('workflowsteps').put({ nodeid: 'st1', workflownodeid: SEEDED, position: 0, description: 'Kupplung und Stern getauscht.', created: 2 * DAY, version: 6 });
    expect(await readSolution(db, SEEDED)).toMatchObject({ status: 'ready', value: { description: 'Kupplung und Stern getauscht.', pending: false } });

    await removeSolution(context, SEEDED);
    expect(await readNotificationSolutions(db, NOTIFICATION)).toEqual([]);
    expect(await readSolution(db, SEEDED)).toEqual({ status: 'missing' });
  });
});
