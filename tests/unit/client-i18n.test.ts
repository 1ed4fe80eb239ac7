import { describe, expect, it } from 'vitest';
import de from '../../src/client/i18n/de.json';
import en from '../../src/client/i18n/en.json';
import { MUTATIONS } from '../../src/shared/mutations/registry';

function keys(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, child]) => keys(child, prefix ? `${prefix}.${key}` : key));
}

function leaf(tree: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], tree);
}

describe('i18n resources', () => {
  it('English has exactly the German keys', () => {
    expect(keys(en).sort()).toEqual(keys(de).sort());
  });

  it('has no empty texts', () => {
    for (const [name, tree] of [['de', de], ['en', en]] as const) {
      for (const key of keys(tree)) expect(leaf(tree, key), `${name}: ${key}`).not.toBe('');
    }
  });

  it('has the sync panel’s text for every declared action, by name and alias (sync.describe.<action>)', () => {
    const actions = MUTATIONS.flatMap((definition) => [definition.name, ...(definition.aliases ?? [])]);
    expect(actions.length).toBeGreaterThan(0);
    for (const action of actions) {
      expect(typeof leaf(de, `sync.describe.${action}`), `de: ${action}`).toBe('string');
      expect(typeof leaf(en, `sync.describe.${action}`), `en: ${action}`).toBe('string');
    }
  });

  it('has the sync panel’s text for every action a device may have queued', () => {
    // Queued outbox entries carry these names for good (they are never renamed), declared or not on this build.
    const queued = [
      'createNotification', 'updateNotification', 'updateNotificationStatus', 'deleteNotification', 'addCounterReading', 'updateCounter', 'uploadFile', 'attachFile',
      'createSite', 'updateSite', 'deleteSite', 'createArea', 'updateArea', 'deleteArea', 'createPool', 'updatePool', 'deletePool', 'assignEquipment', 'createShifts', 'updateShifts',
      'createEquipment', 'updateEquipment', 'deleteEquipment', 'createManufacturer', 'createBrand', 'updateBrand', 'createEquipmentType', 'createEquipmentClass', 'updateEquipmentClass',
      'followStructure', 'unfollowStructure', 'updateEquipmentMemo',
    ];
    for (const action of queued) {
      expect(typeof leaf(de, `sync.describe.${action}`), `de: ${action}`).toBe('string');
      expect(typeof leaf(en, `sync.describe.${action}`), `en: ${action}`).toBe('string');
    }
  });

  it('uses the same interpolation variables in both languages', () => {
    const vars = (text: unknown) => [...String(text).matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
    for (const key of keys(de)) expect(vars(leaf(en, key)), key).toEqual(vars(leaf(de, key)));
  });

  it('keeps the spec texts (part 2 §5, §8)', () => {
    expect(de.login.errors.invalidCredentials).toBe('E-Mail und Passwort stimmen nicht überein.');
    expect(de.login.errors.accessDenied).toBe('Access Denied'); // spec part 2 §4, §8: the 403 login text, kept verbatim
    expect(en.login.errors.invalidCredentials).toBe('Invalid Credentials');
    expect(en.login.errors.accessDenied).toBe('Access Denied');
    expect(de.notFound.title).toBe('Page not found 404');
    expect(de.dashboard.onboarding.new).toBe('NEU');
    expect(de.pages.dashboard).toBe('Dashboard');
  });
});
