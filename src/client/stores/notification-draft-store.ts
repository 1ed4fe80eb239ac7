/**
 * The notification form's draft while the technician looks at a suggestion (a FAQ, an earlier solution) and comes
 * back: the form writes every change here and restores it when it opens again for the same target. In memory,
 * not sessionStorage, because the chosen files are File objects; a reload starts a fresh form (nothing was saved,
 * nothing is lost that the technician did not see on screen a moment ago).
 */
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';

export interface NotificationDraftFiles {
  key: string;
  file: File;
}

export interface NotificationDraftValues {
  type: number | null;
  title: string;
  description: string;
  errorcode: string;
  equipmentnodeid: string | null;
  /** DD.MM.YYYY as typed. */
  date: string;
  /** HH:mm as typed. */
  time: string;
  /** DD.MM.YYYY as typed, '' for none. */
  dueDate: string;
  files: NotificationDraftFiles[];
}

export interface NotificationDraft {
  /** Which form it belongs to: `add:<machine or ''>` or `edit:<notification>`. */
  key: string;
  values: NotificationDraftValues;
}

interface DraftState {
  draft: NotificationDraft | null;
  keep(draft: NotificationDraft): void;
  clear(): void;
}

export const notificationDraftStore = createStore<DraftState>((set) => ({
  draft: null,
  keep: (draft) => set({ draft }),
  clear: () => set({ draft: null }),
}));

/** The kept draft for this form, or null. Read once when the form opens. */
export function takeNotificationDraft(key: string): NotificationDraftValues | null {
  const { draft } = notificationDraftStore.getState();
  return draft && draft.key === key ? draft.values : null;
}

export function useNotificationDraftStore<T>(select: (state: DraftState) => T): T {
  return useStore(notificationDraftStore, select);
}
