import { z } from 'zod';
import { localizedText, nodeidField, tenantRow } from './row';

/**
 * A manufacturer: a legal entity the organisation recorded. It belongs to the organisation through
 * `ownerlegalentitynodeid` (it is a legal entity itself), and the feed sends only what the pickers need.
 */
export const manufacturerRowSchema = z.object({
  nodeid: nodeidField,
  name: z.string(),
  clienttype: z.enum(['company', 'machinebuilder']),
  ownerlegalentitynodeid: nodeidField.nullable(),
  version: z.number().int(),
});
export type ManufacturerRow = z.infer<typeof manufacturerRowSchema>;

/** A brand of a manufacturer: the column `manufacturernodeid`, and the same id as the spec's `isbrandof`. */
export const brandRowSchema = tenantRow({
  name: z.string(),
  manufacturernodeid: nodeidField,
  isbrandof: nodeidField,
});
export type BrandRow = z.infer<typeof brandRowSchema>;

/** A model of a brand. */
export const equipmentTypeRowSchema = tenantRow({
  model: z.string(),
  brandnodeid: nodeidField,
});
export type EquipmentTypeRow = z.infer<typeof equipmentTypeRowSchema>;

/** A machine class; its name per language. */
export const equipmentClassRowSchema = tenantRow({
  name: localizedText,
});
export type EquipmentClassRow = z.infer<typeof equipmentClassRowSchema>;
