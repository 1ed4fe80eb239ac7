/**
 * What the counters tab and the §4.6 counter modal read, live from the local mirror: a machine's counters with
 * type, unit and every reading (for the chart and the reading checks), the tenant's counter types and the units.
 * A counter waiting for its delete is left out; a counter, type or reading still in the outbox says so.
 */
import Dexie from 'dexie';
import { useLiveQuery } from 'dexie-react-hooks';
import { counterTypeNameIn, unitSymbolIn, type ReadingPoint } from '../../shared/domain/counter';
import { localized } from '../../shared/domain/text';
import { getLocalDb, type LocalDatabase, type MirrorRow } from '../db/local-db';
import { isLive } from './mirror-fields';
import { pendingIdsOfKind } from './outbox';

export interface UnitOption {
  nodeid: string;
  unitid: string;
  symbol: string;
  /** The unit's name in the language (plural: "Stunden"). */
  name: string;
}

export interface CounterTypeOption {
  nodeid: string;
  name: string;
  builtin: boolean;
  unit: UnitOption | null;
}

export interface CounterReadingPoint extends ReadingPoint {
  pending: boolean;
}

export interface CounterDetail {
  nodeid: string;
  name: string;
  type: CounterTypeOption | null;
  /** The counter itself is not on the server yet (made offline). */
  pending: boolean;
  /** Oldest first (by time taken). */
  readings: CounterReadingPoint[];
  latest: CounterReadingPoint | null;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

function toUnit(row: MirrorRow | undefined, language: string): UnitOption | null {
  if (!row) return null;
  const names = (row.displayName ?? {}) as { plural?: unknown };
  const unitid = text(row.unitid) ?? '';
  return { nodeid: row.nodeid, unitid, symbol: unitSymbolIn(unitid, text(row.symbol) ?? '', language), name: localized(names.plural, language) ?? (unitid || '') };
}

async function toType(db: LocalDatabase, row: MirrorRow | undefined, language: string): Promise<CounterTypeOption | null> {
  if (!row) return null;
  const unit = text(row.unitnodeid) ? await db.mirror('units').get(String(row.unitnodeid)) : undefined;
  const builtin = row.builtin === true;
  return { nodeid: row.nodeid, name: counterTypeNameIn(localized(row.name, language) ?? '', builtin, language), builtin, unit: toUnit(unit, language) };
}

/** The unit symbol of a counter (through its type) in the language, as the counters tab shows it; null without one. */
export async function counterUnitSymbol(db: LocalDatabase, counter: MirrorRow | undefined, language: string): Promise<string | null> {
  const typeRow = counter && text(counter.countertypenodeid) ? await db.mirror('countertypes').get(String(counter.countertypenodeid)) : undefined;
  return (await toType(db, typeRow, language))?.unit?.symbol || null;
}

/** A machine's counters with type, unit and readings, sorted by name. */
export async function readCounterDetails(db: LocalDatabase, equipmentnodeid: string | null, language: string): Promise<CounterDetail[]> {
  if (!equipmentnodeid) return [];
  const [rows, pendingCounters, pendingReadings] = await Promise.all([
    db.mirror('counters').where('equipmentnodeid').equals(equipmentnodeid).toArray(),
    pendingIdsOfKind(db, 'counters'),
    pendingIdsOfKind(db, 'counterreadings'),
  ]);
  const items = await Promise.all(
    rows.filter(isLive).map(async (row): Promise<CounterDetail> => {
      const typeRow = text(row.countertypenodeid) ? await db.mirror('countertypes').get(String(row.countertypenodeid)) : undefined;
      const readingRows = await db
        .mirror('counterreadings')
        .where('[counternodeid+takenat]')
        .between([row.nodeid, Dexie.minKey], [row.nodeid, Dexie.maxKey])
        .toArray();
      const readings = readingRows
        .filter(isLive)
        .map((reading) => ({ nodeid: reading.nodeid, value: Number(reading.value), takenat: Number(reading.takenat), pending: pendingReadings.has(reading.nodeid) }))
        .filter((reading) => Number.isFinite(reading.value) && Number.isFinite(reading.takenat));
      return {
        nodeid: row.nodeid,
        name: text(row.name) ?? '',
        type: await toType(db, typeRow, language),
        pending: pendingCounters.has(row.nodeid),
        readings,
        latest: readings.at(-1) ?? null,
      };
    }),
  );
  return items.sort((a, b) => a.name.localeCompare(b.name, language));
}

export function useCounterDetails(equipmentnodeid: string | null, language: string): CounterDetail[] | undefined {
  return useLiveQuery(() => readCounterDetails(getLocalDb(), equipmentnodeid, language), [equipmentnodeid, language]);
}

/** The tenant's counter types (the built-in operating hours first, then by name) and the units, for the modal. */
export async function readCounterChoices(db: LocalDatabase, language: string): Promise<{ types: CounterTypeOption[]; units: UnitOption[] }> {
  const [typeRows, unitRows] = await Promise.all([db.mirror('countertypes').toArray(), db.mirror('units').toArray()]);
  const types = (await Promise.all(typeRows.filter(isLive).map((row) => toType(db, row, language)))).filter((type): type is CounterTypeOption => type !== null);
  types.sort((a, b) => Number(b.builtin) - Number(a.builtin) || a.name.localeCompare(b.name, language));
  // Currencies (ISO 4217) are units of costs, not of anything a counter counts.
  const units = unitRows
    .filter((row) => row.namespace !== 'ISO 4217')
    .map((row) => toUnit(row, language)).filter((unit): unit is UnitOption => unit !== null);
  units.sort((a, b) => a.name.localeCompare(b.name, language));
  return { types, units };
}

export function useCounterChoices(language: string): { types: CounterTypeOption[]; units: UnitOption[] } | undefined {
  return useLiveQuery(() => readCounterChoices(getLocalDb(), language), [language]);
}
