/**
 * Explicit compile hints for the chunks every start runs (vite.config.ts): V8's magic comment
 * `//# allFunctionsCalledOnLoad` as a chunk's first line makes Chromium (136 and later) compile all of the chunk's
 * functions eagerly, on the background thread that already streams and compiles the module, and keep them in the
 * code cache with the module — instead of compiling each function on the main thread the first time it is called.
 *
 * Why: a trace of an offline cold start to the dashboard (4× CPU) spent ~1.3 s of the main thread parsing and
 * compiling functions lazily — React DOM, Chakra UI, the router and the app frame, called one after another while
 * the first screen renders; the code cache Chromium keeps for a module holds only what was compiled when it was
 * made (docs/decisions.md "Compile hints for the start path").
 *
 * Which chunks: the entry and what it imports statically (every start, the login's included), and the signed-in
 * screens' shared chunks with what they import statically (every signed-in start loads `private-shared`, every
 * screen but the dashboard `screens-shared` too). Not the screens' own chunks nor
 * the lazy parts (the PDF writer and viewer, the scanner): eager compiling costs background CPU and memory for every
 * function, and there most functions run only when the user gets to them. Other browsers ignore the comment.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Plugin, Rolldown } from 'vite';

export const COMPILE_HINT = '//# allFunctionsCalledOnLoad\n';

type Bundle = Rolldown.OutputBundle;
type Chunk = Rolldown.OutputChunk;

/** The file names of the chunks that `roots` are or import statically, directly or through other chunks. */
export function startPathChunks(bundle: Bundle, isRoot: (chunk: Chunk) => boolean): Set<string> {
  const chunks = Object.values(bundle).filter((output): output is Chunk => output.type === 'chunk');
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const found = new Set<string>();
  const visit = (chunk: Chunk): void => {
    if (found.has(chunk.fileName)) return;
    found.add(chunk.fileName);
    for (const imported of chunk.imports) {
      const next = byFile.get(imported);
      if (next) visit(next);
    }
  };
  for (const chunk of chunks) if (isRoot(chunk)) visit(chunk);
  return found;
}

export function compileHints(sharedChunkNames: readonly string[]): Plugin {
  return {
    name: 'anlagenbuch-compile-hints',
    apply: 'build',
    // why on the written files: Vite puts its own first line (the preload map) into chunks in a step after every
    // plugin's generateBundle, and the hint must come first.
    writeBundle: {
      order: 'post',
      sequential: true,
      async handler(options, bundle) {
        const hinted = startPathChunks(bundle, (chunk) => chunk.isEntry || sharedChunkNames.includes(chunk.name));
        for (const fileName of hinted) {
          const file = join(options.dir ?? '', fileName);
          const code = await readFile(file, 'utf8');
          if (!code.startsWith(COMPILE_HINT)) await writeFile(file, COMPILE_HINT + code);
        }
      },
    },
  };
}
