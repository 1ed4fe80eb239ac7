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
