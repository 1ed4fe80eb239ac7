/**
 * The notifications dashboard's filters and sort, kept across visits (issue #13): in localStorage, so they survive
 * leaving the screen, a reload and an app restart on the tablet; per user, because a shared tablet's second user
 * follows other machines. What is read back is checked (zod): a stored value from an older app falls back to the
 * defaults instead of breaking the screen.
 */
import { z } from 'zod';
import { useStore } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { createStore } from 'zustand/vanilla';
import {
  DASHBOARD_SORT_KEYS,
  DEFAULT_DASHBOARD_FILTERS,
  DEFAULT_DASHBOARD_SORT,
  type DashboardFilters,
  type DashboardSort,
} from '../../shared/domain/notifications-dashboard';
import { NOTIFICATION_STATUSES } from '../../shared/domain/notification';

export const NOTIFICATIONS_DASHBOARD_STORAGE_KEY = 'anlagenbuch.notificationsDashboard';

export interface DashboardView {
  filters: DashboardFilters;
  sort: DashboardSort;
}

const viewSchema = z.object({
  filters: z.object({
    types: z.array(z.number().int()),
    statuses: z.array(z.literal(NOTIFICATION_STATUSES)).min(1),
    scope: z.object({ type: z.enum(['site', 'area', 'equipmentpool']), nodeid: z.string() }).nullable(),
    machine: z.string().nullable(),
    from: z.number().nullable(),
    to: z.number().nullable(),
    search: z.string(),
  }),
  sort: z.object({ key: z.enum(DASHBOARD_SORT_KEYS), direction: z.enum(['asc', 'desc']) }),
});

export const DEFAULT_DASHBOARD_VIEW: DashboardView = { filters: DEFAULT_DASHBOARD_FILTERS, sort: DEFAULT_DASHBOARD_SORT };

interface DashboardStoreState {
  views: Record<string, DashboardView>;
  setFilters: (usernodeid: string, change: Partial<DashboardFilters>) => void;
  setSort: (usernodeid: string, sort: DashboardSort) => void;
  reset: (usernodeid: string) => void;
}

/** The stored views, each checked; anything unreadable is dropped. */
export function readStoredViews(value: unknown): Record<string, DashboardView> {
  const views = (value as { views?: unknown } | null)?.views;
  if (!views || typeof views !== 'object') return {};
  return Object.fromEntries(
    Object.entries(views).flatMap(([user, view]) => {
      const parsed = viewSchema.safeParse(view);
      return parsed.success ? [[user, parsed.data as DashboardView]] : [];
    }),
  );
}

export function createNotificationsDashboardStore(storage: () => Storage = () => globalThis.localStorage) {
  return createStore<DashboardStoreState>()(
    persist(
      (set) => {
        const update = (usernodeid: string, change: (view: DashboardView) => DashboardView) =>
          set((state) => ({ views: { ...state.views, [usernodeid]: change(state.views[usernodeid] ?? DEFAULT_DASHBOARD_VIEW) } }));
        return {
          views: {},
          setFilters: (usernodeid, change) => update(usernodeid, (view) => ({ ...view, filters: { ...view.filters, ...change } })),
          setSort: (usernodeid, sort) => update(usernodeid, (view) => ({ ...view, sort })),
          // "Filter zurücksetzen": the filters only; the sort is a choice of its own and stays.
          reset: (usernodeid) => update(usernodeid, (view) => ({ ...view, filters: DEFAULT_DASHBOARD_FILTERS })),
        };
      },
      {
        name: NOTIFICATIONS_DASHBOARD_STORAGE_KEY,
        version: 1,
        storage: createJSONStorage(storage),
        partialize: (state) => ({ views: state.views }),
        merge: (persisted, current) => ({ ...current, views: readStoredViews(persisted) }),
      },
    ),
  );
}

let appStore: ReturnType<typeof createNotificationsDashboardStore> | null = null;

function dashboardStore() {
  appStore ??= createNotificationsDashboardStore();
  return appStore;
}

/** The user's view (filters and sort) and the actions that change it. */
export function useNotificationsDashboardView(usernodeid: string) {
  const store = dashboardStore();
  const view = useStore(store, (state) => state.views[usernodeid]) ?? DEFAULT_DASHBOARD_VIEW;
  const setFilters = useStore(store, (state) => state.setFilters);
  const setSort = useStore(store, (state) => state.setSort);
  const reset = useStore(store, (state) => state.reset);
  return {
    view,
    setFilters: (change: Partial<DashboardFilters>) => setFilters(usernodeid, change),
    setSort: (sort: DashboardSort) => setSort(usernodeid, sort),
    reset: () => reset(usernodeid),
  };
}
