import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkPullEnvelope, checkSyncChanges, ContractMismatch, PULL_PAGE_FIELDS, SYNC_CHANGE_FIELDS } from '../../src/shared/api/pull-page-check';
import { pullResponseSchema, SYNC_FORMAT_VERSION, SYNC_KINDS, syncChangeSchema } from '../../src/shared/api/sync';

/** The hand-written check of a whole page: its value, or null where it refuses the body. */
function light(body: unknown): unknown {
  try {
    const { head, changes } = checkPullEnvelope(body);
    return { ...head, changes: checkSyncChanges(changes) };
  } catch (error) {
    if (error instanceof ContractMismatch) return null;
    throw error;
  }
}

/** The contract's zod schema on the same body. */
function contract(body: unknown): unknown {
  const result = pullResponseSchema.safeParse(body);
  return result.success ? result.data : null;
}

/** Both checks agree on the verdict and, where they take the body, on what they make of it. Returns the verdict. */
function expectSameVerdict(body: unknown): boolean {
  const expected = contract(body);
  const actual = light(body);
  expect(actual === null, `verdict on ${JSON.stringify(body)}`).toBe(expected === null);
  expect(actual).toEqual(expected);
  return actual !== null;
}

const validChange = { kind: 'counters', nodeid: 'c1', version: 3, data: { nodeid: 'c1', value: 2 } };
const validBody = { formatVersion: SYNC_FORMAT_VERSION, cursor: 12, hasMore: false, lastMutationId: 4, scope: '', changes: [validChange] };

/** A value of every JSON type and the edges the contract's fields care about (integers, bounds, enum members). */
const probes: unknown[] = [
  undefined,
  null,
  true,
  false,
  0,
  -0,
  1,
  -1,
  1.5,
  Number.MAX_SAFE_INTEGER,
  Number.MAX_SAFE_INTEGER + 1,
  -Number.MAX_SAFE_INTEGER - 1,
  JSON.parse('1e400') as number,
  '',
  '7',
  'counters',
  'units',
  'Counters',
  'nope',
  [],
  [1],
  [{}],
  {},
  { nodeid: 'x' },
];

describe('pull page check (hand-written) against the zod contract', () => {
  it('knows exactly the fields of the contract', () => {
    expect([...PULL_PAGE_FIELDS].sort()).toEqual(Object.keys(pullResponseSchema.shape).sort());
    expect([...SYNC_CHANGE_FIELDS].sort()).toEqual(Object.keys(syncChangeSchema.shape).sort());
  });

  it('agrees with the contract on every field of the envelope set to every probe, and on bodies that are no object', () => {
    let taken = 0;
    for (const field of PULL_PAGE_FIELDS) {
      for (const probe of probes) {
        const body: Record<string, unknown> = { ...validBody, [field]: probe };
        if (probe === undefined) delete body[field];
        if (expectSameVerdict(body)) taken++;
      }
    }
    for (const probe of probes) expectSameVerdict(probe);
    // Both verdicts occur: the loop is no comparison of two refusals.
    expect(taken).toBeGreaterThan(10);
    expect(taken).toBeLessThan(PULL_PAGE_FIELDS.length * probes.length);
  });

  it('agrees with the contract on every field of a row set to every probe, and on rows that are no object', () => {
    let taken = 0;
    for (const field of SYNC_CHANGE_FIELDS) {
      for (const probe of probes) {
        const change: Record<string, unknown> = { ...validChange, [field]: probe };
        if (probe === undefined) delete change[field];
        if (expectSameVerdict({ ...validBody, changes: [validChange, change] })) taken++;
      }
    }
    for (const probe of probes) expectSameVerdict({ ...validBody, changes: [probe] });
    expect(taken).toBeGreaterThan(10);
    expect(taken).toBeLessThan(SYNC_CHANGE_FIELDS.length * probes.length);
  });

  it('takes every sync kind, written and deleted, and leaves unknown keys out as the contract does', () => {
    const changes = SYNC_KINDS.flatMap((kind, index) => [
      { kind, nodeid: `${kind}-1`, version: index, data: { nodeid: `${kind}-1`, nested: { a: [1, 2] } }, extra: 'dropped' },
      { kind, nodeid: `${kind}-2`, version: index + 1, deleted: true },
    ]);
    expect(expectSameVerdict({ ...validBody, reset: true, unknown: 1, changes })).toBe(true);
    expect(light({ ...validBody, unknown: 1, changes })).not.toHaveProperty('unknown');
  });

  it('agrees with the contract on generated bodies', () => {
    const json = fc.jsonValue({ maxDepth: 2 });
    const maybe = <T,>(valid: fc.Arbitrary<T>) => fc.option(fc.oneof({ weight: 4, arbitrary: valid }, { weight: 1, arbitrary: json }), { nil: undefined });
    const int = fc.oneof(fc.integer({ min: -3, max: 1_000_000 }), fc.constantFrom(Number.MAX_SAFE_INTEGER, 2 ** 53, 0.5));
    const change = fc.oneof(
      { weight: 9, arbitrary: fc.record({ kind: maybe(fc.constantFrom(...SYNC_KINDS, 'nope')), nodeid: maybe(fc.string()), version: maybe(int), deleted: maybe(fc.constant(true)), data: maybe(fc.dictionary(fc.string(), json, { maxKeys: 4 })), other: maybe(json) }, { requiredKeys: [] }) },
      { weight: 1, arbitrary: json },
    );
    const body = fc.record(
      { formatVersion: maybe(int), cursor: maybe(int), hasMore: maybe(fc.boolean()), lastMutationId: maybe(int), reset: maybe(fc.constant(true)), scope: maybe(fc.string()), changes: maybe(fc.array(change, { maxLength: 6 })), other: maybe(json) },
      { requiredKeys: [] },
    );
    const verdicts = new Set<boolean>();
    fc.assert(
      fc.property(body, (value) => {
        // Through JSON, as the worker gets it: no undefined values, what JSON.parse makes of the rest.
        verdicts.add(expectSameVerdict(JSON.parse(JSON.stringify(value)) as unknown));
      }),
      { numRuns: 500, seed: 11 },
    );
    expect([...verdicts].sort()).toEqual([false, true]);
  });

  it('says where a body breaks the contract', () => {
    expect(() => checkPullEnvelope({ ...validBody, cursor: -1 })).toThrow('cursor: below 0');
    expect(() => checkSyncChanges([validChange, { ...validChange, data: ['not', 'a', 'row'] }], 500)).toThrow('changes.501.data: not an object');
  });
});
