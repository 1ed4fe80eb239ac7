/**
 * Pure rules of the equipment selection dialog (spec part 2 §2.6, §4): search over name, equipment ID, brand and
 * type with the matches marked, the live count line, the order of the list, and what saving a selection moves.
 */

import { compareNames } from '../../../shared/domain/text';

/** A machine as the dialog lists it. */
export interface SelectableEquipment {
  nodeid: string;
  name: string;
  equipmentid: string | null;
  brand: string | null;
  model: string | null;
  areanodeid: string | null;
  equipmentpoolnodeid: string | null;
  /** Where it is linked now ("Werk Nord › Halle 1", "Pool Mobile Geräte"), for the row's second line. */
  location: string | null;
}

export type SelectionTargetType = 'area' | 'pool';

/** The fields the search looks at, in the order a row shows them. */
export function searchableTexts(item: SelectableEquipment): string[] {
  return [item.name, item.equipmentid, item.brand, item.model].filter((value): value is string => Boolean(value));
}

export function normalizeQuery(query: string): string {
  return query.trim().toLocaleLowerCase('de');
}

/** Case-insensitive substring match on name, equipment ID, brand or type. An empty query matches everything. */
export function matchesSearch(item: SelectableEquipment, query: string): boolean {
  const needle = normalizeQuery(query);
  if (!needle) return true;
  return searchableTexts(item).some((text) => text.toLocaleLowerCase('de').includes(needle));
}

export interface TextPart {
  text: string;
  match: boolean;
}

/** `text` cut into parts, the matches of `query` (case-insensitive, every occurrence) flagged for highlighting. */
export function highlightParts(text: string, query: string): TextPart[] {
  const needle = normalizeQuery(query);
  if (!needle || !text) return text ? [{ text, match: false }] : [];
  const haystack = text.toLocaleLowerCase('de');
  const parts: TextPart[] = [];
  let from = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length)) {
    if (at > from) parts.push({ text: text.slice(from, at), match: false });
    parts.push({ text: text.slice(at, at + needle.length), match: true });
    from = at + needle.length;
  }
  if (from < text.length) parts.push({ text: text.slice(from), match: false });
  return parts;
}

/** Linked anywhere (an area or a pool)? Equipment in neither is listed under 'Nicht verknüpfte Geräte'. */
export function isLinked(item: Pick<SelectableEquipment, 'areanodeid' | 'equipmentpoolnodeid'>): boolean {
  return Boolean(item.areanodeid || item.equipmentpoolnodeid);
}

/** The list as shown: the search results, linked machines first, then the unlinked ones; by name within each. */
export function selectionList(items: readonly SelectableEquipment[], query: string): { linked: SelectableEquipment[]; unlinked: SelectableEquipment[] } {
  const results = items.filter((item) => matchesSearch(item, query)).sort((a, b) => compareNames(a.name, b.name, 'de'));
  return { linked: results.filter(isLinked), unlinked: results.filter((item) => !isLinked(item)) };
}

/**
 * The count line: 'N Einträge - M ausgewählt', or while searching 'N Suchergebnisse – M ausgewählt' (the spec's two
 * dashes kept as they are). N = entries listed, M = all selected machines (also those the search hides).
 */
export function selectionCount(listed: number, selected: number, query: string): { key: 'equipmentSelection.count' | 'equipmentSelection.searchCount'; values: { count: number; total: number; selected: number } } {
  // `count` picks the singular ("1 Suchergebnis") or the plural.
  return { key: normalizeQuery(query) ? 'equipmentSelection.searchCount' : 'equipmentSelection.count', values: { count: listed, total: listed, selected } };
}

/** The machines that belong to the target now: in this area, or in this pool. */
export function membersOf(items: readonly SelectableEquipment[], type: SelectionTargetType, nodeid: string | undefined): string[] {
  if (!nodeid) return [];
  return items.filter((item) => (type === 'area' ? item.areanodeid : item.equipmentpoolnodeid) === nodeid).map((item) => item.nodeid);
}

export interface SelectionChanges {
  /** Newly checked: moved into the target (their old link of the same type is removed). */
  added: string[];
  /** Unchecked: their link to the target is removed. */
  removed: string[];
}

/** What saving the form does to the links (part 2 §4 "Selection dialog"). */
export function selectionChanges(before: readonly string[], after: readonly string[]): SelectionChanges {
  const was = new Set(before);
  const is = new Set(after);
  return { added: after.filter((id) => !was.has(id)), removed: before.filter((id) => !is.has(id)) };
}

/** The ids of `selected` that are still machines of the list (one deleted since a kept draft was made is left out). */
export function knownMachines(selected: readonly string[], items: readonly SelectableEquipment[]): string[] {
  const known = new Set(items.map((item) => item.nodeid));
  return selected.filter((id) => known.has(id));
}
