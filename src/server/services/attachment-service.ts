import { eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { Attachment, CreateAttachment, UpdateAttachment } from '../../shared/api/attachments';
import { ATTACHMENT_TARGET_SYNC_KINDS, canReadKind, readableAttachmentTargets } from '../../shared/api/sync';
import type { AttachmentTargetKind } from '../../shared/domain/attachment';
import { documentationFileProblem } from '../../shared/domain/documentation-upload';
import { updateAttachment as updateAttachmentDeclaration } from '../../shared/mutations/attachments';
import { attachFile } from '../../shared/mutations/files';
import type { PermissionSubject } from '../../shared/permissions';
import type { AttachmentRow } from '../../shared/rows/equipment';
import type { Db, Tx } from '../db/client';
import { attachments, equipment, equipmentTypes, faqs, files, maintenanceTasks, notifications, reports, workflowSteps } from '../db/schema';
import { badRequest, forbidden, notFound } from '../http-errors';
import type { FileUrlSigner } from '../storage/file-storage';
import { nextVersion, nextVersionCte, recordTombstone } from './change-feed';
import { completeFileOfTenant, downloadUrl } from './file-service';
import { writeChangedFields } from './record-history';
import { applyContext, toColumnValues, toRowShape } from './rows';
import { writeTransaction, type Actor, type ServiceContext } from './service-context';
import { assertNotWithheldProcedureStep } from './procedure-steps';
import { existingForCreate, lockOwnRow, lockParent, ofTenant } from './structure-common';

const NOT_FOUND = 'Attachment not found';
const KIND = 'attachments';

/** The tables a node an attachment hangs on can live in, by target kind. */
const TARGETS = [
  ['equipment', equipment],
  ['equipmenttype', equipmentTypes],
  ['notification', notifications],
  ['workflowstep', workflowSteps],
  ['faq', faqs],
  ['report', reports],
  ['maintenancetask', maintenanceTasks],
] as const satisfies readonly (readonly [AttachmentTargetKind, unknown])[];

/**
 * GET /api/attachments/{id}: the attachment with a signed URL of its file. The route needs `equipment.attachment`
 * read; what it hangs on must be readable too (readableAttachmentTargets), or the answer's URL would hand out the
 * bytes GET /api/files/{nodeid}/download refuses (a notification's photo to someone who may not read notifications).
 */
export async function getAttachment(db: Db, actor: Actor & PermissionSubject, signer: FileUrlSigner, nodeid: string): Promise<Attachment> {
  const [row] = await db
    .select({ a: attachments, f: files })
    .from(attachments)
    .innerJoin(files, eq(files.nodeid, attachments.filenodeid))
    .where(ofTenant(attachments, actor, nodeid));
  if (!row) throw notFound(NOT_FOUND);
  if (!readableAttachmentTargets(actor).includes(row.a.targetkind)) throw forbidden();
  await assertNotWithheldProcedureStep(db, actor, row.a.targetkind, row.a.isattachmentof);
  const url = downloadUrl(signer, row.f);
  const file = { fileid: row.f.fileid, fileversion: row.f.fileversion, bucketid: row.f.bucketid, mimetype: row.f.mimetype, url };
  return {
    nodeid: row.a.nodeid,
    title: row.a.title,
    description: row.a.description,
    specifier: row.a.specifier,
    isattachmentof: row.a.isattachmentof,
    targetkind: row.a.targetkind,
    ...file,
    file,
    version: row.a.version,
  };
}

/**
 * attachFile: the row its declaration computes (src/shared/mutations/files.ts), with the kind of the target
 * and the file row the reference names. The target must be a node of the caller's tenant (404 otherwise), the
 * file a complete file of the tenant (409 while pending) the caller may download (403 otherwise:
 * completeFileOfTenant). The same create sent again under a new mutation id (the outbox resends) answers the
 * attachment it made and writes nothing; a nodeid used by another record (other content, another tenant) answers
 * 409, a deleted attachment's 410 (existingForCreate).
 */
export async function createAttachment(ctx: ServiceContext, actor: Actor & PermissionSubject, input: CreateAttachment): Promise<AttachmentRow> {
  const nodeid = input.nodeid ?? uuidv7();
  return writeTransaction(ctx, 'attachment.create', async (tx) => {
    const targetkind = await targetKindOf(tx, actor, input.isattachmentof);
    if (!canReadKind(actor, ATTACHMENT_TARGET_SYNC_KINDS[targetkind])) throw forbidden();
    await assertNotWithheldProcedureStep(tx, actor, targetkind, input.isattachmentof);
    const file = await completeFileOfTenant(tx, actor, input.file);
    assertDeclaredFile(input.file, file);
    assertDocumentType(input.specifier ?? null, file, 'file');
    const fields = attachFile.apply!(undefined, { params: {}, body: input }, applyContext(actor));
    const [found] = await tx.select().from(attachments).where(eq(attachments.nodeid, nodeid));
    // why these fields: they are what the create sends (the file as the row it names, the target's kind follows
    // from the target); the author is left out like the FAQ's, the outbox resends the same user's create.
    const same = await existingForCreate(tx, actor, KIND, nodeid, found, (row) =>
      row.title === fields.title &&
      row.description === fields.description &&
      row.specifier === fields.specifier &&
      row.isattachmentof === fields.isattachmentof &&
      row.filenodeid === file.nodeid,
    );
    if (same) return toRowShape(same) as AttachmentRow;
    // why the version taken in the insert, the row from its returning: a photo's attachment is queued offline by
    // the dozen, and from the version to the commit every other writer of the tenant waits (docs/decisions.md
    // "Write: the version late").
    const next = nextVersionCte(tx, actor.legalentitynodeid);
    const [row] = await tx
      .with(next.cte)
      .insert(attachments)
      .values({
        ...(toColumnValues(attachments, fields) as Omit<typeof attachments.$inferInsert, 'nodeid' | 'legalentitynodeid' | 'filenodeid' | 'targetkind'>),
        nodeid,
        legalentitynodeid: actor.legalentitynodeid,
        filenodeid: file.nodeid,
        targetkind,
        version: next.version,
      })
      .returning();
    return toRowShape(row!) as AttachmentRow;
  });
}

/**
 * updateAttachment: title, description, category or file (a new complete file version); only the fields sent,
 * as its declaration computes them (src/shared/mutations/attachments.ts). A documentation category needs a
 * document file, whichever of the two changes.
 */
export async function updateAttachment(ctx: ServiceContext, actor: Actor & PermissionSubject, nodeid: string, input: UpdateAttachment): Promise<AttachmentRow> {
  return writeTransaction(ctx, 'attachment.update', async (tx) => {
    const current = await lockOwnRow(tx, attachments, actor, nodeid, () => notFound(NOT_FOUND), 'change');
    assertReadableTarget(actor, current.targetkind);
    await assertNotWithheldProcedureStep(tx, actor, current.targetkind, current.isattachmentof);
    const { filenodeid: _deviceFileRef, ...fields } = updateAttachmentDeclaration.apply!(toRowShape(current), { params: { id: nodeid }, body: input }, applyContext(actor));
    const patch = toColumnValues(attachments, fields) as Partial<typeof attachments.$inferSelect>;
    let file: typeof files.$inferSelect | undefined;
    if (input.file) {
      file = await completeFileOfTenant(tx, actor, input.file);
      assertDeclaredFile(input.file, file);
      patch.filenodeid = file.nodeid;
    }
    const specifier = input.specifier !== undefined ? input.specifier : current.specifier;
    if (input.specifier !== undefined || file) {
      file ??= (await tx.select().from(files).where(eq(files.nodeid, current.filenodeid)))[0];
      if (file) assertDocumentType(specifier, file, input.file ? 'file' : 'specifier');
    }
    const written = await writeChangedFields(tx, actor, { table: attachments, kind: 'attachments', nodeid, current, patch, where: ofTenant(attachments, actor, nodeid) });
    return toRowShape(written ?? current) as AttachmentRow;
  });
}

/** deleteAttachment: a tombstone; the file stays (another version or record may still use it). */
export async function deleteAttachment(ctx: ServiceContext, actor: Actor & PermissionSubject, nodeid: string): Promise<{ nodeid: string; version: number }> {
  return writeTransaction(ctx, 'attachment.delete', async (tx) => {
    const current = await lockOwnRow(tx, attachments, actor, nodeid, () => notFound(NOT_FOUND), 'delete');
    assertReadableTarget(actor, current.targetkind);
    await assertNotWithheldProcedureStep(tx, actor, current.targetkind, current.isattachmentof);
    await tx.delete(attachments).where(ofTenant(attachments, actor, nodeid));
    const version = await nextVersion(tx, actor.legalentitynodeid);
    await recordTombstone(tx, actor.legalentitynodeid, 'attachments', nodeid, version);
    return { nodeid, version };
  });
}

/**
 * An attachment is part of what it hangs on: who may not read that (a damage photo without `notification` read)
 * may not change or delete one (403, as GET /api/attachments/{id}; the answer is the row), nor add one there
 * (createAttachment: read of the target's kind).
 */
function assertReadableTarget(actor: PermissionSubject, targetkind: AttachmentTargetKind): void {
  if (!readableAttachmentTargets(actor).includes(targetkind)) throw forbidden();
}

async function targetKindOf(tx: Tx, actor: Actor, nodeid: string): Promise<AttachmentTargetKind> {
  for (const [kind, table] of TARGETS) {
    // why locked: no foreign key ties an attachment to its target (it hangs on any kind), so this lock alone keeps a
    // target's delete from missing an attachment created at the same time.
    if (await lockParent(tx, table, actor, nodeid)) return kind;
  }
  throw notFound('isattachmentof: no such record');
}

/**
 * A document of the machine documentation (an attachment with a category) must be text, PDF, Word or Excel
 * (spec part 1 §5). The file's type is its registered extension, whose bytes the upload already checked
 * (file-service: sniffed), so a PNG renamed .pdf never got this far and a real PNG is refused here.
 */
function assertDocumentType(specifier: string | null, file: typeof files.$inferSelect, field: 'file' | 'specifier'): void {
  if (!specifier) return;
  const problem = documentationFileProblem(file.extension ?? '', file.mimetype);
  if (problem) throw badRequest(`Invalid body: ${field}: ${problem}`, [{ field, message: problem }]);
}

/** What the payload says about the file (the spec sends mimetype and bucketid too) must not contradict it. */
function assertDeclaredFile(declared: { bucketid?: string | undefined }, file: typeof files.$inferSelect): void {
  if (declared.bucketid !== undefined && declared.bucketid !== file.bucketid) {
    throw badRequest('Invalid body: file.bucketid: Does not match the file', [{ field: 'file.bucketid', message: 'Does not match the file' }]);
  }
}

