/**
 * `virtual:texts/de-shell` and `virtual:texts/de-app`: de.json split by its top-level namespaces into what the
 * entry carries (SHELL_NAMESPACES) and the rest, so de.json stays the one file of German texts
 * (src/client/i18n/shell-namespaces.ts says why). Used by vite.config.ts and the unit tests (vitest.config.ts).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { SHELL_NAMESPACES } from '../src/client/i18n/shell-namespaces.ts';

const DE_JSON = fileURLToPath(new URL('../src/client/i18n/de.json', import.meta.url));
const PARTS = { 'virtual:texts/de-shell': true, 'virtual:texts/de-app': false } as const;

export function textParts(): Plugin {
  return {
    name: 'anlagenbuch-text-parts',
    resolveId(id) {
      return id in PARTS ? `\0${id}` : undefined;
    },
    load(id) {
      if (!id.startsWith('\0virtual:texts/')) return undefined;
      const shell = PARTS[id.slice(1) as keyof typeof PARTS];
      this.addWatchFile(DE_JSON);
      const texts = JSON.parse(readFileSync(DE_JSON, 'utf8')) as Record<string, unknown>;
      const part = Object.fromEntries(Object.entries(texts).filter(([namespace]) => (SHELL_NAMESPACES as readonly string[]).includes(namespace) === shell));
      // why JSON.parse of a string: a JSON literal parses faster than the same object as JavaScript (V8's advice).
      return `export default JSON.parse(${JSON.stringify(JSON.stringify(part))});`;
    },
  };
}
