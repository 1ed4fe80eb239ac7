import { and, asc, desc, eq, exists, getTableColumns, gt, inArray, lt, notExists, notInArray, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { fileTypeFromBuffer } from 'file-type';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { v7 as uuidv7 } from 'uuid';
import { SIGNED_URL_EXPIRED_MESSAGE, type FileDownload, type RegisterFiles, type RegisteredFile } from '../../shared/api/files';
import { canReadKind, readableAttachmentTargets } from '../../shared/api/sync';
import { ATTACHMENT_TARGET_KINDS } from '../../shared/domain/attachment';
import { uploadFile } from '../../shared/mutations/files';
import { isAllowedUploadMimetype, isGenericMimetype, sniffedTypeProblem, TextContentCheck, UPLOAD_TYPES, uploadTypeOf } from '../../shared/domain/upload-types';
import type { PermissionSubject } from '../../shared/permissions';
import type { Db, Tx } from '../db/client';
import { attachments, equipment, files, reports, users } from '../db/schema';
import { badRequest, conflict, forbidden, HttpError, idInUse, notFound, tooManyRequests } from '../http-errors';
import { fileContentPath, type FileStorage, type FileUrlSigner, type SignedMethod, type StagedObject } from '../storage/file-storage';
import { fileStorageKey } from '../storage/local-storage';
import { nextVersion, recordTombstones } from './change-feed';
import { applyContext, toColumnValues } from './rows';
import { writeTransaction, type Actor, type ServiceContext } from './service-context';
import { readableProcedureAttachments } from './procedure-steps';
import { ofTenant, type TenantTable } from './structure-common';

type FileRow = typeof files.$inferSelect;

/** How long an upload URL works; an expired one is signed again with POST /api/files and the same fileid. */
export const UPLOAD_URL_TTL_MS = 60 * 60 * 1000;
/** How long a download URL in an answer works; the device reloads the record to get a fresh one. */
export const DOWNLOAD_URL_TTL_MS = 24 * 60 * 60 * 1000;
/** A registered file whose bytes never arrive is removed after this (cleanupPendingFiles). */
export const PENDING_FILE_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * A complete file that no record names is removed this long after its upload (cleanupUnreferencedFiles). Long,
 * because a device may upload a photo and send the record naming it much later: the record was refused and is sent
 * again from the sync panel, or the tablet went offline between the two.
 */
export const UNREFERENCED_FILE_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/** How long the daily upload quota looks back. */
export const UPLOAD_QUOTA_WINDOW_MS = 24 * 60 * 60 * 1000;
/** Bytes the content sniffer sees: enough for every magic number file-type knows. */
const SNIFF_BYTES = 4100;

export interface FileServices {
  storage: FileStorage;
  signer: FileUrlSigner;
  maxBytes: number;
  /** Bytes one user may register and upload within UPLOAD_QUOTA_WINDOW_MS. */
  quotaBytesPerDay: number;
  /** Short-term rate per user; `hit` answers the seconds to wait, 0 when the request may go on. */
  rate: { hit(key: string): number };
}

export function signedUrl(signer: FileUrlSigner, file: { fileid: string; fileversion: number }, method: SignedMethod, expiresAtMs: number): string {
  return `${fileContentPath(file)}?exp=${expiresAtMs}&sig=${signer.sign(file, method, expiresAtMs)}`;
}

/** The GET URL records carry for a complete file (attachments' `url`). */
export function downloadUrl(signer: FileUrlSigner, file: { fileid: string; fileversion: number }, nowMs = Date.now()): string {
  // why rounded: the same file signed within one hour gets the same URL, so the device's HTTP cache works.
  const exp = Math.ceil((nowMs + DOWNLOAD_URL_TTL_MS) / 3_600_000) * 3_600_000;
  return signedUrl(signer, file, 'GET', exp);
}

/**
 * registerFiles (POST /api/files): one row per file version, `pending`, and a signed PUT URL for each. See
 * fileRegistrationSchema for how `nodeid` and `fileid` make a repeat a re-sign instead of a new file.
 */
export async function registerFiles(ctx: ServiceContext, actor: Actor & PermissionSubject, services: FileServices, input: RegisterFiles): Promise<RegisteredFile[]> {
  // why only new registrations count: the device resends a registration (a lost answer, or the sender's upload
  // ahead followed by the queued registration, docs/sync.md); that creates nothing and must not use up the rate.
  const nodeids = input.extensions.map((entry) => entry.nodeid);
  if ((await registeredCount(ctx.db, actor.legalentitynodeid, nodeids)) < nodeids.length) assertRate(services, `register:${actor.usernodeid}`);
  input.extensions.forEach((entry, i) => {
    if (entry.size !== undefined && entry.size > services.maxBytes) {
      throw badRequest(`Invalid body: extensions.${i}.size: Must be at most ${services.maxBytes} bytes`, [{ field: `extensions.${i}.size`, message: `Must be at most ${services.maxBytes} bytes` }]);
    }
    if (entry.mimetype !== undefined && !isGenericMimetype(entry.mimetype) && !isAllowedUploadMimetype(entry.mimetype)) {
      throw badRequest(`Invalid body: extensions.${i}.mimetype: Ungültiger Dateityp!`, [{ field: `extensions.${i}.mimetype`, message: 'Ungültiger Dateityp!' }]);
    }
  });
  // why excluding these nodeids: a resent registration (same nodeid) must not count its own reservation twice.
  const registering = input.extensions.map((entry) => entry.nodeid);
  // A quick refusal before any lock; the check that holds is the one in the transaction below, of what it adds.
  const declared = declaredBytes(input.extensions);
  if (declared > 0) assertQuota(services, await bytesUsedToday(ctx.db, actor.usernodeid, registering), declared);
  const rows = await writeTransaction(ctx, 'files.register', async (tx) => {
    // why every file locked before the version: the upload of a version locks its row, then takes the version
    // (completeUpload); a registration that held the version while it waited for that row deadlocked with it
    // (docs/decisions.md "Write: the version late"). In fileid order, as several rows of one kind are locked.
    const latest = new Map<string, Registration | undefined>();
    for (const fileid of [...new Set(input.extensions.flatMap((entry) => (entry.fileid ? [entry.fileid] : [])))].sort()) latest.set(fileid, await lockLatestVersion(tx, actor, fileid));
    // why always, before the entries are looked up: the user's registrations take turns, so the same file sent
    // twice at once (an upload ahead whose answer was lost, then the queued registration) finds the first one's row
    // and is answered with it, instead of both inserting and the second failing on the key.
    await lockUploadQuota(tx, actor.usernodeid);
    const registrations = new Map<string, Registration>();
    const answers: Registration[] = [];
    for (const [index, entry] of input.extensions.entries()) {
      const registration = registrations.get(entry.nodeid) ?? (await registerEntry(tx, actor, services.storage.bucketid, entry, latest, index));
      registrations.set(entry.nodeid, registration);
      if (entry.fileid && !('version' in registration)) latest.set(entry.fileid, registration);
      answers.push(registration);
    }
    const added = [...new Set(answers)].filter((registration): registration is NewFile => !('version' in registration));
    // What the request reserves: the files it adds, each once (an entry answered by another entry's file adds none),
    // on top of everything the user holds already — files of this request registered before included.
    const adding = added.reduce((sum, registration) => sum + (registration.size ?? 0), 0);
    if (adding > 0) assertQuota(services, await bytesUsedToday(tx, actor.usernodeid, []), adding);
    // A registration sent again only signs its URLs again: nothing new, no version.
    if (added.length === 0) return answers;
    const version = await nextVersion(tx, actor.legalentitynodeid);
    const inserted = new Map((await tx.insert(files).values(added.map((row) => ({ ...row, version }))).returning()).map((row) => [row.nodeid, row]));
    return answers.map((answer) => inserted.get(answer.nodeid) ?? answer);
  });
  const exp = Date.now() + UPLOAD_URL_TTL_MS;
  return rows.map((row) => ({
    nodeid: row.nodeid,
    fileid: row.fileid,
    fileversion: row.fileversion,
    bucketid: row.bucketid,
    url: signedUrl(services.signer, row, 'PUT', exp),
    expiresat: exp,
    status: row.status,
    mimetype: row.mimetype,
  }));
}

/**
 * The bytes a request declares, each file once: an entry repeating an earlier one's nodeid, or naming a file whose
 * next version an earlier entry registers, is answered with that entry's registration and reserves nothing more.
 */
function declaredBytes(entries: RegisterFiles['extensions']): number {
  const nodeids = new Set<string>();
  const fileids = new Set<string>();
  let bytes = 0;
  for (const entry of entries) {
    const repeated = nodeids.has(entry.nodeid) || (entry.fileid !== undefined && fileids.has(entry.fileid));
    nodeids.add(entry.nodeid);
    if (entry.fileid) fileids.add(entry.fileid);
    if (!repeated) bytes += entry.size ?? 0;
  }
  return bytes;
}

/** A file version to insert (it gets the version when the registration takes one), or one registered already. */
type NewFile = Omit<typeof files.$inferInsert, 'version'> & Pick<FileRow, 'nodeid' | 'fileid' | 'fileversion' | 'bucketid' | 'mimetype' | 'status'>;
type Registration = FileRow | NewFile;

/**
 * What one entry registers: the file it names by nodeid if it exists (a resend), the pending latest version of
 * `fileid` (its URL ran out: sign it again), or a new file or next version. `latest`: each named fileid's latest
 * version, locked, or the one an earlier entry of the request registers.
 *
 * An upload URL is its uploader's alone: a nodeid another user registered is in use (409), and so is a pending
 * version of `fileid` another user registered (409: their upload is still open). A next version is made only of a
 * file the caller may read (mayDownload; 403 otherwise): the pull lists every file of the organisation, so its ids
 * are no secret, and a version of a file naming nothing the caller may read is not theirs to replace.
 */
async function registerEntry(
  tx: Tx,
  actor: Actor & PermissionSubject,
  bucketid: string,
  entry: RegisterFiles['extensions'][number],
  latest: ReadonlyMap<string, Registration | undefined>,
  index: number,
): Promise<Registration> {
  const [same] = await tx.select().from(files).where(eq(files.nodeid, entry.nodeid));
  if (same) {
    if (same.legalentitynodeid !== actor.legalentitynodeid || same.createdbynodeid !== actor.usernodeid) throw idInUse(`extensions.${index}.nodeid`);
    return same;
  }
  let fileid = uuidv7();
  let fileversion = 1;
  if (entry.fileid) {
    const before = latest.get(entry.fileid);
    if (!before) throw notFound('File not found');
    // A pending latest version is the same upload whose URL ran out: sign it again, for its uploader.
    if (before.status === 'pending') {
      if (before.createdbynodeid !== actor.usernodeid) throw new HttpError(409, 'Another user is uploading a version of this file; register a new version once that upload is complete', [{ field: `extensions.${index}.fileid`, message: 'Upload in progress' }]);
      return before;
    }
    if (!(await mayReadVersion(tx, actor, before.nodeid))) throw forbidden(FILE_NOT_YOURS);
    fileid = before.fileid;
    fileversion = before.fileversion + 1;
  }
  // The row's fields are the declaration's (the device shows the same); where it is stored is the server's.
  const fields = uploadFile.apply!(undefined, { params: {}, body: { count: 1, extensions: [entry] } }, applyContext(actor));
  return {
    ...(toColumnValues(files, fields) as Pick<FileRow, 'mimetype' | 'extension' | 'size' | 'status'>),
    nodeid: entry.nodeid,
    legalentitynodeid: actor.legalentitynodeid,
    fileid,
    fileversion,
    bucketid,
    storagekey: fileStorageKey({ legalentitynodeid: actor.legalentitynodeid, fileid, fileversion, extension: entry.extension }),
    createdbynodeid: actor.usernodeid,
  };
}

/**
 * The latest version of the tenant's file `fileid`, locked (for update: two registrations of its next version
 * wait for each other). A locking read answers the row it waited for, not a version another registration added
 * while it waited, so it reads again until the row it locked is the latest.
 */
async function lockLatestVersion(tx: Tx, actor: Actor, fileid: string): Promise<FileRow | undefined> {
  const ofFile = and(eq(files.fileid, fileid), eq(files.legalentitynodeid, actor.legalentitynodeid));
  for (;;) {
    const [latest] = await tx.select().from(files).where(ofFile).orderBy(desc(files.fileversion)).limit(1).for('update');
    if (!latest) return undefined;
    const [newest] = await tx.select({ fileversion: files.fileversion }).from(files).where(ofFile).orderBy(desc(files.fileversion)).limit(1);
    if (newest?.fileversion === latest.fileversion) return latest;
  }
}

export interface SignedRequest {
  fileid: string;
  fileversion: number;
  exp: number;
  sig: string;
}

export interface UploadRequest extends SignedRequest {
  contentType: string | undefined;
  /** The raw request body; read at most up to the first byte past the limit, never buffered whole. */
  body: Readable;
}

/**
 * completeUpload (PUT of a signed URL): checks signature and expiry (403), the sent type (415), the uploader's
 * rate (429), then streams the bytes to storage while checking size (413 over FILE_MAX_BYTES or the daily quota,
 * 400 against a declared size) and content (415 when the bytes are not what the extension says). Only when all
 * of that holds are the bytes committed and the file marked complete; a refused upload leaves nothing behind and
 * the file pending. The same bytes again answer the same; other bytes for a complete version are a 409 (register
 * a new version instead).
 */
export async function completeUpload(ctx: ServiceContext, services: FileServices, upload: UploadRequest): Promise<{ fileid: string; fileversion: number; status: 'complete'; size: number; mimetype: string }> {
  assertSigned(services.signer, upload, 'PUT');
  const [row] = await ctx.db.select().from(files).where(and(eq(files.fileid, upload.fileid), eq(files.fileversion, upload.fileversion)));
  if (!row) throw notFound('File not found; register it again with POST /api/files');

  if (!isGenericMimetype(upload.contentType) && !sameKind(upload.contentType!, row.mimetype)) {
    throw new HttpError(415, `Ungültiger Dateityp! ${upload.contentType} does not match the registered file type ${row.mimetype}`);
  }
  assertRate(services, `upload:${row.createdbynodeid ?? row.nodeid}`);
  const used = row.status === 'complete' || !row.createdbynodeid ? 0 : await bytesUsedToday(ctx.db, row.createdbynodeid, [row.nodeid]);
  const quotaLeft = Math.max(0, services.quotaBytesPerDay - used);
  const limits: UploadLimits = {
    maxBytes: services.maxBytes,
    tooBig: (received) =>
      received > services.maxBytes
        ? new HttpError(413, `File too large: at most ${services.maxBytes} bytes`)
        : quotaExceeded(services.quotaBytesPerDay, used),
    // A complete version compares hashes instead (same bytes: same answer, other bytes: 409).
    declared: row.status === 'pending' ? row.size : null,
    quotaLeft,
  };

  const staged = await stageChecked(services.storage, row.storagekey, row.extension ?? '', row.mimetype, upload.body, limits);
  try {
    if (limits.declared !== null && limits.declared !== staged.size) throw sizeMismatch(limits.declared, staged.size);
    const result = { fileid: row.fileid, fileversion: row.fileversion, status: 'complete' as const, size: staged.size, mimetype: row.mimetype };
    // why inside the row lock: a second upload of the same version waits, then finds it complete and compares
    // hashes instead of overwriting the stored bytes. A crash after the commit leaves a pending row with bytes,
    // which the cleanup removes.
    await writeTransaction(ctx, 'files.complete', async (tx) => {
      const [current] = await tx.select().from(files).where(eq(files.nodeid, row.nodeid)).for('update');
      if (!current) throw notFound('File not found; register it again with POST /api/files');
      if (current.status === 'complete') {
        if (current.sha256 !== staged.sha256) throw conflict('This file version is complete with other content; register a new version (POST /api/files with its fileid)');
        return;
      }
      if (current.createdbynodeid) {
        // Parallel uploads of files registered without a size each saw the quota free when their bytes began.
        await lockUploadQuota(tx, current.createdbynodeid);
        assertQuota(services, await bytesUsedToday(tx, current.createdbynodeid, [current.nodeid]), staged.size);
      }
      await staged.commit();
      const version = await nextVersion(tx, current.legalentitynodeid);
      await tx.update(files).set({ status: 'complete', sha256: staged.sha256, size: staged.size, completedAt: new Date(), version, updatedAt: new Date() }).where(eq(files.nodeid, row.nodeid));
    });
    return result;
  } finally {
    await staged.discard();
  }
}

interface UploadLimits {
  maxBytes: number;
  /** The error for more than min(maxBytes, quotaLeft) bytes, given how many arrived. */
  tooBig(received: number): HttpError;
  declared: number | null;
  quotaLeft: number;
}

/**
 * Pipes `body` through the checks into a staged object. The body is piped, not passed to a pipeline, so that a
 * refusal stops reading without destroying the request: its socket must still carry the error answer.
 */
async function stageChecked(storage: FileStorage, key: string, extension: string, mimetype: string, body: Readable, limits: UploadLimits): Promise<StagedObject> {
  const checks = new UploadChecks(extension, limits);
  const stopReading = () => {
    body.unpipe(checks);
    body.pause();
  };
  const onAbort = () => {
    if (!body.readableEnded) checks.destroy(new HttpError(400, 'Upload aborted before all bytes arrived'));
  };
  const onError = (error: Error) => checks.destroy(error);
  // why: bytes flow (and may be refused) before the storage has attached its pipeline; the refusal still
  // reaches it as the stream's error, but must not crash the process as an unhandled 'error' event first.
  checks.on('error', () => undefined);
  body.on('error', onError);
  body.on('close', onAbort);
  body.pipe(checks);
  try {
    return await storage.stage(key, checks, mimetype);
  } catch (error) {
    stopReading();
    throw error;
  } finally {
    body.off('error', onError);
    body.off('close', onAbort);
  }
}

/** Counts, sniffs and (for text types) validates the bytes as they pass; errors with the HttpError to answer. */
class UploadChecks extends Transform {
  private received = 0;
  private head: Buffer[] = [];
  private headLength = 0;
  private sniffed = false;
  private readonly text: TextContentCheck | undefined;
  private readonly limit: number;

  constructor(
    private readonly extension: string,
    private readonly limits: UploadLimits,
  ) {
    super();
    this.text = uploadTypeOf(extension)?.sniffed.length === 0 ? new TextContentCheck() : undefined;
    this.limit = Math.min(limits.maxBytes, limits.quotaLeft);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.received += chunk.length;
    if (this.received > this.limit) return callback(this.limits.tooBig(this.received));
    if (this.limits.declared !== null && this.received > this.limits.declared) return callback(sizeMismatch(this.limits.declared, this.received));
    const textProblem = this.text?.push(chunk);
    if (textProblem) return callback(new HttpError(415, textProblem));
    if (this.sniffed) return callback(null, chunk);
    this.head.push(chunk);
    this.headLength += chunk.length;
    if (this.headLength < SNIFF_BYTES) return callback();
    this.sniff().then(() => callback(null, this.takeHead()), callback);
  }

  override _flush(callback: TransformCallback): void {
    const textProblem = this.text?.end();
    if (textProblem) return callback(new HttpError(415, textProblem));
    if (this.sniffed) return callback();
    this.sniff().then(() => callback(null, this.takeHead()), callback);
  }

  private async sniff(): Promise<void> {
    this.sniffed = true;
    const head = Buffer.concat(this.head);
    this.head = [head];
    const problem = sniffedTypeProblem(this.extension, (await fileTypeFromBuffer(head.subarray(0, SNIFF_BYTES)))?.mime);
    if (problem) throw new HttpError(415, problem);
  }

  private takeHead(): Buffer {
    const [head] = this.head;
    this.head = [];
    return head ?? Buffer.alloc(0);
  }
}

function sizeMismatch(declared: number, received: number): HttpError {
  return badRequest(`Expected ${declared} bytes as registered, received ${received}`, [{ field: 'body', message: `Must be ${declared} bytes` }]);
}

/** readFileContent (GET of a signed URL): a stream of a complete file version's bytes with its type and size. */
export async function readFileContent(
  ctx: ServiceContext,
  services: FileServices,
  request: SignedRequest,
): Promise<{ stream: Readable; size: number; mimetype: string; filename: string }> {
  assertSigned(services.signer, request, 'GET');
  const [row] = await ctx.db.select().from(files).where(and(eq(files.fileid, request.fileid), eq(files.fileversion, request.fileversion)));
  if (!row || row.status !== 'complete') throw notFound('File not found');
  const stored = await services.storage.open(row.storagekey);
  if (!stored) throw notFound('File not found');
  const suffix = row.extension ? `.${row.extension}` : '';
  return { ...stored, mimetype: row.mimetype, filename: `${row.fileid}${row.fileversion > 1 ? `-v${row.fileversion}` : ''}${suffix}` };
}

/** How many of these file nodeids the tenant already has registered. */
async function registeredCount(db: ServiceContext['db'], legalentitynodeid: string, nodeids: string[]): Promise<number> {
  const [row] = await db
    .select({ count: sql<string>`count(*)` })
    .from(files)
    .where(and(eq(files.legalentitynodeid, legalentitynodeid), inArray(files.nodeid, [...new Set(nodeids)])));
  return Number(row?.count ?? 0);
}

/**
 * Bytes `usernodeid` stored or reserved within the quota window: complete files with their size, counted from when
 * their bytes arrived; pending ones with the size they declared (a reservation), from their registration.
 * `excluding`: the files being registered or uploaded, which must not count against themselves. (Counted from the
 * registration alone, files registered without a size a day earlier were uploaded outside any window.)
 */
async function bytesUsedToday(db: Db | Tx, usernodeid: string, excluding: string[]): Promise<number> {
  const since = new Date(Date.now() - UPLOAD_QUOTA_WINDOW_MS);
  const [row] = await db
    .select({ bytes: sql<string | null>`sum(${files.size})` })
    .from(files)
    .where(and(eq(files.createdbynodeid, usernodeid), gt(sql`coalesce(${files.completedAt}, ${files.createdAt})`, since), notInArray(files.nodeid, excluding)));
  return Number(row?.bytes ?? 0);
}

/**
 * One user's registrations and completions take their quota one after another (until the transaction ends), so two
 * at once cannot both see the room only one of them fits in. Taken after the file rows and before the version, in
 * the order both transactions lock (docs/decisions.md "Write: the version late").
 */
async function lockUploadQuota(tx: Tx, usernodeid: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`upload-quota:${usernodeid}`}, 0))`);
}

function assertQuota(services: FileServices, used: number, adding: number): void {
  if (used + adding > services.quotaBytesPerDay) throw quotaExceeded(services.quotaBytesPerDay, used);
}

/**
 * The daily quota is not a rate: waiting minutes does not help, so it is a 413 (the device keeps the refusal as a
 * dead letter with this message) and not a 429 (which the device would retry for ever).
 */
function quotaExceeded(quota: number, used: number): HttpError {
  return new HttpError(413, `Upload quota exceeded: at most ${quota} bytes per user within 24 hours, ${used} already used`);
}

function assertRate(services: FileServices, key: string): void {
  const retryAfterSeconds = services.rate.hit(key);
  if (retryAfterSeconds > 0) throw tooManyRequests(retryAfterSeconds);
}

/**
 * fileDownload (GET /api/files/{nodeid}/download): a signed URL for a complete file version of the caller's
 * organisation that the caller may read (mayDownload: they uploaded it, or a record they may read names it).
 * Another organisation's file, a pending or unknown one is a 404; one the caller may not read a 403, as the
 * record naming it would be (the file's row itself, metadata only, is in everyone's pull: its id is no secret).
 */
export async function fileDownload(ctx: ServiceContext, actor: Actor & PermissionSubject, signer: FileUrlSigner, nodeid: string): Promise<FileDownload> {
  const [found] = await ctx.db
    .select({ row: files, readable: mayDownload(ctx.db, actor) })
    .from(files)
    .where(ofTenant(files, actor, nodeid));
  const row = found?.row;
  if (!row || row.status !== 'complete') throw notFound('File not found');
  if (!found.readable) throw forbidden();
  return { nodeid: row.nodeid, fileid: row.fileid, fileversion: row.fileversion, mimetype: row.mimetype, url: downloadUrl(signer, row) };
}

/**
 * Every record that names a file, and which of its rows a user may read. A file's bytes are a user's to download
 * when one of these rows names that version and the user may read the row, or when they uploaded the version
 * themselves (a device reads back its own upload before the record naming it has arrived). Read permission is
 * the pull's (`canReadKind`, SYNC_KIND_FEATURES in src/shared/api/sync.ts), so the bytes follow the records: a
 * machine's photo and nameplate go to whoever may read the machine, a report's drawn signature needs reports, a
 * person's image users; an attachment needs read of attachments and of what it hangs on
 * (`readableAttachmentTargets`: a notification's damage photo needs notifications too).
 * A uuid column names a file version by its nodeid; a jsonb FileRef (`users.image`, the spec's payload) by fileid
 * and, when it has one, fileversion (without: every version). `tests/unit/file-references.test.ts` fails when a
 * column naming a file is missing here.
 */
export const FILE_READERS: readonly FileReader[] = [
  { table: equipment, columns: [equipment.imagefilenodeid, equipment.typenameplatefilenodeid], readable: (subject) => canReadKind(subject, 'equipment') },
  { table: reports, columns: [reports.authorsignatureimagefilenodeid], readable: (subject) => canReadKind(subject, 'reports') },
  {
    table: attachments,
    columns: [attachments.filenodeid],
    readable: (subject) => {
      const targets = readableAttachmentTargets(subject);
      if (targets.length === 0) return false;
      const byTarget = targets.length === ATTACHMENT_TARGET_KINDS.length ? undefined : inArray(attachments.targetkind, targets);
      const procedures = readableProcedureAttachments(subject);
      return byTarget === undefined && procedures === undefined ? true : and(byTarget, procedures)!;
    },
  },
  { table: users, columns: [users.image], readable: (subject) => canReadKind(subject, 'users') },
];

interface FileReader {
  table: TenantTable;
  /** The columns of `table` that name a file (uuid: a version's nodeid; jsonb: a FileRef). */
  columns: readonly PgColumn[];
  /** Which rows `subject` may read: all (true), none (false), or those the condition holds for. */
  readable(subject: PermissionSubject): SQL | boolean;
}

/**
 * Whether the caller may download the `files` row of the query it is selected in, as one boolean: they uploaded
 * it, or an EXISTS per reader of FILE_READERS the caller may read at all, or-ed. One statement with the file's
 * lookup, so the answer is about the same row (no check-then-read window).
 */
function mayDownload(db: Db | Tx, actor: Actor & PermissionSubject): SQL<boolean> {
  const naming = FILE_READERS.flatMap(({ table, columns, readable }) => {
    const rows = readable(actor);
    if (rows === false) return [];
    const names = or(...columns.map(namesFile));
    return [exists(db.select({ one: sql`1` }).from(table).where(and(eq(table.legalentitynodeid, files.legalentitynodeid), names, rows === true ? undefined : rows)))];
  });
  return sql<boolean>`(${or(eq(files.createdbynodeid, actor.usernodeid), ...naming)})`;
}

/** `column` names the `files` row of the outer query. */
function namesFile(column: PgColumn): SQL {
  if (column.dataType === 'json') {
    // why text comparisons: a malformed FileRef must not fail the download of every other file with a cast error.
    return sql`(${column} ->> 'fileid' = ${files.fileid}::text and coalesce(${column} ->> 'fileversion', ${files.fileversion}::text) = ${files.fileversion}::text)`;
  }
  return eq(column, files.nodeid);
}

/** Why a file version may not be named or replaced by the caller (403): see mayDownload. */
export const FILE_NOT_YOURS = 'This file is not yours to use: you did not upload it and may read no record that names it';

/** Whether the caller may download the file version `nodeid` (mayDownload), read in `tx`. */
async function mayReadVersion(tx: Tx, actor: Actor & PermissionSubject, nodeid: string): Promise<boolean> {
  const [row] = await tx.select({ readable: mayDownload(tx, actor) }).from(files).where(eq(files.nodeid, nodeid));
  return row?.readable === true;
}

/**
 * A complete file version of the tenant, for attaching: 404 when the tenant has none, 403 when the caller may not
 * download it (mayDownload — naming it in a record would hand its bytes to everyone who reads that record), 409
 * while pending.
 */
export async function completeFileOfTenant(tx: Tx, actor: Actor & PermissionSubject, ref: { fileid: string; fileversion: number }): Promise<FileRow> {
  const [found] = await tx
    .select({ row: files, readable: mayDownload(tx, actor) })
    .from(files)
    .where(and(eq(files.fileid, ref.fileid), eq(files.fileversion, ref.fileversion), eq(files.legalentitynodeid, actor.legalentitynodeid)));
  if (!found) throw notFound('File not found');
  if (!found.readable) throw forbidden(FILE_NOT_YOURS);
  if (found.row.status !== 'complete') throw conflict('The file is not uploaded completely yet: PUT its bytes to the signed URL first, then attach it');
  return found.row;
}

/** The key `lockNamedFiles` answers a file version under. */
export const fileVersionKey = (ref: { fileid: string; fileversion: number }): string => `${ref.fileid}/${ref.fileversion}`;

/**
 * The tenant's file versions `refs` name (any upload state: the bytes may still be on their way from an offline
 * device), by `fileid/fileversion`, each with whether the caller may name it (mayDownload), locked (key share)
 * for the record about to name them: the upload of a file locks its row, then takes the version. In fileid
 * order, as a registration locks files.
 */
export async function lockNamedFiles(tx: Tx, actor: Actor & PermissionSubject, refs: readonly { fileid: string; fileversion: number }[]): Promise<Map<string, { nodeid: string; readable: boolean }>> {
  if (refs.length === 0) return new Map();
  const rows = await tx
    .select({ nodeid: files.nodeid, fileid: files.fileid, fileversion: files.fileversion, readable: mayDownload(tx, actor) })
    .from(files)
    .where(and(eq(files.legalentitynodeid, actor.legalentitynodeid), or(...refs.map((ref) => and(eq(files.fileid, ref.fileid), eq(files.fileversion, ref.fileversion))))))
    .orderBy(asc(files.fileid), asc(files.fileversion))
    .for('key share');
  return new Map(rows.map((row) => [fileVersionKey(row), { nodeid: row.nodeid, readable: row.readable }]));
}

/**
 * What names a file and lets go of it when the file goes (the foreign keys' `on delete set null`): a machine's
 * photo and nameplate, a report's drawn signature. The cleanup clears them itself, stamped with its version, so
 * the change reaches the devices (the database's own set-null would change the rows without a version).
 * `tests/unit/file-references.test.ts` fails when a column naming a file this way is missing here.
 */
export const FILE_REFERENCES = [
  { table: equipment, columns: [equipment.imagefilenodeid, equipment.typenameplatefilenodeid] },
  { table: reports, columns: [reports.authorsignatureimagefilenodeid] },
] as const;

/**
 * Locks (for update, skipping locked ones) the tenant's rows that name one of `fileids`, in id order per table.
 * Returns the locked rows per table, and the files a row another transaction holds names (`busy`): those stay
 * for a later run, since clearing that row would mean waiting on it while holding the files.
 */
async function lockFileReferences(tx: Tx, le: string, fileids: readonly string[]): Promise<{ locked: { reference: (typeof FILE_REFERENCES)[number]; nodeids: string[] }[]; busy: Set<string> }> {
  const locked: { reference: (typeof FILE_REFERENCES)[number]; nodeids: string[] }[] = [];
  const busy = new Set<string>();
  for (const reference of FILE_REFERENCES) {
    const { table, columns } = reference;
    const naming = and(eq(table.legalentitynodeid, le), or(...columns.map((column) => inArray(column, [...fileids]))));
    const fileColumns = Object.fromEntries(columns.map((column, index) => [`file${index}`, column]));
    const all = await tx.select({ nodeid: table.nodeid, ...fileColumns }).from(table).where(naming);
    if (all.length === 0) continue;
    const held = await tx.select({ nodeid: table.nodeid }).from(table).where(naming).orderBy(asc(table.nodeid)).for('update', { skipLocked: true });
    const heldIds = new Set(held.map((row) => row.nodeid));
    for (const row of all) {
      if (heldIds.has(row.nodeid)) continue;
      for (const [key, value] of Object.entries(row)) if (key !== 'nodeid' && typeof value === 'string') busy.add(value);
    }
    locked.push({ reference, nodeids: [...heldIds] });
  }
  return { locked, busy };
}

/**
 * Removes registered files whose bytes never arrived within PENDING_FILE_TTL_MS, with their partial bytes; a
 * machine or report naming one lets go of it, with the same change version. Safe with several instances running
 * it at once and beside every write: rows are claimed with FOR UPDATE SKIP LOCKED — the files, then what names
 * them — so each file is removed by exactly one run, the job never waits on a row, and the tenant's version comes
 * after every lock (docs/sync.md § Change feed). Removing bytes that are already gone is not an error.
 */
export async function cleanupPendingFiles(ctx: ServiceContext, storage: FileStorage, options: { nowMs?: number; olderThanMs?: number; limit?: number } = {}): Promise<{ removed: number }> {
  const cutoff = new Date((options.nowMs ?? Date.now()) - (options.olderThanMs ?? PENDING_FILE_TTL_MS));
  const removed = await writeTransaction(ctx, 'files.cleanup', async (tx) => {
    const stale = await tx
      .select({ nodeid: files.nodeid, legalentitynodeid: files.legalentitynodeid, storagekey: files.storagekey })
      .from(files)
      .where(and(eq(files.status, 'pending'), lt(files.createdAt, cutoff)))
      .orderBy(asc(files.createdAt))
      .limit(options.limit ?? 500)
      .for('update', { skipLocked: true });
    const byTenant = new Map<string, typeof stale>();
    for (const row of stale) byTenant.set(row.legalentitynodeid, [...(byTenant.get(row.legalentitynodeid) ?? []), row]);
    const gone: typeof stale = [];
    for (const [le, rows] of [...byTenant.entries()].sort(([x], [y]) => x.localeCompare(y))) {
      const { locked, busy } = await lockFileReferences(tx, le, rows.map((row) => row.nodeid));
      const removable = rows.filter((row) => !busy.has(row.nodeid));
      if (removable.length === 0) continue;
      const nodeids = removable.map((row) => row.nodeid);
      const version = await nextVersion(tx, le);
      for (const { reference, nodeids: naming } of locked) {
        const fields = Object.entries(getTableColumns(reference.table));
        const gone = sql.join(nodeids.map((id) => sql`${id}::uuid`), sql`, `);
        const cleared = Object.fromEntries(reference.columns.map((column) => [fields.find(([, field]) => field === column)![0], sql`case when ${column} in (${gone}) then null else ${column} end`]));
        await tx
          .update(reference.table)
          .set({ ...cleared, version, updatedAt: new Date() })
          .where(inArray(reference.table.nodeid, naming));
      }
      await tx.delete(files).where(and(inArray(files.nodeid, nodeids), eq(files.status, 'pending')));
      await recordTombstones(tx, le, 'files', nodeids, version);
      gone.push(...removable);
    }
    return gone;
  });
  for (const row of removed) await storage.remove(row.storagekey);
  return { removed: removed.length };
}

/** No row of FILE_READERS names the `files` row of the outer query (any version rule of `namesFile`). */
function namedByNoRecord(tx: Tx): SQL {
  return and(...FILE_READERS.map(({ table, columns }) => notExists(tx.select({ one: sql`1` }).from(table).where(and(eq(table.legalentitynodeid, files.legalentitynodeid), or(...columns.map(namesFile)))))))!;
}

/**
 * Removes complete files that no record names (FILE_READERS: a machine, a report, an attachment, a person) and
 * that were uploaded more than UNREFERENCED_FILE_TTL_MS ago, with their bytes: the upload of a record that never
 * arrived, a replaced photo, the file of a deleted attachment. Without it the daily upload quota would bound how
 * fast the storage grows, not how large. Claimed with FOR UPDATE SKIP LOCKED like cleanupPendingFiles, so several
 * instances never remove the same file; a record being written that names a file holds the file's row (key share,
 * a foreign key or lockNamedFiles), so it is skipped, and the second look after the claim sees a record committed
 * between the search and the claim. Each removal leaves a `files` tombstone with the tenant's next version.
 */
export async function cleanupUnreferencedFiles(ctx: ServiceContext, storage: Pick<FileStorage, 'remove'>, options: { nowMs?: number; olderThanMs?: number; limit?: number } = {}): Promise<{ removed: number }> {
  const cutoff = new Date((options.nowMs ?? Date.now()) - (options.olderThanMs ?? UNREFERENCED_FILE_TTL_MS));
  const removed = await writeTransaction(ctx, 'files.cleanupUnreferenced', async (tx) => {
    const old = and(eq(files.status, 'complete'), lt(files.completedAt, cutoff));
    const claimed = await tx
      .select({ nodeid: files.nodeid })
      .from(files)
      .where(and(old, namedByNoRecord(tx)))
      .orderBy(asc(files.completedAt))
      .limit(options.limit ?? 500)
      .for('update', { skipLocked: true });
    if (claimed.length === 0) return [];
    // why a second look: the search's snapshot may predate a record that named the file and committed before the claim.
    const rows = await tx
      .select({ nodeid: files.nodeid, legalentitynodeid: files.legalentitynodeid, storagekey: files.storagekey })
      .from(files)
      .where(and(inArray(files.nodeid, claimed.map((row) => row.nodeid)), old, namedByNoRecord(tx)));
    const byTenant = new Map<string, string[]>();
    for (const row of rows) byTenant.set(row.legalentitynodeid, [...(byTenant.get(row.legalentitynodeid) ?? []), row.nodeid]);
    for (const [le, nodeids] of [...byTenant.entries()].sort(([x], [y]) => x.localeCompare(y))) {
      const version = await nextVersion(tx, le);
      await tx.delete(files).where(inArray(files.nodeid, nodeids));
      await recordTombstones(tx, le, 'files', nodeids, version);
    }
    return rows;
  });
  for (const row of removed) await storage.remove(row.storagekey);
  return { removed: removed.length };
}

function assertSigned(signer: FileUrlSigner, request: SignedRequest, method: SignedMethod): void {
  if (!signer.verify(request, method, request.exp, request.sig)) throw forbidden('Invalid file URL signature');
  if (request.exp < Date.now()) throw forbidden(method === 'PUT' ? SIGNED_URL_EXPIRED_MESSAGE : 'Download URL expired: reload the record for a new one');
}

/** The sent type belongs to the same upload group (image, pdf, word, …) as the registered one. */
function sameKind(sent: string, registered: string): boolean {
  const bare = sent.split(';')[0]!.trim().toLowerCase();
  if (!isAllowedUploadMimetype(bare)) return false;
  const group = (mimetype: string) => Object.values(UPLOAD_TYPES).find((t) => t.mimetype === mimetype)?.group;
  return group(bare) !== undefined && group(bare) === group(registered);
}
