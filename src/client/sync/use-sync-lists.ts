/**
 * The sync panel's lists, live from Dexie: pending user actions (all requests of one action as one item, described
 * by the entry that says what the user did) and dead letters of the logged-in user, each in plain words. The words come from the action's declaration (src/shared/mutations): the i18n
 * text `sync.describe.<action>` with the name of its subject row from the mirror and the declaration's
 * `describe.params`. An action no declaration knows is shown as the call it makes.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { mutationByAction } from '../../shared/mutations/registry';
import { WORKFLOW_STEP_DESCRIPTION } from '../../shared/mutations/workflows';
import { getLocalDb, type DeadLetter, type LocalDatabase, type MirrorRow, type OutboxEntry } from '../db/local-db';
import { isStaleStatusRefusal } from '../../shared/api/notifications';
import { isCommissionedBeforeBuiltRefusal, isEquipmentIdTakenRefusal } from '../../shared/api/equipment';
import { isSetAsideRefusal } from '../../shared/api/sync';
import { mayRetryLetter, opensItsRecord, reassignment, refusalOfRecord, refusedCreateUnder, retryGroup } from './dead-letters';
import { argsOf, machineOf, nameOf, subjectOf, type DescribedEntry } from './entry-subject';
import { counterUnitSymbol } from './machine-counters';
import { localized } from '../../shared/domain/text';
import { userActionKey } from './outbox';
import { mayBeSetAside } from './stuck-entry';

export interface Description {
  /** The action, i.e. the text `sync.describe.<action>`; `other` for one no declaration knows. */
  action: string;
  /** Values for the text; `null` means "unknown" (the component fills in a translated placeholder). */
  params: Record<string, string | number | null>;
  /** A notification status the text names (put into words by the component). */
  status?: number;
}

export interface SyncListItem {
  id: number;
  mutationId: number;
  description: Description;
  createdAt: number;
  attempts: number;
  lastError: string | null;
  /** Dead letters: the server's status and message, and why in the user's words. */
  refusedStatus?: number;
  refusedMessage?: string;
  refusedReason?: RefusalReason;
  /** Dead letters: how many other refused changes "Erneut senden" takes along (dead-letters.ts `retryGroup`). */
  retryWith?: number;
  /**
   * A refused report whose machine is gone that may be given another one (dead-letters.ts `reassignment`): the
   * machine it was written for, and how many refused changes built on it go along.
   */
  reassign?: { machine: string | null; followers: number };
  /** Refused as "not found" because it builds on a create that was refused itself: that create, described. */
  refusedCreate?: Description;
  /** That create may be given another machine (`reassignment`), and this change goes along with it. */
  refusedCreateReassignable?: boolean;
  /** Dead letters: the texts the user typed (`refusedContent`), shown so they can be copied before "Verwerfen". */
  content?: RefusedText[];
  /** Dead letters: whether sending again can help (`mayRetryLetter`); without it the panel offers no "Erneut senden". */
  mayRetry?: boolean;
  /**
   * Dead letters only the record's screen can settle (`opensItsRecord`): a stale status change opens its notification,
   * which shows the status it has now, where the user decides anew.
   */
  opens?: string;
  /**
   * Pending: the queue's head, which the server keeps failing on (stuck-entry.ts `mayBeSetAside`): the entry the
   * user may set aside ("Zurückstellen") so the changes behind it go on.
   */
  stuckSeq?: number;
}

/** The fields of a refused change whose text the user typed, in the order the panel shows them (`sync.panel.fields.*`). */
export const REFUSED_CONTENT_FIELDS = ['title', 'description', WORKFLOW_STEP_DESCRIPTION, 'errorcode', 'question', 'answer', 'name', 'equipmentid', 'memo'] as const;
export interface RefusedText {
  field: (typeof REFUSED_CONTENT_FIELDS)[number];
  text: string;
}

/**
 * What the user typed in a refused change (its mirror values): the panel shows it with the refusal, so a change the
 * server will never take (its record was deleted meanwhile) can be copied before it is discarded — the content is
 * kept on the device, and now it is also where the user sees it.
 */
export function refusedContent(values: Record<string, unknown>): RefusedText[] {
  return REFUSED_CONTENT_FIELDS.flatMap((field) => {
    const value = values[field];
    return typeof value === 'string' && value.trim() !== '' ? [{ field, text: value }] : [];
  });
}

