import fc from 'fast-check';
import { v4 as uuidv4 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../src/server/plugins/input-hygiene';
import { apiErrorSchema } from '../../src/shared/api/errors';
import { pullResponseSchema } from '../../src/shared/api/sync';
import { insertCostTypes } from '../factories/costs';
import { insertFile } from '../factories/files';
import { ensureUnits, insertCounter, insertCounterReading, insertCounterType, insertNotification } from '../factories/notifications';
import { insertArea, insertEquipment, insertEquipmentPool, insertSite } from '../factories/structure';
import { loginAs } from '../factories/tenant';
import { apiOperations, describeOperation, sampleValue, typeOf, urlOf, type JsonSchema, type Operation } from './support/route-catalog';
import { mutationHeaders } from './support/structure';
import { createOneTenantApp, type TestApp } from './support/test-app';

/**
 * Generated input fuzz over every registered route (from the OpenAPI document, so a route added later is fuzzed
 * without editing this file). Each case starts from a body, query and path the route's schemas accept, then
 * breaks one thing: a wrong type, a huge or deep value, unicode and NUL, HTML/script text, a negative, huge or
 * non-finite number, a missing or an extra field, prototype names, malformed JSON, a wrong content type. The
 * promise checked: never a 5xx; a refusal is a 4xx with the error body and a message; and a refused request
 * writes nothing, seen through the change feed (GET /api/sync/pull does not move).
 *
 * Beside it, a deterministic sweep puts numbers at the edges of Date, int4 and bigint into every number field of
 * every write body (EDGE_BASES gives each such route a request it accepts).
 *
 * A fixed seed by default (CI). More:
 *   INPUT_FUZZ_RUNS=200 npx vitest run --project api tests/api/input-fuzz.test.ts     # cases per route
 *   INPUT_FUZZ_SEED=123 npx vitest run --project api tests/api/input-fuzz.test.ts     # another seed
 * A failure prints the seed and path that replay it (fast-check's counterexample).
 */

const SEED = Number(process.env.INPUT_FUZZ_SEED?.trim() || 20261124);
const RUNS = Number(process.env.INPUT_FUZZ_RUNS?.trim() || 10);
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty'];

type Body = { kind: 'json'; value: unknown } | { kind: 'raw'; text: string; contentType: string } | { kind: 'none' };

interface FuzzCase {
  body: Body;
  query: Record<string, unknown>;
  path: Record<string, string>;
  /** Sent as the outbox sends it (a fresh client, mutation id 1). */
  withSyncHeaders: boolean;
  /** What was broken, for the failure message. */
  broken: string;
}

/** Text that has broken servers: NUL, unicode edge cases, markup, SQL, path tricks, huge. */
const hostileText = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '<script>alert(1)</script>',
    '"><img src=x onerror=alert(1)>',
    "' OR 1=1 --",
    '../../etc/passwd',
    '%00',
    '\uD800',
    '\uFEFF',
    '👩‍🔧🏭',
    'İ',
    'ß'.repeat(300),
    '9'.repeat(400),
    'NaN',
    'Infinity',
    '-1',
    '1e999',
    'null',
    'true',
    '00000000-0000-0000-0000-000000000000',
    'ffffffff-ffff-ffff-ffff-ffffffffffff',
  ),
  fc.constantFrom(...PROTOTYPE_NAMES),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ maxLength: 12 }).map((text) => text.repeat(1000)),
);

const hostileNumber = fc.oneof(
  fc.constantFrom(-1, 0, -0, 0.5, -0.000001, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 2 ** 31, -(2 ** 63), 1e-320),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
);

/** Deep values around the JSON depth limit (in the route's body they sit a level or more deeper), and wide ones. */
const nested = (depth: number, wrap: (inner: unknown) => unknown): unknown => Array.from({ length: depth }).reduce<unknown>(wrap, 'x');
const hostileStructure = fc.oneof(
  fc.constantFrom<unknown>(
    null,
    true,
    false,
    {},
    [],
    [null],
    nested(10, (inner) => ({ a: inner })),
    nested(MAX_JSON_DEPTH - 2, (inner) => [inner]),
    nested(MAX_JSON_DEPTH + 1, (inner) => ({ a: inner })),
    Array.from({ length: 5_000 }, (_, i) => i),
    Object.fromEntries(Array.from({ length: 2_000 }, (_, i) => [`k${i}`, i])),
  ),
  fc.constantFrom(...PROTOTYPE_NAMES).map((name) => JSON.parse(`{"${name}": {"polluted": true}}`) as unknown),
  fc.jsonValue({ maxDepth: 4 }),
);

