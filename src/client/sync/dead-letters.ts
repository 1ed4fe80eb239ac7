/**
 * What the user can do with a write the server refused (sync panel): send it again, give a report whose machine is
 * gone another machine, or discard it after a confirmation. Sending again puts it at the END of the queue with a
 * NEW mutation id (the old id is used up on the server, which stored the refusal) and applies its change to the
 * mirror again — one transaction.
 */
import { isStaleStatusRefusal } from '../../shared/api/notifications';
import { mutationByAction } from '../../shared/mutations/registry';
import type { DeadLetter, LocalDatabase, OutboxEntry } from '../db/local-db';
import { enqueueMutation, filesStillNeeded, RecordGoneError, type MutationRequest } from './outbox';

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
    // Sent again, it is still the change the user made then, not one made now.
    createdAt: letter.createdAt,
    ...(letter.upload ? { upload: letter.upload } : {}),
    // Sent again, it still knows what it was about if refused again after the record left the device.
    ...(letter.subjectNames ? { subjectNames: letter.subjectNames } : {}),
  };
}

/**
 * What "Erneut senden" of a letter sends, in this order. A letter that builds on a refused create (a photo on a
 * report that was refused too): that create first, then everything refused that builds on it, the letter among
 * them — sent alone, it would only be refused again for want of its record. A refused create: it and what builds on
 * it (`followersOf`: a report's photos, solutions and changes; a set-aside photo registration's attachment), a
 * later delete of it too, which is what the user did last. Any other letter: itself alone (two refused edits of one
 * record are two decisions). One user action, described by the first.
 */
export function retryGroup(letter: DeadLetter, letters: readonly DeadLetter[]): DeadLetter[] {
  const under = letters.find((other) => other.id !== letter.id && other.usernodeid === letter.usernodeid && other.creates && mentions(letter, new Set(factsOf(other).creates)));
  const lead = under ?? (letter.creates ? letter : undefined);
  return lead ? [lead, ...followersOf(lead, letters)] : [letter];
}

export async function retryDeadLetter(db: LocalDatabase, id: number): Promise<void> {
  const letters = await db.deadLetters.toArray();
  const letter = letters.find((candidate) => candidate.id === id);
  if (!letter) return;
  const group = retryGroup(letter, letters);
  const handled = group.map((grouped) => grouped.id!);
  await enqueueMutation({ db, usernodeid: letter.usernodeid }, group.map(requestOf), {
    inTransaction: async () => {
      if ((await db.deadLetters.bulkGet(handled)).some((stored) => stored === undefined)) throw new Error('dead letter already handled');
      await db.deadLetters.bulkDelete(handled);
    },
    extraTables: [db.deadLetters],
  });
}

/** How "Alle erneut senden" went: the letters that could not be queued again, and how many of them because their record is gone. */
export interface RetryAllOutcome {
  failed: number;
  /** Of `failed`: changes to a record the device no longer has (`RecordGoneError`), which no later try can send. */
  gone: number;
}

/**
 * Whether sending a refused letter again can change the answer; it is sent with what it builds on (`retryGroup`),
 * so the group's first letter decides. Not:
 * - a stale status change (409, the notification moved on from the status the device saw): the same request meets
 *   the same status; the user sets the status anew on the notification, which now shows where it stands;
 * - a record deleted on the server (410), or one a change refers to that is gone (404): nothing brings a deleted
 *   record back, so the same request is refused again. The user copies what they typed and discards it, or gives a
 *   report another machine (`reassignment`). A 404 because what it builds on was itself refused (`refusedCreateUnder`)
 *   is sent again with that create, and may pass with it.
 * Every other refusal may pass later: a permission granted meanwhile (403), a server fixed (400, 5xx set aside).
 */
export function mayRetryLetter(letter: DeadLetter, letters: readonly DeadLetter[]): boolean {
  if (isStaleStatusRefusal(letter.error)) return false;
  const lead = retryGroup(letter, letters)[0]!;
  return !isStaleStatusRefusal(lead.error) && lead.status !== 404 && lead.status !== 410;
}

/** A refusal that only the record's own screen can settle (`mayRetryLetter`'s first case): its notification is offered instead. */
export function opensItsRecord(letter: Pick<DeadLetter, 'error'>): boolean {
  return isStaleStatusRefusal(letter.error);
}

/**
 * "Alle erneut senden": every refused change of the user that sending again can help (`mayRetryLetter`), sent again
 * oldest first, each with what belongs to it (`retryGroup`; a letter already taken along by an earlier one is not
 * sent twice). One letter that cannot be queued again (changed meanwhile, or its record deleted) does not stop the
 * others; says how many could not, and why.
 */