/** Why the server refused a change, in the user's words (`sync.panel.refused.<reason>`); its own message is only the detail. */
export type RefusalReason = 'invalid' | 'forbidden' | 'notFound' | 'conflict' | 'statusChanged' | 'equipmentIdTaken' | 'commissionedBeforeBuilt' | 'deleted' | 'tooLarge' | 'setAside' | 'other';

/**
 * Why the server refused this change: the refusals the user can act on named for what they are (a write set aside,
 * a stale status change, an Equipment-ID another machine took meanwhile — another device's, as the form checks the
 * device's own machines — or a build year changed meanwhile to after the commissioning year sent), any other by its status.
 */
export function refusalReasonOf(letter: Pick<DeadLetter, 'status' | 'error'>): RefusalReason {
  if (isSetAsideRefusal(letter.error)) return 'setAside';
  if (isStaleStatusRefusal(letter.error)) return 'statusChanged';
  if (isEquipmentIdTakenRefusal(letter.error)) return 'equipmentIdTaken';
  if (isCommissionedBeforeBuiltRefusal(letter.error)) return 'commissionedBeforeBuilt';
  return refusalReason(letter.status);
}

export function refusalReason(status: number): RefusalReason {
  switch (status) {
    case 400:
    case 422:
      return 'invalid';
    case 403:
      return 'forbidden';
    case 404:
      return 'notFound';
    case 409:
      return 'conflict';
    case 410:
      return 'deleted';
    case 413:
      return 'tooLarge';
    default:
      // The server never refuses with a 5xx: such a letter is one the user set aside after repeated server errors.
      return status >= 500 ? 'setAside' : 'other';
  }
}


export type { DescribedEntry } from './entry-subject';

export async function describeEntry(db: LocalDatabase, entry: DescribedEntry, lang = 'de'): Promise<Description> {
  const definition = mutationByAction(entry.action);
  const other: Description = { action: 'other', params: { what: `${entry.method} /api/${entry.path}` } };
  if (!definition) return other;
  // The written row as this entry leaves it (also a row hidden by a pending delete; a refused create's row is
  // gone, then only the entry's values are left).
  const row: MirrorRow | undefined = await db.mirror(entry.kind).get(entry.nodeid);
  const written: Record<string, unknown> = { ...row, ...entry.values };
  let params: Record<string, string | number | null>;
  let subject: ReturnType<typeof subjectOf>;
  try {
    const args = argsOf(definition, entry);
    subject = subjectOf(definition, entry, written, args);
    params = definition.describe?.params?.(args, written) ?? {};
  } catch {
    // why: an entry queued by an older app may not fit today's declaration; it is still shown, as its call.
    return other;
  }
  const description: Description = { action: entry.action, params: {} };
  if (subject) {
    const isWritten = subject.kind === entry.kind && subject.nodeid === entry.nodeid;
    // The name as the screens show it now (the mirror has every later write too), else as this entry wrote it,
    // else — a file registration's row has none — the file's name as the user chose it.
    const file = isWritten && entry.dependsOn[0] !== undefined ? await db.fileBytes.get(entry.dependsOn[0]) : undefined;
    // Another record (a report's machine): as the mirror has it, else as it was when the server refused the entry.
    const subjectRow = isWritten ? row : await db.mirror(subject.kind).get(subject.nodeid);
    description.params.name = isWritten ? (nameOf(row, lang) ?? nameOf(entry.values, lang) ?? nameOf(entry.subjectNames, lang) ?? file?.name ?? null) : (nameOf(subjectRow, lang) ?? nameOf(entry.subjectNames, lang));
    // A counter is called alike on every machine: its machine too, as the mirror has it, else as it was when refused.
    if (definition.describe?.unit) description.params.unitsymbol = (await counterUnitSymbol(db, subjectRow, lang)) ?? '';
    if (definition.describe?.machine) description.params.machine = nameOf(await machineOf(db, subjectRow ?? written), lang) ?? localized(entry.subjectNames?.machine, lang);
  }
  for (const [key, value] of Object.entries(params)) {
    if (key === 'status') {
      if (typeof value === 'number') description.status = value;
    } else description.params[key] = value;
  }
  return description;
}

/** Pending entries as the user actions they belong to, in send order (one report with its photo is one item). */
export function groupByUserAction<T extends Pick<OutboxEntry, 'clientId' | 'mutationId' | 'userAction'>>(entries: readonly T[]): T[][] {
  const actions = new Map<string, T[]>();
  for (const entry of entries) {
    const key = userActionKey(entry);
    actions.set(key, [...(actions.get(key) ?? []), entry]);
  }
  return [...actions.values()];
}