const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom(...PROTOTYPE_NAMES) },
  { weight: 3, arbitrary: hostileText },
  { weight: 2, arbitrary: hostileNumber },
  { weight: 2, arbitrary: hostileStructure },
);

/** Values the schema accepts, small; ids are random or the tenant's real ones (so routes get past their 404s). */
function valid(schema: JsonSchema, knownIds: string[], depth = 0): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum && schema.enum.length > 0) return fc.constantFrom(...schema.enum);
  const options = schema.anyOf ?? schema.oneOf;
  if (options && options.length > 0) return fc.oneof(...options.map((option) => valid(option, knownIds, depth)));
  if (depth > 6) return fc.constant(sampleValue(schema));
  switch (typeOf(schema)) {
    case 'object': {
      const properties = Object.entries(schema.properties ?? {});
      const record = Object.fromEntries(properties.map(([name, property]) => [name, valid(property, knownIds, depth + 1)]));
      return fc.record(record, { requiredKeys: (schema.required ?? []).filter((name) => name in record) });
    }
    case 'array': {
      const min = schema.minItems ?? 0;
      return fc.array(valid(schema.items ?? {}, knownIds, depth + 1), { minLength: min, maxLength: Math.min(schema.maxItems ?? min + 2, min + 2) });
    }
    case 'integer':
      return fc.integer({ min: schema.minimum ?? 0, max: schema.maximum ?? 1_000_000 });
    case 'number':
      return fc.double({ min: schema.minimum ?? 0, max: schema.maximum ?? 1_000_000, noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'string':
      if (schema.format === 'uuid') return knownIds.length > 0 ? fc.oneof(fc.uuid(), fc.constantFrom(...knownIds)) : fc.uuid();
      if (schema.format || schema.pattern) return fc.constant(sampleValue(schema));
      // Short strings keep the cases cheap, but never shorter than the field's minimum (a device secret's 32).
      return fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.max(schema.minLength ?? 0, Math.min(schema.maxLength ?? 20, 20)) });
    default:
      return fc.constant(sampleValue(schema));
  }
}

/** Every place a value could be broken: `[]` is the value itself, then each key and index (iterative). */
function pathsOf(value: unknown): (string | number)[][] {
  const paths: (string | number)[][] = [[]];
  const pending: [unknown, (string | number)[]][] = [[value, []]];
  while (pending.length > 0) {
    const [current, at] = pending.pop()!;
    if (current === null || typeof current !== 'object') continue;
    for (const [key, child] of Object.entries(current)) {
      const path = [...at, Array.isArray(current) ? Number(key) : key];
      paths.push(path);
      pending.push([child, path]);
    }
  }
  return paths;
}

type Breakage = { kind: 'replace'; value: unknown } | { kind: 'delete' } | { kind: 'extra'; name: string; value: unknown };

function broken(value: unknown, path: (string | number)[], breakage: Breakage): unknown {
  const copy = structuredClone(value) as unknown;
  if (path.length === 0) {
    if (breakage.kind === 'replace') return breakage.value;
    if (breakage.kind === 'delete') return undefined;
  }
  const parent = path.slice(0, -1).reduce<unknown>((node, key) => (node as Record<string | number, unknown>)[key], copy);
  const target = path.length === 0 ? copy : (parent as Record<string | number, unknown>)[path[path.length - 1]!];
  if (breakage.kind === 'extra') {
    // why defineProperty: a computed `__proto__` assignment would set the prototype, not add the field as JSON does.
    if (target !== null && typeof target === 'object' && !Array.isArray(target)) Object.defineProperty(target, breakage.name, { value: breakage.value, enumerable: true, configurable: true, writable: true });
    return copy;
  }
  const key = path[path.length - 1]!;
  if (breakage.kind === 'delete') {
    if (Array.isArray(parent)) parent.splice(Number(key), 1);
    else delete (parent as Record<string | number, unknown>)[key];
  } else {
    Object.defineProperty(parent, key, { value: breakage.value, enumerable: true, configurable: true, writable: true });
  }
  return copy;
}

