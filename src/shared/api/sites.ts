import { z } from 'zod';
import { trimText } from '../domain/text';
import { isCountryCode } from '../domain/country';
import { siteRowFields } from '../rows/structure';
import { deleteBodySchema, langField } from './fields';

/**
 * Plant (Werk) contracts of spec part 2 §2.5, §3 and §7 (createSite, updateSite, deleteSite). Used by the plant
 * form, the outbox entry and the routes alike, so the form and the server reject the same input.
 */

const TEXT_MAX = 200;

const requiredText = (max: number) =>
  z
    .string({ error: (issue) => (issue.input === undefined || issue.input === null ? 'Required' : 'Must be a text') })
    .overwrite(trimText)
    .min(1, 'Required')
    .max(max, `Must be at most ${max} characters`);

/** "Plant: name, street, postal code, city and country required; address addon optional" (part 2 §5). */
const siteFields = {
  name: requiredText(TEXT_MAX),
  street: requiredText(TEXT_MAX),
  /** The address addon; the spec's payload calls it siteid. Empty means none. */
  siteid: z
    .string()
    .overwrite(trimText)
    .max(TEXT_MAX, `Must be at most ${TEXT_MAX} characters`)
    .nullish()
    .transform((value) => (value ? value : null)),
  zipcode: requiredText(20),
  city: requiredText(TEXT_MAX),
  /** ISO 3166-1 alpha-2; lower case is accepted and stored upper case. */
  country: z
    .string({ error: (issue) => (issue.input === undefined || issue.input === null ? 'Required' : 'Must be a text') })
    .overwrite(trimText)
    .min(1, { error: 'Required', abort: true })
    .toUpperCase()
    .refine(isCountryCode, 'Must be an ISO 3166-1 alpha-2 country code'),
};


/** POST /api/sites. `nodeid` may be given by an offline client (UUIDv7), otherwise the server makes one. */
export const createSiteSchema = z.object({
  ...siteFields,
  lang: langField,
  legalentitynodeid: z.uuid(),
  nodeid: z.uuid().optional(),
});
export type CreateSiteInput = z.input<typeof createSiteSchema>;
export type CreateSite = z.output<typeof createSiteSchema>;

/**
 * PUT /api/sites/{id}. Only the fields sent are changed (docs/sync.md: "send only changed fields"); the form
 * sends all of them. `sitenodeid` must equal the path id.
 */
export const updateSiteSchema = z.object({
  ...z.object(siteFields).partial().shape,
  lang: langField,
  legalentitynodeid: z.uuid().optional(),
  sitenodeid: z.uuid(),
});
export type UpdateSiteInput = z.input<typeof updateSiteSchema>;
export type UpdateSite = z.output<typeof updateSiteSchema>;

/** DELETE /api/sites/{id}: the spec's body {sitenodeid}; optional, and when sent it must equal the path id. */
export const deleteSiteSchema = deleteBodySchema('sitenodeid');

export const siteSchema = z.object({
  nodeid: z.uuid(),
  legalentitynodeid: z.uuid(),
  ...siteRowFields,
  /** Tenant change version of the last write (docs/sync.md § Change feed). */
  version: z.number().int(),
  hasarea: z.array(z.object({ nodeid: z.uuid(), name: z.string() })),
});
export type Site = z.infer<typeof siteSchema>;