export async function retryAllDeadLetters(db: LocalDatabase, usernodeid: string): Promise<RetryAllOutcome> {
  const letters = (await db.deadLetters.toArray()).filter((letter) => letter.usernodeid === usernodeid);
  const ids = letters
    .filter((letter) => mayRetryLetter(letter, letters))
    .map((letter) => letter.id!)
    .sort((a, b) => a - b);
  const outcome: RetryAllOutcome = { failed: 0, gone: 0 };
  for (const id of ids) {
    if (!(await db.deadLetters.get(id))) continue;
    await retryDeadLetter(db, id).catch((error: unknown) => {
      outcome.failed += 1;
      if (error instanceof RecordGoneError) outcome.gone += 1;
    });
  }
  return outcome;
}

/**
 * The field naming the machine of a refused create that may be given another machine: its declaration's
 * `machineField`, when the server refused it because what it refers to is gone (404). Not a 410: that is the
 * record's own id deleted on the server, which no machine brings back. Else undefined.
 */
export function reassignableField(letter: Pick<DeadLetter, 'action' | 'creates' | 'status'>): string | undefined {
  if (!letter.creates || letter.status !== 404) return undefined;
  return mutationByAction(letter.action)?.machineField;
}

/** What the search below reads of a letter, worked out once per letter object (the panel asks for every letter). */
interface LetterFacts {
  /** Path and body as text: the ids it names. */
  text: string;
  /** The records it creates: its row and what its declaration makes besides (a solution's first step). */
  creates: string[];
}
const factsCache = new WeakMap<object, LetterFacts>();

function factsOf(entry: Pick<OutboxEntry, 'action' | 'nodeid' | 'path' | 'body' | 'creates'>): LetterFacts {
  let facts = factsCache.get(entry);
  if (!facts) {
    const definition = mutationByAction(entry.action);
    const parsed = entry.creates && definition?.alsoCreates ? definition.body.safeParse(entry.body) : undefined;
    facts = { text: `${entry.path} ${JSON.stringify(entry.body ?? null)}`, creates: !entry.creates ? [] : [entry.nodeid, ...(parsed?.success ? definition!.alsoCreates!(parsed.data) : [])] };
    factsCache.set(entry, facts);
  }
  return facts;
}

/** The entry changes one of the records `ids` or names one (in its path or body: a photo's notification). */
function mentions(entry: Pick<OutboxEntry, 'action' | 'nodeid' | 'path' | 'body' | 'creates'>, ids: ReadonlySet<string>): boolean {
  if (ids.has(entry.nodeid)) return true;
  const { text } = factsOf(entry);
  for (const id of ids) if (text.includes(id)) return true;
  return false;
}

/**
 * The user's other refused changes that build on the letter's record: they change or name it, or a record one of
 * them creates (a photo on a solution of the report: the photo names the solution's step), found until nothing new
 * turns up. Not only later letters: a report sent again and refused again is a newer letter than its photo.
 * In their letters' order, except that a create comes before every letter that names what it creates.
 */
export function followersOf(letter: DeadLetter, letters: readonly DeadLetter[]): DeadLetter[] {
  const ids = new Set([letter.nodeid, ...factsOf(letter).creates]);
  const candidates = letters.filter((other) => other.id !== letter.id && other.usernodeid === letter.usernodeid).sort((a, b) => a.id! - b.id!);
  const found = new Set<DeadLetter>();
  for (let grew = true; grew; ) {
    grew = false;
    for (const other of candidates) {
      if (found.has(other) || !mentions(other, ids)) continue;
      found.add(other);
      factsOf(other).creates.forEach((id) => ids.add(id));
      grew = true;
    }
  }
  return inDependencyOrder([...found]);
}

/**
 * The refused create a letter refused as "not found" (404) builds on: another refused letter of the user that
 * creates a record this one changes or names (a plant's follow names the plant whose create was refused). Then the
 * record was never made, not deleted meanwhile, and the panel says that instead.
 */
export function refusedCreateUnder(letter: DeadLetter, letters: readonly DeadLetter[]): DeadLetter | undefined {
  if (letter.status !== 404) return undefined;
  return letters.find((other) => other.id !== letter.id && other.usernodeid === letter.usernodeid && other.creates && mentions(letter, new Set(factsOf(other).creates)));
}

/**
 * What the user's refused changes say about a record its screen no longer finds (`letters`: the user's):
 * - `refused`: its own create was refused (a report whose machine was deleted): the server never had it;
 * - `deleted`: a change of it, or one that builds on it (a solution on a notification, a photo on that solution),
 *   was refused because the record is gone on the server — deleted there (410), or not found (404) when no refused
 *   create of the user explains the 404 (`refusedCreateUnder`): a record this device had, deleted meanwhile;
 * - `refused` for any other refusal about it; undefined when no refused change is about it.
 * The screen says which, and that the typed input waits in the sync panel's refused changes.
 */
