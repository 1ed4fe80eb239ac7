/**
 * The shifts of an area's or a machine's plan as the structure mirror holds them, for the shift editor of the
 * area form and the equipment form alike.
 */
import { formatTimeOfDay, isWeekday, type ShiftRow } from '../../shared/domain/shift';
import { SHIFT_MODEL_OWNER } from './repositories/shifts';
import type { StructureData } from './use-structure-data';

/** The feed's shift rows hold minutes after midnight; the route's answer (merged on acknowledge) 'HH:MM'. */
function timeOf(text: unknown, minute: unknown): string {
  return typeof text === 'string' ? text : formatTimeOfDay(Number(minute));
}

function weekdaysOf(value: unknown): ShiftRow['weekdays'] {
  return Array.isArray(value) ? value.map(Number).filter(isWeekday) : [];
}

/**
 * The shifts of a shift model in editor order. The model row carries `shifts` (the saved rows) while this device's
 * change waits and after it was acknowledged (then with the answer's version) until the pull brings the shift rows
 * themselves; whichever is newer wins, so the editor never flashes back to older rows.
 */
export function shiftRowsOf(data: StructureData, shiftmodelnodeid: string | null): ShiftRow[] {
  if (!shiftmodelnodeid) return [];
  const model = data.shiftmodels.find((row) => row.nodeid === shiftmodelnodeid);
  const rows = data.shifts.filter((row) => row.shiftmodelnodeid === shiftmodelnodeid);
  const newestRow = Math.max(-1, ...rows.map((row) => Number(row.version ?? -1)));
  if (model && Array.isArray(model.shifts) && (data.pendingShiftModels.has(shiftmodelnodeid) || Number(model.version ?? -1) >= newestRow)) {
    return (model.shifts as Record<string, unknown>[]).map((row) => ({ weekdays: weekdaysOf(row.weekdays), start: String(row.start), end: String(row.end), unmanned: row.unmanned === true }));
  }
  return rows
    .sort((a, b) => Number(a.position) - Number(b.position))
    .map((row) => ({ weekdays: weekdaysOf(row.weekdays), start: timeOf(row.start, row.startminute), end: timeOf(row.end, row.endminute), unmanned: row.unmanned === true }));
}

/** An area's shift model: linked on the area, or created on this device for it and not yet acknowledged. */
export function areaShiftModelId(data: StructureData, area: { nodeid: string; shiftmodelnodeid: string | null }): string | null {
  return area.shiftmodelnodeid ?? data.shiftmodels.find((model) => model[SHIFT_MODEL_OWNER] === area.nodeid)?.nodeid ?? null;
}
