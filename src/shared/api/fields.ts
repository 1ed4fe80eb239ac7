import { z } from 'zod';
import { trimText } from '../domain/text';
import { DEFAULT_LANGUAGE, LANGUAGES } from '../domain/language';

/** Field builders the structure contracts (areas, pools, equipment, catalogue, shift models) share. */

export const TEXT_MAX = 200;

/** A required text: trimmed, not empty ('Required'), at most `max` characters. */
export const requiredText = (max: number = TEXT_MAX) =>
  z
    .string({ error: (issue) => (issue.input === undefined || issue.input === null ? 'Required' : 'Must be a text') })
    .overwrite(trimText)
    .min(1, 'Required')
    .max(max, `Must be at most ${max} characters`);

/** An optional text; empty or missing means none (null). */
export const optionalText = (max: number = TEXT_MAX) =>
  z
    .string({ error: 'Must be a text' })
    .overwrite(trimText)
    .max(max, `Must be at most ${max} characters`)
    .nullish()
    .transform((value) => (value ? value : null));

/**
 * The language the texts of a request are in (localised fields are written under it, read in it): one of the
 * app's languages. Anything else (`fr`, `__proto__`) is a 400 naming the field.
 */
export const langField = z.enum(LANGUAGES, { error: `Must be one of: ${LANGUAGES.join(', ')}` }).default(DEFAULT_LANGUAGE);

/**
 * The latest time an input may name: the end of the year 9999. JavaScript's Date ends at ±8.64e15 ms (year
 * 275,760) and a year field reads a few hours past its value, so an unbounded epoch-ms field lets through numbers
 * that turn into an invalid date on the server: a 5xx, which a device answers by sending the same entry again.
 */
export const MAX_EPOCH_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
export const MAX_EPOCH_MS_TEXT = 'Must be a time before the year 10000';

/**
 * What a query integer must look like: decimal digits only. How many is the maximum's to say: a 64-bit number pasted
 * from a database tool is digits, and "Must be at most …" tells what is wrong with it. Every string of digits above
 * Number.MAX_SAFE_INTEGER reads as a number above it (or Infinity), never rounded down into the range.
 */
const QUERY_INTEGER = /^[0-9]+$/;

/**
 * A whole number as a query string (or path segment) carries it: plain decimal digits, between `min` and `max`.
 * `z.coerce.number()` reads it with Number(), which takes '0x10' (16), '0b11', '1e1', ' 5 ' and '' (0): an empty or
 * garbled `cursor=` then became a full pull of megabytes instead of a 400. Anything else than digits is a 400 naming
 * the parameter; an absent one keeps the schema's default (`.default()` on the result).
 */
export const queryInteger = (min: number, max: number = Number.MAX_SAFE_INTEGER) =>
  z
    .string({ error: 'Must be a whole number' })
    .regex(QUERY_INTEGER, 'Must be a whole number written in decimal digits')
    .transform(Number)
    // why the type's error: hundreds of digits read as Infinity, which z.number() refuses as not a number.
    .pipe(z.number({ error: `Must be at most ${max}` }).min(min, `Must be at least ${min}`).max(max, `Must be at most ${max}`));

/** A record's id chosen by the device (UUIDv7 made offline); without it the server makes one. */
export const clientNodeid = z.uuid().optional();

/** Tenant change version of a record's last write (docs/sync.md § Change feed). */
export const versionField = z.number().int();

/**
 * The body of a DELETE as the spec writes it: the record's id under `field`. Optional (a device sends none), and
 * when sent it must equal the path's id, which the route checks.
 */
export const deleteBodySchema = <Field extends string>(field: Field) => z.object({ [field]: z.uuid().optional() } as Record<Field, z.ZodOptional<z.ZodUUID>>).nullish();

/** The answer of every delete: the id and the change version of the delete. */
export const deleteResultSchema = z.object({ nodeid: z.uuid(), version: versionField });
export type DeleteResult = z.infer<typeof deleteResultSchema>;

/** A machine as lists and cards inside areas, pools and the catalogue show it. */
export const equipmentRefSchema = z.object({ nodeid: z.uuid(), name: z.string(), equipmentid: z.string().nullable() });
export type EquipmentRef = z.infer<typeof equipmentRefSchema>;