export function refusalOfRecord(nodeid: string, letters: readonly DeadLetter[]): 'deleted' | 'refused' | undefined {
  const ids = new Set([nodeid]);
  const about = letters.filter((letter) => mentions(letter, ids));
  // What builds on those (a photo on a refused solution names the solution's step, not the notification).
  const found = new Set(about.flatMap((letter) => [letter, ...followersOf(letter, letters)]));
  if (found.size === 0) return undefined;
  if (about.some((letter) => letter.nodeid === nodeid && letter.creates)) return 'refused';
  const gone = [...found].some((letter) => letter.status === 410 || (letter.status === 404 && !refusedCreateUnder(letter, letters)));
  return gone ? 'deleted' : 'refused';
}

/** Letters in id order, each create moved before the letters that name what it creates. */
function inDependencyOrder(letters: DeadLetter[]): DeadLetter[] {
  const remaining = [...letters];
  const ordered: DeadLetter[] = [];
  while (remaining.length > 0) {
    const ready = remaining.findIndex((candidate) => {
      const createdByOthers = new Set(remaining.filter((other) => other !== candidate).flatMap((other) => factsOf(other).creates));
      return !mentions(candidate, createdByOthers);
    });
    ordered.push(...remaining.splice(Math.max(0, ready), 1));
  }
  return ordered;
}

/** A refused create that may be given another machine (`reassignment`): what the panel and the write need. */
export interface Reassignment {
  field: string;
  /** The machine the create named (gone from the server). */
  machine: string | null;
  followers: DeadLetter[];
  /** The records the create and its followers make or change: what a queued entry must not build on. */
  ids: ReadonlySet<string>;
}

/**
 * Whether the letter may be given another machine, and with which followers. Not when:
 * - it is not reassignable (`reassignableField`);
 * - a follower deletes the record (the user deleted the report meanwhile: nothing to bring back; *Verwerfen*);
 * - a change that builds on it is still waiting to be sent: queued before it again, it would reach the server first
 *   and be refused on its own; once refused too, it goes along as a follower.
 */
export function reassignment(letter: DeadLetter, pending: readonly OutboxEntry[], letters: readonly DeadLetter[]): Reassignment | undefined {
  const field = reassignableField(letter);
  if (field === undefined) return undefined;
  const followers = followersOf(letter, letters);
  if (followers.some((follower) => follower.method === 'DELETE' && follower.nodeid === letter.nodeid)) return undefined;
  const ids = new Set([letter.nodeid, ...factsOf(letter).creates, ...followers.flatMap((follower) => [follower.nodeid, ...factsOf(follower).creates])]);
  if (pending.some((entry) => entry.usernodeid === letter.usernodeid && mentions(entry, ids))) return undefined;
  const machine = letter.values[field];
  return { field, machine: typeof machine === 'string' ? machine : null, followers, ids };
}

/**
 * Gives a refused create another machine and sends it again, together with its followers (the photos, solutions and
 * changes written on the record, refused because the record was missing): one transaction, the create first, then
 * the followers in their order, each with a new mutation id, as one user action. The record keeps its id, so the
 * followers find it. Throws if the letter cannot be reassigned (see `reassignment`) or was handled meanwhile.
 */
export async function reassignDeadLetter(db: LocalDatabase, id: number, equipmentnodeid: string): Promise<void> {
  const [letter, letters, pending] = await Promise.all([db.deadLetters.get(id), db.deadLetters.toArray(), db.outbox.toArray()]);
  const plan = letter && reassignment(letter, pending, letters);
  if (!letter || !plan) throw new Error('This refused change cannot be given another machine');
  const { subjectNames: _gone, ...reassigned } = letter;
  // The chosen machine is its subject now: the names of the deleted one do not go along.
  const lead = requestOf({ ...reassigned, body: { ...(letter.body as Record<string, unknown>), [plan.field]: equipmentnodeid }, values: { ...letter.values, [plan.field]: equipmentnodeid } });
  const requests = [lead, ...plan.followers.map(requestOf)];
  const handled = [letter, ...plan.followers].map((handledLetter) => handledLetter.id!);
  await enqueueMutation({ db, usernodeid: letter.usernodeid }, requests, {
    describedBy: lead,
    inTransaction: async () => {
      if ((await db.deadLetters.bulkGet(handled)).some((stored) => stored === undefined)) throw new Error('dead letter already handled');
      // Only the entries just queued may build on the record; another one was queued since the check above.
      const building = await db.outbox.filter((entry) => entry.usernodeid === letter.usernodeid && mentions(entry, plan.ids)).count();
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
