/**
 * Notification actions that are more than one declared step (src/shared/mutations/notifications.ts): the quick
 * fault report writes the notification and, with a photo, its file and attachment after it — one transaction.
 */
import type { NotificationStatus, NotificationType } from '../../../shared/domain/notification';
import { createNotification as createNotificationMutation, deleteNotification, updateNotification } from '../../../shared/mutations/notifications';
import type { MirrorRow } from '../../db/local-db';
import { mutate, mutateAll, mutationStep } from '../mutate';
import { newNodeId, type WriteContext } from '../outbox';
import { photoMutations, type PhotoInput } from './attachments';

export interface QuickFaultReport {
  type: NotificationType;
  title: string;
  description?: string;
  equipmentnodeid: string;
  /** Device time the fault was noticed; default now. */
  created?: number;
  photo?: PhotoInput;
}

/** The notification form's fields (/create-notification): the quick report's plus error code, due date and any number of files. */
export interface NotificationDraft extends Omit<QuickFaultReport, 'photo' | 'description'> {
  description?: string | null;
  errorcode?: string | null;
  /** Epoch ms; null or missing for none. */
  dueuntil?: number | null;
  /** Photos, videos and documents, attached after the notification in the same transaction. */
  files?: readonly PhotoInput[];
}

/** Each file's registration and attachment after the record they belong to, with the stored bytes. */
function attachmentSteps(context: WriteContext, isattachmentof: string, title: string, files: readonly PhotoInput[]) {
  const parts = files.map((file) => photoMutations(context, file, { isattachmentof, title: file.title ?? title }));
  return { steps: parts.flatMap((part) => part.mutations), bytes: parts.map((part) => part.file) };
}

/**
 * The notification form's save: the notification and, after it, every chosen file — one transaction, so offline
 * it is all queued or nothing is, and the server never sees a file before its record. Throws MutationInputError
 * (with the field) for a notification the server would refuse; nothing is queued then.
 */
export async function createNotificationWithFiles(context: WriteContext, input: NotificationDraft): Promise<string> {
  const nodeid = newNodeId();
  const created = input.created ?? (context.now ?? Date.now)();
  const create = mutationStep(createNotificationMutation, {
    params: {},
    body: {
      lang: 'de',
      nodeid,
      type: input.type,
      title: input.title,
      description: input.description ?? null,
      errorcode: input.errorcode ?? null,
      equipmentnodeid: input.equipmentnodeid,
      dueuntil: input.dueuntil ?? null,
      created,
    },
  });
  const { steps, bytes } = attachmentSteps(context, nodeid, input.title, input.files ?? []);
  await mutateAll(context, [create, ...steps], bytes.length > 0 ? { files: bytes } : {});
  return nodeid;
}

/** The fields /edit-notification may change. `created` is not among them: the API keeps the time of the report. */
export type EditableNotificationFields = Pick<NotificationDraft, 'type' | 'title' | 'description' | 'errorcode' | 'equipmentnodeid' | 'dueuntil'>;

/**
 * /edit-notification's save: only the fields that differ from `before` are sent (a field another device changed
 * meanwhile stays theirs), then each new file. Returns false when nothing changed and nothing was queued.
 */
export async function editNotification(context: WriteContext, nodeid: string, before: EditableNotificationFields, after: EditableNotificationFields, files: readonly PhotoInput[] = []): Promise<boolean> {
  const same = (a: unknown, b: unknown) => (a ?? null) === (b ?? null);
  const trimmed = (value: string | null | undefined) => value?.trim() || null;
  const body = {
    lang: 'de' as const,
    nodeid,
    ...(after.type !== before.type && { type: after.type }),
    ...(after.title.trim() !== before.title.trim() && { title: after.title }),
    ...(!same(trimmed(after.description), trimmed(before.description)) && { description: trimmed(after.description) }),
    ...(!same(trimmed(after.errorcode), trimmed(before.errorcode)) && { errorcode: trimmed(after.errorcode) }),
    ...(after.equipmentnodeid !== before.equipmentnodeid && { equipmentnodeid: after.equipmentnodeid }),
    ...(!same(after.dueuntil, before.dueuntil) && { dueuntil: after.dueuntil ?? null }),
  };
  const changed = Object.keys(body).length > 2;
  const update = changed ? [mutationStep(updateNotification, { params: { nodeid }, body })] : [];
  const { steps, bytes } = attachmentSteps(context, nodeid, after.title, files);
  if (update.length + steps.length === 0) return false;
  await mutateAll(context, [...update, ...steps], bytes.length > 0 ? { files: bytes } : {});
  return true;
}

/**
 * "Meldung erfassen" (the quick report, of any type): creates the notification (status open) and, with a photo, its attachment after it. Throws
 * MutationInputError (with the field) for a report the server would refuse; nothing is queued then.
 */
export async function createNotification(context: WriteContext, input: QuickFaultReport): Promise<string> {
  const nodeid = newNodeId();
  const created = input.created ?? (context.now ?? Date.now)();
  const create = mutationStep(createNotificationMutation, {
    params: {},
    body: { lang: 'de', nodeid, type: input.type, title: input.title, description: input.description ?? null, equipmentnodeid: input.equipmentnodeid, created },
  });
  const photo = input.photo ? photoMutations(context, input.photo, { isattachmentof: nodeid, title: input.photo.title ?? input.title }) : null;
  await mutateAll(context, photo ? [create, ...photo.mutations] : [create], photo ? { files: [photo.file] } : {});
  return nodeid;
}

/**
 * Status selector: the status-update payload of spec part 1 §3 with `previousStatus` = the status this device
 * showed, and the device's time for the timestamps the transition sets. The mirror shows the transition the
 * declaration computes from the mirror row; the server applies the same rule to ITS current status.
 */
export async function updateNotificationStatus(context: WriteContext, notification: MirrorRow, status: NotificationStatus): Promise<void> {
  const now = (context.now ?? Date.now)();
  await mutate(context, updateNotification, {
    params: { nodeid: notification.nodeid },
    body: {
      lang: 'de',
      nodeid: notification.nodeid,
      status,
      previousStatus: notification.status as NotificationStatus,
      onlyStatusUpdate: true,
      progressstarted: now,
      closed: now,
      // Context fields of the §3 payload; with onlyStatusUpdate the server ignores them.
      title: notification.title as string,
      type: notification.type as NotificationType,
      description: (notification.description as string | null | undefined) ?? null,
      equipmentnodeid: notification.equipmentnodeid as string,
    },
  });
}

/**
 * "Meldung löschen" on the details screen: queued like every write (offline too); the mirror drops the
 * notification at once, the server removes it with what exists only through it when the entry is sent.
 */
export async function removeNotification(context: WriteContext, nodeid: string): Promise<void> {
  await mutate(context, deleteNotification, { params: { nodeid }, body: { nodeid } });
}
