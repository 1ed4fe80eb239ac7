/**
 * Build of the bare React comparison app (bench/bare-react): the app's Vite, React plugin and precompression, and a
 * Workbox precache service worker like the app's (generated here: precache of the build, index.html for every
 * navigation, clients claimed). Output to BARE_REACT_OUT (the benchmark's scratch directory) or ./dist.
 */
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { precompress } from '../../vite.config.ts';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  logLevel: 'warn',
  build: { outDir: process.env.BARE_REACT_OUT ?? fileURLToPath(new URL('./dist', import.meta.url)), emptyOutDir: true, sourcemap: false },
  plugins: [
    react(),
    precompress(),
    VitePWA({
      strategies: 'generateSW',
      injectRegister: false,
      manifest: false,
      workbox: {
        globPatterns: ['**/*.{js,css,html}'],
        globIgnores: ['**/*.br', '**/*.gz'],
        navigateFallback: 'index.html',
        clientsClaim: true,
      },
    }),
  ],
});
