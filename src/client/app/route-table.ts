/**
 * The spec's full route table (part 2 §2.1) as data. Every path is listed with its access rule; a route is
 * either `ready` (its screen exists and is registered in the router) or `pending` with the issue that builds it.
 * Pending paths are NOT registered, so they fall through to the 404 until their issue lands.
 * Exported for the router (src/client/app/router.tsx), the navigation and e2e tests that iterate it.
 * Path parameters use react-router syntax (`/sites/:no_sites` for the spec's `/sites/{no_sites}`).
 * Keep this file free of runtime imports (only lazy `import()`), so Node tests can import it cheaply.
 */
import type { ComponentType } from 'react';
import type { PageTitleKey } from '../lib/i18n';

/** guest: only logged-out users; private: only logged-in users; none: anyone. */
export type RouteAccess = 'guest' | 'private' | 'none';

export type ScreenModule = { default: ComponentType };

interface RouteBase {
  path: string;
  access: RouteAccess;
  /** What the spec says the route is for. */
  purpose: string;
}

export interface ReadyScreenRoute extends RouteBase {
  status: 'ready';
  /** Lazy screen: each screen is its own chunk. */
  load: () => Promise<ScreenModule>;
  /** Key under `pages.` in the i18n files, shown in the app bar and the document title. */
  titleKey: PageTitleKey;
}

export interface ReadyRedirectRoute extends RouteBase {
  status: 'ready';
  redirectTo: string;
}

export interface PendingRoute extends RouteBase {
  status: 'pending';
  /** The filed issue that builds the screen, or null while none is filed (ISSUES). */
  issue: number | null;
}

export type RouteEntry = ReadyScreenRoute | ReadyRedirectRoute | PendingRoute;

/**
 * The filed issues that build pending screens (see docs/client.md). #12 (the machine screen's tabs with the FAQ form
 * and the equipment type's FAQ tab) and #13 (notifications end to end) have landed: their routes are ready.
 * `null`: no issue is filed yet for the screen (maintenance tasks and reports, chat, users and subscriptions,
 * planning board, admin and machine builder) — every route still pending.
 */
export const ISSUES = {
  machineDetail: 12,
  notifications: 13,
  notFiled: null,
} as const;

const pending = (path: string, access: RouteAccess, purpose: string, issue: number | null): PendingRoute => ({ path, access, purpose, status: 'pending', issue });
const { notFiled } = ISSUES;

const structureScreen = (path: string, purpose: string, titleKey: PageTitleKey, load: () => Promise<ScreenModule>): ReadyScreenRoute => ({ path, access: 'private', purpose, status: 'ready', titleKey, load });
const sitesScreen = () => import('../features/structure/sites-screen').then((m) => ({ default: m.SitesScreen }));
const siteForm = () => import('../features/structure/site-form-screen').then((m) => ({ default: m.SiteFormScreen }));
const poolForm = () => import('../features/structure/pool-form-screen').then((m) => ({ default: m.PoolFormScreen }));
const faqForm = () => import('../features/faq/faq-form-screen').then((m) => ({ default: m.FaqFormScreen }));
const solutionForm = () => import('../features/solution/solution-form-screen').then((m) => ({ default: m.SolutionFormScreen }));
const notificationForm = () => import('../features/notification-form/notification-form-screen').then((m) => ({ default: m.NotificationFormScreen }));
const equipmentForm = () => import('../features/equipment/equipment-form-screen').then((m) => ({ default: m.EquipmentFormScreen }));

export const NOT_FOUND_PATH = '*';

