/**
 * "Meldung teilen" (declaration: src/shared/mutations/share.ts): the share is queued like every write, so one made
 * offline is sent once a connection is back, and exactly once. `shareOutcome` follows the queued entry for the
 * dialog: sent (the server queued the mail), refused (its error), or still waiting when `waitMs` has passed.
 */
import { liveQuery } from 'dexie';
import type { Language } from '../../../shared/domain/language';
import { shareNotification } from '../../../shared/mutations/share';
import type { OutboxEntry } from '../../db/local-db';
import { mutate } from '../mutate';
import type { WriteContext } from '../outbox';

export interface ShareInput {
  notificationnodeid: string;
  receiver: string;
  /** The notification's title as the device shows it (the sync panel names the share with it). */
  title: string;
  lang: Language;
}

/** Queues the share; throws MutationInputError (field `receiver`) for an address the server would refuse. */
export function shareByEmail(context: WriteContext, input: ShareInput): Promise<OutboxEntry> {
  return mutate(context, shareNotification, { params: {}, body: { nodeid: input.notificationnodeid, receiver: input.receiver, name: input.title, lang: input.lang } });
}

export type ShareOutcome = { kind: 'sent' } | { kind: 'refused'; message: string | null } | { kind: 'waiting' };

/** What became of a queued share within `waitMs`: acknowledged, refused (dead letter), or still in the outbox. */
export function shareOutcome(context: WriteContext, entry: OutboxEntry, waitMs: number): Promise<ShareOutcome> {
  const { db } = context;
  const key = (item: { clientId: string; mutationId: number }) => item.clientId === entry.clientId && item.mutationId === entry.mutationId;
  return new Promise((resolve) => {
    let done = false;
    const finish = (outcome: ShareOutcome) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      subscription.unsubscribe();
      resolve(outcome);
    };
    const timer = setTimeout(() => finish({ kind: 'waiting' }), waitMs);
    const subscription = liveQuery(async (): Promise<ShareOutcome | null> => {
      const letter = (await db.deadLetters.toArray()).find(key);
      if (letter) {
        const error = letter.error as { message?: unknown } | null;
        return { kind: 'refused', message: typeof error?.message === 'string' ? error.message : null };
      }
      if ((await db.acked.where('[clientId+mutationId]').equals([entry.clientId, entry.mutationId]).count()) > 0) return { kind: 'sent' };
      return null;
    }).subscribe({
      next: (outcome) => {
        if (outcome) finish(outcome);
      },
      error: () => finish({ kind: 'waiting' }),
    });
  });
}
