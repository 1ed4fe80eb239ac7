/**
 * What a queued entry is about, as its declaration says (`describe.subject`: a report's machine, a reading's
 * counter): read by the sync panel's texts, and kept with an entry the server refuses, while the device still has
 * the subject's row. A report refused because its machine was deleted is then still called by that machine's name
 * after the pull has taken the machine off the device.
 */
import type { SyncKind } from '../../shared/api/sync';
import { localized } from '../../shared/domain/text';
import { mutationByAction } from '../../shared/mutations/registry';
import type { AnyMutation, MutationArgs } from '../../shared/mutations/mutation';
import type { LocalDatabase, MirrorRow, OutboxEntry, SubjectNames } from '../db/local-db';

export type DescribedEntry = Pick<OutboxEntry, 'action' | 'values' | 'kind' | 'nodeid' | 'method' | 'path' | 'dependsOn' | 'subjectNames'> & { body?: unknown };

/** The entry's path parameters, read back from its path with the declaration's route (`notifications/:nodeid`). */
function pathParams(route: string, path: string): Record<string, string> {
  const names: string[] = [];
  const pattern = route.replace(/^\//, '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:([A-Za-z0-9_]+)/g, (_match, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  const match = new RegExp(`^${pattern}$`).exec(path);
  return match ? Object.fromEntries(names.map((name, index) => [name, decodeURIComponent(match[index + 1]!)])) : {};
}

/** The arguments as the declaration's `describe` takes them: parsed like the route does, else as stored. */
export function argsOf(definition: AnyMutation, entry: { path: string; body?: unknown }): MutationArgs<unknown, unknown> {
  const params = pathParams(definition.route, entry.path);
  const body = definition.body.safeParse(entry.body);
  const parsedParams = definition.params.safeParse(params);
  return { params: parsedParams.success ? parsedParams.data : params, body: body.success ? body.data : (entry.body ?? {}) };
}

/** The record the entry's text names: the declaration's subject, else the written row itself. Throws for an entry that does not fit its declaration. */
export function subjectOf(definition: AnyMutation, entry: DescribedEntry, written: Record<string, unknown>, args = argsOf(definition, entry)): { kind: SyncKind; nodeid: string } | undefined {
  return definition.describe?.subject ? definition.describe.subject(args, written) : { kind: entry.kind, nodeid: entry.nodeid };
}

/** The fields the screens call a record by, in the order they are tried (plain or per language). */
const NAME_FIELDS = ['name', 'title', 'model'] as const;

/** What a row is called on the screens, in `lang`. */
export const nameOf = (row: Partial<Record<string, unknown>> | undefined, lang: string): string | null => {
  if (!row) return null;
  for (const field of NAME_FIELDS) {
    const name = localized(row[field], lang);
    if (name !== null) return name;
  }
  return null;
};

/** The machine a row hangs on (its `equipmentnodeid`), from the mirror (`describe.machine`). */
export async function machineOf(db: LocalDatabase, row: Partial<Record<string, unknown>> | undefined): Promise<MirrorRow | undefined> {
  const nodeid = row?.equipmentnodeid;
  return typeof nodeid === 'string' ? db.mirror('equipment').get(nodeid) : undefined;
}

/** A mirror row's naming fields, to keep beside a refused entry. */
const namesOf = (row: MirrorRow | undefined): SubjectNames | undefined => {
  if (!row) return undefined;
  const names: SubjectNames = {};
  for (const field of NAME_FIELDS) if (row[field] !== undefined && row[field] !== null) names[field] = row[field];
  return Object.keys(names).length > 0 ? names : undefined;
};

/**
 * The subject's names of each entry, read from the mirror as it is now (the refusal: the record may be gone from it
 * at the next pull — a machine deleted on another device — and the panel must still say which one); by `seq`.
 */
export async function subjectNamesOf(db: LocalDatabase, entries: readonly OutboxEntry[]): Promise<Map<number, SubjectNames>> {
  const found = new Map<number, SubjectNames>();
  for (const entry of entries) {
    const definition = mutationByAction(entry.action);
    if (!definition || entry.seq === undefined) continue;
    let subject: { kind: SyncKind; nodeid: string } | undefined;
    let row: MirrorRow | undefined;
    try {
      row = await db.mirror(entry.kind).get(entry.nodeid);
      subject = subjectOf(definition, entry, { ...row, ...entry.values });
    } catch {
      // why: an entry queued by an older app may not fit today's declaration; it is kept without names.
      continue;
    }
    const isWritten = !subject || (subject.kind === entry.kind && subject.nodeid === entry.nodeid);
    const subjectRow = subject ? await db.mirror(subject.kind).get(subject.nodeid) : undefined;
    const names = (isWritten ? namesOf(row) : namesOf(subjectRow)) ?? {};
    if (definition.describe?.machine) {
      const machine = await machineOf(db, subjectRow);
      if (machine?.name !== undefined && machine.name !== null) names.machine = machine.name;
    }
    if (Object.keys(names).length > 0) found.set(entry.seq, names);
  }
  return found;
}