const breakage: fc.Arbitrary<Breakage> = fc.oneof(
  { weight: 5, arbitrary: hostileValue.map((value): Breakage => ({ kind: 'replace', value })) },
  { weight: 2, arbitrary: fc.constant<Breakage>({ kind: 'delete' }) },
  { weight: 2, arbitrary: fc.tuple(fc.oneof(fc.constantFrom(...PROTOTYPE_NAMES), fc.string({ maxLength: 10 })), hostileValue).map(([name, value]): Breakage => ({ kind: 'extra', name, value })) },
);

const rawBodies = fc.oneof(
  fc.constantFrom(
    { text: '{', contentType: 'application/json' },
    { text: '{"a":1,}', contentType: 'application/json' },
    { text: "{'a':1}", contentType: 'application/json' },
    { text: 'null', contentType: 'application/json' },
    { text: '"text"', contentType: 'application/json' },
    { text: '12', contentType: 'application/json' },
    { text: '', contentType: 'application/json' },
    { text: '{"__proto__":{"admin":true}}', contentType: 'application/json' },
    { text: '{"constructor":{"prototype":{"admin":true}}}', contentType: 'application/json' },
    { text: `${'['.repeat(40)}${']'.repeat(40)}`, contentType: 'application/json' },
    { text: `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`, contentType: 'application/json' },
    { text: '{"a":"\\u0000"}', contentType: 'application/json' },
    { text: '\uFEFF{}', contentType: 'application/json' },
    { text: 'name=x&lang=de', contentType: 'application/x-www-form-urlencoded' },
    { text: '<a>1</a>', contentType: 'application/xml' },
    { text: 'hello', contentType: 'text/plain' },
    { text: '--b\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--b--', contentType: 'multipart/form-data; boundary=b' },
    { text: '{}', contentType: 'application/json; charset=latin1' },
  ),
  fc.string({ unit: 'binary', maxLength: 60 }).map((text) => ({ text, contentType: 'application/json' })),
);

/** The cases for one route: its accepted input with one thing broken. */
function cases(operation: Operation, knownIds: string[]): fc.Arbitrary<FuzzCase> {
  const queryFields = Object.fromEntries(operation.query.map((p) => [p.name, p.schema]));
  const querySchema: JsonSchema = { type: 'object', properties: queryFields, required: operation.query.filter((p) => p.required).map((p) => p.name) };
  const pathSchema: JsonSchema = { type: 'object', properties: Object.fromEntries(operation.pathParams.map((p) => [p.name, p.schema])), required: operation.pathParams.map((p) => p.name) };
  const validBody: fc.Arbitrary<Body> = operation.body ? valid(operation.body, knownIds).map((value): Body => ({ kind: 'json', value })) : fc.constant<Body>({ kind: 'none' });
  const validCase = fc.record({
    body: validBody,
    query: valid(querySchema, knownIds) as fc.Arbitrary<Record<string, unknown>>,
    path: valid(pathSchema, knownIds) as fc.Arbitrary<Record<string, string>>,
    withSyncHeaders: fc.boolean(),
  });
  const where = fc.constantFrom(...(['body', 'raw', 'query', 'path', 'none'] as const).filter((w) => w !== 'path' || operation.pathParams.length > 0));
  // why a toString for fast-check: a failing case prints as what was broken, not as a 10 KB body.
  const printable = (fuzz: FuzzCase): FuzzCase => Object.assign(fuzz, { [fc.toStringMethod]: () => `${describeOperation(operation)} with ${fuzz.broken}` });
  return fc.tuple(validCase, where, breakage, fc.nat(), rawBodies).map(([base, part, breaking, pick, raw]): FuzzCase => printable(brokenCase(base, part, breaking, pick, raw)));

  function brokenCase(base: Omit<FuzzCase, 'broken'>, part: 'body' | 'raw' | 'query' | 'path' | 'none', breaking: Breakage, pick: number, raw: { text: string; contentType: string }): FuzzCase {
    switch (part) {
      case 'raw':
        return { ...base, body: { kind: 'raw', ...raw }, broken: `raw ${raw.contentType} body ${JSON.stringify(raw.text.slice(0, 80))} (${raw.text.length} chars)` };
      case 'body': {
        const value = base.body.kind === 'json' ? base.body.value : {};
        const paths = pathsOf(value);
        const path = paths[pick % paths.length]!;
        return { ...base, body: { kind: 'json', value: broken(value, path, breaking) }, broken: `body ${path.join('.') || '(root)'} ${describeBreakage(breaking)}` };
      }
      case 'query': {
        const names = [...Object.keys(queryFields), 'lang', 'extra'];
        const name = names[pick % names.length]!;
        const value = breaking.kind === 'replace' ? textOf(breaking.value) : breaking.kind === 'extra' ? textOf(breaking.value) : undefined;
        return { ...base, query: { ...base.query, [name]: value }, broken: `query ${name}=${String(value).slice(0, 80)}` };
      }
      case 'path': {
        const names = operation.pathParams.map((p) => p.name);
        const name = names[pick % names.length]!;
        const value = textOf(breaking.kind === 'delete' ? '' : breaking.value) || ' ';
        return { ...base, path: { ...base.path, [name]: value }, broken: `path ${name}=${value.slice(0, 80)}` };
      }
      case 'none':
        return { ...base, broken: 'nothing (valid input)' };
    }
  }
}