function refusedMessage(letter: DeadLetter): string | undefined {
  const error = letter.error as { message?: unknown } | undefined;
  return typeof error?.message === 'string' ? error.message : undefined;
}

function reassignItem(letter: DeadLetter, pending: readonly OutboxEntry[], letters: readonly DeadLetter[]): Pick<SyncListItem, 'reassign'> {
  const plan = reassignment(letter, pending, letters);
  return plan ? { reassign: { machine: plan.machine, followers: plan.followers.length } } : {};
}

/**
 * What the user's refused changes say about a record its screen no longer finds (dead-letters.ts `refusalOfRecord`):
 * `deleted` on the server (a solution written offline on a notification a colleague deleted), `refused` (its create
 * or a change of it refused), null when none is about it. The screen says so and where the typed input is, instead
 * of only "not found".
 */
export function useRefusalOfRecord(usernodeid: string | null, nodeid: string | null): 'deleted' | 'refused' | null {
  return (
    useLiveQuery(async () => {
      if (nodeid === null) return null;
      const letters = await getLocalDb().deadLetters.filter((letter) => letter.usernodeid === usernodeid).toArray();
      return refusalOfRecord(nodeid, letters) ?? null;
    }, [usernodeid, nodeid]) ?? null
  );
}

export function useSyncLists(usernodeid: string | null, lang = 'de'): { pending: SyncListItem[]; refused: SyncListItem[] } | undefined {
  return useLiveQuery(() => syncListItems(getLocalDb(), usernodeid, lang), [usernodeid, lang]);
}

/** The panel's two lists for the user, read from the device database (useSyncLists runs it live). */
export async function syncListItems(db: LocalDatabase, usernodeid: string | null, lang = 'de'): Promise<{ pending: SyncListItem[]; refused: SyncListItem[] }> {
  const entries = (await db.outbox.toArray()).filter((entry) => entry.usernodeid === usernodeid).sort((a, b) => a.mutationId - b.mutationId);
  const letters = (await db.deadLetters.toArray()).filter((letter) => letter.usernodeid === usernodeid);
  const pending: SyncListItem[] = [];
  for (const action of groupByUserAction(entries)) {
    const lead = action.find((entry) => entry.mutationId === entry.userAction) ?? action[0]!;
    const tried = action.reduce((most, entry) => (entry.attempts > most.attempts ? entry : most), lead);
    const description = await describeEntry(db, lead, lang);
    // One save of several records of a kind (the effort tab's costs) is one item: its text can say how many
    // (`sync.describe.<action>_other`; an action without that text ignores the count).
    const alike = action.filter((entry) => entry.kind === lead.kind).length;
    if (alike > 1) description.params.count = alike;
    const head = entries[0]!;
    const stuck = action.includes(head) && mayBeSetAside(head) ? { stuckSeq: head.seq! } : {};
    pending.push({ id: lead.seq!, mutationId: lead.mutationId, description, createdAt: lead.createdAt, attempts: tried.attempts, lastError: tried.lastError, ...stuck });
  }
  const refused: SyncListItem[] = [];
  for (const letter of letters) {
    const message = refusedMessage(letter);
    const under = refusedCreateUnder(letter, letters);
    const retryWith = retryGroup(letter, letters).length - 1;
    const content = refusedContent(letter.values);
    refused.push({
      id: letter.id!,
      mutationId: letter.mutationId,
      description: await describeEntry(db, letter, lang),
      createdAt: letter.createdAt,
      attempts: letter.attempts,
      lastError: letter.lastError,
      refusedStatus: letter.status,
      refusedReason: refusalReasonOf(letter),
      mayRetry: mayRetryLetter(letter, letters),
      // Sending it again would meet the same status: its notification, where the user decides anew.
      ...(opensItsRecord(letter) ? { opens: `/notification-details?nodeid=${encodeURIComponent(letter.nodeid)}` } : {}),
      ...(message ? { refusedMessage: message } : {}),
      ...(retryWith > 0 ? { retryWith } : {}),
      ...reassignItem(letter, entries, letters),
      ...(under ? { refusedCreate: await describeEntry(db, under, lang), refusedCreateReassignable: reassignment(under, entries, letters) !== undefined } : {}),
      ...(content.length > 0 ? { content } : {}),
    });
  }
  return { pending, refused };
}
