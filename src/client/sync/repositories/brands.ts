/**
 * The machine catalogue, offline-first (declarations: src/shared/mutations/catalog.ts): manufacturers, brands,
 * equipment types and equipment classes. The step builders are exported so the equipment form can put new
 * catalogue entries in the same transaction as the machine that needs them.
 */
import {
  createBrand as createBrandDeclaration,
  createEquipmentClass as createEquipmentClassDeclaration,
  createEquipmentType as createEquipmentTypeDeclaration,
  createManufacturer as createManufacturerDeclaration,
  updateBrand as updateBrandDeclaration,
  updateEquipmentClass as updateEquipmentClassDeclaration,
} from '../../../shared/mutations/catalog';
import { DEFAULT_LANGUAGE, type Language } from '../../../shared/domain/language';
import { mutate, mutateAll, mutationStep } from '../mutate';
import { newNodeId, type MutationRequest, type WriteContext } from '../outbox';

export function createManufacturerMutation(input: { nodeid?: string; name: string }): MutationRequest {
  return mutationStep(createManufacturerDeclaration, { params: {}, body: { lang: 'de', nodeid: input.nodeid ?? newNodeId(), name: input.name.trim() } });
}

export function createBrandMutation(input: { nodeid?: string; name: string; isbrandof: string }): MutationRequest {
  return mutationStep(createBrandDeclaration, { params: {}, body: { lang: 'de', nodeid: input.nodeid ?? newNodeId(), name: input.name.trim(), isbrandof: input.isbrandof } });
}

export function createEquipmentTypeMutation(input: { nodeid?: string; model: string; brandnodeid: string }): MutationRequest {
  return mutationStep(createEquipmentTypeDeclaration, { params: {}, body: { lang: 'de', nodeid: input.nodeid ?? newNodeId(), model: input.model.trim(), brandnodeid: input.brandnodeid } });
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
  await mutateAll(context, [...mutations, brand], { describedBy: brand });
  return brand.nodeid;
}

/**
 * /edit-brand: only what changed against `filledWith`, the brand as the form was filled from it (field-level last
 * write wins on the server: a field left alone must not undo a colleague's change synced in meanwhile).
 */
export async function updateBrand(context: WriteContext, nodeid: string, input: BrandInput, filledWith: { name: string; manufacturernodeid: string | null }): Promise<void> {
  const { mutations, manufacturernodeid } = resolveManufacturer(input.manufacturer);
  const name = input.name.trim();
  const body = { lang: DEFAULT_LANGUAGE, ...(name !== filledWith.name && { name }), ...(manufacturernodeid !== filledWith.manufacturernodeid && { isbrandof: manufacturernodeid }) };
  const changed = Object.keys(body).length > 1;
  if (!changed && mutations.length === 0) return;
  const update = mutationStep(updateBrandDeclaration, { params: { id: nodeid }, body });
  await mutateAll(context, [...mutations, update], { describedBy: update });
}

/** /create-equipment-class: the name is written under the form's language. */
export async function createEquipmentClass(context: WriteContext, input: { name: string; lang: Language }): Promise<string> {
  const entry = await mutate(context, createEquipmentClassDeclaration, { params: {}, body: { lang: input.lang, nodeid: newNodeId(), name: input.name.trim() } });
  return entry.nodeid;
}

/**
 * /edit-equipment-class: the name under the form's language, unless it is the name the form was filled with
 * (`filledWith`, as `localized` showed it: another language's name when none is kept in this one).
 */
export async function updateEquipmentClass(context: WriteContext, nodeid: string, input: { name: string; lang: Language }, filledWith: string): Promise<void> {
  const name = input.name.trim();
  if (filledWith.trim() === name) return;
  await mutate(context, updateEquipmentClassDeclaration, { params: { id: nodeid }, body: { lang: input.lang, name } });
}
