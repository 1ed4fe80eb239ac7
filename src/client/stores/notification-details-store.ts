/**
 * The notification the details screen last showed (part 1 §2.2): /notification-details without `?nodeid=` and
 * without navigation state opens it again. The screen forgets it when the user leaves for anything but a report,
 * details, edit or solution screen (`keepsNotificationState`). Device memory only: a reload starts empty.
 */
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';

interface NotificationDetailsState {
  rememberedNodeid: string | null;
}

export const notificationDetailsStore = createStore<NotificationDetailsState>(() => ({ rememberedNodeid: null }));

export function rememberNotification(nodeid: string): void {
  if (notificationDetailsStore.getState().rememberedNodeid !== nodeid) notificationDetailsStore.setState({ rememberedNodeid: nodeid });
}

export function forgetNotification(): void {
  notificationDetailsStore.setState({ rememberedNodeid: null });
}

export function useRememberedNotification(): string | null {
  return useStore(notificationDetailsStore, (state) => state.rememberedNodeid);
}
