import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { ChakraProvider } from '@chakra-ui/react';
import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { chakraGlobalCss, globalCssOf, patchGlobalAtStart } from '../../scripts/vite-chakra-global-css';
import { system } from '../../src/client/app/theme';

const esm = join(dirname(createRequire(import.meta.url).resolve('@chakra-ui/react')), '..', 'esm');
const SYSTEM_JS = join(esm, 'styled-system', 'system.js');
const published = readFileSync(SYSTEM_JS, 'utf8');

/** What Chakra's provider renders as global styles without a document: emotion's `<style>` tags, in order. */
function providerGlobalStyles(): string[] {
  const cache = createCache({ key: 'css' });
  const html = renderToString(createElement(CacheProvider, { value: cache }, createElement(ChakraProvider, { value: system, children: createElement('main') })));
  return [...html.matchAll(/<style data-emotion="css-global [^"]*"[^>]*>([\s\S]*?)<\/style>/g)].map((match) => match[1]!);
}

describe("the design system's global CSS from the build", () => {
  it("is the CSS Chakra's provider inserts for the app's system, in the provider's order", () => {
    const fromProvider = providerGlobalStyles();
    // The layers' order statement, then the reset, the global styles and the tokens in one.
    expect(fromProvider).toHaveLength(2);
    expect(globalCssOf(system)).toBe(`${fromProvider.join('\n')}\n`);
  });

  it('starts with the cascade layers in Chakra\'s order and holds the theme\'s reset, global styles and tokens', () => {
    const css = globalCssOf(system);
    expect(css.startsWith('@layer reset,base,tokens,recipes;\n')).toBe(true);
    expect(css).toContain('@layer reset{');
    expect(css).toContain('@layer base{');
    expect(css).toContain('@layer tokens{');
    // theme.ts: the brand colour as a token variable, and the body's canvas background from the global styles.
    expect(css).toMatch(/--chakra-colors-brand-600:#[0-9a-f]{6}/i);
    expect(css).toMatch(/body\{[^}]*background:var\(--chakra-colors-bg-canvas\)/);
  });

  it('every rule sits in a cascade layer, so no unlayered rule of it can outrank a component style', () => {
    const css = globalCssOf(system);
    let depth = 0;
    let top = '';
    for (const char of css) {
      if (char === '{') {
        if (depth === 0) expect(top.trim()).toMatch(/^@layer (reset|base|tokens)$/);
        depth += 1;
      } else if (char === '}') {
        depth -= 1;
        if (depth === 0) top = '';
      } else if (depth === 0) {
        top += char;
        if (char === ';') {
          expect(top.trim()).toBe('@layer reset,base,tokens,recipes;');
          top = '';
        }
      }
    }
    expect(depth).toBe(0);
  });
});

describe("Chakra's system module in the build", () => {
  it('builds no global style objects at start, and keeps the functions that build them', () => {
    const patched = patchGlobalAtStart(published);
    expect(patched).toContain('  const _global = [];');
    expect(patched).not.toContain('[getPreflightCss(), getGlobalCss(), getTokenCss()]');
    expect(patched).toMatch(/function getTokenCss\(\)/);
    expect(patched.length).toBe(published.length - '[getPreflightCss(), getGlobalCss(), getTokenCss()]'.length + '[]'.length);
  });

  it('fails the build when a Chakra update changed the line', () => {
    expect(() => patchGlobalAtStart(published.replace('getTokenCss()];', 'getTokenCss(), getMore()];'))).toThrow(/no longer builds its global CSS/);
    expect(() => patchGlobalAtStart(`${published}\n${published}`)).toThrow(/no longer builds its global CSS/);
  });

  it("changes only Chakra's system module, and only in the build", () => {
    const patch = chakraGlobalCss().find((plugin) => plugin.transform)!;
    expect(patch.apply).toBe('build');
    const transform = patch.transform as (code: string, id: string) => { code: string } | null;
    expect(transform.call({}, published, SYSTEM_JS.replace('system.js', 'css.js'))).toBeNull();
    expect(transform.call({}, published, SYSTEM_JS)?.code).toBe(patchGlobalAtStart(published));
  });
});
