/**
 * What the effort tab (Aufwandserfassung, spec part 1 §2.2, §5) reads, live from the local mirror (kinds
 * `costtypes`, `costs`, `units`, `equipment`), so it works offline and shows a saved change at once: the effort
 * inputs (standard cost types in EUR or hours, in the spec's order) with the notification's planned and actual
 * costs of each, and the machine's hourly rate that prices the hours.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { effortCostTypes, type CostSpecifier, type CostUnit } from '../../shared/domain/cost';
import { unitSymbolIn } from '../../shared/domain/counter';
import { localized } from '../../shared/domain/text';
import { getLocalDb, type LocalDatabase, type MirrorRow } from '../db/local-db';
import { isLive } from './mirror-fields';
import { pendingIdsOfKind } from './outbox';

/** One booked cost row of a cell. */
export interface BookedCost {
  nodeid: string;
  value: number;
}

/** The planned or actual value of one cost type: the sum of its rows (several when two devices booked offline). */
export interface EffortCell {
  /** null: nothing booked. */
  value: number | null;
  rows: BookedCost[];
  /** A write of one of its rows waits in the outbox. */
  pending: boolean;
}

export interface EffortLine {
  costtypenodeid: string;
  /** The type's name in the language. */
  name: string;
  /** Its German name, sent as the cost's name (spec: every save is in German). */
  nameDe: string;
  unit: CostUnit;
  /** '€', 'h'. */
  symbol: string;
  cells: Record<CostSpecifier, EffortCell>;
}

export interface NotificationEffort {
  lines: EffortLine[];
  /** The machine's hourly rate in EUR; null when it has none (or in another currency). */
  hourlyRate: number | null;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

function cell(rows: MirrorRow[], pending: Set<string>): EffortCell {
  const booked = rows.map((row) => ({ nodeid: row.nodeid, value: Number(row.value) })).filter((row) => Number.isFinite(row.value));
  // why the order: "the first row" of a cell must be the same on every render, so an edit always updates the same one.
  booked.sort((a, b) => a.nodeid.localeCompare(b.nodeid));
  return {
    value: booked.length === 0 ? null : Math.round(booked.reduce((sum, row) => sum + row.value, 0) * 100) / 100,
    rows: booked,
    pending: rows.some((row) => pending.has(row.nodeid)),
  };
}

function hourlyRateOf(machine: MirrorRow | undefined): number | null {
  if (!machine || typeof machine.hourlyrate !== 'number' || !Number.isFinite(machine.hourlyrate)) return null;
  return (text(machine.hourlyratecurrency) ?? 'EUR') === 'EUR' ? machine.hourlyrate : null;
}

export async function readNotificationEffort(db: LocalDatabase, notificationnodeid: string, equipmentnodeid: string | null, language: string): Promise<NotificationEffort> {
  const [typeRows, unitRows, costRows, pending, machine] = await Promise.all([
    db.mirror('costtypes').toArray(),
    db.mirror('units').toArray(),
    db.mirror('costs').where('notificationnodeid').equals(notificationnodeid).toArray(),
    pendingIdsOfKind(db, 'costs'),
    equipmentnodeid ? db.mirror('equipment').get(equipmentnodeid) : Promise.resolve(undefined),
  ]);
  const units = new Map(unitRows.map((unit) => [unit.nodeid, unit]));
  const types = effortCostTypes(
    typeRows.filter(isLive).map((row) => {
      const unit = units.get(text(row.unitnodeid) ?? '');
      return { nodeid: row.nodeid, costtypeid: text(row.costtypeid), unitid: text(unit?.unitid), row, symbol: unitSymbolIn(text(unit?.unitid) ?? '', text(unit?.symbol) ?? '', language) };
    }),
  );
  const live = costRows.filter(isLive);
  const lines = types.map((type): EffortLine => {
    const ofType = live.filter((row) => row.costtypenodeid === type.nodeid);
    return {
      costtypenodeid: type.nodeid,
      name: localized(type.row.name, language) ?? '',
      nameDe: localized(type.row.name, 'de') ?? '',
      unit: type.unit,
      symbol: type.symbol,
      cells: {
        plannedcost: cell(ofType.filter((row) => row.specifier === 'plannedcost'), pending),
        actualcost: cell(ofType.filter((row) => row.specifier !== 'plannedcost'), pending),
      },
    };
  });
  return { lines, hourlyRate: hourlyRateOf(machine) };
}

/** undefined while loading. */
export function useNotificationEffort(notificationnodeid: string, equipmentnodeid: string | null, language: string): NotificationEffort | undefined {
  return useLiveQuery(() => readNotificationEffort(getLocalDb(), notificationnodeid, equipmentnodeid, language), [notificationnodeid, equipmentnodeid, language]);
}
