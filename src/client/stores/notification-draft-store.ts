/**
 * The notification form's draft while the technician looks at a suggestion (a FAQ, an earlier solution) and comes
 * back, or signs in again after the session ended while the form was open (the login screen comes back to the
 * form): the form writes every change here and restores it when it opens again for the same target and user. In memory,
 * not sessionStorage, because the chosen files are File objects; a reload starts a fresh form (nothing was saved,
 * nothing is lost that the technician did not see on screen a moment ago).
 */
import { createStore } from 'zustand/vanilla';
import type { EditableNotification } from '../sync/notification-form-mirror';

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
  /** Whose it is: a draft parked when the session ended goes back only to the same user. */
  usernodeid: string;
  values: NotificationDraftValues;
  /**
   * The notification as the edit form was filled from it (null for a new one): a save sends what differs from it,
   * so a draft taken back after a sync brought another device's change still leaves that change alone.
   */
  filledFrom: EditableNotification | null;
  /** Set when the technician opened a suggestion: only then does the form, opened again, take the draft back. */
  parked: boolean;
}

interface DraftState {
  draft: NotificationDraft | null;
  keep(key: string, usernodeid: string, values: NotificationDraftValues, filledFrom?: EditableNotification | null): void;
  park(): void;
  clear(): void;
}

export const notificationDraftStore = createStore<DraftState>((set) => ({
  draft: null,
  keep: (key, usernodeid, values, filledFrom = null) => set({ draft: { key, usernodeid, values, filledFrom, parked: false } }),
  park: () => set((state) => ({ draft: state.draft ? { ...state.draft, parked: true } : null })),
  clear: () => set({ draft: null }),
}));

/**
 * The parked draft for this form, or null. Read once when the form opens; a draft left any other way (the
 * navigation, another screen) is not restored, so a later form does not start with yesterday's text.
 */
export function takeNotificationDraft(key: string, usernodeid: string): NotificationDraftValues | null {
  const { draft } = notificationDraftStore.getState();
  return draft && draft.parked && draft.key === key && draft.usernodeid === usernodeid ? draft.values : null;
}

/** The notification the parked draft's form was filled from (see `NotificationDraft.filledFrom`), or null. */
export function takeNotificationDraftBase(key: string, usernodeid: string): EditableNotification | null {
  const { draft } = notificationDraftStore.getState();
  return draft && draft.parked && draft.key === key && draft.usernodeid === usernodeid ? draft.filledFrom : null;
}