interface EdgeFixtures {
  admin: string;
  site: string;
  area: string;
  machine: string;
  machineType: string;
  counterType: string;
  counter: string;
  notification: string;
  costType: string;
  file: string;
}

interface EdgeBase {
  body: unknown;
  path?: Record<string, string>;
  /** Sent with X-Client-Id (and a mutation id), as the outbox sends it. */
  syncHeaders?: boolean;
}

const YEAR_2020 = Date.UTC(2020, 0, 1);

/**
 * A request each write route with number fields accepts, built on the test tenant's records (`made`: the id a
 * route's base request created, by route). The sweep puts the edge numbers into it field by field, with new ids.
 */
const EDGE_BASES: Record<string, (f: EdgeFixtures, made: Record<string, string>) => EdgeBase> = {
  'POST /api/notifications': (f) => ({ body: { lang: 'de', nodeid: uuidv4(), type: 1, title: 'Kante', equipmentnodeid: f.machine } }),
  'PUT /api/notifications/{nodeid}': (f) => ({ path: { nodeid: f.notification }, body: { lang: 'de', nodeid: f.notification, title: 'Kante' } }),
  'POST /api/equipments': (f) => ({ body: { lang: 'de', equipmentnodeid: uuidv4(), name: 'Kante', constructiondate: YEAR_2020, isequipmentof: [f.area], equipmenttypenodeid: f.machineType } }),
  'POST /api/equipments/bulk': (f) => ({ body: { items: [{ lang: 'de', equipmentnodeid: uuidv4(), name: 'Kante', constructiondate: YEAR_2020, isequipmentof: [f.area], equipmenttypenodeid: f.machineType }] } }),
  'PUT /api/equipments/{id}': (f) => ({ path: { id: f.machine }, body: { lang: 'de', equipmentnodeid: f.machine, name: 'Kante' } }),
  'POST /api/counters/create': (f) => ({ body: { lang: 'de', nodeid: uuidv4(), name: 'Kante', counterTypeNodeId: f.counterType, equipmentNodeId: f.machine, values: [{ nodeid: uuidv4(), reading: 1, timestamp: YEAR_2020 }] } }),
  'PUT /api/counters/update/{id}': (f) => ({ path: { id: f.counter }, body: { lang: 'de', nodeid: f.counter, values: [{ nodeid: uuidv4(), reading: 2, timestamp: YEAR_2020 }] } }),
  'POST /api/countertypes/create': (f) => ({ body: { lang: 'de', nodeid: uuidv4(), name: 'Kante', unit: 'C62', counter: { nodeid: uuidv4(), name: 'Kante', equipmentNodeId: f.machine, values: [{ nodeid: uuidv4(), reading: 1, timestamp: YEAR_2020 }] } } }),
  'POST /api/files': () => ({ body: { count: 1, extensions: [{ nodeid: uuidv4(), extension: 'pdf', size: 100 }] } }),
  'POST /api/attachments': (f) => ({ body: { lang: 'de', nodeid: uuidv4(), title: 'Kante', file: { fileid: f.file, fileversion: 1 }, isattachmentof: f.notification } }),
  'PUT /api/attachments/{id}': (f, made) => ({ path: { id: made['POST /api/attachments']! }, body: { lang: 'de', attachmentnodeid: made['POST /api/attachments'], file: { fileid: f.file, fileversion: 1 } } }),
  'POST /api/workflows': (f) => ({ body: { lang: 'de', nodeid: uuidv4(), stepnodeid: uuidv4(), created: YEAR_2020, usernodeid: f.admin, notificationnodeid: f.notification } }),
  'POST /api/costs/create': (f) => ({ body: { lang: 'de', nodeid: uuidv4(), value: 10, costTypeNodeId: f.costType, hasCostSourceNodeId: f.notification } }),
  'PUT /api/costs/update/{id}': (f, made) => ({ path: { id: made['POST /api/costs/create']! }, body: { lang: 'de', nodeid: made['POST /api/costs/create'], value: 20 } }),
  'POST /api/areas': (f) => ({ body: { lang: 'de', nodeid: uuidv4(), name: 'Kante', sitenodeid: f.site, shifts: [] } }),
  'POST /api/shiftmodels': (f) => ({ body: { nodeid: uuidv4(), shiftmodelof: f.machine, shifts: [] } }),
  'PUT /api/shiftmodels/{id}': (f, made) => ({ path: { id: made['POST /api/shiftmodels']! }, body: { shiftnodeid: made['POST /api/shiftmodels'], shifts: [] } }),
  // A fresh device's first id (the sweep's sync headers name a new client each time): set aside, or a gap (409).
  'POST /api/sync/set-aside': () => ({ syncHeaders: true, body: { mutationId: 1 } }),
  'POST /api/sync/batch': (f) => ({ syncHeaders: true, body: { mutations: [{ mutationId: 1, method: 'POST', path: '/api/notifications', body: { lang: 'de', nodeid: uuidv4(), type: 1, title: 'Kante', equipmentnodeid: f.machine } }] } }),
};

