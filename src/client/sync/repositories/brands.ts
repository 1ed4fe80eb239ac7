/**
 * The machine catalogue, offline-first: manufacturers (legal entities the organisation records), brands,
 * equipment types and equipment classes (routes: src/shared/api/catalog.ts). Mirror rows keep the change feed's
 * shape: brands `{name, manufacturernodeid}`, types `{model, brandnodeid}`, manufacturers `{name}`, classes
 * `{name: {de, en}}`. The mutation builders are exported so the equipment form can put new catalogue entries
 * in the same transaction as the machine that needs them.
 */
import type {
  CreateBrandInput,
  CreateEquipmentClassInput,
  CreateEquipmentTypeInput,
  CreateLegalEntityInput,
  UpdateBrandInput,
  UpdateEquipmentClass,
} from '../../../shared/api/catalog';
import type { MirrorRow } from '../../db/local-db';
import { enqueueMutation, newNodeId, type MutationRequest, type WriteContext } from '../outbox';

/** The POST that creates one catalogue record under a client-made nodeid; the mirror row is made from `values`. */
function creation(request: Omit<MutationRequest, 'method' | 'creates'>): MutationRequest {
  return { ...request, method: 'POST', creates: true };
}

export function createManufacturerMutation(input: { nodeid?: string; name: string }): MutationRequest {
  const nodeid = input.nodeid ?? newNodeId();
  const name = input.name.trim();
  const body = { lang: 'de', nodeid, name } satisfies CreateLegalEntityInput;
  return creation({ action: 'createManufacturer', path: 'legalentities', body, kind: 'manufacturers', nodeid, values: { name, clienttype: 'company' } });
}

export function createBrandMutation(input: { nodeid?: string; name: string; isbrandof: string }): MutationRequest {
  const nodeid = input.nodeid ?? newNodeId();
  const name = input.name.trim();
  const body = { lang: 'de', nodeid, name, isbrandof: input.isbrandof } satisfies CreateBrandInput;
  return creation({ action: 'createBrand', path: 'brands', body, kind: 'brands', nodeid, values: { name, manufacturernodeid: input.isbrandof } });
}

export function createEquipmentTypeMutation(input: { nodeid?: string; model: string; brandnodeid: string }): MutationRequest {
  const nodeid = input.nodeid ?? newNodeId();
  const model = input.model.trim();
  const body = { lang: 'de', nodeid, model, brandnodeid: input.brandnodeid } satisfies CreateEquipmentTypeInput;
  return creation({ action: 'createEquipmentType', path: 'equipmenttypes', body, kind: 'equipmenttypes', nodeid, values: { model, brandnodeid: input.brandnodeid } });
}

export interface BrandInput {
  name: string;
  /** An existing manufacturer, or a new one made with the brand. */
  manufacturer: { isnew: false; nodeid: string } | { isnew: true; name: string };
}

/** The brand's manufacturer: an existing one, or a new one whose create goes first. */
function resolveManufacturer(manufacturer: BrandInput['manufacturer']): { mutations: MutationRequest[]; manufacturernodeid: string } {
  if (!manufacturer.isnew) return { mutations: [], manufacturernodeid: manufacturer.nodeid };
  const create = createManufacturerMutation({ name: manufacturer.name });
  return { mutations: [create], manufacturernodeid: create.nodeid };
}

/** /create-brand: the brand, and its manufacturer first when it is new. Returns the brand's nodeid. */
export async function createBrand(context: WriteContext, input: BrandInput): Promise<string> {
  const { mutations, manufacturernodeid } = resolveManufacturer(input.manufacturer);
  const brand = createBrandMutation({ name: input.name, isbrandof: manufacturernodeid });
  mutations.push(brand);
  await enqueueMutation(context, mutations);
  return brand.nodeid;
}

/** /edit-brand: only the changed fields are sent (field-level last write wins on the server). */
export async function updateBrand(context: WriteContext, brand: MirrorRow, input: BrandInput): Promise<void> {
  const { mutations, manufacturernodeid } = resolveManufacturer(input.manufacturer);
  const name = input.name.trim();
  const body: UpdateBrandInput = { lang: 'de' };
  const values: Record<string, unknown> = {};
  if (name !== brand.name) {
    body.name = name;
    values.name = name;
  }
  if (manufacturernodeid !== brand.manufacturernodeid) {
    body.isbrandof = manufacturernodeid;
    values.manufacturernodeid = manufacturernodeid;
  }
  if (Object.keys(values).length === 0 && mutations.length === 0) return;
  mutations.push({ action: 'updateBrand', method: 'PUT', path: `brands/${brand.nodeid}`, body, kind: 'brands', nodeid: brand.nodeid, values });
  await enqueueMutation(context, mutations);
}

/** /create-equipment-class: the name is written under the form's language. */
export async function createEquipmentClass(context: WriteContext, input: { name: string; lang: string }): Promise<string> {
  const nodeid = newNodeId();
  const name = input.name.trim();
  const body = { lang: input.lang, nodeid, name } satisfies CreateEquipmentClassInput;
  await enqueueMutation(context, creation({ action: 'createEquipmentClass', path: 'equipmentclasses', body, kind: 'equipmentclasses', nodeid, values: { name: { [input.lang]: name } } }));
  return nodeid;
}

export async function updateEquipmentClass(context: WriteContext, equipmentClass: MirrorRow, input: { name: string; lang: string }): Promise<void> {
  const name = input.name.trim();
  const current = (equipmentClass.name && typeof equipmentClass.name === 'object' ? equipmentClass.name : {}) as Record<string, string>;
  if (current[input.lang] === name) return;
  await enqueueMutation(context, {
    action: 'updateEquipmentClass',
    method: 'PUT',
    path: `equipmentclasses/${equipmentClass.nodeid}`,
    body: { lang: input.lang, name } satisfies UpdateEquipmentClass,
    kind: 'equipmentclasses',
    nodeid: equipmentClass.nodeid,
    values: { name: { ...current, [input.lang]: name } },
  });
}
