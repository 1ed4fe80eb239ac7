import { and, asc, eq, inArray, or, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { Counter, CounterType, CounterWriteAnswer, CreateCounter, CreateCounterType, UpdateCounter } from '../../shared/api/counters';
import { keylessReadingNodeId } from '../../shared/domain/counter';
import { deviceCreationTime } from '../../shared/domain/device-time';
import { localized } from '../../shared/domain/text';
import { can, type PermissionSubject } from '../../shared/permissions';
import type { Db, Tx } from '../db/client';
import { counterReadings, counterTypes, counters, equipment, maintenanceTasks, units } from '../db/schema';
import { HttpError, badRequest, conflict, forbidden, idDeleted, idInUse, notFound } from '../http-errors';
import { nextVersion, versionStatement, type WriteVersion } from './change-feed';
import { deleteWithOwned } from './ownership';
import { writeTransaction, type Actor, type ServiceContext } from './service-context';
import { deletedIds, lockParent, ofTenant } from './structure-common';

const COUNTER_NOT_FOUND = 'Counter not found';
const TYPE_NOT_FOUND = 'Counter type not found';
const ADDING_NEEDS_UPDATE = 'The counter exists: adding readings to it needs the permission to update counters';

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

/** Counters joined with their type and unit, as toCounter takes them; the caller adds the filter. */
function countersWithType(db: Db | Tx) {
  return db
    .select({ counter: counters, type: counterTypes, unit: units })
    .from(counters)
    .innerJoin(counterTypes, eq(counterTypes.nodeid, counters.countertypenodeid))
    .innerJoin(units, eq(units.nodeid, counterTypes.unitnodeid));
}

/** The tenant's counters, or one machine's, each with its type, unit and readings (oldest first). */
export async function listCounters(ctx: ServiceContext, actor: Actor, filter: { equipmentnodeid?: string | undefined }, lang: string): Promise<Counter[]> {
  const rows = await countersWithType(ctx.db)
    .where(and(eq(counters.legalentitynodeid, actor.legalentitynodeid), filter.equipmentnodeid ? eq(counters.equipmentnodeid, filter.equipmentnodeid) : undefined))
    .orderBy(asc(counters.name), asc(counters.nodeid));
  if (rows.length === 0) return [];
  const readings = await ctx.db
    .select()
    .from(counterReadings)
    .where(and(eq(counterReadings.legalentitynodeid, actor.legalentitynodeid), inArray(counterReadings.counternodeid, rows.map((r) => r.counter.nodeid))))
    .orderBy(asc(counterReadings.takenat), asc(counterReadings.nodeid));
  // why grouped once: a filter per counter read every reading of the tenant once per counter (counters × readings).
  const byCounter = new Map<string, CounterReading[]>(rows.map((row) => [row.counter.nodeid, []]));
  for (const reading of readings) byCounter.get(reading.counternodeid)?.push(toReading(reading));
  return rows.map((row) => toCounter(row, byCounter.get(row.counter.nodeid) ?? [], lang));
}

/**
 * A counter write's answer: the counter with its type and unit, and of its readings only `values` — those the
 * request sent, as stored. One statement over primary keys, whatever the counter's history: a write must not cost
 * (nor answer, nor store in the mutation log) more the more readings a counter has (docs/api.md § Counters).
 */
async function counterAnswer(db: Db | Tx, actor: Actor, nodeid: string, values: CounterReading[], lang: string): Promise<CounterWriteAnswer> {
  const [row] = await countersWithType(db).where(ofTenant(counters, actor, nodeid));
  if (!row) throw notFound(COUNTER_NOT_FOUND);
  return toCounter(row, values, lang);
}

// ---------------------------------------------------------------- writes

/**
 * createCounter: machine and type must be the tenant's (404 otherwise); initial readings are stored with it. The
 * answer carries the readings this request sent (counterAnswer), not the counter's whole list.
 */
export async function createCounter(ctx: ServiceContext, actor: Actor & PermissionSubject, input: CreateCounter): Promise<CounterWriteAnswer> {
  return writeTransaction(ctx, 'counter.create', async (tx) => {
    const counter = await lockCounterCreate(tx, actor, input);
    const values = await counter.write(await nextVersion(tx, actor.legalentitynodeid));
    return counterAnswer(tx, actor, counter.nodeid, values, input.lang);
  });
}

/**
 * updateCounter. Readings are merged, never replaced: each one not stored yet (by its nodeid, or for a reading
 * without one by value and time) is added; omitted readings stay. The counter row is locked for the merge, so
 * two concurrent updates both keep their readings. Type and name are locked once the counter exists (§4.6: the
 * modal locks them; readings are in the type's unit, so another type would make them wrong): the §7 payload may
 * repeat them, a different value is refused (409 naming the field) and nothing is written.
 *
 * The answer is the counter with the readings this request sent, as stored (new ones and those stored before: a
 * resend answers as the first send did), never the whole list: what an update reads, writes and answers grows with
 * the request, not with the counter's history (a 119-byte update of a counter with 40,000 readings answered 3.8 MB
 * and took seconds). Only the readings it names are read, before the tenant's version is taken; the version and the
 * new readings are one statement: from the version to the commit every other write of the tenant waits, and under
 * load each statement there waits for the event loop too (docs/decisions.md § Write: the version late).
 */
export async function updateCounter(ctx: ServiceContext, actor: Actor, nodeid: string, input: UpdateCounter): Promise<CounterWriteAnswer> {
  return writeTransaction(ctx, 'counter.update', async (tx) => {
    const [current] = await countersWithType(tx)
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
    const plan = await planReadings(tx, actor, nodeid, input.values ?? [], 'values');
    return toCounter(current, await addReadings(tx, actor, plan, 'next'), input.lang);
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

/** createCounterType, optionally with a first counter of the new type in the same transaction (answered as createCounter's). */
export async function createCounterType(ctx: ServiceContext, actor: Actor & PermissionSubject, input: CreateCounterType): Promise<CounterType & { counter: CounterWriteAnswer | null }> {
  return writeTransaction(ctx, 'countertype.create', async (tx) => {
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
    const values = await counter?.write(version);
    const [type] = await tx
      .select({ type: counterTypes, unit: units })
      .from(counterTypes)
      .innerJoin(units, eq(units.nodeid, counterTypes.unitnodeid))
      .where(and(eq(counterTypes.nodeid, typeId), eq(counterTypes.legalentitynodeid, actor.legalentitynodeid)));
    return { ...toCounterType(type!, input.lang), counter: counter && values ? await counterAnswer(tx, actor, counter.nodeid, values, input.lang) : null };
  });
}

// ---------------------------------------------------------------- helpers

/**
 * A counter on the machine `input` names, with its first readings: locks the machine and the type (key share;
 * `newType`: the same write creates the type) and, for a resend, the counter, then answers the write, which the
 * caller runs with the tenant's version it takes after these locks, as every write locks what its rows hang on
 * before the version (docs/decisions.md "Write: the version late"): a delete of the machine or the counter and this
 * create wait for each other instead of deadlocking. The write answers the request's readings as stored.
 *
 * The device chose the id, so the same create may come again under a new mutation id (or as a plain REST retry
 * after a lost answer): it finds the counter it made — same tenant, machine, type and name (the name is fixed
 * once the counter exists) — and answers it; its readings were stored with the counter, so it adds none. Anything
 * else holding the id is refused (409 naming `nodeid`), and a deleted counter stays deleted (410, as every later
 * write to it). A create of an existing counter that carries readings not stored yet is an update of that counter:
 * it adds them only for a caller who may update counters (403 otherwise), as PUT /counters/update would — the
 * create permission alone must not add readings to a counter that exists.
 */
async function lockCounterCreate(
  tx: Tx,
  actor: Actor & PermissionSubject,
  input: Omit<CreateCounter, 'lang'>,
  field = '',
  newType = false,
): Promise<{ nodeid: string; write(version: number): Promise<CounterReading[]> }> {
  await lockMachine(tx, actor, input.equipmentNodeId);
  if (!newType) await assertCounterTypeOfTenant(tx, actor, input.counterTypeNodeId);
  const nodeid = input.nodeid ?? uuidv7();
  // why locked: a resend adds its readings to the counter it made, which its delete locks before the version too.
  const [existing] = input.nodeid
    ? await tx
        .select({ le: counters.legalentitynodeid, machine: counters.equipmentnodeid, type: counters.countertypenodeid, name: counters.name })
        .from(counters)
        .where(eq(counters.nodeid, nodeid))
        .for('no key update')
    : [];
  if (existing) {
    if (existing.le !== actor.legalentitynodeid || existing.machine !== input.equipmentNodeId || existing.type !== input.counterTypeNodeId || existing.name !== input.name) {
      throw idInUse(`${field}nodeid`);
    }
  } else {
    if (input.nodeid && (await isDeleted(tx, actor, 'counters', nodeid))) throw gone('The counter was deleted');
  }
  const plan = await planReadings(tx, actor, nodeid, input.values, `${field}values`, existing !== undefined);
  if (existing && plan.rows.length > 0 && !can(actor, 'equipment.counter', 'update')) throw forbidden(ADDING_NEEDS_UPDATE);
  const write = async (version: number) => {
    if (!existing) await tx.insert(counters).values({ nodeid, legalentitynodeid: actor.legalentitynodeid, name: input.name, equipmentnodeid: input.equipmentNodeId, countertypenodeid: input.counterTypeNodeId, version });
    return addReadings(tx, actor, plan, version);
  };
  return { nodeid, write };
}

/** What a write does with the readings it was sent (planReadings), before it takes the version. */
interface ReadingPlan {
  counternodeid: string;
  /** The readings to insert. */
  rows: NewReading[];
  /** The request's readings that are stored already, as stored. */
  found: CounterReading[];
  /** The request's readings as sent, and the field they came in: for a 409 naming one. */
  values: ReadingInput[];
  field: string;
}

/**
 * The readings of `values` not stored yet. A reading with a nodeid is stored once per nodeid (a resend is a no-op).
 * One without is the old client sending its whole list again, or a plain REST retry: with a time it gets the id
 * keylessReadingNodeId derives from the counter, its value and the time as sent — before clamping, so a time ahead
 * of the server (stored as the server's now, another now at each resend) finds it too — and is then a reading with
 * that id; not found by it, a reading with the same value at that time (stored before ids were derived, under a
 * random id, or sent with its own id) is taken as the same reading. Without a time it is a new reading at the
 * server's now each time (nothing tells it from a new reading of the same value); the same value twice in one
 * request is one. `takenat` is the device's time (`deviceCreationTime`): not after the server's now, and a time before
 * 2000 (a clock never set) is the server's now. Reads only what the request names
 * (its ids, on the primary key; its keyless readings' times, on the counter+time index; no times for a counter not
 * made yet, `counterExists` false), never the counter's other readings: the cost is the request's (at most 1000
 * readings), not the counter's history. Runs before the write takes the version; an id that is another counter's
 * reading is refused here (409), before anything is written.
 */
async function planReadings(tx: Tx, actor: Actor, counternodeid: string, values: ReadingInput[], field: string, counterExists = true): Promise<ReadingPlan> {
  if (values.length === 0) return { counternodeid, rows: [], found: [], values, field };
  const nowMs = Date.now();
  const sent: SentReading[] = values.map((value) =>
    value.nodeid || value.timestamp === undefined ? { ...value, derived: false } : { ...value, nodeid: keylessReadingNodeId(counternodeid, value.reading, value.timestamp), derived: true },
  );
  const ids = [...new Set(sent.flatMap((value) => (value.nodeid ? [value.nodeid] : [])))];
  const keylessTimes = counterExists ? [...new Set(sent.flatMap((value) => (matchedByTime(value, nowMs) ? [value.timestamp] : [])))] : [];
  const known = ids.length === 0 ? [] : await readingsById(tx, ids);
  const sameTime =
    keylessTimes.length === 0
      ? []
      : await tx
          .select({ nodeid: counterReadings.nodeid, value: counterReadings.value, takenat: counterReadings.takenat })
          .from(counterReadings)
          .where(and(eq(counterReadings.counternodeid, counternodeid), inArray(counterReadings.takenat, keylessTimes.map((ms) => new Date(ms)))));
  assertOwnReadings(actor, counternodeid, known, sent, field);
  const storedIds = new Set(known.map((reading) => reading.nodeid));
  await assertReadingsNotDeleted(tx, actor, ids.filter((nodeid) => !storedIds.has(nodeid)), sent, field);
  const { rows, matched } = newReadings(
    sent.filter((value) => !value.nodeid || !storedIds.has(value.nodeid)),
    sameTime.map(toReading),
    nowMs,
  );
  return { counternodeid, rows, found: [...known.map(toReading), ...matched], values: sent, field };
}

/**
 * Inserts the plan's new readings with `version`, or with the tenant's next version taken in the insert (`'next'`;
 * nothing to insert takes none). Answers the request's readings as stored — those added and those found stored
 * already, each once, oldest first.
 */
async function addReadings(tx: Tx, actor: Actor, plan: ReadingPlan, version: WriteVersion): Promise<CounterReading[]> {
  const { inserted, stored } = await insertReadings(tx, actor, plan.counternodeid, plan.rows, version, plan.field, plan.values);
  const answer = new Map<string, CounterReading>();
  for (const reading of [...plan.found, ...stored, ...inserted]) answer.set(reading.nodeid, reading);
  return sortReadings([...answer.values()]);
}

/** The stored readings with these ids, whichever counter or tenant holds them. */
function readingsById(tx: Tx, ids: string[]) {
  return tx
    .select({ nodeid: counterReadings.nodeid, legalentitynodeid: counterReadings.legalentitynodeid, counternodeid: counterReadings.counternodeid, value: counterReadings.value, takenat: counterReadings.takenat })
    .from(counterReadings)
    .where(inArray(counterReadings.nodeid, ids));
}

/**
 * A reading id that is already stored is a resend only when it is this counter's reading; another counter's
 * (another tenant's included) must not be skipped as if it were: the reading would be lost without a word.
 */
function assertOwnReadings(actor: Actor, counternodeid: string, stored: { nodeid: string; legalentitynodeid: string; counternodeid: string }[], values: ReadingInput[], field: string): void {
  const taken = stored.find((owner) => owner.legalentitynodeid !== actor.legalentitynodeid || owner.counternodeid !== counternodeid);
  if (taken) throw idInUse(`${field}.${values.findIndex((value) => value.nodeid === taken.nodeid)}.nodeid`);
}

/**
 * A reading id the tenant deleted (with its counter: readings are deleted with their counter only) stays deleted: sent
 * to another counter it is 410 naming the reading, not a reading of that counter under a deleted one's id.
 */
async function assertReadingsNotDeleted(tx: Tx, actor: Actor, ids: string[], values: ReadingInput[], field: string): Promise<void> {
  const deleted = await deletedIds(tx, actor.legalentitynodeid, 'counter_readings', ids);
  const index = values.findIndex((value) => value.nodeid !== undefined && deleted.has(value.nodeid));
  if (index >= 0) throw idDeleted(`${field}.${index}.nodeid`);
}

type NewReading = Required<Pick<typeof counterReadings.$inferInsert, 'nodeid' | 'value' | 'takenat'>>;

/** A reading as planReadings takes it: `derived`, its nodeid was derived from a keyless reading's value and time. */
type SentReading = ReadingInput & { derived: boolean };

/**
 * Whether a keyless reading may also be the stored one of the same value and time (stored before ids were derived):
 * only with a time not clamped — a time ahead was stored as an earlier now, which no resend can name.
 */
function matchedByTime(value: SentReading, nowMs: number): value is SentReading & { timestamp: number } {
  return value.derived && value.timestamp !== undefined && value.timestamp <= nowMs;
}

/**
 * The readings of `values` that are not among `stored` (nor twice in `values`), with an id and a clamped time;
 * `matched`: the stored readings that keyless ones of `values` turned out to be (by value and a time not clamped).
 */
function newReadings(values: SentReading[], stored: CounterReading[], nowMs: number): { rows: NewReading[]; matched: CounterReading[] } {
  const sameTime = new Map<string, CounterReading>(stored.map((r) => [readingKey(r.reading, r.timestamp), r]));
  const rows: NewReading[] = [];
  const matched: CounterReading[] = [];
  const ids = new Set<string>();
  const timeless = new Set<string>();
  for (const value of values) {
    const takenat = deviceCreationTime(value.timestamp, nowMs);
    if (value.nodeid) {
      // The same reading twice (the schema refuses one id with two readings; a derived id is one value and time): kept once.
      if (ids.has(value.nodeid)) continue;
      ids.add(value.nodeid);
      // By the time as sent: a reading stored at a pre-2000 time before that became now is still found.
      const same = matchedByTime(value, nowMs) ? sameTime.get(readingKey(value.reading, value.timestamp)) : undefined;
      if (same) {
        matched.push(same);
        continue;
      }
    } else {
      // Without a time: the same value twice in this request is one reading; sent again later, it is another.
      const key = readingKey(value.reading, takenat);
      if (timeless.has(key)) continue;
      timeless.add(key);
    }
    rows.push({ nodeid: value.nodeid ?? uuidv7(), value: value.reading, takenat: new Date(takenat) });
  }
  return { rows, matched };
}

/**
 * Inserts readings with `version`, or with the tenant's next version taken in the same statement (`'next'`: one
 * round trip under the version's lock instead of two). Answers the readings it inserted, as stored, and those a
 * concurrent write stored first under the same id (`stored`; checked as planReadings checks the ids it found).
 */
async function insertReadings(
  tx: Tx,
  actor: Actor,
  counternodeid: string,
  rows: NewReading[],
  version: WriteVersion,
  field: string,
  values: ReadingInput[],
): Promise<{ inserted: CounterReading[]; stored: CounterReading[] }> {
  if (rows.length === 0) return { inserted: [], stored: [] };
  const le = actor.legalentitynodeid;
  const result = await tx.execute<{ nodeid: string; value: string; takenat: string }>(sql`
    with v as (${versionStatement(le, version)})
    insert into ${counterReadings} (nodeid, legalentitynodeid, counternodeid, value, takenat, createdbynodeid, version)
    select r.nodeid, ${le}::uuid, ${counternodeid}::uuid, r.value, r.takenat, ${actor.usernodeid}::uuid, v.version
    from v,
      (values ${sql.join(rows.map((row) => sql`(${row.nodeid}::uuid, ${row.value}::numeric, ${row.takenat.toISOString()}::timestamptz)`), sql`, `)}) as r(nodeid, value, takenat)
    on conflict (nodeid) do nothing
    returning nodeid, value::text as value, (extract(epoch from takenat) * 1000)::float8::text as takenat`);
  const inserted = (result as unknown as { rows: { nodeid: string; value: string; takenat: string }[] }).rows.map((row) => ({
    nodeid: row.nodeid,
    reading: Number(row.value),
    timestamp: Math.round(Number(row.takenat)),
  }));
  if (inserted.length === rows.length) return { inserted, stored: [] };
  // Stored by a write that committed after planReadings read the ids (another counter's create with this id).
  const insertedIds = new Set(inserted.map((row) => row.nodeid));
  const owners = await readingsById(tx, [...new Set(rows.map((row) => row.nodeid).filter((nodeid) => !insertedIds.has(nodeid)))]);
  assertOwnReadings(actor, counternodeid, owners, values, field);
  return { inserted, stored: owners.map(toReading) };
}

async function isDeleted(tx: Tx, actor: Actor, kind: string, nodeid: string): Promise<boolean> {
  return (await deletedIds(tx, actor.legalentitynodeid, kind, [nodeid])).size > 0;
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

/** Oldest first; readings taken at the same time by id, as a read orders them. */
function sortReadings(readings: CounterReading[]): CounterReading[] {
  return readings.sort((a, b) => a.timestamp - b.timestamp || (a.nodeid < b.nodeid ? -1 : a.nodeid > b.nodeid ? 1 : 0));
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
