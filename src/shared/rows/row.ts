import { z } from 'zod';

/**
 * Building blocks of the row shapes (one per synced kind): what the change feed sends, the device's mirror
 * stores and a write answers. Times are epoch milliseconds; an unset time is `null`, everywhere.
 */
export const epochMs = z.number().int();
export const nullableTime = epochMs.nullable();
export const nodeidField = z.string();
/** A localised text as stored: `{de: '…', en: '…'}`. */
export const localizedText = z.record(z.string(), z.string());

/** The fields every tenant-owned row has, plus the kind's own. */
export function tenantRow<Shape extends z.ZodRawShape>(shape: Shape) {
  return z.object({ nodeid: nodeidField, legalentitynodeid: nodeidField, version: z.number().int(), ...shape });
}
