/**
 * What the user can do with a write the server refused (sync panel): send it again, give a report whose machine is
 * gone another machine, or discard it after a confirmation. Sending again puts it at the END of the queue with a
 * NEW mutation id (the old id is used up on the server, which stored the refusal) and applies its change to the
 * mirror again — one transaction.
 */
import { mutationByAction } from '../../shared/mutations/registry';
import type { DeadLetter, LocalDatabase, OutboxEntry } from '../db/local-db';
import { enqueueMutation, filesStillNeeded, type MutationRequest } from './outbox';

/** The letter as the request it was, to be queued again. */
function requestOf(letter: DeadLetter): MutationRequest {
  return {
    action: letter.action,
    method: letter.method,
    path: letter.path,
    body: letter.body,
    kind: letter.kind,
    nodeid: letter.nodeid,
    values: letter.values,
    creates: letter.creates,
    dependsOn: letter.dependsOn,
    ...(letter.upload ? { upload: letter.upload } : {}),
  };
}

export async function retryDeadLetter(db: LocalDatabase, id: number): Promise<void> {
  const letter = await db.deadLetters.get(id);
  if (!letter) return;
  await enqueueMutation({ db, usernodeid: letter.usernodeid }, requestOf(letter), {
    inTransaction: async () => {
      if (!(await db.deadLetters.get(id))) throw new Error('dead letter already handled');
      await db.deadLetters.delete(id);
    },
    extraTables: [db.deadLetters],
  });
}

/**
 * The field naming the machine of a refused create that may be given another machine: its declaration's
 * `machineField`, when the server refused it because what it refers to is gone (404, 410). Else undefined.
 */
export function reassignableField(letter: Pick<DeadLetter, 'action' | 'creates' | 'status'>): string | undefined {
  if (!letter.creates || (letter.status !== 404 && letter.status !== 410)) return undefined;
  return mutationByAction(letter.action)?.machineField;
}

/** The entry changes one of the records `ids` or refers to one (in its path or body: a photo's notification). */
function mentions(entry: Pick<OutboxEntry, 'nodeid' | 'path' | 'body'>, ids: ReadonlySet<string>): boolean {
  if (ids.has(entry.nodeid)) return true;
  const text = `${entry.path} ${JSON.stringify(entry.body ?? null)}`;
  for (const id of ids) if (text.includes(id)) return true;
  return false;
}

/**
 * The user's changes refused after `letter` that build on its record: they change it or refer to it, or to a record
 * one of them created (a photo on a solution of the report). In the order they were refused, which is the order
 * they were written.
 */
export function followersOf(letter: DeadLetter, letters: readonly DeadLetter[]): DeadLetter[] {
  const ids = new Set([letter.nodeid]);
  const followers: DeadLetter[] = [];
  for (const other of [...letters].sort((a, b) => a.id! - b.id!)) {
    if (other.id! <= letter.id! || other.usernodeid !== letter.usernodeid || !mentions(other, ids)) continue;
    followers.push(other);
    ids.add(other.nodeid);
  }
  return followers;
}

/**
 * Whether the sync panel offers another machine for the letter: it is reassignable (above) and no change that
 * builds on its record is still waiting to be sent — that one would reach the server before the record again and be
 * refused on its own; once it is refused too, it goes along as a follower.
 */
export function canReassign(letter: DeadLetter, pending: readonly OutboxEntry[], letters: readonly DeadLetter[]): boolean {
  if (reassignableField(letter) === undefined) return false;
  const ids = new Set([letter.nodeid, ...followersOf(letter, letters).map((follower) => follower.nodeid)]);
  return !pending.some((entry) => entry.usernodeid === letter.usernodeid && mentions(entry, ids));
}

/**
 * Gives a refused create another machine and sends it again, together with its followers (the photos, solutions and
 * changes written on the record, refused after it because the record was missing): one transaction, the create
 * first, then the followers in their order, each with a new mutation id. The record keeps its id, so the followers
 * find it. Throws if the letter cannot be reassigned (see `canReassign`) or was handled meanwhile.
 */
export async function reassignDeadLetter(db: LocalDatabase, id: number, equipmentnodeid: string): Promise<void> {
  const [letter, letters, pending] = await Promise.all([db.deadLetters.get(id), db.deadLetters.toArray(), db.outbox.toArray()]);
  if (!letter || !canReassign(letter, pending, letters)) throw new Error('This refused change cannot be given another machine');
  const field = reassignableField(letter)!;
  const followers = followersOf(letter, letters);
  const lead = requestOf({ ...letter, body: { ...(letter.body as Record<string, unknown>), [field]: equipmentnodeid }, values: { ...letter.values, [field]: equipmentnodeid } });
  const requests = [lead, ...followers.map(requestOf)];
  const handled = [letter, ...followers].map((handledLetter) => handledLetter.id!);
  const ids = new Set(requests.map((request) => request.nodeid));
  await enqueueMutation({ db, usernodeid: letter.usernodeid }, requests, {
    describedBy: lead,
    inTransaction: async () => {
      if ((await db.deadLetters.bulkGet(handled)).some((stored) => stored === undefined)) throw new Error('dead letter already handled');
      // Only the entries just queued may build on the record; another one was queued since the check above.
      const building = await db.outbox.filter((entry) => entry.usernodeid === letter.usernodeid && mentions(entry, ids)).count();
      if (building !== requests.length) throw new Error('A change on this record is still waiting to be sent');
      await db.deadLetters.bulkDelete(handled);
    },
    extraTables: [db.deadLetters],
  });
}

/** Deletes a refused write for good, and its stored file bytes when nothing else needs them. */
export async function discardDeadLetter(db: LocalDatabase, id: number): Promise<void> {
  await db.transaction('rw', [db.deadLetters, db.outbox, db.fileBytes], async () => {
    const letter = await db.deadLetters.get(id);
    if (!letter) return;
    await db.deadLetters.delete(id);
    const queued = await filesStillNeeded(db, letter.dependsOn);
    for (const fileid of letter.dependsOn) {
      if (queued.has(fileid) || (await db.deadLetters.filter((other) => other.dependsOn.includes(fileid)).count()) > 0) continue;
      await db.fileBytes.delete(fileid);
    }
  });
}
