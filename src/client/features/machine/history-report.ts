/**
 * What the "Equipment Report" (spec part 1 §2.1, §9) says, as plain data: the machine's header lines, the active
 * filters in words and one table row per filtered notification. Pure (labels come in as functions), so the rows
 * are unit-tested; `history-pdf.ts` only lays them out.
 */
import { historyDateWindow, type HistoryFilter } from '../../../shared/domain/history';
import { formatDate } from '../../lib/dates';
import type { HistoryEntry } from '../../sync/machine-history';

/** The spec's name of the export: the document's title and the start of its file name, in every language. */
export const HISTORY_REPORT_TITLE = 'Equipment Report';

export interface HistoryReportMachine {
  name: string;
  brand: string | null;
  model: string | null;
  site: string | null;
  area: string | null;
  pool: string | null;
  equipmentid: string | null;
  inventoryid: string | null;
  buildYear: number | null;
}

/** The texts the report needs, in the user's language. */
export interface HistoryReportLabels {
  type: (type: unknown) => string;
  status: (status: number) => string;
  /** Header field names. */
  fields: { name: string; brand: string; model: string; site: string; areaOrPool: string; equipmentid: string; inventoryid: string; buildYear: string };
  /** Filter words: "Art", "Status", "Zeitraum", "ab", "bis", "keine – alle Meldungen". */
  filter: { type: string; status: string; period: string; from: string; until: string; none: string };
}

/** Placeholder for a value the machine does not have. */
export const MISSING = '–';

/** The header as label/value pairs in the order the machine header shows them. */
export function historyReportHeader(machine: HistoryReportMachine, labels: HistoryReportLabels): [string, string][] {
  const areaOrPool = [machine.area, machine.pool].filter(Boolean).join(' / ');
  return [
    [labels.fields.name, machine.name || MISSING],
    [labels.fields.brand, machine.brand ?? MISSING],
    [labels.fields.model, machine.model ?? MISSING],
    [labels.fields.site, machine.site ?? MISSING],
    [labels.fields.areaOrPool, areaOrPool || MISSING],
    [labels.fields.equipmentid, machine.equipmentid ?? MISSING],
    [labels.fields.inventoryid, machine.inventoryid ?? MISSING],
    [labels.fields.buildYear, machine.buildYear === null ? MISSING : String(machine.buildYear)],
  ];
}

/** The filters that act, in words ("Art: Reparatur · Status: Erledigt · Zeitraum: 01.01.2025 – 31.12.2025"). */
export function historyFilterSummary(filter: HistoryFilter, labels: HistoryReportLabels): string {
  const parts: string[] = [];
  if (filter.type !== null) parts.push(`${labels.filter.type}: ${labels.type(filter.type)}`);
  if (filter.status !== null) parts.push(`${labels.filter.status}: ${labels.status(filter.status)}`);
  const window = historyDateWindow(filter);
  if (window.from !== null && window.until !== null) parts.push(`${labels.filter.period}: ${formatDate(window.from)} – ${formatDate(window.until - 1)}`);
  else if (window.from !== null) parts.push(`${labels.filter.period}: ${labels.filter.from} ${formatDate(window.from)}`);
  else if (window.until !== null) parts.push(`${labels.filter.period}: ${labels.filter.until} ${formatDate(window.until - 1)}`);
  return parts.length > 0 ? parts.join(' · ') : labels.filter.none;
}

/** Columns: reported on, type, title, status, closed on, reported by. */
export type HistoryReportRow = [date: string, type: string, title: string, status: string, closed: string, author: string];

/** One row per entry, in the order given (the tab's: newest first). */
export function historyReportRows(entries: readonly HistoryEntry[], labels: HistoryReportLabels): HistoryReportRow[] {
  return entries.map((entry) => [
    formatDate(entry.created) || MISSING,
    labels.type(entry.type),
    entry.title || MISSING,
    labels.status(entry.status),
    entry.status === 2 ? formatDate(entry.closed) || MISSING : MISSING,
    entry.author ?? MISSING,
  ]);
}

/** "Equipment Report BAZ 02 Fräszentrum 24.11.2026.pdf", without characters file systems refuse. */
export function historyReportFileName(machineName: string, at: number): string {
  // why the filter: control characters are refused by file systems and cannot be typed into a regex literal here.
  const printable = [...machineName].filter((char) => char.charCodeAt(0) >= 0x20).join('');
  const cleaned = printable.replace(/[\\/:*?"<>|]+/g, ' ').replace(/\s+/g, ' ').trim();
  return `${[HISTORY_REPORT_TITLE, cleaned, formatDate(at)].filter(Boolean).join(' ')}.pdf`;
}
