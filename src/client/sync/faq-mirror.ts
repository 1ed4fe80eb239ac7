/**
 * What the FAQ screens read, live from the local mirror (kind `faqs`), so they work offline and show a local
 * write at once: a machine's own FAQs with the FAQs of its equipment type (spec part 1 §2.1 FAQ tab), one FAQ for
 * the form (§2.3), and an equipment type with its FAQs (/equipmenttype-overview). Rows waiting for their delete
 * are left out; each item says whether a write of it is still in the outbox.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import type { FaqSpecifier } from '../../shared/domain/faq';
import { localized } from '../../shared/domain/text';
import { brandAndModel } from '../../shared/domain/equipment';
import { getLocalDb, type LocalDatabase, type MirrorRow } from '../db/local-db';
import type { MirrorResult } from './machine-mirror';
import { isLive } from './mirror-fields';
import { pendingIdsOfKind, readState, stateKeys } from './outbox';

export interface FaqItem {
  nodeid: string;
  question: string;
  answer: string | null;
  specifier: FaqSpecifier;
  equipmentnodeid: string | null;
  equipmenttypenodeid: string | null;
  /** A write of it waits in the outbox ("nicht synchronisiert"). */
  pending: boolean;
}

export interface MachineFaqs {
  /** The machine's own FAQs (internalfaq). */
  machine: FaqItem[];
  /** The FAQs of the machine's equipment type, shown on every machine of that type. */
  type: FaqItem[];
  /** The machine's equipment type (null when it has none). */
  equipmenttypenodeid: string | null;
  /** The type's model, for "FAQ des Typs {{model}}". */
  typeModel: string | null;
}

