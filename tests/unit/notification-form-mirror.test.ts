import { describe, expect, it } from 'vitest';
import { rankSuggestions } from '../../src/shared/domain/suggestions';
import { LocalDatabase } from '../../src/client/db/local-db';
import { readEquipmentChoices, readEditableNotification } from '../../src/client/sync/notification-form-mirror';
import { readSuggestionCandidates } from '../../src/client/sync/notification-suggestions';
import { createNotificationWithFiles, editNotification } from '../../src/client/sync/repositories/notifications';

const USER = '0190f5a0-0000-7000-8000-0000000000aa';
const MACHINE = '0190f5a0-0000-7000-8000-0000000000b1';
const SIBLING = '0190f5a0-0000-7000-8000-0000000000b2';
const STRANGER = '0190f5a0-0000-7000-8000-0000000000b3';
const TYPE = '0190f5a0-0000-7000-8000-0000000000c1';
const OTHER_TYPE = '0190f5a0-0000-7000-8000-0000000000c2';
const OWN = '0190f5a0-0000-7000-8000-0000000000d1';
const DAY = 86_400_000;

/** Two machines of one type, one of another; FAQs on each level; solved, unsolved and open notifications. */
async function mirror() {
  const db = new LocalDatabase(`notification-form-${Math.random()}`);
  await db.mirror('sites').put({ nodeid: 's1', name: 'Werk Stuttgart' });
  await db.mirror('areas').put({ nodeid: 'a1', name: 'Halle 1', sitenodeid: 's1' });
  await db.mirror('equipmentpools').put({ nodeid: 'p1', name: 'Stapler-Pool' });
  await db.mirror('equipmenttypes').bulkPut([
    { nodeid: TYPE, model: 'DMU 65' },
    { nodeid: OTHER_TYPE, model: 'EFG 216' },
  ]);
  await db.mirror('equipment').bulkPut([
    { nodeid: MACHINE, name: 'BAZ 01', equipmenttypenodeid: TYPE, areanodeid: 'a1' },
    { nodeid: SIBLING, name: 'BAZ 02', equipmenttypenodeid: TYPE, areanodeid: 'a1' },
    { nodeid: STRANGER, name: 'Stapler 1', equipmenttypenodeid: OTHER_TYPE, equipmentpoolnodeid: 'p1' },
  ]);
  await db.mirror('faqs').bulkPut([
    { nodeid: 'f-machine', question: 'Spindel nach Not-Halt freifahren?', answer: 'Reset, JOG.', specifier: 'internalfaq', equipmentnodeid: MACHINE, equipmenttypenodeid: null },
    { nodeid: 'f-type', question: 'Maximales Werkstückgewicht?', answer: '600 kg', specifier: 'equipmenttypefaq', equipmentnodeid: null, equipmenttypenodeid: TYPE },
    { nodeid: 'f-stranger', question: 'Spindel? (Stapler)', answer: null, specifier: 'internalfaq', equipmentnodeid: STRANGER, equipmenttypenodeid: null },
  ]);
  await db.mirror('notifications').bulkPut([
    { nodeid: OWN, equipmentnodeid: MACHINE, type: 0, status: 2, title: 'Spindel blockiert', errorcode: 'ALM 25000', created: 1 * DAY, closed: 2 * DAY },
    { nodeid: 'n-sibling', equipmentnodeid: SIBLING, type: 0, status: 2, title: 'Spindel heiß', errorcode: null, created: 3 * DAY, closed: 4 * DAY },
    { nodeid: 'n-unsolved', equipmentnodeid: MACHINE, type: 0, status: 2, title: 'Spindel laut', errorcode: null, created: 5 * DAY, closed: 6 * DAY },
    { nodeid: 'n-open', equipmentnodeid: MACHINE, type: 0, status: 1, title: 'Spindel vibriert', errorcode: null, created: 7 * DAY, closed: null },
    { nodeid: 'n-stranger', equipmentnodeid: STRANGER, type: 0, status: 2, title: 'Spindel Stapler', errorcode: null, created: 8 * DAY, closed: 9 * DAY },
  ]);
  await db.mirror('workflows').bulkPut([
    { nodeid: 'w-own', notificationnodeid: OWN, title: 'Spindellager getauscht', created: 2 * DAY },
    { nodeid: 'w-sibling', notificationnodeid: 'n-sibling', title: null, created: 4 * DAY },
    { nodeid: 'w-open', notificationnodeid: 'n-open', title: 'Vorläufig', created: 7 * DAY },
    { nodeid: 'w-stranger', notificationnodeid: 'n-stranger', title: 'Getauscht', created: 9 * DAY },
  ]);
  await db.mirror('workflowsteps').bulkPut([
    { nodeid: 'ws-1', workflownodeid: 'w-sibling', position: 1, title: null, description: 'Kühlmittel nachgefüllt' },
    { nodeid: 'ws-0', workflownodeid: 'w-sibling', position: 0, title: 'Kühlung instand gesetzt', description: null },
  ]);
  return { db, context: { db, usernodeid: USER, now: () => 10 * DAY } };
}

