/** Document categories of the machine documentation tab (spec part 1 §3 "Attachment categories"). */
export const ATTACHMENT_CATEGORIES = ['operation', 'setup', 'maintenance', 'safety', 'internalinstructions'] as const;
export type AttachmentCategory = (typeof ATTACHMENT_CATEGORIES)[number];

/**
 * What an attachment hangs on (`isattachmentof`). Kept next to the id so a delete of the owner can remove its
 * attachments without guessing the owner's table.
 */
export const ATTACHMENT_TARGET_KINDS = ['equipment', 'equipmenttype', 'notification', 'workflowstep', 'faq', 'report', 'maintenancetask'] as const;
export type AttachmentTargetKind = (typeof ATTACHMENT_TARGET_KINDS)[number];

/** A registered file is pending until its bytes arrived with the declared size and type (docs/sync.md § Files). */
export const FILE_STATUSES = ['pending', 'complete'] as const;
export type FileStatus = (typeof FILE_STATUSES)[number];

export function isAttachmentCategory(value: unknown): value is AttachmentCategory {
  return typeof value === 'string' && (ATTACHMENT_CATEGORIES as readonly string[]).includes(value);
}
