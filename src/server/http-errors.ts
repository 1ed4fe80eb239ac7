import { STATUS_CODES } from 'node:http';
import { ACCESS_DENIED_MESSAGE, type ApiError } from '../shared/api/errors';
import { TOO_MANY_NEW_DEVICES } from '../shared/api/sync';

export type ErrorDetail = NonNullable<ApiError['details']>[number];

/**
 * An error that becomes exactly this API error body (src/shared/api/errors.ts). Services throw it for
 * outcomes the caller must see (404 for another tenant's record, 409, 400 for a rule the schema can't express);
 * the errors plugin turns it into the response and rolls back the transaction it was thrown in.
 */
export class HttpError extends Error {
  readonly error: string;

  constructor(
    readonly statusCode: number,
    message: string,
    readonly details?: ErrorDetail[],
    /** Extra response headers (Retry-After, WWW-Authenticate). */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'HttpError';
    this.error = STATUS_CODES[statusCode] ?? 'Error';
  }

  toBody(): ApiError {
    return { statusCode: this.statusCode, error: this.error, message: this.message, ...(this.details ? { details: this.details } : {}) };
  }
}

export const badRequest = (message: string, details?: ErrorDetail[]) => new HttpError(400, message, details);
export const unauthorized = (message = 'Authentication required') => new HttpError(401, message, undefined, { 'www-authenticate': 'Bearer' });
export const forbidden = (message = ACCESS_DENIED_MESSAGE) => new HttpError(403, message);
export const notFound = (message = 'Not found') => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);

/** A create under a nodeid another record holds: of the caller's tenant or another's, of its kind or another. */
export const NODEID_TAKEN = 'This nodeid is already used by another record';
/** The database's name for "another kind of record holds this nodeid" (the node_ids registry's key). */
export const NODEID_REGISTRY_KEY = 'node_ids_pkey';
/**
 * A client-chosen id (a device makes ids offline) that is already another record's, possibly another tenant's:
 * refused like any conflict, never skipped, and saying no more than that this id cannot be used.
 */
export const idInUse = (field: string) => new HttpError(409, `This id cannot be used: ${field} belongs to another record`, [{ field, message: 'Already used by another record' }]);
/**
 * A client-chosen id inside a body (a plan's row, a counter's reading) of a record the caller's tenant deleted: it stays
 * deleted, as the record's own id does (410, docs/api.md § Conventions).
 */
export const idDeleted = (field: string) => new HttpError(410, `This id cannot be used: ${field} belongs to a deleted record`, [{ field, message: 'Belongs to a deleted record' }]);
export const tooManyRequests = (retryAfterSeconds: number) =>
  new HttpError(429, `Too many attempts, retry in ${retryAfterSeconds} seconds`, undefined, { 'retry-after': String(retryAfterSeconds) });
/**
 * A new X-Client-Id past the caller's daily limit of new devices (config NEW_DEVICES_PER_DAY): a device's writes wait
 * (429 is a retry for the sender), nothing is lost; an hour later one of the day's registrations may have aged out.
 */
export const tooManyNewDevices = () =>
  new HttpError(TOO_MANY_NEW_DEVICES.status, 'Too many new devices for this user in the last 24 hours: retry later from a device already in use', [{ field: TOO_MANY_NEW_DEVICES.field, message: TOO_MANY_NEW_DEVICES.message }], { 'retry-after': '3600' });
