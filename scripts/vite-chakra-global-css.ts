/**
 * The design system's global CSS made at build time (vite.config.ts), instead of on every start.
 *
 * Chakra UI 3.37's `createSystem` builds three global style objects when the theme module runs — the reset
 * (preflight), the global styles with the keyframes, and every token as a CSS variable (~50,000 characters of CSS)
 * — and its provider hands them to emotion's `<Global>`, which serializes and compiles them (stylis) and inserts them
 * while the first signed-in screen commits. On a cold start at 4× CPU that was 92–162 ms building the objects and
 * 28–35 ms emotion's work, against ~6 ms for the browser to take the same CSS as a stylesheet (docs/decisions.md
 * "The design system's global CSS is built with the app").
 *
 * - `virtual:chakra-global.css` is that CSS, made from the app's own system (theme.ts) with emotion's own
 *   serializer, the way emotion renders `<Global>` on a server, and starting with the cascade layers' order
 *   (`@layer reset, base, tokens, recipes;`). The design-system frame imports it (design-system.tsx), so the
 *   build makes it a stylesheet of the frame's chunk that is loaded before the chunk runs and cached by the
 *   service worker like every file of the build.
 * - In the build, `createSystem` no longer builds the three objects at start (`_global` is empty, so the provider's
 *   `<Global>` inserts nothing of them); `getTokenCss` and friends stay callable. The provider still inserts the
 *   layers' order statement at runtime (a few bytes), which changes nothing after the stylesheet's.
 *
 * The build fails when the line to change is not found (a Chakra update changed it; vite-patch-module.ts): then
 * check the update and adapt the pattern. The dev server and the unit tests run Chakra as published, where the
 * provider inserts the same CSS once more (tests/unit/vite-chakra-global-css.test.ts compares the two).
 */
import { fileURLToPath } from 'node:url';
import createCache from '@emotion/cache';
import { serializeStyles, type Interpolation } from '@emotion/serialize';
import type { SystemContext } from '@chakra-ui/react';
import { runnerImport, type Plugin } from 'vite';
import { patchModule, replaceOnce } from './vite-patch-module.ts';

const VIRTUAL_ID = 'virtual:chakra-global.css';
const RESOLVED_ID = `\0${VIRTUAL_ID}`;
const THEME = fileURLToPath(new URL('../src/client/app/theme.ts', import.meta.url));
const SYSTEM_MODULE = /[\\/]@chakra-ui[\\/]react[\\/]dist[\\/]esm[\\/]styled-system[\\/]system\.js$/;
const GLOBAL_AT_START = '  const _global = [getPreflightCss(), getGlobalCss(), getTokenCss()];';
const GLOBAL_FROM_BUILD = '  const _global = [];';

/**
 * The CSS Chakra's provider inserts with its two `<Global>`s — the cascade layers' order, then `system._global` —
 * serialized and compiled by emotion as `<Global>` does without a document (@emotion/cache's server build returns
 * the rules instead of inserting them).
 */
export function globalCssOf(system: SystemContext): string {
  const cache = createCache({ key: 'css' });
  const rulesOf = (styles: Interpolation<unknown>) => {
    const rules: unknown = cache.insert('', serializeStyles([styles], cache.registered), cache.sheet, false);
    if (typeof rules !== 'string' || rules.length === 0) throw new Error("emotion returned no rules for the design system's global CSS (scripts/vite-chakra-global-css.ts)");
    return rules;
  };
  return `${rulesOf(system.layers.atRule)}\n${rulesOf(system._global)}\n`;
}

/** system.js's source without the global styles built at start; throws when the line is not there exactly once. */
export function patchGlobalAtStart(source: string): string {
  return replaceOnce(source, GLOBAL_AT_START, GLOBAL_FROM_BUILD, "Chakra's system module no longer builds its global CSS the way this build expects (scripts/vite-chakra-global-css.ts): check the update, then adapt the plugin");
}

export function chakraGlobalCss(): Plugin[] {
  return [
    {
      name: 'anlagenbuch-chakra-global-css',
      resolveId(id) {
        return id === VIRTUAL_ID ? RESOLVED_ID : undefined;
      },
      async load(id) {
        if (id !== RESOLVED_ID) return undefined;
        this.addWatchFile(THEME);
        // The theme as the app has it, run in Node by Vite's module runner (Chakra itself loads as published).
        const { module } = await runnerImport<{ system: SystemContext }>(THEME, { configFile: false, logLevel: 'warn' });
        return globalCssOf(module.system);
      },
    },
    patchModule({
      name: 'anlagenbuch-chakra-global-at-start',
      module: SYSTEM_MODULE,
      patch: patchGlobalAtStart,
      library: '@chakra-ui',
      notPassed: "Chakra's system module was bundled without passing this plugin (scripts/vite-chakra-global-css.ts): its path changed",
    }),
  ];
}
