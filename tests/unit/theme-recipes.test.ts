/**
 * The app's Chakra system carries only the recipes of the components the app uses (src/client/app/theme.ts).
 * Chakra renders a component whose recipe is missing without styles and without a warning, so this reads every
 * `@chakra-ui/react` import in src/client, finds the recipe keys those components ask for in Chakra's own source,
 * and checks that the system has each one that Chakra's full default theme has.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultSystem } from '@chakra-ui/react';
import { describe, expect, it } from 'vitest';
import { system } from '../../src/client/app/theme';
import { BRAND_COLOR } from '../../src/shared/brand';

const root = fileURLToPath(new URL('../..', import.meta.url));
const chakraEsm = join(root, 'node_modules', '@chakra-ui', 'react', 'dist', 'esm');

function filesUnder(dir: string, pattern: RegExp): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(path, pattern);
    return pattern.test(entry.name) ? [path] : [];
  });
}

/** Every value name the app imports from '@chakra-ui/react' (type-only imports left out). */
function importedChakraNames(): Set<string> {
  const names = new Set<string>();
  for (const file of filesUnder(join(root, 'src', 'client'), /\.tsx?$/)) {
    for (const match of readFileSync(file, 'utf8').matchAll(/import\s*\{([^}]*)\}\s*from\s*'@chakra-ui\/react'/g)) {
      for (const part of match[1]!.split(',')) {
        const name = part.trim().split(/\s+as\s+/)[0]!;
        if (name && !name.startsWith('type ')) names.add(name);
      }
    }
  }
  return names;
}

/** The component folder that exports `name` (a namespace like `Dialog` is found through `DialogRoot`). */
function componentFolder(name: string, chakraIndex: string): string | null {
  for (const match of chakraIndex.matchAll(/export \{([^}]*)\} from '(\.\/components\/[^']*)'/g)) {
    const exported = match[1]!.split(',').map((part) => part.trim().split(/\s+as\s+/).pop());
    if (exported.includes(name) || exported.includes(`${name}Root`)) return dirname(join(chakraEsm, match[2]!));
  }
  return null;
}

/**
 * The recipe keys the components in `folder` look up in the system, and those of the component folders they
 * render in turn (a checkbox renders the checkmark, a field's required mark is an icon).
 */
function recipeKeysOf(folder: string, seen = new Set<string>()): string[] {
  if (seen.has(folder)) return [];
  seen.add(folder);
  const source = filesUnder(folder, /\.js$/).map((file) => readFileSync(file, 'utf8')).join('\n');
  const own = [...source.matchAll(/(?:RecipeContext|use(?:Slot)?Recipe)\(\{\s*key:\s*"([^"]+)"/g)].map((match) => match[1]!);
  const rendered = [...source.matchAll(/from '\.\.\/([^./'][^/']*)\//g)].map((match) => join(dirname(folder), match[1]!));
  return [...own, ...rendered.flatMap((other) => recipeKeysOf(other, seen))];
}

function recipeKeysInUse(): Set<string> {
  const chakraIndex = readFileSync(join(chakraEsm, 'index.js'), 'utf8');
  const keys = new Set<string>();
  for (const name of importedChakraNames()) {
    const folder = componentFolder(name, chakraIndex);
    if (folder) for (const key of recipeKeysOf(folder)) keys.add(key);
  }
  return keys;
}

const hasRecipe = (sys: typeof system, key: string) => sys.isRecipe(key) || sys.isSlotRecipe(key);

describe('theme recipes', () => {
  const inUse = recipeKeysInUse();

  it('finds the recipes of the components the app imports', () => {
    // The scan itself must work, or the next test would pass on an empty set.
    expect([...inUse]).toEqual(expect.arrayContaining(['button', 'checkmark', 'dialog', 'field', 'icon', 'input', 'table']));
  });

  it('has every recipe Chakra defines for a component the app imports', () => {
    const missing = [...inUse].filter((key) => hasRecipe(defaultSystem, key) && !hasRecipe(system, key));
    expect(missing).toEqual([]);
  });

  it('leaves out the recipes of components the app does not use', () => {
    expect(hasRecipe(defaultSystem, 'colorPicker')).toBe(true);
    expect(hasRecipe(system, 'colorPicker')).toBe(false);
  });

  it('keeps the app theme on top of the trimmed preset', () => {
    expect(system.token('colors.brand.700')).toBe(BRAND_COLOR);
    expect(system.token('colors.gray.500')).toBe(defaultSystem.token('colors.gray.500'));
    expect(system.token('spacing.4')).toBe(defaultSystem.token('spacing.4'));
    expect(system.getRecipe('button').defaultVariants).toMatchObject({ size: 'lg' });
    expect(system.getRecipe('input').defaultVariants).toMatchObject({ size: 'lg' });
  });
});
