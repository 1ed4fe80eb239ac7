/**
 * The notification the details screen last showed (part 1 §2.2): /notification-details without `?nodeid=` and
 * without navigation state opens it again. The screen forgets it when the user leaves for anything but a report,
 * details, edit or solution screen (`keepsNotificationState`). Kept in the tab's sessionStorage, so a reload (back
 * from editing, offline) still knows where the back link leads; another tab or a new session starts empty.
 *
 * With it, where the user opened it from (`origin`: the navigation state's `from` and machine): the edit, report
 * and solution screens come back to the details without that state, and the back link must still lead to the
 * machine the user came from, not to the notifications dashboard.
 */
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import type { NotificationOrigin } from '../lib/notification-origin';

interface NotificationDetailsState {
  rememberedNodeid: string | null;
  /** Where `rememberedNodeid` was opened from; null when it was opened without an origin. */
  origin: NotificationOrigin | null;
}

const STORAGE_KEY = 'anlagenbuch.notification-details';
const EMPTY: NotificationDetailsState = { rememberedNodeid: null, origin: null };

function readKept(): NotificationDetailsState {
  try {
    const kept = JSON.parse(globalThis.sessionStorage?.getItem(STORAGE_KEY) ?? 'null') as Partial<NotificationDetailsState> | null;
    if (!kept || typeof kept.rememberedNodeid !== 'string') return EMPTY;
    const origin = kept.origin && typeof kept.origin.from === 'string' ? { from: kept.origin.from, equipmentNodeId: typeof kept.origin.equipmentNodeId === 'string' ? kept.origin.equipmentNodeId : null } : null;
    return { rememberedNodeid: kept.rememberedNodeid, origin };
  } catch {
    return EMPTY;
  }
}

export const notificationDetailsStore = createStore<NotificationDetailsState>(() => readKept());

notificationDetailsStore.subscribe((state) => {
  try {
    if (state.rememberedNodeid === null) globalThis.sessionStorage?.removeItem(STORAGE_KEY);
    else globalThis.sessionStorage?.setItem(STORAGE_KEY, JSON.stringify(state));
  } catch {
    // storage switched off: memory only
  }
});

/** Remembers `nodeid`, with `origin` when the screen was opened with one; another notification starts without it. */
export function rememberNotification(nodeid: string, origin: NotificationOrigin | null = null): void {
  const state = notificationDetailsStore.getState();
  const sameNotification = state.rememberedNodeid === nodeid;
  const next = origin ?? (sameNotification ? state.origin : null);
  if (sameNotification && next === state.origin) return;
  notificationDetailsStore.setState({ rememberedNodeid: nodeid, origin: next });
}

export function forgetNotification(): void {
  notificationDetailsStore.setState({ rememberedNodeid: null, origin: null });
}

export function useRememberedNotification(): string | null {
  return useStore(notificationDetailsStore, (state) => state.rememberedNodeid);
}

/** The origin remembered for `nodeid` (null for another notification or none). */
export function useRememberedOrigin(nodeid: string | null): NotificationOrigin | null {
  return useStore(notificationDetailsStore, (state) => (nodeid !== null && state.rememberedNodeid === nodeid ? state.origin : null));
}
