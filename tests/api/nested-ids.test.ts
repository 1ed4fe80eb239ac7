import { sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tenantVersion } from './support/db-queries';
import { createTwoPlants, PROBES, type Plant } from './support/plant-probes';
import { call } from './support/requests';
import type { TestApp } from './support/test-app';

// Every id a write body names — the record it makes, what it hangs on, what it moves, a reading or shift row of its
// own — replaced by the id of every kind of record of another tenant: the write is refused (4xx), the other tenant
// is untouched, and no row of the caller's tenant names anything of the other tenant afterwards.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Every path in `value` that holds a UUID. */
function uuidPaths(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  if (typeof value === 'string') return UUID.test(value) ? [at] : [];
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([key, child]) => uuidPaths(child, [...at, Array.isArray(value) ? Number(key) : key]));
  return [];
}

function withValue(value: unknown, path: (string | number)[], replacement: string): unknown {
  const copy = structuredClone(value) as Record<string | number, unknown>;
  const parent = path.slice(0, -1).reduce<Record<string | number, unknown>>((node, key) => node[key] as Record<string | number, unknown>, copy);
  parent[path.at(-1)!] = replacement;
  return copy;
}

describe('ids of another tenant inside a write body', () => {
  let t: TestApp;
  let own: Plant;
  let other: Plant;
  let adminA: string;
  let otherIds: string[];

  beforeAll(async () => {
    ({ t, adminA, own, other } = await createTwoPlants());
    otherIds = Object.values(other);
  }, 120_000);
  afterAll(() => t?.close());

  it('each probe is accepted with the caller’s own ids', async () => {
    for (const probe of PROBES) {
      const response = await call(t, adminA, probe.method, probe.url(own), probe.body(own, uuidv7));
      expect(response.statusCode, `${probe.method} ${probe.url(own)}: ${response.body}`).toBeLessThan(300);
    }
  });

  it('refuses every body id of another tenant; another tenant’s id for a new row touches nothing of theirs; no row names theirs', { timeout: 600_000 }, async () => {
    const versionB = await tenantVersion(t.database.db, other.le);
    const kindOf = (id: string) => Object.entries(other).find(([, value]) => value === id)?.[0];
    const wrong: string[] = [];
    let sent = 0;
    // why references first: a new row made under another tenant's id (the second pass) would be the caller's own
    // record of that id afterwards, and a reference to it no longer foreign.
    for (const pass of ['references', 'new rows'] as const) {
      for (const probe of PROBES) {
        const fresh: string[] = [];
        const base = probe.body(own, () => {
          const id = uuidv7();
          fresh.push(id);
          return id;
        });
        const ownRows = [...fresh, ...(probe.ownRows?.(own) ?? [])];
        const valueAt = (path: (string | number)[]) => path.reduce<unknown>((node, key) => (node as Record<string | number, unknown>)[key], base);
        // `deleteequipmentof` included: another tenant's area or pool there is a 404 like anywhere else (only one the
        // tenant deleted itself is no error: a queued move still applies after its area was deleted, assign-service).
        const paths = uuidPaths(base).filter((path) => ownRows.includes(valueAt(path) as string) === (pass === 'new rows'));
        for (const path of paths) {
          for (const foreign of otherIds) {
            // new ids for every request, so a create is never the same create sent again
            const body = JSON.parse(JSON.stringify(base, (_key, value: unknown) => (typeof value === 'string' && fresh.includes(value) ? uuidv7() : value))) as unknown;
            const response = await call(t, adminA, probe.method, probe.url(own), withValue(body, path, foreign));
            sent++;
            const label = `${probe.method} ${probe.url(own)} ${path.join('.')} = the other tenant's ${kindOf(foreign)}: ${response.statusCode} ${response.body.slice(0, 200)}`;
            // A reference to another tenant's record is refused. Another tenant's id for a row of the write's own is
            // refused where it is an id of that kind (409); an id of another kind names nothing of that kind.
            if (response.statusCode >= 500 || (pass === 'references' && response.statusCode < 400)) wrong.push(label);
            if (otherIds.some((id) => id !== foreign && response.body.includes(id))) wrong.push(`answer names the other tenant: ${label}`);
          }
        }
      }
    }
    expect(sent).toBeGreaterThan(1000);
    expect(wrong).toEqual([]);
    expect(await tenantVersion(t.database.db, other.le)).toBe(versionB);
    // No row of the caller's tenant names a record of the other tenant. An id the caller's tenant has a record of
    // itself (a new row of the second pass, under an id the other tenant uses for another kind) is the caller's.
    const tables = (await t.database.db.execute<{ table_name: string }>(sql`select table_name from information_schema.columns where column_name = 'legalentitynodeid' and table_schema = 'public'`)) as unknown as { rows: { table_name: string }[] };
    const rowsOf = async (table: string) =>
      ((await t.database.db.execute<{ nodeid: string | null; row: string }>(sql`select to_jsonb(x) ->> 'nodeid' as nodeid, (to_jsonb(x) - 'nodeid')::text as row from ${sql.identifier(table)} x where legalentitynodeid = ${own.le}`)) as unknown as { rows: { nodeid: string | null; row: string }[] }).rows;
    const ownRowsOfA = new Set<string>();
    for (const { table_name: table } of tables.rows) for (const { nodeid } of await rowsOf(table)) if (nodeid) ownRowsOfA.add(nodeid);
    const foreign = otherIds.filter((id) => id !== other.le && !ownRowsOfA.has(id));
    const leaks: string[] = [];
    for (const { table_name: table } of tables.rows) {
      for (const { row } of await rowsOf(table)) if (foreign.some((id) => row.includes(id))) leaks.push(`${table}: ${row.slice(0, 300)}`);
    }
    expect(leaks).toEqual([]);
  });
});
