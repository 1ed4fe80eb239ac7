import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { defaultBaseConfig } from '@chakra-ui/react';
import { describe, expect, it } from 'vitest';
import { chakraConditionLookup, patchConditionLookup } from '../../scripts/vite-chakra-conditions';
import { system } from '../../src/client/app/theme';

const esm = join(dirname(createRequire(import.meta.url).resolve('@chakra-ui/react')), '..', 'esm');
const CONDITIONS_JS = join(esm, 'styled-system', 'conditions.js');
const published = readFileSync(CONDITIONS_JS, 'utf8');

interface Conditions {
  keys(): string[];
  has(key: string): boolean;
  sort(paths: string[]): string[];
}
type CreateConditions = (options: { breakpoints: unknown; conditions?: Record<string, string> }) => Conditions;

/**
 * The module's `createConditions` from its source, the published and the patched one alike: the two imports are
 * passed in as the module's own (the same functions for both), the export becomes the return value.
 */
async function loadCreateConditions(source: string): Promise<CreateConditions> {
  const { mapEntries } = (await import(join(esm, 'utils', 'entries.js'))) as { mapEntries: unknown };
  const { memo } = (await import(join(esm, 'utils', 'memo.js'))) as { memo: unknown };
  const body = source
    .replace(/^"use strict";/m, '')
    .replace(/^import .*;$/gm, '')
    .replace(/^export \{ createConditions \};$/m, 'return createConditions;');
  expect(body).not.toMatch(/^\s*(import|export) /m);
  // The installed library's own module text, evaluated the same way in both versions.
  return new Function('mapEntries', 'memo', body)(mapEntries, memo) as CreateConditions;
}

async function conditionsOf(source: string): Promise<Conditions> {
  const { createBreakpoints } = (await import(join(esm, 'styled-system', 'breakpoints.js'))) as { createBreakpoints(breakpoints: Record<string, string>): unknown };
  const createConditions = await loadCreateConditions(source);
  // The app's configuration: Chakra's base conditions and the spec's breakpoints (theme.ts).
  return createConditions({ breakpoints: createBreakpoints(system._config.theme?.breakpoints ?? {}), conditions: defaultBaseConfig.conditions });
}

describe('the build-time fix of Chakra UI’s condition lookup', () => {
  it('gives the same answers as the published module for every condition, breakpoint and other key', async () => {
    const before = await conditionsOf(published);
    const after = await conditionsOf(patchConditionLookup(published));
    const keys = before.keys();
    expect(keys.length).toBeGreaterThan(50);
    expect(after.keys()).toEqual(keys);
    const probes = [
      ...keys,
      ...keys.map((key) => key.replace(/^_/, '')),
      ...Object.keys(system.tokens.categoryMap.get('colors') ?? new Map()).slice(0, 20),
      ...['base', 'sm', 'md', 'lg', 'xl', '2xl', 'smDown', 'mdToLg', 'lgOnly', 'color', 'bg', 'padding', 'colorPalette', '@media (min-width: 1px)', '& > p', 'div &', '_anything', '', 'hover', 'dark'],
    ];
    for (const probe of probes) expect({ probe, has: after.has(probe) }).toEqual({ probe, has: before.has(probe) });
    expect(probes.filter((probe) => after.has(probe)).length).toBeGreaterThan(keys.length);
    expect(probes.filter((probe) => !after.has(probe)).length).toBeGreaterThan(5);
    const paths = ['md', 'color', '_hover', 'base', 'sm', '_dark', 'bg', 'lgDown', '&:focus', 'padding'];
    expect(after.sort([...paths])).toEqual(before.sort([...paths]));
  });

  it('replaces the array lookup with the Set made once', () => {
    const patched = patchConditionLookup(published);
    expect(published).toContain('keys().includes(key)');
    expect(patched).not.toContain('keys().includes(key)');
    expect(patched).toContain('new Set(Object.keys(values))');
  });

  it('fails loudly when the module no longer has the line (a Chakra update)', () => {
    expect(() => patchConditionLookup(published.replace('keys().includes(key)', 'lookup(key)'))).toThrow(/no longer has the lookup/);
  });

  it('changes only Chakra’s conditions module, and only in the build', () => {
    const plugin = chakraConditionLookup();
    expect(plugin.apply).toBe('build');
    const transform = plugin.transform as (code: string, id: string) => { code: string } | null;
    expect(transform.call({}, published, '/repo/node_modules/@chakra-ui/react/dist/esm/styled-system/other.js')).toBeNull();
    expect(transform.call({}, published, CONDITIONS_JS)?.code).toBe(patchConditionLookup(published));
  });
});
