import { and, asc, desc, eq, lt } from 'drizzle-orm';
import { createHash } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import { SIGNED_URL_EXPIRED_MESSAGE, type FileDownload, type RegisterFiles, type RegisteredFile } from '../../shared/api/files';
import { uploadFile } from '../../shared/mutations/files';
import { isAllowedUploadMimetype, isGenericMimetype, UPLOAD_TYPES } from '../../shared/domain/upload-types';
import type { Tx } from '../db/client';
import { files } from '../db/schema';
import { badRequest, conflict, forbidden, HttpError, notFound } from '../http-errors';
import { fileContentPath, type FileStorage, type FileUrlSigner, type SignedMethod } from '../storage/file-storage';
import { fileStorageKey } from '../storage/local-storage';
import { nextVersion, recordTombstones } from './change-feed';
import { applyContext, toColumnValues } from './rows';
import { writeTransaction, type Actor, type ServiceContext } from './service-context';
import { ofTenant } from './structure-common';

type FileRow = typeof files.$inferSelect;

/** How long an upload URL works; an expired one is signed again with POST /api/files and the same fileid. */
export const UPLOAD_URL_TTL_MS = 60 * 60 * 1000;
/** How long a download URL in an answer works; the device reloads the record to get a fresh one. */
export const DOWNLOAD_URL_TTL_MS = 24 * 60 * 60 * 1000;
/** A registered file whose bytes never arrive is removed after this (cleanupPendingFiles). */
export const PENDING_FILE_TTL_MS = 24 * 60 * 60 * 1000;

