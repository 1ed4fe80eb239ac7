import { z } from 'zod';
import { WEEKDAYS } from '../domain/shift';
import { localizedText, nodeidField, tenantRow } from './row';

/** The plant structure's rows (spec part 2 §3) as the feed sends them, the mirror stores them and writes answer them. */

/** A plant's (Werk's) own fields; `siteid` is the optional address addon. The plant's API answers carry the same. */
export const siteRowFields = {
  name: z.string(),
  street: z.string(),
  siteid: z.string().nullable(),
  zipcode: z.string(),
  city: z.string(),
  country: z.string(),
};

export const siteRowSchema = tenantRow(siteRowFields);
export type SiteRow = z.infer<typeof siteRowSchema>;

/** An area (Bereich) of a plant, with the shift plan it holds. */
export const areaRowSchema = tenantRow({
  name: z.string(),
  areaid: z.string().nullable(),
  sitenodeid: nodeidField,
  shiftmodelnodeid: nodeidField.nullable(),
});
export type AreaRow = z.infer<typeof areaRowSchema>;

/** An equipment pool; its name is localised (`{de, en}`). */
export const equipmentPoolRowSchema = tenantRow({
  name: localizedText,
});
export type EquipmentPoolRow = z.infer<typeof equipmentPoolRowSchema>;

/** A weekly shift plan, held by an area or a machine (their `shiftmodelnodeid`); its rows are `shifts` rows. */
export const shiftModelRowSchema = tenantRow({
  name: z.string().nullable(),
});
export type ShiftModelRow = z.infer<typeof shiftModelRowSchema>;

/**
 * One row of a plan: minutes after midnight as stored, plus the editor's 'HH:MM' form of them and whether it ends
 * the next day ('Endzeit (+1)'), so a screen needs no time arithmetic.
 */
export const shiftRowSchema = tenantRow({
  shiftmodelnodeid: nodeidField,
  position: z.number().int(),
  weekdays: z.array(z.literal(WEEKDAYS)),
  startminute: z.number().int(),
  endminute: z.number().int(),
  unmanned: z.boolean(),
  start: z.string(),
  end: z.string(),
  endsnextday: z.boolean(),
});
export type ShiftRecord = z.infer<typeof shiftRowSchema>;

/** "This user follows this plant, area or pool" (`issubscriberof`): exactly one target id is set. */
export const subscriptionRowSchema = tenantRow({
  usernodeid: nodeidField,
  sitenodeid: nodeidField.nullable(),
  areanodeid: nodeidField.nullable(),
  equipmentpoolnodeid: nodeidField.nullable(),
});
export type SubscriptionRow = z.infer<typeof subscriptionRowSchema>;
