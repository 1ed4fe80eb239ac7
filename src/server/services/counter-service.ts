import { and, asc, eq, inArray, or, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { Counter, CounterType, CreateCounter, CreateCounterType, UpdateCounter } from '../../shared/api/counters';
import { clampDeviceTime } from '../../shared/domain/device-time';
import { localized } from '../../shared/domain/text';
import type { Db, Tx } from '../db/client';
import { counterReadings, counterTypes, counters, equipment, maintenanceTasks, tombstones, units } from '../db/schema';
import { HttpError, badRequest, conflict, idInUse, notFound } from '../http-errors';
import { nextVersion, versionStatement, type WriteVersion } from './change-feed';
import { deleteWithOwned } from './ownership';
import { writeTransaction, type Actor, type ServiceContext } from './service-context';
import { lockParent, ofTenant } from './structure-common';

const COUNTER_NOT_FOUND = 'Counter not found';
const TYPE_NOT_FOUND = 'Counter type not found';

type ReadingInput = CreateCounter['values'][number];
type CounterReading = Counter['values'][number];

// ---------------------------------------------------------------- reads

export async function listCounterTypes(ctx: ServiceContext, actor: Actor, lang: string): Promise<CounterType[]> {
  const rows = await ctx.db
    .select({ type: counterTypes, unit: units })
    .from(counterTypes)
    .innerJoin(units, eq(units.nodeid, counterTypes.unitnodeid))
    .where(eq(counterTypes.legalentitynodeid, actor.legalentitynodeid))
    .orderBy(asc(counterTypes.name), asc(counterTypes.nodeid));
  return rows.map((row) => toCounterType(row, lang));
}

/** The tenant's counters, or one machine's, each with its type, unit and readings (oldest first). */
export async function listCounters(ctx: ServiceContext, actor: Actor, filter: { equipmentnodeid?: string | undefined; nodeids?: string[] }, lang: string): Promise<Counter[]> {
  const rows = await ctx.db
    .select({ counter: counters, type: counterTypes, unit: units })
    .from(counters)
    .innerJoin(counterTypes, eq(counterTypes.nodeid, counters.countertypenodeid))
    .innerJoin(units, eq(units.nodeid, counterTypes.unitnodeid))
    .where(
      and(
        eq(counters.legalentitynodeid, actor.legalentitynodeid),
        filter.equipmentnodeid ? eq(counters.equipmentnodeid, filter.equipmentnodeid) : undefined,
        filter.nodeids ? inArray(counters.nodeid, filter.nodeids) : undefined,
      ),
    )
    .orderBy(asc(counters.name), asc(counters.nodeid));
  if (rows.length === 0) return [];
  const readings = await ctx.db
    .select()
    .from(counterReadings)
    .where(and(eq(counterReadings.legalentitynodeid, actor.legalentitynodeid), inArray(counterReadings.counternodeid, rows.map((r) => r.counter.nodeid))))
    .orderBy(asc(counterReadings.takenat), asc(counterReadings.nodeid));
  return rows.map((row) => toCounter(row, readings.filter((r) => r.counternodeid === row.counter.nodeid).map(toReading), lang));
}

async function getCounter(ctx: ServiceContext, actor: Actor, nodeid: string, lang: string): Promise<Counter> {
  const [counter] = await listCounters(ctx, actor, { nodeids: [nodeid] }, lang);
  if (!counter) throw notFound(COUNTER_NOT_FOUND);
  return counter;
}

// ---------------------------------------------------------------- writes

/** createCounter: machine and type must be the tenant's (404 otherwise); initial readings are stored with it. */
export async function createCounter(ctx: ServiceContext, actor: Actor, input: CreateCounter): Promise<Counter> {
  const nodeid = await writeTransaction(ctx, 'counter.create', async (tx) => {
    const counter = await lockCounterCreate(tx, actor, input);
    await counter.write(await nextVersion(tx, actor.legalentitynodeid));
    return counter.nodeid;
  });
  return getCounter(ctx, actor, nodeid, input.lang);
}

/**
 * updateCounter. Readings are merged, never replaced: each one not stored yet (by its nodeid, or for a reading
 * without one by value and time) is added; omitted readings stay. The counter row is locked for the merge, so
 * two concurrent updates both keep their readings. Type and name are locked once the counter exists (§4.6: the
 * modal locks them; readings are in the type's unit, so another type would make them wrong): the §7 payload may
 * repeat them, a different value is refused (409 naming the field) and nothing is written.
 *
 * The answer (the counter with every reading) is read before the tenant's version is taken, and the version and
 * the new readings are one statement: from the version to the commit every other write of the tenant waits, and
 * under load each statement there waits for the event loop too (docs/decisions.md § Write: the version late).
 */
export async function updateCounter(ctx: ServiceContext, actor: Actor, nodeid: string, input: UpdateCounter): Promise<Counter> {
  return writeTransaction(ctx, 'counter.update', async (tx) => {
    const [current] = await tx
      .select({ counter: counters, type: counterTypes, unit: units })
      .from(counters)
      .innerJoin(counterTypes, eq(counterTypes.nodeid, counters.countertypenodeid))
      .innerJoin(units, eq(units.nodeid, counterTypes.unitnodeid))
      .where(ofTenant(counters, actor, nodeid))
      // why no key update: see lockOwnRow; only the counter row is locked, not its type or unit.
      .for('no key update', { of: counters });
    if (!current) throw notFound(COUNTER_NOT_FOUND);
    const locked = [
      ...(input.name !== undefined && input.name !== current.counter.name ? [{ field: 'name', message: 'The counter name is fixed once the counter exists' }] : []),
      ...(input.counterTypeNodeId !== undefined && input.counterTypeNodeId !== current.counter.countertypenodeid ? [{ field: 'counterTypeNodeId', message: 'The counter type is fixed once the counter exists' }] : []),
    ];
    if (locked.length > 0) throw new HttpError(409, `Locked: ${locked.map((issue) => issue.field).join(', ')}`, locked);
    // Complete: a concurrent update of this counter waits for the row lock above, and each statement reads what
    // committed before it.
    const stored = (
      await tx
        .select({ nodeid: counterReadings.nodeid, value: counterReadings.value, takenat: counterReadings.takenat })
        .from(counterReadings)
        .where(and(eq(counterReadings.legalentitynodeid, actor.legalentitynodeid), eq(counterReadings.counternodeid, nodeid)))
    ).map(toReading);
    const added = await insertReadings(tx, actor, nodeid, newReadings(input.values ?? [], stored), 'next', 'values', input.values ?? []);
    const values = [...stored, ...added].sort((a, b) => a.timestamp - b.timestamp || (a.nodeid < b.nodeid ? -1 : a.nodeid > b.nodeid ? 1 : 0));
    return toCounter(current, values, input.lang);
  });
}

/**
 * deleteCounter with its readings (tombstones for both); tasks triggered by it lose the trigger. Counters of
 * the built-in operating-hours type cannot be deleted (the spec hides that delete; the server refuses it: 409).
 */
export async function deleteCounter(ctx: ServiceContext, actor: Actor, nodeid: string): Promise<{ nodeid: string; version: number }> {
  const le = actor.legalentitynodeid;
  return writeTransaction(ctx, 'counter.delete', async (tx) => {
    // why the machine first (key share): the tasks this delete stamps after the counter is gone hang on the machine
    // too (a row changed twice in one transaction has its foreign keys checked again, which locks the machine), and
    // the machine's delete locks the machine, then its tasks and counters. The counter, its tasks and readings are
    // locked after it and before the version (docs/decisions.md "Write: the version late").
    const [owner] = await tx.select({ nodeid: counters.equipmentnodeid }).from(counters).where(ofTenant(counters, actor, nodeid));
    if (!owner || !(await lockParent(tx, equipment, actor, owner.nodeid))) throw notFound(COUNTER_NOT_FOUND);
    const [current] = await tx
      .select({ nodeid: counters.nodeid, builtin: counterTypes.builtin })
      .from(counters)
      .innerJoin(counterTypes, eq(counterTypes.nodeid, counters.countertypenodeid))
      .where(ofTenant(counters, actor, nodeid))
      .for('update', { of: counters });
    if (!current) throw notFound(COUNTER_NOT_FOUND);
    if (current.builtin) throw conflict('The operating hours counter cannot be deleted');
    const tasks = await tx
      .select({ nodeid: maintenanceTasks.nodeid })
      .from(maintenanceTasks)
      .where(and(eq(maintenanceTasks.legalentitynodeid, le), eq(maintenanceTasks.triggeringcounternodeid, nodeid)))
      .orderBy(asc(maintenanceTasks.nodeid))
      .for('no key update');
    const { version } = await deleteWithOwned(tx, le, 'counters', [nodeid], 'next');
    // By id: the counter's delete has cleared their trigger already (on delete set null), without a version.
    if (tasks.length > 0) {
      await tx
        .update(maintenanceTasks)
        .set({ triggeringcounternodeid: null, version, updatedAt: new Date() })
        .where(and(eq(maintenanceTasks.legalentitynodeid, le), inArray(maintenanceTasks.nodeid, tasks.map((task) => task.nodeid))));
    }
    return { nodeid, version };
  });
}

/** createCounterType, optionally with a first counter of the new type in the same transaction. */
export async function createCounterType(ctx: ServiceContext, actor: Actor, input: CreateCounterType): Promise<CounterType & { counter: Counter | null }> {
  const result = await writeTransaction(ctx, 'countertype.create', async (tx) => {
    const unitnodeid = await resolveUnit(tx, input.unit);
    const typeId = input.nodeid ?? uuidv7();
    // A resend of the same create (a new mutation id: "Erneut senden" after a lost answer) finds its type and
    // answers it as it is now; an id that is another record's is refused.
    const [existing] = input.nodeid ? await tx.select({ le: counterTypes.legalentitynodeid }).from(counterTypes).where(eq(counterTypes.nodeid, typeId)) : [];
    if (existing && existing.le !== actor.legalentitynodeid) throw idInUse('nodeid');
    if (!existing && input.nodeid && (await isDeleted(tx, actor, 'counter_types', typeId))) throw gone('The counter type was deleted');
    const counter = input.counter ? await lockCounterCreate(tx, actor, { ...input.counter, counterTypeNodeId: typeId }, 'counter.', !existing) : undefined;
    const version = await nextVersion(tx, actor.legalentitynodeid);
    if (!existing) await tx.insert(counterTypes).values({ nodeid: typeId, legalentitynodeid: actor.legalentitynodeid, name: input.name, unitnodeid, version });
    await counter?.write(version);
    return { typeId, counterId: counter?.nodeid ?? null };
  });
  const [type] = (await listCounterTypes(ctx, actor, input.lang)).filter((t) => t.nodeid === result.typeId);
  return { ...type!, counter: result.counterId ? await getCounter(ctx, actor, result.counterId, input.lang) : null };
}

// ---------------------------------------------------------------- helpers

/**
 * A counter on the machine `input` names, with its first readings: locks the machine and the type (key share;
 * `newType`: the same write creates the type) and, for a resend, the counter, then answers the write, which the
 * caller runs with the tenant's version it takes after these locks, as every write locks what its rows hang on
 * before the version (docs/decisions.md "Write: the version late"): a delete of the machine or the counter and this
 * create wait for each other instead of deadlocking.
 */
async function lockCounterCreate(tx: Tx, actor: Actor, input: Omit<CreateCounter, 'lang'>, field = '', newType = false): Promise<{ nodeid: string; write(version: number): Promise<void> }> {
  await lockMachine(tx, actor, input.equipmentNodeId);
  if (!newType) await assertCounterTypeOfTenant(tx, actor, input.counterTypeNodeId);
  const nodeid = input.nodeid ?? uuidv7();
  // The device chose the id: a resend of this create under a new mutation id finds the counter it made (same
  // tenant, machine and type) and only merges readings; anything else holding the id is refused, and a deleted
  // counter stays deleted (410, as every later write to it).
  // why locked: a resend adds its readings to the counter it made, which its delete locks before the version too.
  const [existing] = input.nodeid
    ? await tx
        .select({ le: counters.legalentitynodeid, machine: counters.equipmentnodeid, type: counters.countertypenodeid })
        .from(counters)
        .where(eq(counters.nodeid, nodeid))
        .for('no key update')
    : [];
  if (existing) {
    if (existing.le !== actor.legalentitynodeid || existing.machine !== input.equipmentNodeId || existing.type !== input.counterTypeNodeId) throw idInUse(`${field}nodeid`);
  } else {
    if (input.nodeid && (await isDeleted(tx, actor, 'counters', nodeid))) throw gone('The counter was deleted');
  }
  const write = async (version: number) => {
    if (!existing) await tx.insert(counters).values({ nodeid, legalentitynodeid: actor.legalentitynodeid, name: input.name, equipmentnodeid: input.equipmentNodeId, countertypenodeid: input.counterTypeNodeId, version });
    await mergeReadings(tx, actor, nodeid, input.values, version, `${field}values`);
  };
  return { nodeid, write };
}

/**
 * Adds the readings not stored yet. A reading with a nodeid is stored once per nodeid (a resend is a no-op);
 * one without is the old client sending its whole list again, so a reading with the same value and time is
 * taken as the same reading. `takenat` is the device's time, clamped to the server's now.
 */
async function mergeReadings(tx: Tx, actor: Actor, counternodeid: string, values: ReadingInput[], version: number, field = 'values'): Promise<void> {
  if (values.length === 0) return;
  // A reading without an id is a duplicate when one of the same value at the same time is stored: only those times
  // are read (the counter+time index), not every reading of a counter that has years of them.
  const keylessTimes = [...new Set(values.filter((value) => !value.nodeid).map((value) => clampDeviceTime(value.timestamp, 0, Date.now())))];
  const existing =
    keylessTimes.length === 0
      ? []
      : await tx
          .select({ nodeid: counterReadings.nodeid, value: counterReadings.value, takenat: counterReadings.takenat })
          .from(counterReadings)
          .where(and(eq(counterReadings.counternodeid, counternodeid), inArray(counterReadings.takenat, keylessTimes.map((ms) => new Date(ms)))));
  await insertReadings(tx, actor, counternodeid, newReadings(values, existing.map(toReading)), version, field, values);
}

type NewReading = Required<Pick<typeof counterReadings.$inferInsert, 'nodeid' | 'value' | 'takenat'>>;

/** The readings of `values` that are not among `stored` (nor twice in `values`), with an id and a clamped time. */
function newReadings(values: ReadingInput[], stored: CounterReading[]): NewReading[] {
  const nowMs = Date.now();
  const seen = new Set(stored.map((r) => readingKey(r.reading, r.timestamp)));
  const rows: NewReading[] = [];
  for (const value of values) {
    const takenat = clampDeviceTime(value.timestamp, 0, nowMs);
    if (!value.nodeid) {
      const key = readingKey(value.reading, takenat);
      if (seen.has(key)) continue;
      seen.add(key);
    }
    rows.push({ nodeid: value.nodeid ?? uuidv7(), value: value.reading, takenat: new Date(takenat) });
  }
  return rows;
}

/**
 * Inserts readings with `version`, or with the tenant's next version taken in the same statement (`'next'`: one
 * round trip under the version's lock instead of two). Answers the readings it inserted, as stored. A reading id
 * that is already stored is a resend only when it is this counter's reading; another counter's (another tenant's
 * included) must not be skipped as if it were: the reading would be lost without a word.
 */
async function insertReadings(tx: Tx, actor: Actor, counternodeid: string, rows: NewReading[], version: WriteVersion, field: string, values: ReadingInput[]): Promise<CounterReading[]> {
  if (rows.length === 0) return [];
  const le = actor.legalentitynodeid;
  const result = await tx.execute<{ nodeid: string; value: string; takenat: string }>(sql`
    with v as (${versionStatement(le, version)})
    insert into ${counterReadings} (nodeid, legalentitynodeid, counternodeid, value, takenat, createdbynodeid, version)
    select r.nodeid, ${le}::uuid, ${counternodeid}::uuid, r.value, r.takenat, ${actor.usernodeid}::uuid, v.version
    from v,
      (values ${sql.join(rows.map((row) => sql`(${row.nodeid}::uuid, ${row.value}::numeric, ${row.takenat.toISOString()}::timestamptz)`), sql`, `)}) as r(nodeid, value, takenat)
    on conflict (nodeid) do nothing
    returning nodeid, value::text as value, (extract(epoch from takenat) * 1000)::float8::text as takenat`);
  const inserted = (result as unknown as { rows: { nodeid: string; value: string; takenat: string }[] }).rows;
  if (inserted.length < rows.length) {
    const insertedIds = new Set(inserted.map((row) => row.nodeid));
    const skipped = rows.map((row) => row.nodeid).filter((nodeid) => !insertedIds.has(nodeid));
    const owners = await tx
      .select({ nodeid: counterReadings.nodeid, legalentitynodeid: counterReadings.legalentitynodeid, counternodeid: counterReadings.counternodeid })
      .from(counterReadings)
      .where(inArray(counterReadings.nodeid, skipped));
    const taken = owners.find((owner) => owner.legalentitynodeid !== le || owner.counternodeid !== counternodeid);
    if (taken) throw idInUse(`${field}.${values.findIndex((value) => value.nodeid === taken.nodeid)}.nodeid`);
  }
  return inserted.map((row) => ({ nodeid: row.nodeid, reading: Number(row.value), timestamp: Math.round(Number(row.takenat)) }));
}

async function isDeleted(tx: Tx, actor: Actor, kind: string, nodeid: string): Promise<boolean> {
  const [row] = await tx
    .select({ nodeid: tombstones.nodeid })
    .from(tombstones)
    .where(and(eq(tombstones.kind, kind), eq(tombstones.nodeid, nodeid), eq(tombstones.legalentitynodeid, actor.legalentitynodeid)));
  return row !== undefined;
}

const gone = (message: string) => new HttpError(410, message);

function readingKey(value: number, takenatMs: number): string {
  // why fixed decimals: numeric(18,3) comes back rounded to 3 places.
  return `${value.toFixed(3)}@${takenatMs}`;
}

/** The caller's machine `nodeid`, locked for a counter to hang on it (lockParent); 404 when there is none. */
async function lockMachine(tx: Tx, actor: Actor, nodeid: string): Promise<void> {
  if (!(await lockParent(tx, equipment, actor, nodeid))) throw notFound('Equipment not found');
}

async function assertCounterTypeOfTenant(tx: Tx, actor: Actor, nodeid: string): Promise<void> {
  if (!(await lockParent(tx, counterTypes, actor, nodeid))) throw notFound(TYPE_NOT_FOUND);
}

/** A unit by nodeid, code (case-insensitive) or symbol; 400 naming `unit` when there is none. */
async function resolveUnit(db: Db | Tx, unit: string): Promise<string> {
  const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(unit);
  const [row] = await db
    .select({ nodeid: units.nodeid })
    .from(units)
    .where(or(isUuid ? eq(units.nodeid, unit) : undefined, sql`lower(${units.unitid}) = lower(${unit})`, eq(units.symbol, unit)))
    .orderBy(asc(units.unitid))
    .limit(1);
  if (!row) throw badRequest('Invalid body: unit: Unknown unit', [{ field: 'unit', message: 'Unknown unit' }]);
  return row.nodeid;
}

function toReading(row: { nodeid: string; value: number; takenat: Date }): CounterReading {
  return { nodeid: row.nodeid, reading: row.value, timestamp: row.takenat.getTime() };
}

function toCounter(row: { counter: typeof counters.$inferSelect; type: typeof counterTypes.$inferSelect; unit: typeof units.$inferSelect }, values: CounterReading[], lang: string): Counter {
  const { counter } = row;
  return { nodeid: counter.nodeid, name: counter.name, equipmentnodeid: counter.equipmentnodeid, hascountertype: toCounterType(row, lang), values, version: counter.version };
}

function toCounterType(row: { type: typeof counterTypes.$inferSelect; unit: typeof units.$inferSelect }, lang: string): CounterType {
  const plural = row.unit.displayName.plural;
  return {
    nodeid: row.type.nodeid,
    name: row.type.name,
    unit: { nodeid: row.unit.nodeid, unitid: row.unit.unitid, unitId: row.unit.unitid, namespace: row.unit.namespace, symbol: row.unit.symbol, name: localized(plural, lang) ?? row.unit.unitid },
    builtin: row.type.builtin,
    version: row.type.version,
  };
}
