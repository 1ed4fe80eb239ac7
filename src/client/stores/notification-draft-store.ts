/**
 * The notification form's draft while the technician looks at a suggestion (a FAQ, an earlier solution) and comes
 * back, or signs in again after the session ended while the form was open (the login screen comes back to the
 * form): the form writes every change here and restores it when it opens again for the same target and user. In memory,
 * because the chosen files are File objects; the text is also kept in the browser's storage (below), so a reload or a
 * killed tab takes it back too.
 */
import { createStore } from 'zustand/vanilla';
import type { EditableNotification } from '../sync/notification-form-mirror';
import { dropKeptDraft, hasTextFields, readKeptDraft, writeKeptDraft } from './kept-drafts';

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
 * What was typed into a notification form and not saved is also kept on the device (stores/kept-drafts.ts), per user
 * and form: the form opened again for the same target takes it back and says so. Chosen photos are File objects,
 * which that storage cannot hold; while some are chosen, leaving the page asks first. Saved or cancelled, it goes.
 */
export interface StoredNotificationDraft {
  values: Omit<NotificationDraftValues, 'files'>;
  filledFrom: EditableNotification | null;
  /** When it was last written (epoch ms). */
  savedAt: number;
  /** How many chosen files the draft had (they are not kept). */
  files: number;
}

const KIND = 'notification-draft';

export function storeNotificationDraft(key: string, usernodeid: string, values: NotificationDraftValues, filledFrom: EditableNotification | null, now = Date.now()): void {
  const { files, ...text } = values;
  writeKeptDraft(KIND, usernodeid, key, { values: text, filledFrom, files: files.length }, now);
}

export function dropStoredNotificationDraft(key: string, usernodeid: string): void {
  dropKeptDraft(KIND, usernodeid, key);
}

type KeptNotificationDraft = Omit<StoredNotificationDraft, 'savedAt'>;

function isKeptNotificationDraft(value: unknown): value is KeptNotificationDraft {
  const draft = value as Partial<KeptNotificationDraft> | null;
  const values = draft?.values as Partial<NotificationDraftValues> | undefined;
  return (
    typeof draft?.files === 'number' &&
    hasTextFields(values, ['title', 'description', 'errorcode', 'date', 'time', 'dueDate']) &&
    (values.type === null || typeof values.type === 'number') &&
    (values.equipmentnodeid === null || typeof values.equipmentnodeid === 'string')
  );
}

/** The kept draft of this form and user, or null (none, older than a week, or not one this app wrote). */
export function readStoredNotificationDraft(key: string, usernodeid: string, now = Date.now()): StoredNotificationDraft | null {
  const kept = readKeptDraft(KIND, usernodeid, key, isKeptNotificationDraft, now);
  return kept ? { ...kept.value, filledFrom: kept.value.filledFrom ?? null, savedAt: kept.savedAt } : null;
}
