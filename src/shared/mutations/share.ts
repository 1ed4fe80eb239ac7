import { shareNotificationSchema } from '../api/share';
import { defineMutation, noParams } from './mutation';

/**
 * "Meldung teilen" (spec part 1 §2.2, §3, §5, §7): POST /notifications/share {nodeid, receiver, name}. A
 * declaration like every write, so a share made offline is queued and sent once there is a connection, and the
 * mutation log answers a resent request from its record (the mail is queued once, never twice).
 *
 * It changes no field: its mirror row is the shared notification (the sync panel names it, the answer is its row
 * as it stands), and `apply` is empty. Permission: reading notifications — whoever may see a notification may
 * pass it on (docs/decisions.md § Share by e-mail).
 */
export const shareNotification = defineMutation({
  name: 'shareNotification',
  method: 'POST',
  route: '/notifications/share',
  params: noParams,
  body: shareNotificationSchema,
  permission: { feature: 'notification', flag: 'read' },
  kind: 'notifications',
  target: ({ body }) => body.nodeid,
  apply: () => ({}),
  describe: { params: ({ body }) => ({ receiver: body.receiver }) },
});

export const shareMutations = [shareNotification] as const;