/**
 * Numbers at the edges of what JavaScript's Date (±8.64e15 ms), PostgreSQL's int4 and bigint and a year of four
 * digits hold, and integers JSON carries but JavaScript cannot count exactly.
 */
const EDGE_NUMBERS = [
  8_640_000_000_000_000,
  8_640_000_000_000_001,
  -8_640_000_000_000_001,
  Number.MAX_SAFE_INTEGER,
  -Number.MAX_SAFE_INTEGER,
  253_402_300_800_000,
  -62_135_596_800_001,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 63,
  1e21,
];

/** A step into a JSON value along its schema: a property, an array index, or which `anyOf` option. */
type Step = { key: string } | { index: number } | { option: number };

/** Every place in a body whose schema is a number (through objects, arrays, tuples and anyOf options). */
function numberPaths(schema: JsonSchema, depth = 0): Step[][] {
  if (depth > 8) return [];
  const options = schema.anyOf ?? schema.oneOf;
  if (options) return options.flatMap((option, index) => numberPaths(option, depth + 1).map((path) => [{ option: index }, ...path]));
  switch (typeOf(schema)) {
    case 'integer':
    case 'number':
      return [[]];
    case 'object':
      return Object.entries(schema.properties ?? {}).flatMap(([key, property]) => numberPaths(property, depth + 1).map((path) => [{ key }, ...path]));
    case 'array': {
      const tuple = (schema as { prefixItems?: JsonSchema[] }).prefixItems ?? (Array.isArray(schema.items) ? (schema.items as JsonSchema[]) : undefined);
      if (tuple) return tuple.flatMap((item, index) => numberPaths(item, depth + 1).map((path) => [{ index }, ...path]));
      return numberPaths(schema.items ?? {}, depth + 1).map((path) => [{ index: 0 }, ...path]);
    }
    default:
      return [];
  }
}

function itemSchema(schema: JsonSchema, index: number): JsonSchema {
  const tuple = (schema as { prefixItems?: JsonSchema[] }).prefixItems ?? (Array.isArray(schema.items) ? (schema.items as JsonSchema[]) : undefined);
  return tuple ? (tuple[index] ?? {}) : (schema.items ?? {});
}

/** `base` with `value` at `path`; what the path passes through and `base` lacks is made from the schema. */
function placeNumber(schema: JsonSchema, path: Step[], value: number, base: unknown): unknown {
  const [step, ...rest] = path;
  if (!step) return value;
  if ('option' in step) return placeNumber((schema.anyOf ?? schema.oneOf)![step.option]!, rest, value, base);
  if ('key' in step) {
    const object = base !== null && typeof base === 'object' && !Array.isArray(base) ? { ...(base as Record<string, unknown>) } : ((sampleValue(schema) ?? {}) as Record<string, unknown>);
    object[step.key] = placeNumber(schema.properties?.[step.key] ?? {}, rest, value, object[step.key]);
    return object;
  }
  const array = Array.isArray(base) ? [...(base as unknown[])] : Array.isArray(sampleValue(schema)) ? [...(sampleValue(schema) as unknown[])] : [];
  while (array.length <= step.index) array.push(sampleValue(itemSchema(schema, array.length)));
  array[step.index] = placeNumber(itemSchema(schema, step.index), rest, value, array[step.index]);
  return array;
}

