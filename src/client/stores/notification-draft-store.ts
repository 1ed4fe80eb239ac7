/**
 * The notification form's draft while the technician looks at a suggestion (a FAQ, an earlier solution) and comes
 * back, or signs in again after the session ended while the form was open (the login screen comes back to the
 * form): the form writes every change here and restores it when it opens again for the same target and user. In memory,
 * because the chosen files are File objects; the text is also kept in the browser's storage (below), so a reload or a
 * killed tab takes it back too.
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

// ---------------------------------------------------------------- kept on the device

/**
 * What was typed into a notification form and not saved is also kept in the browser's storage, per user and form,
 * so a reload, a tab the tablet's browser killed in the background, or a tap on the menu does not throw it away:
 * the form opened again for the same target takes it back and says so. Text only — chosen photos are File objects,
 * which this storage cannot hold; while some are chosen, leaving the page asks first. Saved or cancelled, the draft
 * goes; one older than DRAFT_MAX_AGE_MS is not taken back.
 */
export interface StoredNotificationDraft {
  values: Omit<NotificationDraftValues, 'files'>;
  filledFrom: EditableNotification | null;
  /** When it was last written (epoch ms). */
  savedAt: number;
  /** How many chosen files the draft had (they are not kept). */
  files: number;
}

const DRAFT_STORAGE_PREFIX = 'anlagenbuch.notification-draft:';
export const DRAFT_MAX_AGE_MS = 7 * 24 * 3_600_000;

const storageKey = (key: string, usernodeid: string) => `${DRAFT_STORAGE_PREFIX}${usernodeid}:${key}`;

function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null; // storage switched off in the browser: drafts live in memory only
  }
}

export function storeNotificationDraft(key: string, usernodeid: string, values: NotificationDraftValues, filledFrom: EditableNotification | null, now = Date.now()): void {
  const { files, ...text } = values;
  const stored: StoredNotificationDraft = { values: text, filledFrom, savedAt: now, files: files.length };
  try {
    storage()?.setItem(storageKey(key, usernodeid), JSON.stringify(stored));
  } catch {
    // A full storage: the in-memory draft still covers a suggestion opened and closed.
  }
}

export function dropStoredNotificationDraft(key: string, usernodeid: string): void {
  storage()?.removeItem(storageKey(key, usernodeid));
}

const isText = (value: unknown): value is string => typeof value === 'string';

/** The kept draft of this form and user, or null (none, too old, or not one this version of the app wrote). */
export function readStoredNotificationDraft(key: string, usernodeid: string, now = Date.now()): StoredNotificationDraft | null {
  const text = storage()?.getItem(storageKey(key, usernodeid));
  if (!text) return null;
  try {
    const parsed = JSON.parse(text) as Partial<StoredNotificationDraft>;
    const values = parsed.values as Partial<NotificationDraftValues> | undefined;
    const fine =
      typeof parsed.savedAt === 'number' &&
      now - parsed.savedAt <= DRAFT_MAX_AGE_MS &&
      values !== undefined &&
      (values.type === null || typeof values.type === 'number') &&
      [values.title, values.description, values.errorcode, values.date, values.time, values.dueDate].every(isText) &&
      (values.equipmentnodeid === null || isText(values.equipmentnodeid));
    if (!fine) {
      dropStoredNotificationDraft(key, usernodeid);
      return null;
    }
    return { values: values as StoredNotificationDraft['values'], filledFrom: parsed.filledFrom ?? null, savedAt: parsed.savedAt!, files: typeof parsed.files === 'number' ? parsed.files : 0 };
  } catch {
    dropStoredNotificationDraft(key, usernodeid);
    return null;
  }
}
