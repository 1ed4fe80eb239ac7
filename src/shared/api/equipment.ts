import { z } from 'zod';
import { trimText } from '../domain/text';
import {
  CATALOG_NAME_MAX,
  catalogSelectionIssues,
  cleanMediaSupply,
  commissionedBeforeBuilt,
  DIMENSION_ERROR_TEXTS,
  DIMENSION_MAX,
  DIMENSION_MIN,
  EARLIEST_EQUIPMENT_YEAR,
  ELECTRICAL_POWER_MAX,
  epochMsToYear,
  HOURLY_RATE_MAX,
  HOURLY_RATE_UNIT,
  isFutureYear,
  YEAR_IN_FUTURE_TEXT,
  type CatalogIssueCode,
} from '../domain/equipment';
import { embeddedAssignSchema } from './assign';
import { deleteBodySchema, langField, MAX_EPOCH_MS, MAX_EPOCH_MS_TEXT, optionalText, requiredText, TEXT_MAX } from './fields';
import { hasShiftModelSchema } from './shiftmodels';

/**
 * Equipment (machines), spec part 1 §3, §7 and part 2 §2.2, §3, §4, §5, §7: GET/POST/PUT/DELETE
 * /api/equipments[/{id}]. Feature key `equipment`. One schema per input, shared by the equipment form, its
 * outbox entry and the routes. Years are epoch ms of 1 January UTC (`yearToEpochMs` in domain/equipment.ts).
 */

/** The memo's longest text (part 1 §7); the memo card names it in its error. */
export const MEMO_MAX = 5000;

/** A year as epoch ms (the year pickers); not in the future (§5). */
const yearField = z
  .number({ error: 'Must be a year as epoch milliseconds' })
  .int('Must be a year as epoch milliseconds')
  .max(MAX_EPOCH_MS, MAX_EPOCH_MS_TEXT)
  .refine((ms) => epochMsToYear(ms) >= EARLIEST_EQUIPMENT_YEAR, `Must be a year from ${EARLIEST_EQUIPMENT_YEAR}`)
  .refine((ms) => !isFutureYear(ms), YEAR_IN_FUTURE_TEXT);

/** One dimension in mm: at least 1 ('Wert muss >= 1 sein'), or null for an empty field. */
const dimension = z.number({ error: DIMENSION_ERROR_TEXTS.invalidNumberFormat }).min(DIMENSION_MIN, DIMENSION_ERROR_TEXTS.belowMinimum).max(DIMENSION_MAX, DIMENSION_ERROR_TEXTS.aboveMaximum).nullable();
/** [width, height, depth] in mm; send nothing (or null) when all three are empty. Parse typed text with parseDimensions. */
export const dimensionsSchema = z.tuple([dimension, dimension, dimension], { error: 'Must be [width, height, depth]' });

/** The spec's hourly rate: [amount, {unitid: 'EUR', namespace}] (a bare amount is read as EUR). */
export const hourlyRateSchema = z.union([
  z.tuple([z.number().min(0, 'Must be at least 0').max(HOURLY_RATE_MAX), z.object({ unitid: z.literal('EUR', { error: 'Only EUR' }), namespace: z.string().max(50).optional() })]),
  z.number().min(0, 'Must be at least 0').max(HOURLY_RATE_MAX).transform((amount) => [amount, { unitid: 'EUR' as const, namespace: HOURLY_RATE_UNIT.namespace }] as const),
]);

/** [manufacturer, type, '' (unused slot), software version]; all optional, shorter lists are padded. */
/** A controller entry (manufacturer, type, software version) and a media connection: at most this many characters. */
export const CONTROLLER_TEXT_MAX = 200;
export const MEDIA_SUPPLY_TEXT_MAX = 500;
export const controllerInformationSchema = z.array(z.string().overwrite(trimText).max(CONTROLLER_TEXT_MAX, `Must be at most ${CONTROLLER_TEXT_MAX} characters`)).max(4, 'At most 4 entries');