const describeSteps = (path: Step[]) => path.filter((step) => !('option' in step)).map((step) => ('key' in step ? step.key : 'index' in step ? String(step.index) : '')).join('.') || '(root)';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The body with every id the tenant does not have replaced by a new one: a create makes a new record each time. */
function freshIds(value: unknown, known: Set<string>): unknown {
  if (typeof value === 'string') return UUID.test(value) && !known.has(value) ? uuidv4() : value;
  if (Array.isArray(value)) return value.map((item) => freshIds(item, known));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, freshIds(item, known)]));
  return value;
}

const textOf = (value: unknown): string => (typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value)));

function describeBreakage(breaking: Breakage): string {
  if (breaking.kind === 'delete') return 'deleted';
  const value = textOf(breaking.value).slice(0, 80);
  return breaking.kind === 'extra' ? `+ field ${breaking.name}=${value}` : `= ${value}`;
}

describe('input fuzz over every registered route', () => {
  let t: TestApp;
  let authorization: string;
  let operations: Operation[];
  let knownIds: string[];
  let admin: string;
  let adminUser: { email: string; password: string };
  const pullClient = uuidv4();
  let cursor = 0;

  /** The change feed's cursor after everything committed so far (following hasMore). */
  async function feedAfter(from: number): Promise<{ cursor: number; changes: number }> {
    let next = from;
    let changes = 0;
    for (;;) {
      const response = await t.app.inject({ method: 'GET', url: `/api/sync/pull?cursor=${next}`, headers: { authorization, 'x-client-id': pullClient } });
      expect(response.statusCode, response.body).toBe(200);
      const page = pullResponseSchema.parse(response.json());
      changes += page.changes.length;
      next = page.cursor;
      if (!page.hasMore) return { cursor: next, changes };
    }
  }

  beforeAll(async () => {
    const app = await createOneTenantApp();
    t = app.t;
    authorization = app.adminA;
    const le = { legalentitynodeid: app.a.legalEntity.nodeid };
    await ensureUnits(t.database.db);
    const site = await insertSite(t.database.db, le);
    const area = await insertArea(t.database.db, { ...le, sitenodeid: site.nodeid });
    const pool = await insertEquipmentPool(t.database.db, le);
    const machine = await insertEquipment(t.database.db, le);
    const type = await insertCounterType(t.database.db, le);
    const counter = await insertCounter(t.database.db, { ...le, equipmentnodeid: machine.nodeid, countertypenodeid: type.nodeid });
    const reading = await insertCounterReading(t.database.db, { ...le, counternodeid: counter.nodeid });
    knownIds = [app.a.legalEntity.nodeid, app.a.admin.nodeid, site.nodeid, area.nodeid, pool.nodeid, machine.nodeid, type.nodeid, counter.nodeid, reading.nodeid];
    admin = app.a.admin.nodeid;
    adminUser = app.a.admin;
    operations = apiOperations(t.app);
    // why a first write: from cursor 0 a pull means "everything", rows outside the feed too.
    const first = await t.app.inject({ method: 'POST', url: '/api/countertypes/create', headers: { authorization }, payload: { lang: 'de', name: 'Start', unit: 'C62' } });
    expect(first.statusCode, first.body).toBe(201);
    cursor = (await feedAfter(0)).cursor;
  });
  afterAll(() => t?.close());

  it('covers every registered route', () => {
    expect(operations.length).toBeGreaterThan(60);
  });

  // why a timeout growing with RUNS: more cases per route are asked for with INPUT_FUZZ_RUNS, on a busy machine too.
  it('never a 5xx; a refusal is a clear 4xx and writes nothing', { timeout: 300_000 + RUNS * 60_000 }, async () => {
    const stats = { requests: 0, refused: 0, accepted: 0 };
    for (const operation of operations) {
      await fc.assert(
        fc.asyncProperty(cases(operation, knownIds), async (fuzz) => {
          const response = await send(operation, fuzz);
          stats.requests++;
          const label = `${describeOperation(operation)} with ${fuzz.broken}${fuzz.withSyncHeaders ? ' (sync headers)' : ''}: ${response.statusCode} ${response.body.slice(0, 300)}`;
          expect(response.statusCode, label).toBeLessThan(500);
          if (response.statusCode >= 400) {
            stats.refused++;
            const error = apiErrorSchema.safeParse(response.json());
            expect(error.success, label).toBe(true);
            expect(error.data!.message.length, label).toBeGreaterThan(0);
            expect(error.data!.statusCode, label).toBe(response.statusCode);
          } else stats.accepted++;
          if (WRITES.has(operation.method)) {
            const feed = await feedAfter(cursor);
            if (response.statusCode >= 400) expect(feed.changes, `refused but written: ${label}`).toBe(0);
            cursor = feed.cursor;
          }
        }),
        { seed: SEED + operations.indexOf(operation), numRuns: RUNS, endOnFailure: true },
      );
    }
    // why printed: docs/security.md § Bad input quotes these figures of the last run.
    console.info(`input fuzz: ${operations.length} routes, ${stats.requests} requests (${stats.refused} refused, ${stats.accepted} accepted), seed ${SEED}, ${RUNS} runs per route`);
    expect(stats.refused).toBeGreaterThan(stats.requests / 2);
  });

  // why a sweep beside the fuzz: a number the schema lets through but JavaScript's Date or a PostgreSQL column
  // cannot hold (a year as epoch ms past 275,760, an int4 past 2^31) is a 5xx — and a 5xx tells a device to send
  // the same entry again, so one such entry stops its whole outbox. Random cases seldom put exactly such a value
  // into exactly such a field; this puts each edge number into every number field of every write body, on top of
  // a request the route accepted (so the value gets past the route's 404s to the code that stores it).
  it('every number field of every write body takes the edge numbers without a 5xx', { timeout: 600_000 }, async () => {
    // why its own records: the fuzz before it deletes what it finds, the tenant's fixtures included.
    const db = t.database.db;
    const le = { legalentitynodeid: (await db.query.users.findFirst({ where: (users, { eq }) => eq(users.nodeid, admin) }))!.legalentitynodeid };
    const site = await insertSite(db, le);
    const area = await insertArea(db, { ...le, sitenodeid: site.nodeid });
    const machine = await insertEquipment(db, { ...le, areanodeid: area.nodeid });
    const counterType = await insertCounterType(db, le);
    const counter = await insertCounter(db, { ...le, equipmentnodeid: machine.nodeid, countertypenodeid: counterType.nodeid });
    const notification = await insertNotification(db, { ...le, equipmentnodeid: machine.nodeid });
    const costTypes = await insertCostTypes(db, le.legalentitynodeid);
    const file = await insertFile(db, { ...le, status: 'complete', createdbynodeid: admin });
    const fixtures: EdgeFixtures = { admin, site: site.nodeid, area: area.nodeid, machine: machine.nodeid, machineType: machine.equipmenttypenodeid, counterType: counterType.nodeid, counter: counter.nodeid, notification: notification.nodeid, costType: Object.values(costTypes)[0]!, file: file.fileid };
    const known = new Set([...knownIds, ...Object.values(fixtures)]);
    const made: Record<string, string> = {};
    const withBase = new Set<string>();
    const withNumbers: string[] = [];
    const covered: string[] = [];
    let requests = 0;
    const writes = operations.filter((operation) => WRITES.has(operation.method) && operation.method !== 'DELETE' && operation.body);
    // Creates first: what they make (answered nodeids) lets the updates of those kinds find a record.
    writes.sort((x, y) => Number(x.method !== 'POST') - Number(y.method !== 'POST'));
    for (const operation of writes) {
      const paths = numberPaths(operation.body!);
      if (paths.length === 0) continue;
      withNumbers.push(describeOperation(operation));
      const route = describeOperation(operation);
      const base = EDGE_BASES[route] ? await givenRequest(operation, EDGE_BASES[route](fixtures, made)) : await acceptedRequest(operation, [...known]);
      if (!base) continue;
      for (const nodeid of base.madeIds) known.add(nodeid);
      made[route] = base.madeIds[0] ?? '';
      withBase.add(route);
      for (const path of paths) {
        for (const edge of EDGE_NUMBERS) {
          const body = freshIds(placeNumber(operation.body!, path, edge, base.body), known);
          const response = await send(operation, { ...base.fuzz, body: { kind: 'json', value: body }, broken: '' });
          requests++;
          const label = `${describeOperation(operation)} with ${describeSteps(path)} = ${edge}: ${response.statusCode} ${response.body.slice(0, 300)}`;
          expect(response.statusCode, label).toBeLessThan(500);
          if (response.statusCode >= 400) expect(apiErrorSchema.safeParse(response.json()).success, label).toBe(true);
        }
        covered.push(`${describeOperation(operation)} ${describeSteps(path)}`);
      }
    }
    console.info(`edge numbers: ${covered.length} number fields of ${new Set(covered.map((c) => c.split(' ').slice(0, 2).join(' '))).size} write routes, ${requests} requests`);
    // A write route whose body takes a number needs a request it accepts (EDGE_BASES), or the sweep proves nothing
    // for it: a route added later fails here until it has one.
    expect(withNumbers.filter((route) => !withBase.has(route)), 'write routes with number fields and no accepted request').toEqual([]);
  });

  /** The request EDGE_BASES gives, sent once; it must be accepted. */
  async function givenRequest(operation: Operation, given: EdgeBase): Promise<{ fuzz: FuzzCase; body: unknown; madeIds: string[] }> {
    const fuzz: FuzzCase = { body: { kind: 'json', value: given.body }, query: {}, path: given.path ?? {}, withSyncHeaders: given.syncHeaders ?? false, broken: '' };
    const response = await send(operation, fuzz);
    expect(response.statusCode, `${describeOperation(operation)}: the edge sweep's base request: ${response.body.slice(0, 300)}`).toBeLessThan(300);
    const answer = response.json() as { nodeid?: unknown; nodeids?: unknown };
    return { fuzz, body: given.body, madeIds: [answer.nodeid, ...(Array.isArray(answer.nodeids) ? answer.nodeids : [])].filter((id): id is string => typeof id === 'string') };
  }

  /** A request the route accepts (2xx), from valid cases with the tenant's ids; with the ids it made. */
  async function acceptedRequest(operation: Operation, ids: string[]): Promise<{ fuzz: FuzzCase; body: unknown; madeIds: string[] } | undefined> {
    const queryFields = Object.fromEntries(operation.query.map((p) => [p.name, p.schema]));
    const querySchema: JsonSchema = { type: 'object', properties: queryFields, required: operation.query.filter((p) => p.required).map((p) => p.name) };
    const pathSchema: JsonSchema = { type: 'object', properties: Object.fromEntries(operation.pathParams.map((p) => [p.name, p.schema])), required: operation.pathParams.map((p) => p.name) };
    const samples = fc.sample(fc.record({ body: valid(operation.body!, ids), query: valid(querySchema, ids), path: valid(pathSchema, ids) }), { seed: SEED, numRuns: 40 });
    for (const sample of samples) {
      const fuzz: FuzzCase = { body: { kind: 'json', value: sample.body }, query: sample.query as Record<string, unknown>, path: sample.path as Record<string, string>, withSyncHeaders: false, broken: '' };
      const response = await send(operation, fuzz);
      if (response.statusCode < 300) {
        const answer = response.json() as { nodeid?: unknown; nodeids?: unknown };
        const madeIds = [answer.nodeid, ...(Array.isArray(answer.nodeids) ? answer.nodeids : [])].filter((id): id is string => typeof id === 'string');
        return { fuzz, body: sample.body, madeIds };
      }
    }
    return undefined;
  }

  async function send(operation: Operation, fuzz: FuzzCase) {
    const response = await sendOnce(operation, fuzz);
    // why a new login after a logout that went through: it ends the session of the token it was sent with.
    if (operation.path === '/api/auth/logout' && response.statusCode < 300) authorization = (await loginAs(t.app, adminUser)).authorization;
    return response;
  }

  function sendOnce(operation: Operation, fuzz: FuzzCase) {
    const headers: Record<string, string> = { authorization, ...(fuzz.withSyncHeaders ? mutationHeaders(uuidv4(), 1) : {}) };
    const url = urlOf(operation, fuzz.query, fuzz.path);
    const method = operation.method;
    switch (fuzz.body.kind) {
      case 'none':
        return t.app.inject({ method, url, headers });
      case 'raw':
        return t.app.inject({ method, url, headers: { ...headers, 'content-type': fuzz.body.contentType }, payload: fuzz.body.text });
      case 'json': {
        const text = JSON.stringify(fuzz.body.value);
        if (text === undefined) return t.app.inject({ method, url, headers });
        return t.app.inject({ method, url, headers: { ...headers, 'content-type': 'application/json' }, payload: text });
      }
    }
  }
});
