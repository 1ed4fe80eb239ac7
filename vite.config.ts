import react from '@vitejs/plugin-react';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { bootShell } from './scripts/vite-boot-shell.ts';
import { chakraConditionLookup } from './scripts/vite-chakra-conditions.ts';
import { chakraGlobalCss } from './scripts/vite-chakra-global-css.ts';
import { PRIVATE_SHARED_CHUNK, SCREENS_SHARED_CHUNK, sharedChunks } from './scripts/vite-chunks.ts';
import { compileHints } from './scripts/vite-compile-hints.ts';
import { textParts } from './scripts/vite-text-parts.ts';
import { BRAND_COLOR, CANVAS_COLOR } from './src/shared/brand.ts';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
const COMPRESSIBLE = /\.(js|css|html|svg|json|webmanifest|txt)$/;

/**
 * Writes `name.br` and `name.gz` next to every compressible file of the build (when it saves space, small
 * chunks included: the first route has a few dozen), so the server sends them with @fastify/static's `preCompressed` and compresses nothing per request
 * (docs/decisions.md). The service worker's precache glob matches none of them.
 */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'anlagenbuch-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir.startsWith('/') ? config.build.outDir : join(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        const walk = async (dir: string): Promise<string[]> =>
          (await Promise.all((await readdir(dir, { withFileTypes: true })).map((entry) => (entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)])))).flat();
        for (const file of await walk(outDir)) {
          if (!COMPRESSIBLE.test(file)) continue;
          const content = await readFile(file);
          const [br, gz] = await Promise.all([
            brotli(content, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: content.length } }),
            gzipAsync(content, { level: 9 }),
          ]);
          if (br.length < content.length) await writeFile(`${file}.br`, br);
          if (gz.length < content.length) await writeFile(`${file}.gz`, gz);
        }
      },
    },
  };
}

export default defineConfig({
  root: '.',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    // why 650: the largest chunk is private-shared (Chakra UI's styling system with the recipes in use, the app frame,
    // the sync runtime's and the dashboard's shared code, ~620 kB minified / ~180 kB gzip), which every signed-in start
    // needs at once; the entry is ~240 kB. Every other chunk is lazy, the largest the PDF sticker (~430 kB, on demand, with its two font chunks of ~125 kB each).
    // Raise only with a reason (docs/client.md § What loads when).
    chunkSizeWarningLimit: 650,
    rolldownOptions: {
      treeshake: { manualPureFunctions: ['defineConfig'] },
      output: {
        // why: zod-config.ts must run before any schema is built (see there); in zod's chunk it runs when zod loads.
        codeSplitting: {
          groups: [
            { name: 'zod', test: /node_modules[\\/]zod[\\/]|src[\\/]client[\\/]lib[\\/]zod-config\.ts$/, priority: 2 },
            // why: two chunks for what the signed-in screens share (the dashboard's part and the rest), instead of one
            // per combination (scripts/vite-chunks.ts).
            { name: sharedChunks(), debugName: 'shared', priority: 1, includeDependenciesRecursively: false },
            // why: ~40 icons of a few hundred bytes each were a chunk each; the login needs four of them, so all
            // icons in use go into one chunk the first route loads (tree-shaking still drops the unused ones).
            { name: 'icons', test: /node_modules[\\/]lucide-react[\\/]/, priority: 3 },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: { '/api': { target: 'http://127.0.0.1:3000', changeOrigin: false } },
  },
  preview: { port: 4173, proxy: { '/api': { target: 'http://127.0.0.1:3000', changeOrigin: false } } },
  resolve: {
    // why: react-router 7's package exports point every condition at its development build (extra checks and
    // warnings); the production build next to it is the same API. Aliased for `vite build` and the dev server alike.
    alias: [
      { find: /^react-router$/, replacement: fileURLToPath(new URL('./node_modules/react-router/dist/production/index.mjs', import.meta.url)) },
      { find: /^react-router\/dom$/, replacement: fileURLToPath(new URL('./node_modules/react-router/dist/production/dom-export.mjs', import.meta.url)) },
    ],
  },
  plugins: [
    react(),
    bootShell(),
    chakraConditionLookup(),
    chakraGlobalCss(),
    compileHints([PRIVATE_SHARED_CHUNK, SCREENS_SHARED_CHUNK]),
    textParts(),
    precompress(),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'sw',
      filename: 'sw.ts',
      // why false: src/client/app/register-sw.ts registers through workbox-window, only in production builds,
      // so the (later) update prompt can hook into the `waiting` event.
      injectRegister: false,
      injectManifest: {
        // why iife: the worker is registered as a classic script (register-sw.ts) and is one file anyway; the
        // plugin builds the 'es' format with rollup's deprecated inlineDynamicImports, which Vite 8 warns about.
        rollupFormat: 'iife',
        // The web manifest is added by the plugin itself; icons come in through the glob (not twice).
        // mjs: the PDF viewer's worker (pdfjs-dist, imported with ?url keeps its .mjs name) must open documents offline.
        globPatterns: ['**/*.{js,mjs,css,html,png,svg,ico}'],
        // why: the precompressed copies (precompress() above) are transfer encodings of the same files, not files.
        globIgnores: ['**/*.br', '**/*.gz'],
      },
      includeManifestIcons: false,
      manifest: {
        name: 'Anlagenbuch',
        short_name: 'Anlagenbuch',
        description: 'Instandhaltung für Industrieanlagen – offlinefähig für Tablets in der Halle.',
        lang: 'de',
        dir: 'ltr',
        start_url: '/dashboard',
        scope: '/',
        display: 'standalone',
        orientation: 'any',
        theme_color: BRAND_COLOR,
        background_color: CANVAS_COLOR,
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
    }),
  ],
});