export interface EquipmentTypeOverview {
  nodeid: string;
  model: string;
  brand: string | null;
  manufacturer: string | null;
  faqs: FaqItem[];
  machines: { nodeid: string; name: string; equipmentid: string | null }[];
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

function faqItem(row: MirrorRow, pending: Set<string>): FaqItem {
  return {
    nodeid: row.nodeid,
    question: text(row.question) ?? '',
    answer: text(row.answer),
    specifier: row.specifier === 'equipmenttypefaq' ? 'equipmenttypefaq' : 'internalfaq',
    equipmentnodeid: text(row.equipmentnodeid),
    equipmenttypenodeid: text(row.equipmenttypenodeid),
    pending: pending.has(row.nodeid),
  };
}

/** Alphabetical by question, so a FAQ is found where one looks for it (the rows carry no creation time). */
function sorted(items: FaqItem[], language: string): FaqItem[] {
  return items.sort((a, b) => a.question.localeCompare(b.question, language, { sensitivity: 'base' }));
}

async function typeFaqs(db: LocalDatabase, equipmenttypenodeid: string, pending: Set<string>, language: string): Promise<FaqItem[]> {
  // why a scan: the mirror indexes faqs by machine only, and a tenant's FAQs are few (a table of questions).
  const rows = await db.mirror('faqs').filter((row) => row.equipmenttypenodeid === equipmenttypenodeid && isLive(row)).toArray();
  return sorted(rows.map((row) => faqItem(row, pending)), language);
}

export async function readMachineFaqs(db: LocalDatabase, equipmentnodeid: string, language: string): Promise<MachineFaqs | null> {
  const machine = await db.mirror('equipment').get(equipmentnodeid);
  if (!machine) return null;
  const pending = await pendingIdsOfKind(db, 'faqs');
  const own = (await db.mirror('faqs').where('equipmentnodeid').equals(equipmentnodeid).toArray()).filter(isLive);
  const equipmenttypenodeid = text(machine.equipmenttypenodeid);
  const type = equipmenttypenodeid ? await db.mirror('equipmenttypes').get(equipmenttypenodeid) : undefined;
  return {
    machine: sorted(own.map((row) => faqItem(row, pending)), language),
    type: equipmenttypenodeid ? await typeFaqs(db, equipmenttypenodeid, pending, language) : [],
    equipmenttypenodeid,
    typeModel: text(type?.model),
  };
}

/** undefined while loading, null when the mirror has no such machine. */
export function useMachineFaqs(equipmentnodeid: string, language: string): MachineFaqs | null | undefined {
  return useLiveQuery(() => readMachineFaqs(getLocalDb(), equipmentnodeid, language), [equipmentnodeid, language]);
}

async function mirrorFilled(db: LocalDatabase): Promise<boolean> {
  return (await readState<boolean>(db, stateKeys.initialSyncDone)) === true;
}

async function result<T>(db: LocalDatabase, value: T | undefined): Promise<MirrorResult<T>> {
  if (value !== undefined) return { status: 'ready', value };
  return (await mirrorFilled(db)) ? { status: 'missing' } : { status: 'loading' };
}

const LOADING = { status: 'loading' } as const;

export async function readFaq(db: LocalDatabase, nodeid: string | null): Promise<MirrorResult<FaqItem>> {
  if (!nodeid) return { status: 'missing' };
  const row = await db.mirror('faqs').get(nodeid);
  return result(db, row && isLive(row) ? faqItem(row, await pendingIdsOfKind(db, 'faqs')) : undefined);
}

/** One FAQ for the edit form; missing once it is deleted (here or, after a pull, elsewhere). */
export function useFaq(nodeid: string | null): MirrorResult<FaqItem> {
  return useLiveQuery(() => readFaq(getLocalDb(), nodeid), [nodeid]) ?? LOADING;
}

/** The name of a FAQ's owner for the form's subtitle: the machine's name or the type's brand and model. */
export async function readFaqOwnerName(db: LocalDatabase, owner: { kind: 'equipment' | 'equipmenttypes'; nodeid: string }, language: string): Promise<string | null> {
  const row = await db.mirror(owner.kind).get(owner.nodeid);
  if (!row) return null;
  if (owner.kind === 'equipment') return localized(row.name, language);
  const brand = text(row.brandnodeid) ? await db.mirror('brands').get(String(row.brandnodeid)) : undefined;
  return brandAndModel(text(brand?.name), text(row.model)) || null;
}

export function useFaqOwnerName(owner: { kind: 'equipment' | 'equipmenttypes'; nodeid: string } | null, language: string): string | null | undefined {
  return useLiveQuery(() => (owner ? readFaqOwnerName(getLocalDb(), owner, language) : Promise.resolve(null)), [owner?.kind, owner?.nodeid, language]);
}

export async function readEquipmentTypeOverview(db: LocalDatabase, nodeid: string | null, language: string): Promise<MirrorResult<EquipmentTypeOverview>> {
  if (!nodeid) return { status: 'missing' };
  const type = await db.mirror('equipmenttypes').get(nodeid);
  if (!type || !isLive(type)) return result<EquipmentTypeOverview>(db, undefined);
  const brand = text(type.brandnodeid) ? await db.mirror('brands').get(String(type.brandnodeid)) : undefined;
  const manufacturer = text(brand?.manufacturernodeid) ? await db.mirror('manufacturers').get(String(brand!.manufacturernodeid)) : undefined;
  const machines = (await db.mirror('equipment').filter((row) => row.equipmenttypenodeid === nodeid && isLive(row)).toArray())
    .map((row) => ({ nodeid: row.nodeid, name: localized(row.name, language) ?? '', equipmentid: text(row.equipmentid) }))
    .sort((a, b) => a.name.localeCompare(b.name, language));
  return {
    status: 'ready',
    value: {
      nodeid,
      model: text(type.model) ?? '',
      brand: text(brand?.name),
      manufacturer: text(manufacturer?.name),
      faqs: await typeFaqs(db, nodeid, await pendingIdsOfKind(db, 'faqs'), language),
      machines,
    },
  };
}

export function useEquipmentTypeOverview(nodeid: string | null, language: string): MirrorResult<EquipmentTypeOverview> {
  return useLiveQuery(() => readEquipmentTypeOverview(getLocalDb(), nodeid, language), [nodeid, language]) ?? LOADING;
}