/** The spec's file reference (image, typenameplate) as the form got it from POST /api/files; `url` is ignored. */
export const equipmentFileRefSchema = z.object({
  fileid: z.uuid(),
  fileversion: z.number().int().min(1).default(1),
  mimetype: z.string().max(200).optional(),
  bucketid: z.string().max(200).optional(),
  url: z.string().max(4000).optional(),
});

/** The equipment form's one-line texts and their longest length: the schema's limits, which the form shows while typing. */
export const EQUIPMENT_TEXT_MAX = { name: TEXT_MAX, equipmentid: 100, inventoryid: 100, manufacturerserialnumber: TEXT_MAX, costcenter: TEXT_MAX, inspectionbooknumber: TEXT_MAX } as const;
export type EquipmentTextField = keyof typeof EQUIPMENT_TEXT_MAX;

/** The form's basic fields, shared by create and update. Localised texts (costcenter, mediasupply) are in `lang`. */
const basicFields = {
  name: requiredText(EQUIPMENT_TEXT_MAX.name),
  equipmentid: optionalText(EQUIPMENT_TEXT_MAX.equipmentid),
  inventoryid: optionalText(EQUIPMENT_TEXT_MAX.inventoryid),
  manufacturerserialnumber: optionalText(EQUIPMENT_TEXT_MAX.manufacturerserialnumber),
  /** Build year (required). */
  constructiondate: yearField,
  /** Commissioning year; empty means this year ("defaults to now if empty"). */
  commissioningdate: yearField.nullish(),
  costcenter: optionalText(EQUIPMENT_TEXT_MAX.costcenter),
  inspectionbooknumber: optionalText(EQUIPMENT_TEXT_MAX.inspectionbooknumber),
  dimensions: dimensionsSchema.nullish(),
  /** kW. */
  electricalpower: z.number().min(0, 'Must be at least 0').max(ELECTRICAL_POWER_MAX).nullish(),
  /** Media connections; empty rows are dropped. */
  mediasupply: z.array(z.string().max(MEDIA_SUPPLY_TEXT_MAX, `Must be at most ${MEDIA_SUPPLY_TEXT_MAX} characters`)).max(50).transform(cleanMediaSupply),
  controllerinformation: controllerInformationSchema.nullish(),
  hourlyrate: hourlyRateSchema.nullish(),
  image: equipmentFileRefSchema.nullish(),
  typenameplate: equipmentFileRefSchema.nullish(),
  /** 'take settings from area' of the operating times. */
  useareashiftmodel: z.boolean(),
  equipmentclassnodeid: z.uuid().nullish(),
};

/**
 * The detail of the 400 a machine's create or update gets when its commissioning year would be before its build
 * year (the form and the import say so before sending). An update that sends one of the two years is checked against
 * the other the machine has on the server: a colleague may have changed it meanwhile, and the sync panel then says so.
 */
export const COMMISSIONED_BEFORE_BUILT_DETAIL = { field: 'commissioningdate', message: 'The commissioning year cannot be before the build year' } as const;

/** commissionedBeforeBuilt on the years as epoch ms the API carries; an absent or empty year is no conflict. */
export function commissionedBeforeBuiltMs(constructiondate: number | null | undefined, commissioningdate: number | null | undefined): boolean {
  return commissionedBeforeBuilt(typeof constructiondate === 'number' ? epochMsToYear(constructiondate) : null, typeof commissioningdate === 'number' ? epochMsToYear(commissioningdate) : null);
}

/** Picker values (§4): an existing record, or a new one with its client-chosen nodeid. */
export const manufacturerChoiceSchema = z.object({ isnew: z.boolean(), nodeid: z.uuid(), name: z.string().overwrite(trimText).max(CATALOG_NAME_MAX).optional() });
export const brandChoiceSchema = z.object({ isnew: z.boolean(), nodeid: z.uuid(), name: z.string().overwrite(trimText).max(CATALOG_NAME_MAX).optional(), isbrandof: z.uuid().optional() });
export const equipmentTypeChoiceSchema = z.object({ isnew: z.boolean(), nodeid: z.uuid(), model: z.string().overwrite(trimText).max(CATALOG_NAME_MAX).optional(), brandnodeid: z.uuid().optional() });

