import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { COMPILE_HINT, compileHints, startPathChunks } from '../../scripts/vite-compile-hints';

interface ChunkShape {
  name: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}

/**
 * A build's output as the writeBundle hook gets it: chunks by file name with their static and dynamic imports, and
 * one asset. why a stand-in: rolldown makes this object only inside a build (a minute); the rule reads nothing
 * but these fields.
 */
function bundleOf(chunks: Record<string, ChunkShape>) {
  const bundle: Record<string, unknown> = { 'assets/index.css': { type: 'asset', fileName: 'assets/index.css' } };
  for (const [fileName, chunk] of Object.entries(chunks)) {
    bundle[fileName] = { type: 'chunk', fileName, name: chunk.name, isEntry: chunk.isEntry ?? false, imports: chunk.imports ?? [], dynamicImports: chunk.dynamicImports ?? [], code: `/* ${chunk.name} */` };
  }
  return bundle as unknown as Parameters<typeof startPathChunks>[0];
}

const build = bundleOf({
  'assets/index.js': { name: 'index', isEntry: true, imports: ['assets/react.js', 'assets/icons.js'], dynamicImports: ['assets/login.js', 'assets/private-shared.js', 'assets/pdf.js'] },
  'assets/react.js': { name: 'react', imports: ['assets/runtime.js'] },
  'assets/runtime.js': { name: 'runtime' },
  'assets/icons.js': { name: 'icons', imports: ['assets/runtime.js'] },
  'assets/login.js': { name: 'login-screen', imports: ['assets/react.js'] },
  'assets/private-shared.js': { name: 'private-shared', imports: ['assets/zod.js', 'assets/react.js'], dynamicImports: ['assets/scanner.js'] },
  'assets/zod.js': { name: 'zod' },
  'assets/dashboard.js': { name: 'dashboard-screen', imports: ['assets/private-shared.js', 'assets/virtual.js'] },
  'assets/virtual.js': { name: 'virtual' },
  'assets/pdf.js': { name: 'pdf', imports: ['assets/jspdf.js'] },
  'assets/jspdf.js': { name: 'jspdf' },
  'assets/scanner.js': { name: 'scan-dialog' },
});

describe('compile hints for the start path', () => {
  let dir = '';
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('hints the entry, the shared chunk and what they import statically, not the lazy parts or the screens', () => {
    const hinted = startPathChunks(build, (chunk) => chunk.isEntry || chunk.name === 'private-shared');
    expect([...hinted].sort()).toEqual(['assets/icons.js', 'assets/index.js', 'assets/private-shared.js', 'assets/react.js', 'assets/runtime.js', 'assets/zod.js']);
  });

  it('puts the magic comment first in each written file, once, and leaves the others alone', async () => {
    dir = await mkdtemp(join(tmpdir(), 'compile-hints-'));
    await Promise.all(['index', 'react', 'runtime', 'icons', 'login', 'private-shared', 'zod', 'dashboard', 'virtual', 'pdf', 'jspdf', 'scanner'].map((name) => writeFile(join(dir, `${name}.js`), `export const ${name.replace('-', '_')} = 1;\n`)));
    await writeFile(join(dir, 'index.css'), 'body{}');
    const plugin = compileHints(['private-shared']);
    const hook = plugin.writeBundle as { handler(options: { dir: string }, bundle: unknown): Promise<void> };
    // The same build with its files written flat into `dir`.
    const flat = Object.fromEntries(Object.entries(build).map(([fileName, output]) => [fileName.replace('assets/', ''), { ...output, fileName: fileName.replace('assets/', ''), ...('imports' in output ? { imports: output.imports.map((file) => file.replace('assets/', '')), dynamicImports: output.dynamicImports.map((file) => file.replace('assets/', '')) } : {}) }]));
    await hook.handler({ dir }, flat);
    await hook.handler({ dir }, flat); // a second build step over the same files adds nothing
    const first = async (name: string) => (await readFile(join(dir, name), 'utf8')).split('\n')[0];
    for (const name of ['index.js', 'react.js', 'runtime.js', 'icons.js', 'private-shared.js', 'zod.js']) {
      expect(await first(name), name).toBe(COMPILE_HINT.trim());
      expect((await readFile(join(dir, name), 'utf8')).split(COMPILE_HINT).length, name).toBe(2);
    }
    for (const name of ['login.js', 'dashboard.js', 'virtual.js', 'pdf.js', 'jspdf.js', 'scanner.js']) expect(await first(name), name).toMatch(/^export const/);
    expect(await readFile(join(dir, 'index.css'), 'utf8')).toBe('body{}');
    expect(plugin.apply).toBe('build');
  });
});
