import { describe, expect, it } from 'vitest';
import { backTarget, readNavigationState, tabIndex, tabRequest } from '../../src/client/lib/machine-navigation';

describe('machine screen: tab from the query', () => {
  it.each<[string | null, unknown, ReturnType<typeof tabRequest>]>([
    ['0', undefined, { kind: 'tab', tab: '0' }],
    ['3', undefined, { kind: 'tab', tab: '3' }],
    ['5', undefined, { kind: 'tab', tab: '5' }],
    [null, undefined, { kind: 'tab', tab: '0' }],
    ['6', undefined, { kind: 'tab', tab: '0' }],
    ['abc', undefined, { kind: 'tab', tab: '0' }],
    ['-1', undefined, { kind: 'reload', then: '0' }],
    ['-1', { tab: 3 }, { kind: 'reload', then: '3' }],
    ['-1', { tab: '4' }, { kind: 'reload', then: '4' }],
    ['-1', { tab: 9 }, { kind: 'reload', then: '0' }],
    ['-1', { tab: -1 }, { kind: 'reload', then: '0' }],
  ])('tab=%s with state %o', (query, state, expected) => {
    expect(tabRequest(query, readNavigationState(state))).toEqual(expected);
  });

  it('reads only the tab indexes 0–5', () => {
    expect(tabIndex(2)).toBe('2');
    expect(tabIndex(' 1 ')).toBe('1');
    expect(tabIndex('1.0')).toBeNull();
    expect(tabIndex(null)).toBeNull();
  });
});

describe('machine screen: breadcrumb', () => {
  it.each<[unknown, string, string]>([
    [undefined, '/dashboard', 'machine.breadcrumb'],
    [{ from: 'area', nodeid: 'm1' }, '/dashboard', 'machine.breadcrumb'],
    [{ from: 'mb', typename: 'HX-200' }, '/types-machines', 'machine.nav.backToTypes'],
    [{ from: 'notification', notificationnodeid: 'n 1' }, '/notification-details?nodeid=n%201', 'machine.nav.backToNotification'],
    [{ from: 'notification' }, '/dashboard', 'machine.breadcrumb'],
    // Opened from a plant's page or the machines list (their machine lines): back there, not to the dashboard.
    [{ from: 'sites', sitenodeid: 's 1' }, '/sites?sitenodeid=s%201', 'machine.nav.backToPlant'],
    [{ from: 'sites' }, '/dashboard', 'machine.breadcrumb'],
    [{ from: 'machines' }, '/machines', 'machine.nav.backToMachines'],
    [{ from: 'elsewhere' }, '/dashboard', 'machine.breadcrumb'],
    ['not a state', '/dashboard', 'machine.breadcrumb'],
  ])('state %o leads to %s', (state, to, labelKey) => {
    expect(backTarget(readNavigationState(state))).toMatchObject({ to, labelKey });
  });

  it('hands the machine-builder list its filter back', () => {
    const state = readNavigationState({ from: 'mb', typename: 'HX-200', isFiltered: true, srno: 'S-77', c_yr: 2019, nodeid: 'm1' });
    expect(backTarget(state).state).toEqual({ typename: 'HX-200', isFiltered: true, srno: 'S-77', c_yr: 2019 });
  });

  it('drops fields of the wrong type', () => {
    expect(readNavigationState({ from: 'mb', isFiltered: 'yes', srno: 5, nodeid: 7 })).toEqual({ from: 'mb' });
  });
});