const CATALOG_MESSAGES: Record<CatalogIssueCode, string> = {
  required: 'Required',
  nameRequired: 'Required',
  unknown: 'Not found',
  brandNotOfManufacturer: 'The brand is not of this manufacturer',
  typeNotOfBrand: 'The type is not of this brand',
  nameTooLong: `Must be at most ${CATALOG_NAME_MAX} characters`,
};

/**
 * POST /api/equipments. `equipmentnodeid` is the device-made id. Catalogue: either `equipmenttype` (existing
 * or new, with `brand` and — for a new brand — `legalentity`, following catalogSelectionIssues) or just
 * `equipmenttypenodeid` of an existing type (brand and manufacturer follow from it). New brand, type and
 * manufacturer are created in the same write with their client-chosen nodeids. `isequipmentof` lists the
 * area and/or pool (the caller's legal entity may be listed too and is ignored); at least one area or pool is
 * required. `assign.payload` entries are applied after the create (same transaction).
 */
export const createEquipmentSchema = z
  .object({
    lang: langField,
    equipmentnodeid: z.uuid().optional(),
    ...basicFields,
    mediasupply: basicFields.mediasupply.default([]),
    useareashiftmodel: basicFields.useareashiftmodel.default(true),
    isequipmentof: z.array(z.uuid()).max(3, 'At most an area, a pool and the legal entity').default([]),
    equipmenttypenodeid: z.uuid().optional(),
    legalentity: manufacturerChoiceSchema.nullish(),
    brand: brandChoiceSchema.nullish(),
    equipmenttype: equipmentTypeChoiceSchema.nullish(),
    assign: embeddedAssignSchema,
  })
  .superRefine((input, ctx) => {
    const equipmenttype = input.equipmenttype ?? (input.equipmenttypenodeid ? { isnew: false, nodeid: input.equipmenttypenodeid } : null);
    if (input.equipmenttype && input.equipmenttypenodeid && input.equipmenttype.nodeid !== input.equipmenttypenodeid) {
      ctx.addIssue({ code: 'custom', path: ['equipmenttypenodeid'], message: 'Must equal equipmenttype.nodeid' });
    }
    // An existing type alone is enough: brand and manufacturer follow from it.
    const typeAlone = equipmenttype && !equipmenttype.isnew && !input.brand;
    for (const issue of catalogSelectionIssues({ legalentity: input.legalentity, brand: input.brand, equipmenttype })) {
      if (typeAlone && issue.field === 'brand' && issue.code === 'required') continue;
      ctx.addIssue({ code: 'custom', path: issue.field.split('.'), message: CATALOG_MESSAGES[issue.code] });
    }
    if (input.isequipmentof.length === 0) ctx.addIssue({ code: 'custom', path: ['isequipmentof'], message: 'Choose an equipment pool or an area' });
    if (commissionedBeforeBuiltMs(input.constructiondate, input.commissioningdate)) ctx.addIssue({ code: 'custom', path: ['commissioningdate'], message: COMMISSIONED_BEFORE_BUILT_DETAIL.message });
  })
  .transform(({ equipmenttypenodeid, ...input }) => ({
    ...input,
    equipmenttype: input.equipmenttype ?? (equipmenttypenodeid ? { isnew: false, nodeid: equipmenttypenodeid } : null),
  }));
export type CreateEquipmentInput = z.input<typeof createEquipmentSchema>;
export type CreateEquipment = z.output<typeof createEquipmentSchema>;

export const EQUIPMENT_BULK_MAX = 1000;

/**
 * POST /api/equipments/bulk: many creates (CSV import) in one transaction and one change version — all or
 * nothing; an error names `items.N.<field>`. Each item is a create equipment payload (with its own
 * `equipmentnodeid`, so the import can write the mirror first). Answers `{version, nodeids}`.
 */
