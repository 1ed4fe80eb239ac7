import { z } from 'zod';
import { ATTACHMENT_CATEGORIES, ATTACHMENT_TARGET_KINDS, FILE_STATUSES } from '../domain/attachment';
import { epochMs, localizedText, nodeidField, nullableTime, tenantRow } from './row';

/** A machine as the feed sends it and the mirror stores it (area, pool, photos and own shift plan as nodeids). */
export const equipmentRowSchema = tenantRow({
  name: z.string(),
  equipmentid: z.string().nullable(),
  inventoryid: z.string().nullable(),
  manufacturerserialnumber: z.string().nullable(),
  /** Build year: 1 January UTC. */
  constructiondate: epochMs,
  commissioningdate: nullableTime,
  costcenter: localizedText.nullable(),
  inspectionbooknumber: z.string().nullable(),
  /** [width, height, depth] in mm. */
  dimensions: z.tuple([z.number().nullable(), z.number().nullable(), z.number().nullable()]).nullable(),
  /** kW. */
  electricalpower: z.number().nullable(),
  mediasupply: z.array(localizedText),
  controllerinformation: z.object({ manufacturer: z.string().optional(), type: z.string().optional(), softwareversion: z.string().optional() }).nullable(),
  /** The amount; the currency is `hourlyratecurrency`. */
  hourlyrate: z.number().nullable(),
  hourlyratecurrency: z.string(),
  imagefilenodeid: nodeidField.nullable(),
  typenameplatefilenodeid: nodeidField.nullable(),
  memo: z.string().nullable(),
  equipmenttypenodeid: nodeidField,
  equipmentclassnodeid: nodeidField.nullable(),
  areanodeid: nodeidField.nullable(),
  equipmentpoolnodeid: nodeidField.nullable(),
  shiftmodelnodeid: nodeidField.nullable(),
  useareashiftmodel: z.boolean(),
});
export type EquipmentRow = z.infer<typeof equipmentRowSchema>;

/** One version of an uploaded file (the storage key and the bytes' hash stay on the server). */
export const fileRowSchema = tenantRow({
  fileid: nodeidField,
  fileversion: z.number().int(),
  bucketid: z.string(),
  mimetype: z.string(),
  extension: z.string().nullable(),
  size: z.number().int().nullable(),
  status: z.enum(FILE_STATUSES),
  completedAt: nullableTime,
  createdbynodeid: nodeidField.nullable(),
});
export type FileRow = z.infer<typeof fileRowSchema>;

/** A titled file hung on a record (`isattachmentof`, whose kind is `targetkind`). */
export const attachmentRowSchema = tenantRow({
  title: z.string(),
  description: z.string().nullable(),
  specifier: z.enum(ATTACHMENT_CATEGORIES).nullable(),
  filenodeid: nodeidField,
  isattachmentof: nodeidField,
  targetkind: z.enum(ATTACHMENT_TARGET_KINDS),
  authornodeid: nodeidField.nullable(),
});
export type AttachmentRow = z.infer<typeof attachmentRowSchema>;
