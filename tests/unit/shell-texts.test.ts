import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import de from '../../src/client/i18n/de.json';
import deShell from 'virtual:texts/de-shell';
import deApp from 'virtual:texts/de-app';
import { SHELL_NAMESPACES } from '../../src/client/i18n/shell-namespaces';

const root = resolve(__dirname, '../..');

/** The modules a file imports statically (not `import type`, not `import()`), below src/client and src/shared. */
function staticImports(file: string): string[] {
  const source = readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const match of source.matchAll(/^import\s+(?!type\s)[^;]*?from\s+'(\.[^']+)'|^import\s+'(\.[^']+)'/gm)) {
    const spec = match[1] ?? match[2];
    if (!spec || spec.endsWith('.json')) continue;
    const base = join(dirname(file), spec);
    const candidates = [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')];
    const hit = candidates.find((candidate) => {
      try {
        return readFileSync(candidate) && /\.tsx?$/.test(candidate);
      } catch {
        return false;
      }
    });
    if (hit) found.push(hit);
  }
  return found;
}

/** Every module /login evaluates before the user signs in: the entry and the login screen, followed through static imports. */
function loginModules(): Set<string> {
  const seen = new Set<string>();
  const queue = ['src/client/app/main.tsx', 'src/client/features/auth/login-screen.tsx'].map((file) => join(root, file));
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    queue.push(...staticImports(file));
  }
  return seen;
}

/** The namespaces a module's texts come from: t('ns.…'), t(`ns.…`), titleKey: 'key' (pages.key). */
function namespacesUsed(file: string): string[] {
  const source = readFileSync(file, 'utf8');
  const used = [...source.matchAll(/\bt\(\s*['`]([A-Za-z]+)\./g)].map((match) => match[1]!);
  if (/titleKey/.test(source)) used.push('pages');
  return used;
}

describe('German texts of the first route (shell) and of the rest', () => {
  it('the shell and the rest are de.json, split by namespace, nothing lost or doubled', () => {
    expect(Object.keys(deShell).sort()).toEqual([...SHELL_NAMESPACES].sort());
    expect({ ...deShell, ...deApp }).toEqual(de);
    expect(Object.keys(deShell).filter((namespace) => namespace in deApp)).toEqual([]);
  });

  it('everything /login renders takes its texts from the shell namespaces', () => {
    const modules = loginModules();
    expect(modules.size).toBeGreaterThan(5);
    const outside = [...modules].flatMap((file) => namespacesUsed(file).filter((namespace) => !(SHELL_NAMESPACES as readonly string[]).includes(namespace)).map((namespace) => `${file.slice(root.length + 1)}: ${namespace}`));
    expect(outside).toEqual([]);
  });
});
