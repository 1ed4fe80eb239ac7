/**
 * User actions on notifications, offline-first: each writes the mirror and its outbox entry in one transaction
 * through `enqueueMutation` (src/client/sync/outbox.ts) and returns at once; the sender delivers later.
 */
import type { NotificationStatus, NotificationType } from '../../../shared/domain/notification';
import type { CreateNotificationInput, UpdateNotificationInput } from '../../../shared/api/notifications';
import type { MirrorRow } from '../../db/local-db';
import { enqueueMutation, newNodeId, type MutationRequest, type WriteContext } from '../outbox';
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

/** "Störung melden": creates the notification (status open) and, with a photo, its attachment after it. */
export async function createNotification(context: WriteContext, input: QuickFaultReport): Promise<string> {
  const nodeid = newNodeId();
  const created = input.created ?? (context.now ?? Date.now)();
  const values = {
    type: input.type,
    status: 0 as NotificationStatus,
    title: input.title,
    description: input.description ?? null,
    equipmentnodeid: input.equipmentnodeid,
    created,
    progressstarted: null,
    closed: null,
    authornodeid: context.usernodeid,
  };
  const create: MutationRequest = {
    action: 'createNotification',
    method: 'POST',
    path: 'notifications',
    body: { lang: 'de', nodeid, type: input.type, title: input.title, description: input.description ?? null, equipmentnodeid: input.equipmentnodeid, created } satisfies CreateNotificationInput,
    kind: 'notifications',
    nodeid,
    values,
    creates: true,
  };
  const photo = input.photo ? photoMutations(context, input.photo, { isattachmentof: nodeid, title: input.photo.title ?? input.title }) : null;
  await enqueueMutation(context, photo ? [create, ...photo.mutations] : create, photo ? { files: [photo.file] } : {});
  return nodeid;
}

/** The timestamps of a transition as part 1 §4.2 describes them (0 = unset/reset). */
export function transitionTimes(from: NotificationStatus, to: NotificationStatus, now: number, current: { progressstarted: number; closed: number }): { progressstarted: number; closed: number } {
  if (from === to) return current;
  if (to === 0) return { progressstarted: 0, closed: 0 };
  if (to === 1) return { progressstarted: from === 0 ? now : current.progressstarted, closed: 0 };
  return { progressstarted: from === 0 || !current.progressstarted ? now : current.progressstarted, closed: now };
}

/**
 * Status selector: sends the status-update payload of spec part 1 §3 with `previousStatus` = the status this
 * device showed. The server applies the transition to ITS current status (another device may have moved it).
 */
export async function updateNotificationStatus(context: WriteContext, notification: MirrorRow, status: NotificationStatus): Promise<void> {
  const previousStatus = notification.status as NotificationStatus;
  const now = (context.now ?? Date.now)();
  const times = transitionTimes(previousStatus, status, now, {
    progressstarted: Number(notification.progressstarted ?? 0),
    closed: Number(notification.closed ?? 0),
  });
  await enqueueMutation(context, {
    action: 'updateNotificationStatus',
    method: 'PUT',
    path: `notifications/${notification.nodeid}`,
    body: {
      lang: 'de',
      nodeid: notification.nodeid,
      status,
      previousStatus,
      onlyStatusUpdate: true,
      progressstarted: times.progressstarted,
      closed: times.closed,
      // Context fields of the §3 payload; with onlyStatusUpdate the server ignores them.
      title: notification.title as string,
      type: notification.type as NotificationType,
      description: (notification.description as string | null | undefined) ?? null,
      equipmentnodeid: notification.equipmentnodeid as string,
    } satisfies UpdateNotificationInput,
    kind: 'notifications',
    nodeid: notification.nodeid,
    // The mirror keeps the change feed's shape (null = unset); the API payload uses 0 as the spec does.
    values: { status, progressstarted: times.progressstarted || null, closed: times.closed || null },
  });
}
