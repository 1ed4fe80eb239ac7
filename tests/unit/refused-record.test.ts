/**
 * What a record's screen says when the record is gone from the device and the user has refused changes about it
 * (src/client/sync/dead-letters.ts `refusalOfRecord`): a Maßnahme typed offline on a notification an admin deleted
 * meanwhile is refused (404: the notification is gone); the details screen then says the notification was deleted on
 * the server and that the Maßnahme waits in the sync panel — it used to say only "not found", because the refused
 * change is the solution's, not the notification's.
 */
import { describe, expect, it } from 'vitest';
import type { DeadLetter } from '../../src/client/db/local-db';
import { refusalOfRecord } from '../../src/client/sync/dead-letters';

const USER = 'u1';
const NOTIFICATION = '11111111-1111-4111-8111-111111111111';
const WORKFLOW = '22222222-2222-4222-8222-222222222222';
const STEP = '33333333-3333-4333-8333-333333333333';
const FILE = '44444444-4444-4444-8444-444444444444';
const MACHINE = '55555555-5555-4555-8555-555555555555';
const OTHER = '66666666-6666-4666-8666-666666666666';

let nextId = 1;
function letter(fields: Partial<DeadLetter> & Pick<DeadLetter, 'action' | 'method' | 'path' | 'kind' | 'nodeid' | 'status'>): DeadLetter {
  return {
    id: nextId,
    mutationId: nextId++,
    clientId: 'c1',
    usernodeid: USER,
    body: {},
    fields: [],
    values: {},
    previous: {},
    creates: false,
    dependsOn: [],
    createdAt: 0,
    attempts: 1,
    lastError: null,
    failedAt: 0,
    error: { statusCode: fields.status, error: 'x', message: 'x' },
    ...fields,
  };
}

/** The Maßnahme typed offline: the workflow with its first step, on the notification. */
const solution = (status: number) =>
  letter({
    action: 'createWorkflow',
    method: 'POST',
    path: 'workflows',
    kind: 'workflows',
    nodeid: WORKFLOW,
    creates: true,
    status,
    body: { lang: 'de', nodeid: WORKFLOW, notificationnodeid: NOTIFICATION, title_workflow: 'Schlauch getauscht', description: 'Dichtheit geprüft.', stepnodeid: STEP },
    values: { title: 'Schlauch getauscht', notificationnodeid: NOTIFICATION },
  });

/** A photo on the Maßnahme's step, refused because its step was never made. */
const photo = () => letter({ action: 'attachFile', method: 'POST', path: 'attachments', kind: 'attachments', nodeid: OTHER, creates: true, status: 404, body: { lang: 'de', isattachmentof: STEP, file: { fileid: FILE } } });

describe('refusalOfRecord', () => {
  it('a Maßnahme refused because its notification is gone on the server: deleted', () => {
    expect(refusalOfRecord(NOTIFICATION, [solution(404)])).toBe('deleted');
    expect(refusalOfRecord(NOTIFICATION, [solution(410)])).toBe('deleted');
  });

  it('a change of the notification itself refused as deleted (410): deleted', () => {
    const edit = letter({ action: 'updateNotification', method: 'PUT', path: `notifications/${NOTIFICATION}`, kind: 'notifications', nodeid: NOTIFICATION, status: 410, body: { lang: 'de', title: 'neu' } });
    expect(refusalOfRecord(NOTIFICATION, [edit])).toBe('deleted');
  });

  it('the notification’s own create refused (its machine deleted): refused, and what builds on it is no sign of a delete', () => {
    const report = letter({ action: 'createNotification', method: 'POST', path: 'notifications', kind: 'notifications', nodeid: NOTIFICATION, creates: true, status: 404, body: { lang: 'de', nodeid: NOTIFICATION, equipmentnodeid: MACHINE, title: 'Leck' } });
    expect(refusalOfRecord(NOTIFICATION, [report])).toBe('refused');
    expect(refusalOfRecord(NOTIFICATION, [report, solution(404)])).toBe('refused');
  });

  it('a refusal for another reason (forbidden): refused', () => {
    expect(refusalOfRecord(NOTIFICATION, [solution(403)])).toBe('refused');
  });

  it('what builds on the Maßnahme goes with it; letters about other records say nothing', () => {
    expect(refusalOfRecord(NOTIFICATION, [photo()])).toBeUndefined();
    expect(refusalOfRecord(NOTIFICATION, [solution(403), photo()])).toBe('refused');
    expect(refusalOfRecord(NOTIFICATION, [solution(404), photo()])).toBe('deleted');
    expect(refusalOfRecord(OTHER.replace('6666', '7777'), [solution(404)])).toBeUndefined();
    expect(refusalOfRecord(NOTIFICATION, [])).toBeUndefined();
  });
});