export const createEquipmentBulkSchema = z.object({
  items: z.array(createEquipmentSchema).min(1, 'At least one item').max(EQUIPMENT_BULK_MAX, `At most ${EQUIPMENT_BULK_MAX} items`),
});
export type CreateEquipmentBulkInput = z.input<typeof createEquipmentBulkSchema>;
export const createEquipmentBulkResultSchema = z.object({ version: z.number().int(), nodeids: z.array(z.uuid()) });

/**
 * PUT /api/equipments/{id}: the basic fields without assignment and brand data (§7); only the fields sent
 * change (field-level last write wins; what is overwritten goes to the record history). `equipmenttypenodeid`
 * may switch to another existing type. `equipmentnodeid`, if sent, must be the path id. The memo update
 * {lang, equipmentnodeid, memo} of part 1 §7 is this route with only `memo`.
 */
export const updateEquipmentSchema = z.object({
  lang: langField,
  equipmentnodeid: z.uuid().optional(),
  name: basicFields.name.optional(),
  equipmentid: basicFields.equipmentid.optional(),
  inventoryid: basicFields.inventoryid.optional(),
  manufacturerserialnumber: basicFields.manufacturerserialnumber.optional(),
  constructiondate: basicFields.constructiondate.optional(),
  commissioningdate: basicFields.commissioningdate,
  costcenter: basicFields.costcenter.optional(),
  inspectionbooknumber: basicFields.inspectionbooknumber.optional(),
  dimensions: basicFields.dimensions,
  /**
   * The dimensions the sender's form was filled from (null: none), sent with `dimensions`: then only the parts that
   * differ from it change, and a part a colleague changed meanwhile that this form left as it was survives (see
   * `mergeParts`). Without it `dimensions` replaces all three.
   */
  previousdimensions: z.tuple([z.number().nullable(), z.number().nullable(), z.number().nullable()]).nullish(),
  electricalpower: basicFields.electricalpower,
  mediasupply: basicFields.mediasupply.optional(),
  controllerinformation: basicFields.controllerinformation,
  /** As `previousdimensions`, for the controller entries ([manufacturer, type, '', software version]). */
  previouscontrollerinformation: z.array(z.string().max(CONTROLLER_TEXT_MAX)).max(4).nullish(),
  hourlyrate: basicFields.hourlyrate,
  image: basicFields.image,
  typenameplate: basicFields.typenameplate,
  useareashiftmodel: basicFields.useareashiftmodel.optional(),
  equipmentclassnodeid: basicFields.equipmentclassnodeid,
  equipmenttypenodeid: z.uuid().optional(),
  memo: optionalText(MEMO_MAX).optional(),
}).superRefine((input, ctx) => {
  // Both years sent: checked here; one of them: the service checks it against the other the machine has.
  if (commissionedBeforeBuiltMs(input.constructiondate, input.commissioningdate)) ctx.addIssue({ code: 'custom', path: ['commissioningdate'], message: COMMISSIONED_BEFORE_BUILT_DETAIL.message });
});
export type UpdateEquipmentInput = z.input<typeof updateEquipmentSchema>;
export type UpdateEquipment = z.output<typeof updateEquipmentSchema>;

/**
 * The detail of the 409 a machine's create or update gets when another machine of the organisation has its
 * Equipment-ID (compared as `matchKey` does; docs/decisions.md "One Equipment-ID, one machine"): the device names
 * this refusal in the user's words (the sync panel) instead of the generic conflict text. The bulk create names the
 * field `items.N.equipmentid`.
 */
export const EQUIPMENT_ID_TAKEN_DETAIL = { field: 'equipmentid', message: 'Another machine already has this Equipment-ID' } as const;

