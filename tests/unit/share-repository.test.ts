import { describe, expect, it } from 'vitest';
import { LocalDatabase } from '../../src/client/db/local-db';
import { shareByEmail, shareOutcome } from '../../src/client/sync/repositories/share';
import { SHARE_EMAIL_ERROR } from '../../src/shared/domain/share';
import { MutationInputError } from '../../src/shared/mutations/mutation';

const USER = '0190f5a0-0000-7000-8000-0000000000aa';
const NOTIFICATION = '0190f5a0-0000-7000-8000-0000000000bb';

async function device() {
  const db = new LocalDatabase(`share-repo-${Math.random()}`);
  await db.mirror('notifications').put({ nodeid: NOTIFICATION, title: 'Lüfter defekt', status: 0, type: 1, version: 7 });
  return { db, context: { db, usernodeid: USER, now: () => 1_000_000 } };
}

describe('share repository (offline queue of "Meldung teilen")', () => {
  it('queues one POST notifications/share with the spec payload; the notification row keeps its fields', async () => {
    const { db, context } = await device();
    const entry = await shareByEmail(context, { notificationnodeid: NOTIFICATION, receiver: ' meister@werk.example ', title: 'Lüfter defekt', lang: 'de' });
    const entries = await db.outbox.toArray();
    expect(entries.map((e) => [e.action, e.method, e.path, e.kind, e.nodeid])).toEqual([['shareNotification', 'POST', 'notifications/share', 'notifications', NOTIFICATION]]);
    expect(entries[0]!.body).toEqual({ nodeid: NOTIFICATION, receiver: ' meister@werk.example ', name: 'Lüfter defekt', lang: 'de' });
    expect(entry.mutationId).toBe(entries[0]!.mutationId);
    expect(await db.mirror('notifications').get(NOTIFICATION)).toMatchObject({ title: 'Lüfter defekt', status: 0, version: 7 });
  });

  it('refuses an address §5 rejects before queueing anything, with the spec text', async () => {
    const { db, context } = await device();
    const refused = await shareByEmail(context, { notificationnodeid: NOTIFICATION, receiver: 'meister', title: 'x', lang: 'de' }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(MutationInputError);
    expect((refused as MutationInputError).fieldErrors()).toEqual({ receiver: SHARE_EMAIL_ERROR });
    expect(await db.outbox.count()).toBe(0);
  });

  it('follows the queued entry: acknowledged is sent, a dead letter refused with its message, else still waiting', async () => {
    const { db, context } = await device();
    const first = await shareByEmail(context, { notificationnodeid: NOTIFICATION, receiver: 'a@werk.example', title: 'x', lang: 'de' });
    const second = await shareByEmail(context, { notificationnodeid: NOTIFICATION, receiver: 'b@werk.example', title: 'x', lang: 'de' });
    const third = await shareByEmail(context, { notificationnodeid: NOTIFICATION, receiver: 'c@werk.example', title: 'x', lang: 'de' });

    const sent = shareOutcome(context, first, 5_000);
    const { seq: _seq, ...acked } = first;
    await db.acked.put({ ...acked, ackedAt: 2 });
    await expect(sent).resolves.toEqual({ kind: 'sent' });

    const refused = shareOutcome(context, second, 5_000);
    const { seq: _seq2, ...letter } = second;
    await db.deadLetters.add({ ...letter, failedAt: 3, status: 404, error: { statusCode: 404, error: 'Not Found', message: 'Notification not found' } });
    await expect(refused).resolves.toEqual({ kind: 'refused', message: 'Notification not found' });

    await expect(shareOutcome(context, third, 50)).resolves.toEqual({ kind: 'waiting' });
  });
});
