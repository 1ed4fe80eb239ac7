import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { BRAND_COLOR, CANVAS_COLOR } from './src/shared/brand.ts';


export default defineConfig({
  root: '.',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    // why 700: the shell chunk (React, Chakra UI, router, i18next) is ~690 kB minified / ~200 kB gzip and is
    // precached once by the service worker; screens are lazy chunks. Raise only with a reason.
    chunkSizeWarningLimit: 700,
  },
  server: {
    port: 5173,
    proxy: { '/api': { target: 'http://127.0.0.1:3000', changeOrigin: false } },
  },
  preview: { port: 4173, proxy: { '/api': { target: 'http://127.0.0.1:3000', changeOrigin: false } } },
  plugins: [
    react(),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'sw',
      filename: 'sw.ts',
      // why false: src/client/app/register-sw.ts registers through workbox-window, only in production builds,
      // so the (later) update prompt can hook into the `waiting` event.
      injectRegister: false,
      injectManifest: {
        // The web manifest is added by the plugin itself; icons come in through the glob (not twice).
        globPatterns: ['**/*.{js,css,html,png,svg,ico}'],
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
