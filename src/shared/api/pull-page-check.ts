/**
 * The contract check of a pull answer (`pullResponseSchema` in sync.ts) written out by hand, without zod: it runs in
 * the pull page worker (src/client/sync/pull-page.ts), and a module worker is its own bundle — zod and the contract
 * schemas in it were 26 KB gzip of JavaScript on top of the ones the page already loads (docs/decisions.md).
 *
 * It gives the verdict zod gives and the same value: unknown keys left out, `data` kept as it came (the mirror stores
 * the row as it came). tests/unit/pull-page-check.test.ts holds it to the zod contract field by field and with
 * generated bodies, and fails when a field is added to the contract and not here.
 */
import type { PullResponse, SyncChange } from './sync';
import { SYNC_KINDS } from './sync-kinds';

/** The fields of `pullResponseSchema` and `syncChangeSchema` this check knows (the test compares them with the contract's). */
export const PULL_PAGE_FIELDS = ['formatVersion', 'cursor', 'hasMore', 'lastMutationId', 'reset', 'scope', 'changes'] as const;
export const SYNC_CHANGE_FIELDS = ['kind', 'nodeid', 'version', 'deleted', 'data'] as const;

export type PullPageHead = Omit<PullResponse, 'changes'>;

/** Where a body breaks the contract, as a path and a reason (`changes.703.data: not an object`). */
export class ContractMismatch extends Error {
  constructor(
    readonly path: string,
    reason: string,
  ) {
    super(`${path}: ${reason}`);
    this.name = 'ContractMismatch';
  }
}

const kinds: ReadonlySet<unknown> = new Set(SYNC_KINDS);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// why isSafeInteger: zod 4's `.int()` accepts safe integers only (and `z.number()` no NaN or Infinity).
function integer(value: unknown, path: string, min?: number): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw new ContractMismatch(path, 'not an integer');
  if (min !== undefined && value < min) throw new ContractMismatch(path, `below ${min}`);
  return value;
}

/**
 * Checks a parsed body's envelope: everything but the rows, which come back unchecked (`checkSyncChanges`, a slice
 * at a time). Throws ContractMismatch.
 */
export function checkPullEnvelope(body: unknown): { head: PullPageHead; changes: unknown[] } {
  if (!isObject(body)) throw new ContractMismatch('(body)', 'not an object');
  const head: PullPageHead = {
    formatVersion: integer(body.formatVersion, 'formatVersion'),
    cursor: integer(body.cursor, 'cursor', 0),
    hasMore: false,
    lastMutationId: integer(body.lastMutationId, 'lastMutationId', 0),
  };
  if (typeof body.hasMore !== 'boolean') throw new ContractMismatch('hasMore', 'not a boolean');
  head.hasMore = body.hasMore;
  if (body.reset !== undefined) {
    if (body.reset !== true) throw new ContractMismatch('reset', 'not true');
    head.reset = true;
  }
  if (body.scope !== undefined) {
    if (typeof body.scope !== 'string') throw new ContractMismatch('scope', 'not a string');
    head.scope = body.scope;
  }
  if (!Array.isArray(body.changes)) throw new ContractMismatch('changes', 'not an array');
  return { head, changes: body.changes };
}

/** Checks rows of a page; `offset` is the first one's index in the page (for the error's path). Throws ContractMismatch. */
export function checkSyncChanges(values: readonly unknown[], offset = 0): SyncChange[] {
  const changes: SyncChange[] = new Array<SyncChange>(values.length);
  for (let index = 0; index < values.length; index++) {
    const value = values[index];
    const path = `changes.${offset + index}`;
    if (!isObject(value)) throw new ContractMismatch(path, 'not an object');
    if (!kinds.has(value.kind)) throw new ContractMismatch(`${path}.kind`, 'not a sync kind');
    if (typeof value.nodeid !== 'string') throw new ContractMismatch(`${path}.nodeid`, 'not a string');
    const change: SyncChange = { kind: value.kind as SyncChange['kind'], nodeid: value.nodeid, version: integer(value.version, `${path}.version`, 0) };
    if (value.deleted !== undefined) {
      if (value.deleted !== true) throw new ContractMismatch(`${path}.deleted`, 'not true');
      change.deleted = true;
    }
    if (value.data !== undefined) {
      if (!isObject(value.data)) throw new ContractMismatch(`${path}.data`, 'not an object');
      change.data = value.data;
    }
    changes[index] = change;
  }
  return changes;
}