describe('suggestion candidates from the mirror', () => {
  it('the machine’s and its type’s FAQs and the closed, solved notifications of the machines of its type — nothing else', async () => {
    const { db } = await mirror();
    const candidates = (await readSuggestionCandidates(db, MACHINE, 'de')).map((item) => item.candidate);
    expect(candidates.map((c) => `${c.kind}:${c.scope}:${c.nodeid}`).sort()).toEqual(['faq:machine:f-machine', 'faq:type:f-type', `solution:machine:${OWN}`, 'solution:type:n-sibling']);
    expect(candidates.find((c) => c.nodeid === 'n-sibling')).toMatchObject({ summary: 'Kühlung instand gesetzt', ownerName: 'BAZ 02', at: 4 * DAY });
    expect(candidates.find((c) => c.nodeid === 'n-sibling')?.body).toBe('Kühlung instand gesetzt Kühlmittel nachgefüllt');
    expect(candidates.find((c) => c.nodeid === 'f-type')).toMatchObject({ ownernodeid: TYPE, ownerName: 'DMU 65' });
  });

  it('ranked: the same error code first, then the text match', async () => {
    const { db } = await mirror();
    const ranked = rankSuggestions({ title: 'Spindel', errorcode: 'alm-25000' }, await readSuggestionCandidates(db, MACHINE, 'de'));
    expect(ranked.map((item) => item.candidate.nodeid)).toEqual([OWN, 'n-sibling', 'f-machine']);
  });

  it('the notification being edited is not suggested to itself; no machine, no candidates', async () => {
    const { db } = await mirror();
    expect((await readSuggestionCandidates(db, MACHINE, 'de', OWN)).map((item) => item.candidate.nodeid)).not.toContain(OWN);
    expect(await readSuggestionCandidates(db, null, 'de')).toEqual([]);
    expect(await readSuggestionCandidates(db, 'unknown', 'de')).toEqual([]);
  });
});

describe('the form’s other reads', () => {
  it('machines to pick with their pool or area and plant, by name', async () => {
    const { db } = await mirror();
    expect(await readEquipmentChoices(db, 'de')).toEqual([
      { nodeid: MACHINE, name: 'BAZ 01', equipmentid: null, place: 'Halle 1', site: 'Werk Stuttgart' },
      { nodeid: SIBLING, name: 'BAZ 02', equipmentid: null, place: 'Halle 1', site: 'Werk Stuttgart' },
      { nodeid: STRANGER, name: 'Stapler 1', equipmentid: null, place: 'Stapler-Pool', site: null },
    ]);
  });
});

describe('saving the form', () => {
  const photo = { bytes: new Uint8Array([137, 80, 78, 71]).buffer, mimetype: 'image/png', name: 'foto.png', title: 'foto' };

  it('create: the notification, then each file’s registration and attachment, in one outbox batch', async () => {
    const { db, context } = await mirror();
    const nodeid = await createNotificationWithFiles(context, { type: 0, title: 'Tisch überlastet', errorcode: 'E-77', equipmentnodeid: MACHINE, dueuntil: 12 * DAY, created: 9 * DAY, files: [photo, { ...photo, name: 'zwei.png' }] });
    const outbox = await db.outbox.orderBy('seq').toArray();
    expect(outbox.map((entry) => entry.action)).toEqual(['createNotification', 'uploadFile', 'attachFile', 'uploadFile', 'attachFile']);
    expect(outbox[0]!.body).toMatchObject({ nodeid, title: 'Tisch überlastet', errorcode: 'E-77', dueuntil: 12 * DAY, created: 9 * DAY });
    expect(new Set(outbox.map((entry) => entry.userAction)).size).toBe(1);
    expect(await db.fileBytes.count()).toBe(2);
    expect(await readEditableNotification(db, nodeid)).toMatchObject({ status: 'ready', value: { title: 'Tisch überlastet', errorcode: 'E-77', dueuntil: 12 * DAY } });
  });

  it('an invalid notification queues nothing, not even its files', async () => {
    const { db, context } = await mirror();
    await expect(createNotificationWithFiles(context, { type: 4, title: 'Nicht erlaubt', equipmentnodeid: MACHINE, files: [photo] })).rejects.toThrow();
    expect(await db.outbox.count()).toBe(0);
    expect(await db.fileBytes.count()).toBe(0);
  });

  it('edit: only the fields that changed are sent; nothing changed, nothing queued', async () => {
    const { db, context } = await mirror();
    const before = { type: 0 as const, title: 'Spindel blockiert', description: null, errorcode: 'ALM 25000', equipmentnodeid: MACHINE, dueuntil: null };
    expect(await editNotification(context, OWN, before, { ...before, title: ' Spindel blockiert ' })).toBe(false);
    expect(await db.outbox.count()).toBe(0);
    expect(await editNotification(context, OWN, before, { ...before, title: 'Spindel fest', dueuntil: 20 * DAY })).toBe(true);
    const [entry] = await db.outbox.toArray();
    expect(entry!.body).toEqual({ lang: 'de', nodeid: OWN, title: 'Spindel fest', dueuntil: 20 * DAY });
    expect((await db.mirror('notifications').get(OWN))).toMatchObject({ title: 'Spindel fest', errorcode: 'ALM 25000', dueuntil: 20 * DAY });
  });
});
