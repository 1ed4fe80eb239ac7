/**
 * Where the user opened a notification's details from (part 1 §2.2: the back link leads there,
 * `notificationOriginPath`), carried through the forms opened from the details — /edit-notification and the
 * solution forms — and handed back when they return to the details (save, cancel, back link, delete). The details
 * screen also remembers it (stores/notification-details-store.ts), but only for the notification it showed last:
 * a suggestion opened from the edit form, or a tab that lost its session storage, forgot it, and the back link
 * turned into "Zu den Meldungen" after an edit. Pure, so the rules are unit-tested.
 */

/** The details screen's navigation state for its origin: `from` (overview, history, maintenance, aufgabe, …) and the machine. */
export interface NotificationOrigin {
  from: string;
  equipmentNodeId: string | null;
}

/** The key a form's navigation state carries the origin under. */
export const ORIGIN_STATE_KEY = 'notificationOrigin';

const str = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** The origin in the details screen's own navigation state (`from`, `equipmentNodeId`, §2.2), null without `from`. */
export function originOfState(state: unknown): NotificationOrigin | null {
  if (!state || typeof state !== 'object') return null;
  const record = state as Record<string, unknown>;
  const from = str(record.from);
  return from ? { from, equipmentNodeId: str(record.equipmentNodeId) } : null;
}

/** The origin a form was opened with (its navigation state's `notificationOrigin`), null when none or not one. */
export function carriedOrigin(state: unknown): NotificationOrigin | null {
  if (!state || typeof state !== 'object') return null;
  return originOfState((state as Record<string, unknown>)[ORIGIN_STATE_KEY]);
}

/** What a form's navigation state adds to carry `origin` (nothing without one). */
export function withOrigin<T extends object>(state: T, origin: NotificationOrigin | null | undefined): T & { notificationOrigin?: NotificationOrigin } {
  return origin ? { ...state, [ORIGIN_STATE_KEY]: { from: origin.from, equipmentNodeId: origin.equipmentNodeId } } : state;
}

/**
 * The navigation state the details screen is opened with on the way back from a form: the origin as the details
 * read it (`from`, `equipmentNodeId`); undefined without one (the details then use what they remembered).
 */
export function detailsStateOf(origin: NotificationOrigin | null | undefined): { from: string; equipmentNodeId: string | null } | undefined {
  return origin ? { from: origin.from, equipmentNodeId: origin.equipmentNodeId } : undefined;
}