export const ROUTE_TABLE: readonly RouteEntry[] = [
  { path: '/', access: 'none', purpose: 'redirects to /login', status: 'ready', redirectTo: '/login' },
  pending('/signup', 'guest', 'trial sign-up', notFiled),
  {
    path: '/login',
    access: 'guest',
    purpose: 'login',
    status: 'ready',
    titleKey: 'login',
    load: () => import('../features/auth/login-screen').then((m) => ({ default: m.LoginScreen })),
  },
  pending('/welcome', 'guest', 'welcome', notFiled),
  {
    path: '/dashboard',
    access: 'private',
    purpose: 'title Dashboard plus dashboard view',
    status: 'ready',
    titleKey: 'dashboard',
    load: () => import('../features/dashboard/dashboard-screen').then((m) => ({ default: m.DashboardScreen })),
  },

  pending('/initial-state', 'private', 'initial state', notFiled),
  pending('/profile', 'private', 'profile and security', notFiled),
  pending('/users', 'private', 'users and subscription summary', notFiled),
  pending('/messages', 'private', 'chat messages', notFiled),
  pending('/add-user', 'private', 'add or edit a user', notFiled),
  pending('/edit-user', 'private', 'edit a user', notFiled),
  {
    path: '/machine-overview',
    access: 'private',
    purpose: 'machine detail',
    status: 'ready',
    titleKey: 'machineOverview',
    load: () => import('../features/machine/machine-overview-screen').then((m) => ({ default: m.MachineOverviewScreen })),
  },
  {
    path: '/export',
    access: 'private',
    purpose: 'export',
    status: 'ready',
    titleKey: 'export',
    load: () => import('../features/equipment/export-screen').then((m) => ({ default: m.ExportScreen })),
  },
  pending('/super', 'private', 'super user', notFiled),
  pending('/admin', 'private', 'admin', notFiled),
  pending('/clients', 'private', 'clients', notFiled),
  pending('/create-client', 'private', 'create client', notFiled),
  pending('/2fa', 'private', 'two-factor authentication', notFiled),
  pending('/mb-dashboard', 'private', 'machine builder dashboard', notFiled),
  pending('/mb-admin', 'private', 'machine builder admin', notFiled),
  pending('/types-machines', 'private', 'equipment types', notFiled),
  {
    path: '/equipmenttype-overview',
    access: 'private',
    purpose: 'equipment type overview',
    status: 'ready',
    titleKey: 'equipmentTypeOverview',
    load: () => import('../features/equipment-type/equipment-type-overview-screen').then((m) => ({ default: m.EquipmentTypeOverviewScreen })),
  },
  pending('/create-equipmenttype', 'private', 'create equipment type', notFiled),

  structureScreen('/machines', 'equipment: pools and their equipment', 'machines', () => import('../features/structure/machines-screen').then((m) => ({ default: m.MachinesScreen }))),
  structureScreen('/create-machine', 'equipment form', 'createEquipment', equipmentForm),
  structureScreen('/edit-machine', 'equipment form', 'editEquipment', equipmentForm),
  structureScreen('/create-equipment', 'equipment form', 'createEquipment', equipmentForm),
  structureScreen('/create-machine-pool', 'pool form', 'pool', poolForm),
  structureScreen('/edit-machine-pool', 'pool form', 'pool', poolForm),
  structureScreen('/create-equipment-pool', 'pool form', 'pool', poolForm),

  structureScreen('/create-site', 'site form', 'createSite', siteForm),
  structureScreen('/create-area', 'area form', 'area', () => import('../features/structure/area-form-screen').then((m) => ({ default: m.AreaFormScreen }))),
  structureScreen('/sites', 'sites and areas', 'sites', sitesScreen),
  structureScreen('/sites/:no_sites', 'sites and areas', 'sites', sitesScreen),
  structureScreen('/edit-site', 'site form', 'editSite', siteForm),
  structureScreen('/edit-pool', 'pool form', 'pool', poolForm),

  { path: '/edit-notification', access: 'private', purpose: 'notification form', status: 'ready', titleKey: 'editNotification', load: notificationForm },
  { path: '/create-notification', access: 'private', purpose: 'notification form', status: 'ready', titleKey: 'createNotification', load: notificationForm },
  {
    path: '/notification-details',
    access: 'private',
    purpose: 'notification detail',
    status: 'ready',
    titleKey: 'notificationDetails',
    load: () => import('../features/notification/notification-details-screen').then((m) => ({ default: m.NotificationDetailsScreen })),
  },
  {
    path: '/notifications-dashboard',
    access: 'private',
    purpose: 'open notifications',
    status: 'ready',
    titleKey: 'notificationsDashboard',
    load: () => import('../features/notifications-dashboard/notifications-dashboard-screen').then((m) => ({ default: m.NotificationsDashboardScreen })),
  },

  { path: '/create-workflow-step', access: 'private', purpose: 'solution form', status: 'ready', titleKey: 'solutionForm', load: solutionForm },
  { path: '/edit-workflow-step', access: 'private', purpose: 'solution form', status: 'ready', titleKey: 'solutionForm', load: solutionForm },
  { path: '/create-faq', access: 'private', purpose: 'FAQ form', status: 'ready', titleKey: 'faqForm', load: faqForm },
  { path: '/edit-faq', access: 'private', purpose: 'FAQ form', status: 'ready', titleKey: 'faqForm', load: faqForm },

  pending('/create-maintenance-task', 'private', 'maintenance task form', notFiled),
  pending('/edit-maintenance-task', 'private', 'maintenance task form', notFiled),
  pending('/create-report', 'private', 'maintenance report form', notFiled),
  pending('/edit-report', 'private', 'maintenance report form', notFiled),
  pending('/maintenance-dashboard', 'private', 'planned maintenance', notFiled),
  pending('/new-calender', 'private', 'planned maintenance calendar', notFiled),

  pending('/aufgabeplanung', 'private', 'task planning board', notFiled),

  {
    path: '/create-brand',
    access: 'private',
    purpose: 'brand form',
    status: 'ready',
    titleKey: 'createBrand',
    load: () => import('../features/equipment/brand-form-screen').then((m) => ({ default: m.BrandFormScreen })),
  },
  {
    path: '/edit-brand',
    access: 'private',
    purpose: 'brand form',
    status: 'ready',
    titleKey: 'editBrand',
    load: () => import('../features/equipment/brand-form-screen').then((m) => ({ default: m.BrandFormScreen })),
  },
  {
    path: '/create-equipment-class',
    access: 'private',
    purpose: 'equipment class form',
    status: 'ready',
    titleKey: 'createEquipmentClass',
    load: () => import('../features/equipment/equipment-class-form-screen').then((m) => ({ default: m.EquipmentClassFormScreen })),
  },
  {
    path: '/edit-equipment-class',
    access: 'private',
    purpose: 'equipment class form',
    status: 'ready',
    titleKey: 'editEquipmentClass',
    load: () => import('../features/equipment/equipment-class-form-screen').then((m) => ({ default: m.EquipmentClassFormScreen })),
  },

  pending('/OrderSubscription', 'private', 'three-step order wizard', notFiled),
  pending('/HelpAndFeedbackPage', 'private', 'help and feedback', notFiled),

  {
    path: '/template-skeliton',
    access: 'none',
    purpose: 'loading skeleton',
    status: 'ready',
    titleKey: 'skeleton',
    load: () => import('../features/skeleton/skeleton-screen').then((m) => ({ default: m.SkeletonScreen })),
  },
  pending('/set-password/:token', 'none', 'password set', notFiled),
  pending('/reset-password', 'none', 'password reset', notFiled),

  {
    path: NOT_FOUND_PATH,
    access: 'none',
    purpose: "any other path: 'Page not found 404' with a link to the dashboard",
    status: 'ready',
    titleKey: 'notFound',
    load: () => import('../features/not-found/not-found-screen').then((m) => ({ default: m.NotFoundScreen })),
  },
];

export function isScreenRoute(entry: RouteEntry): entry is ReadyScreenRoute {
  return entry.status === 'ready' && 'load' in entry;
}

export function isRedirectRoute(entry: RouteEntry): entry is ReadyRedirectRoute {
  return entry.status === 'ready' && 'redirectTo' in entry;
}

/** True when the path's screen is registered (navigation shows only these). */
export function isRouteReady(path: string): boolean {
  return ROUTE_TABLE.some((entry) => entry.path === path && entry.status === 'ready');
}
