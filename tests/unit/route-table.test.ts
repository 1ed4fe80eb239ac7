import { describe, expect, it } from 'vitest';
import { safeReturnPath } from '../../src/client/app/guards';
import { visibleNavItems } from '../../src/client/app/navigation';
import { isRedirectRoute, isRouteReady, isScreenRoute, NOT_FOUND_PATH, ROUTE_TABLE } from '../../src/client/app/route-table';

/** Every path of spec part 2 §2.1, in react-router syntax. */
const SPEC_PATHS = [
  '/', '/signup', '/login', '/welcome', '/dashboard',
  '/initial-state', '/profile', '/users', '/messages', '/add-user', '/edit-user', '/machine-overview', '/export', '/super', '/admin', '/clients', '/create-client', '/2fa', '/mb-dashboard', '/mb-admin', '/types-machines', '/equipmenttype-overview', '/create-equipmenttype',
  '/machines',
  '/create-machine', '/edit-machine', '/create-equipment', '/create-machine-pool', '/edit-machine-pool', '/create-equipment-pool',
  '/create-site', '/create-area', '/sites', '/sites/:no_sites', '/edit-site', '/edit-pool',
  '/edit-notification', '/create-notification', '/notification-details', '/notifications-dashboard',
  '/create-workflow-step', '/edit-workflow-step', '/create-faq', '/edit-faq',
  '/create-maintenance-task', '/edit-maintenance-task',
  '/create-report', '/edit-report',
  '/maintenance-dashboard', '/new-calender',
  '/aufgabeplanung',
  '/create-brand', '/edit-brand', '/create-equipment-class', '/edit-equipment-class',
  '/OrderSubscription', '/HelpAndFeedbackPage',
  '/template-skeliton', '/set-password/:token', '/reset-password',
  NOT_FOUND_PATH,
];

describe('route table', () => {
  it('lists every path of the spec exactly once', () => {
    const paths = ROUTE_TABLE.map((r) => r.path);
    expect(new Set(paths).size).toBe(paths.length);
    expect([...paths].sort()).toEqual([...SPEC_PATHS].sort());
  });

  it('marks the built screens ready and the rest pending with their filed issue (or none yet)', () => {
    const ready = ROUTE_TABLE.filter((r) => r.status === 'ready').map((r) => r.path).sort();
    expect(ready).toEqual([
      '*', '/', '/create-area', '/create-brand', '/create-equipment', '/create-equipment-class', '/create-equipment-pool', '/create-faq', '/create-machine', '/create-machine-pool', '/create-notification', '/create-site', '/create-workflow-step', '/dashboard', '/edit-brand', '/edit-equipment-class', '/edit-faq', '/edit-machine', '/edit-machine-pool', '/edit-notification', '/edit-pool', '/edit-site', '/edit-workflow-step', '/equipmenttype-overview', '/export', '/login', '/machine-overview', '/machines', '/notification-details', '/notifications-dashboard', '/sites', '/sites/:no_sites', '/template-skeliton',
    ]);
    for (const route of ROUTE_TABLE) {
      if (route.status === 'pending') expect([12, 13, null], route.path).toContain(route.issue);
      else expect(isScreenRoute(route) || isRedirectRoute(route), route.path).toBe(true);
    }
  });

  it('keeps the spec access rules', () => {
    const access = (path: string) => ROUTE_TABLE.find((r) => r.path === path)?.access;
    expect(access('/')).toBe('none');
    expect(access('/login')).toBe('guest');
    expect(access('/signup')).toBe('guest');
    expect(access('/dashboard')).toBe('private');
    expect(access('/template-skeliton')).toBe('none');
    expect(access('/set-password/:token')).toBe('none');
    expect(ROUTE_TABLE.find((r) => r.path === '/')).toMatchObject({ redirectTo: '/login' });
  });

  it('shows only navigation entries whose screens exist', () => {
    expect(visibleNavItems(true).map((i) => i.path)).toEqual(['/dashboard', '/machines', '/sites', '/export', '/notifications-dashboard']);
    const allReady = () => true;
    expect(visibleNavItems(false, allReady).map((i) => i.path)).not.toContain('/users');
    expect(visibleNavItems(true, allReady).map((i) => i.path)).toContain('/users');
    expect(isRouteReady('/machines')).toBe(true);
    expect(isRouteReady('/create-machine')).toBe(true);
    expect(isRouteReady('/notifications-dashboard')).toBe(true);
    expect(isRouteReady('/maintenance-dashboard')).toBe(false);
  });
});

describe('safeReturnPath', () => {
  it.each([
    [{ from: '/machines?nodeid=1#x' }, '/machines?nodeid=1#x'],
    [{ from: '//evil.example/x' }, undefined],
    [{ from: '/\\evil.example' }, undefined],
    [{ from: 'https://evil.example' }, undefined],
    [{ from: '/login' }, undefined],
    [{ from: '/login?x=1' }, undefined],
    [{ from: 42 }, undefined],
    [null, undefined],
  ])('%j → %s', (state, expected) => {
    expect(safeReturnPath(state)).toBe(expected);
  });
});