/** Whether a refused write's stored error names `detail` (its field, or `items.N.<field>` of a bulk create). */
function refusalNames(error: unknown, detail: { field: string; message: string }): boolean {
  const details = typeof error === 'object' && error !== null ? (error as { details?: unknown }).details : undefined;
  if (!Array.isArray(details)) return false;
  return details.some((entry: unknown) => {
    if (typeof entry !== 'object' || entry === null) return false;
    const { field, message } = entry as { field?: unknown; message?: unknown };
    return message === detail.message && typeof field === 'string' && (field === detail.field || field.endsWith(`.${detail.field}`));
  });
}

/** Whether a refused write's stored error is the 409 of an Equipment-ID another machine has (EQUIPMENT_ID_TAKEN_DETAIL). */
export function isEquipmentIdTakenRefusal(error: unknown): boolean {
  return refusalNames(error, EQUIPMENT_ID_TAKEN_DETAIL);
}

/** Whether a refused write's stored error is the 400 of a commissioning year before the build year (COMMISSIONED_BEFORE_BUILT_DETAIL). */
export function isCommissionedBeforeBuiltRefusal(error: unknown): boolean {
  return refusalNames(error, COMMISSIONED_BEFORE_BUILT_DETAIL);
}

/** The memo save of the machine overview (part 1 §7 "memo update {lang, equipmentnodeid, memo}"), sent as PUT /api/equipments/{id}. */
export const updateMemoSchema = z.object({ lang: langField, equipmentnodeid: z.uuid(), memo: optionalText(MEMO_MAX) });
export type UpdateMemoInput = z.input<typeof updateMemoSchema>;

/** DELETE /api/equipments/{id} {nodeid}: body optional; `nodeid`, if sent, must be the path id. */
export const deleteEquipmentSchema = deleteBodySchema('nodeid');

// ---------------------------------------------------------------- answers

export const fileRefSchema = z.object({
  fileid: z.uuid(),
  fileversion: z.number().int(),
  mimetype: z.string(),
  bucketid: z.string(),
  /** Signed download URL, relative to the server; expires (reload the record for a fresh one). */
  url: z.string().nullable(),
});
export type FileRef = z.infer<typeof fileRefSchema>;

export const equipmentSchema = z.object({
  nodeid: z.uuid(),
  name: z.string(),
  equipmentid: z.string().nullable(),
  inventoryid: z.string().nullable(),
  manufacturerserialnumber: z.string().nullable(),
  constructiondate: z.number().int(),
  commissioningdate: z.number().int().nullable(),
  costcenter: z.string().nullable(),
  inspectionbooknumber: z.string().nullable(),
  dimensions: z.tuple([z.number().nullable(), z.number().nullable(), z.number().nullable()]).nullable(),
  electricalpower: z.number().nullable(),
  mediasupply: z.array(z.string()),
  controllerinformation: z.tuple([z.string(), z.string(), z.string(), z.string()]).nullable(),
  hourlyrate: z.tuple([z.number(), z.object({ unitid: z.string(), namespace: z.string() })]).nullable(),
  image: fileRefSchema.nullable(),
  typenameplate: fileRefSchema.nullable(),
  memo: z.string().nullable(),
  hasequipmenttype: z.object({
    nodeid: z.uuid(),
    model: z.string(),
    brand: z.object({ nodeid: z.uuid(), name: z.string(), isbrandof: z.object({ nodeid: z.uuid(), name: z.string() }) }),
  }),
  /** The machine's area (with its plant) and/or pool. */
  isequipmentof: z.array(
    z.discriminatedUnion('type', [
      z.object({ type: z.literal('area'), nodeid: z.uuid(), name: z.string(), site: z.object({ nodeid: z.uuid(), name: z.string() }) }),
      z.object({ type: z.literal('pool'), nodeid: z.uuid(), name: z.string() }),
    ]),
  ),
  equipmentclassnodeid: z.uuid().nullable(),
  useareashiftmodel: z.boolean(),
  hasshiftmodel: hasShiftModelSchema,
  version: z.number().int(),
});
export type Equipment = z.infer<typeof equipmentSchema>;
