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

export function createManufacturerMutation(input: { nodeid?: string; name: string }): MutationRequest {
  const nodeid = input.nodeid ?? newNodeId();
  const name = input.name.trim();
  return {
    action: 'createManufacturer',
    method: 'POST',
    path: 'legalentities',
    body: { lang: 'de', nodeid, name } satisfies CreateLegalEntityInput,
    kind: 'manufacturers',
    nodeid,
    values: { name, clienttype: 'company' },
    creates: true,
  };
}

export function createBrandMutation(input: { nodeid?: string; name: string; isbrandof: string }): MutationRequest {
  const nodeid = input.nodeid ?? newNodeId();
  const name = input.name.trim();
  return {
    action: 'createBrand',
    method: 'POST',
    path: 'brands',
    body: { lang: 'de', nodeid, name, isbrandof: input.isbrandof } satisfies CreateBrandInput,
    kind: 'brands',
    nodeid,
    values: { name, manufacturernodeid: input.isbrandof },
    creates: true,
  };
}

export function createEquipmentTypeMutation(input: { nodeid?: string; model: string; brandnodeid: string }): MutationRequest {
  const nodeid = input.nodeid ?? newNodeId();
  const model = input.model.trim();
  return {
    action: 'createEquipmentType',
    method: 'POST',
    path: 'equipmenttypes',
    body: { lang: 'de', nodeid, model, brandnodeid: input.brandnodeid } satisfies CreateEquipmentTypeInput,
    kind: 'equipmenttypes',
    nodeid,
    values: { model, brandnodeid: input.brandnodeid },
    creates: true,
  };
}

export interface BrandInput {
  name: string;
  /** An existing manufacturer, or a new one made with the brand. */
  manufacturer: { isnew: false; nodeid: string } | { isnew: true; name: string };
}

/** /create-brand: the brand, and its manufacturer first when it is new. Returns the brand's nodeid. */
export async function createBrand(context: WriteContext, input: BrandInput): Promise<string> {
  const mutations: MutationRequest[] = [];
  let manufacturernodeid: string;
  if (input.manufacturer.isnew) {
    const manufacturer = createManufacturerMutation({ name: input.manufacturer.name });
    mutations.push(manufacturer);
    manufacturernodeid = manufacturer.nodeid;
  } else manufacturernodeid = input.manufacturer.nodeid;
  const brand = createBrandMutation({ name: input.name, isbrandof: manufacturernodeid });
  mutations.push(brand);
  await enqueueMutation(context, mutations);
  return brand.nodeid;
}

/** /edit-brand: only the changed fields are sent (field-level last write wins on the server). */
export async function updateBrand(context: WriteContext, brand: MirrorRow, input: BrandInput): Promise<void> {
  const mutations: MutationRequest[] = [];
  let manufacturernodeid: string;
  if (input.manufacturer.isnew) {
    const manufacturer = createManufacturerMutation({ name: input.manufacturer.name });
    mutations.push(manufacturer);
    manufacturernodeid = manufacturer.nodeid;
  } else manufacturernodeid = input.manufacturer.nodeid;
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
  await enqueueMutation(context, {
    action: 'createEquipmentClass',
    method: 'POST',
    path: 'equipmentclasses',
    body: { lang: input.lang, nodeid, name } satisfies CreateEquipmentClassInput,
    kind: 'equipmentclasses',
    nodeid,
    values: { name: { [input.lang]: name } },
    creates: true,
  });
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