export interface FileServices {
  storage: FileStorage;
  signer: FileUrlSigner;
  maxBytes: number;
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
export async function registerFiles(ctx: ServiceContext, actor: Actor, services: FileServices, input: RegisterFiles): Promise<RegisteredFile[]> {
  input.extensions.forEach((entry, i) => {
    if (entry.size !== undefined && entry.size > services.maxBytes) {
      throw badRequest(`Invalid body: extensions.${i}.size: Must be at most ${services.maxBytes} bytes`, [{ field: `extensions.${i}.size`, message: `Must be at most ${services.maxBytes} bytes` }]);
    }
    if (entry.mimetype !== undefined && !isGenericMimetype(entry.mimetype) && !isAllowedUploadMimetype(entry.mimetype)) {
      throw badRequest(`Invalid body: extensions.${i}.mimetype: Ungültiger Dateityp!`, [{ field: `extensions.${i}.mimetype`, message: 'Ungültiger Dateityp!' }]);
    }
  });
  const rows = await writeTransaction(ctx, 'files.register', async (tx) => {
    const version = await nextVersion(tx, actor.legalentitynodeid);
    const out: FileRow[] = [];
    for (const entry of input.extensions) out.push(await registerOne(tx, actor, services.storage.bucketid, version, entry));
    return out;
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

async function registerOne(tx: Tx, actor: Actor, bucketid: string, version: number, entry: RegisterFiles['extensions'][number]): Promise<FileRow> {
  const [same] = await tx.select().from(files).where(eq(files.nodeid, entry.nodeid));
  if (same) {
    if (same.legalentitynodeid !== actor.legalentitynodeid) throw notFound('File not found');
    return same;
  }
  let fileid = uuidv7();
  let fileversion = 1;
  if (entry.fileid) {
    const [latest] = await tx
      .select()
      .from(files)
      .where(and(eq(files.fileid, entry.fileid), eq(files.legalentitynodeid, actor.legalentitynodeid)))
      .orderBy(desc(files.fileversion))
      .limit(1)
      .for('update');
    if (!latest) throw notFound('File not found');
    // A pending latest version is the same upload whose URL ran out: sign it again.
    if (latest.status === 'pending') return latest;
    fileid = latest.fileid;
    fileversion = latest.fileversion + 1;
  }
  // The row's fields are the declaration's (the device shows the same); where it is stored is the server's.
  const fields = uploadFile.apply!(undefined, { params: {}, body: { count: 1, extensions: [entry] } }, applyContext(actor));
  const [row] = await tx
    .insert(files)
    .values({
      ...(toColumnValues(files, fields) as Pick<typeof files.$inferInsert, 'mimetype' | 'extension' | 'size' | 'status'>),
      nodeid: entry.nodeid,
      legalentitynodeid: actor.legalentitynodeid,
      fileid,
      fileversion,
      bucketid,
      storagekey: fileStorageKey({ legalentitynodeid: actor.legalentitynodeid, fileid, fileversion, extension: entry.extension }),
      createdbynodeid: actor.usernodeid,
      version,
    })
    .returning();
  return row!;
}

export interface UploadRequest {
  fileid: string;
  fileversion: number;
  exp: number;
  sig: string;
  contentType: string | undefined;
  bytes: Uint8Array;
}

/**
 * completeUpload (PUT of a signed URL): checks signature and expiry (403), type (415) and size (413, or 400
 * against a declared size), stores the bytes and marks the file complete. The same bytes again answer the same;
 * other bytes for a complete version are a 409 (register a new version instead).
 */
export async function completeUpload(ctx: ServiceContext, services: FileServices, upload: UploadRequest): Promise<{ fileid: string; fileversion: number; status: 'complete'; size: number; mimetype: string }> {
  assertSigned(services.signer, upload, 'PUT');
  const [row] = await ctx.db.select().from(files).where(and(eq(files.fileid, upload.fileid), eq(files.fileversion, upload.fileversion)));
  if (!row) throw notFound('File not found; register it again with POST /api/files');

  if (!isGenericMimetype(upload.contentType) && !sameKind(upload.contentType!, row.mimetype)) {
    throw new HttpError(415, `Ungültiger Dateityp! ${upload.contentType} does not match the registered file type ${row.mimetype}`);
  }
  if (upload.bytes.length > services.maxBytes) throw new HttpError(413, `File too large: at most ${services.maxBytes} bytes`);
  const sha256 = createHash('sha256').update(upload.bytes).digest('hex');
  const result = { fileid: row.fileid, fileversion: row.fileversion, status: 'complete' as const, size: upload.bytes.length, mimetype: row.mimetype };
  if (row.status === 'complete') {
    if (row.sha256 === sha256) return result;
    throw conflict('This file version is complete with other content; register a new version (POST /api/files with its fileid)');
  }
  if (row.size !== null && row.size !== upload.bytes.length) {
    throw badRequest(`Expected ${row.size} bytes as registered, received ${upload.bytes.length}`, [{ field: 'body', message: `Must be ${row.size} bytes` }]);
  }

  // why inside the row lock: a second upload of the same version waits, then finds it complete and compares
  // hashes instead of overwriting the stored bytes. A crash after the put leaves a pending row with bytes,
  // which the cleanup removes.
  await writeTransaction(ctx, 'files.complete', async (tx) => {
    const [current] = await tx.select().from(files).where(eq(files.nodeid, row.nodeid)).for('update');
    if (!current) throw notFound('File not found; register it again with POST /api/files');
    if (current.status === 'complete') {
      if (current.sha256 !== sha256) throw conflict('This file version is complete with other content; register a new version (POST /api/files with its fileid)');
      return;
    }
    await services.storage.put(current.storagekey, upload.bytes, current.mimetype);
    const version = await nextVersion(tx, current.legalentitynodeid);
    await tx.update(files).set({ status: 'complete', sha256, size: upload.bytes.length, completedAt: new Date(), version, updatedAt: new Date() }).where(eq(files.nodeid, row.nodeid));
  });
  return result;
}

/** readFileContent (GET of a signed URL): the bytes of a complete file version. */
export async function readFileContent(ctx: ServiceContext, services: FileServices, request: Omit<UploadRequest, 'bytes' | 'contentType'>): Promise<{ bytes: Uint8Array; mimetype: string }> {
  assertSigned(services.signer, request, 'GET');
  const [row] = await ctx.db.select().from(files).where(and(eq(files.fileid, request.fileid), eq(files.fileversion, request.fileversion)));
  if (!row || row.status !== 'complete') throw notFound('File not found');
  const bytes = await services.storage.get(row.storagekey);
  if (!bytes) throw notFound('File not found');
  return { bytes, mimetype: row.mimetype };
}

/**
 * fileDownload (GET /api/files/{nodeid}/download): a signed URL for a complete file of the caller's organisation,
 * for records that name a file by its nodeid (a machine's photo: `equipment.imagefilenodeid`). Another
 * organisation's file, a pending or unknown one is a 404.
 */
export async function fileDownload(ctx: ServiceContext, actor: Actor, signer: FileUrlSigner, nodeid: string): Promise<FileDownload> {
  const [row] = await ctx.db
    .select()
    .from(files)
    .where(ofTenant(files, actor, nodeid));
  if (!row || row.status !== 'complete') throw notFound('File not found');
  return { nodeid: row.nodeid, fileid: row.fileid, fileversion: row.fileversion, mimetype: row.mimetype, url: downloadUrl(signer, row) };
}

/** A complete file version of the tenant, for attaching; pending answers 409. */
export async function completeFileOfTenant(tx: Tx, actor: Actor, ref: { fileid: string; fileversion: number }): Promise<FileRow> {
  const [row] = await tx
    .select()
    .from(files)
    .where(and(eq(files.fileid, ref.fileid), eq(files.fileversion, ref.fileversion), eq(files.legalentitynodeid, actor.legalentitynodeid)));
  if (!row) throw notFound('File not found');
  if (row.status !== 'complete') throw conflict('The file is not uploaded completely yet: PUT its bytes to the signed URL first, then attach it');
  return row;
}

/**
 * Removes registered files whose bytes never arrived within PENDING_FILE_TTL_MS, with their partial bytes.
 * Safe with several instances running it at once: rows are claimed with FOR UPDATE SKIP LOCKED, so each is
 * removed by exactly one run; removing bytes that are already gone is not an error.
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
    const byTenant = new Map<string, string[]>();
    for (const row of stale) byTenant.set(row.legalentitynodeid, [...(byTenant.get(row.legalentitynodeid) ?? []), row.nodeid]);
    for (const [le, nodeids] of [...byTenant.entries()].sort(([x], [y]) => x.localeCompare(y))) {
      const version = await nextVersion(tx, le);
      for (const nodeid of nodeids) await tx.delete(files).where(and(eq(files.nodeid, nodeid), eq(files.status, 'pending')));
      await recordTombstones(tx, le, 'files', nodeids, version);
    }
    return stale;
  });
  for (const row of removed) await storage.remove(row.storagekey);
  return { removed: removed.length };
}

function assertSigned(signer: FileUrlSigner, request: { fileid: string; fileversion: number; exp: number; sig: string }, method: SignedMethod): void {
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
