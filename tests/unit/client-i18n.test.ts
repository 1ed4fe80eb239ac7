import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NAV_ITEMS } from '../../src/client/app/navigation';
import { ROUTE_TABLE } from '../../src/client/app/route-table';
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

/** Keys of one tree that the other lacks, nested keys written with dots. */
function missing(from: unknown, into: unknown): string[] {
  const present = new Set(keys(into));
  return keys(from).filter((key) => !present.has(key));
}

/** A text (leaf) or, for plurals, its i18next forms (`_one`, `_other`). */
function hasText(tree: unknown, key: string): boolean {
  const node = (suffix: string) => {
    let current: unknown = tree;
    for (const part of `${key}${suffix}`.split('.')) {
      if (typeof current !== 'object' || current === null || !(part in current)) return undefined;
      current = (current as Record<string, unknown>)[part];
    }
    return current;
  };
  return typeof node('') === 'string' || (typeof node('_one') === 'string' && typeof node('_other') === 'string');
}

/** A group of texts, for keys the code builds from a prefix (t(`machine.tabs.${key}`)). */
function hasGroup(tree: unknown, prefix: string): boolean {
  let current: unknown = tree;
  for (const part of prefix.split('.')) {
    if (typeof current !== 'object' || current === null || !(part in current)) return false;
    current = (current as Record<string, unknown>)[part];
  }
  return typeof current === 'object' && current !== null;
}

const CLIENT = new URL('../../src/client/', import.meta.url).pathname;

function clientSources(dir = CLIENT): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return clientSources(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The keys the code asks for: t('a.b') as keys, t(`a.${x}`) as the prefix `a` of a group. */
function keysUsedInCode(): { key: string; group: boolean; file: string }[] {
  return clientSources().flatMap((file) => {
    const source = readFileSync(file, 'utf8');
    const literal = [...source.matchAll(/\bt\(\s*(['"])([^'"]+)\1/g)].map((m) => ({ key: m[2]!, group: false, file }));
    // A key that starts with a placeholder (t(`${area}.errors.saveFailed`)) has no prefix to look up; the typed t()
    // (src/client/lib/i18n.ts) checks every key its type can take against de.json, and the first test en.json.
    const built = [...source.matchAll(/\bt\(\s*`([^`$]+)\$\{/g)].map((m) => ({ key: m[1]!.replace(/\.$/, ''), group: true, file }));
    return [...literal, ...built];
  });
}

describe('i18n resources', () => {
  it('English has exactly the German keys, nested keys too, in both directions', () => {
    expect(missing(de, en), 'in de.json but not in en.json').toEqual([]);
    expect(missing(en, de), 'in en.json but not in de.json').toEqual([]);
  });

  it('the key comparison finds a key missing on either side, also deep in a group', () => {
    const reference = { a: { b: 'x', c: { d: 'y' } }, e: 'z' };
    expect(missing(reference, { a: { b: 'x', c: {} }, e: 'z' })).toEqual(['a.c.d']);
    expect(missing({ a: { b: 'x' }, f: 'new' }, reference)).toEqual(['f']);
  });

  it('has every key the client code uses, in German and English', () => {
    const used = keysUsedInCode();
    expect(used.length, 'the scan finds the t() calls').toBeGreaterThan(300);
    const absent = used
      .filter(({ key, group }) => ![de, en].every((tree) => (group ? hasGroup(tree, key) : hasText(tree, key))))
      .map(({ key, group, file }) => `${group ? `${key}.*` : key} (${file.slice(CLIENT.length)})`);
    expect(absent).toEqual([]);
  });

  it('has the page title of every ready screen and the label of every navigation item', () => {
    for (const route of ROUTE_TABLE) {
      if ('titleKey' in route) for (const tree of [de, en]) expect(hasText(tree, `pages.${route.titleKey}`), `pages.${route.titleKey}`).toBe(true);
    }
    for (const item of NAV_ITEMS) for (const tree of [de, en]) expect(hasText(tree, `nav.${item.labelKey}`), `nav.${item.labelKey}`).toBe(true);
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
  it('counts in German words: "42 Maschinen", not the English plural "42 Equipments"', () => {
    for (const key of keys(de)) expect(String(leaf(de, key)), key).not.toMatch(/\}\} Equipments\b/);
  });

  it('writes German with ß, not the Swiss "ss" — but for the one text the specification spells so', () => {
    const swiss = /\b(schliess|Schliess|gross|Gross|grösse|Grösse|strasse|Strasse|heiss|Heiss|fuss|Fuss|mass\b|Mass\b)/;
    // The spec's text for the nameplate preview's close button (part 2 §2.2: "close button 'Schliessen'"), kept as written.
    const specText = new Set(['equipment.photo.close']);
    for (const key of keys(de)) if (!specText.has(key)) expect(String(leaf(de, key)), key).not.toMatch(swiss);
    expect(de.equipment.photo.close).toBe('Schliessen');
  });

  it('a button whose text starts with "+" has no plus icon in front of it ("⊕ + Medienanschluss")', () => {
    const plusBeforeText = /<Plus\b[^>]*\/>\s*\{t\('([^']+)'\)\}/g;
    const found = clientSources().flatMap((file) => [...readFileSync(file, 'utf8').matchAll(plusBeforeText)].map((match) => ({ file, key: match[1]! })));
    expect(found.length).toBeGreaterThan(0);
    for (const { file, key } of found) {
      expect(String(leaf(de, key)), `${file}: ${key}`).not.toMatch(/^\+/);
      expect(String(leaf(en, key)), `${file}: ${key}`).not.toMatch(/^\+/);
    }
  });

  it('the quick report is titled for every type it can file, not as a fault', () => {
    expect(de.notificationSlice.dialog.title).not.toMatch(/Störung/);
    expect(en.notificationSlice.dialog.title).not.toMatch(/fault/i);
    expect(de.sync.describe.createNotification).not.toMatch(/Störung/);
  });
});
