#!/usr/bin/env node
// Renders the app icons in public/icons/ from the SVG drawing below with the system Chromium
// (`node scripts/generate-icons.mjs`). The PNGs are committed; run this only when the drawing changes.
// The same drawing is the React component src/client/components/app-logo.tsx.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'public', 'icons');
mkdirSync(out, { recursive: true });

const BRAND = '#1a3d70';
const cogTeeth = [0, 45, 90, 135, 180, 225, 270, 315]
  .map((a) => `<rect x="33.5" y="20" width="5" height="6" rx="1" transform="rotate(${a} 36 32)"/>`)
  .join('');
const mark = `<rect x="15" y="11" width="34" height="42" rx="4" fill="#ffffff"/>
  <rect x="15" y="11" width="7" height="42" rx="3" fill="#aac3e4"/>
  <g fill="${BRAND}">${cogTeeth}<circle cx="36" cy="32" r="8.5"/></g>
  <circle cx="36" cy="32" r="3.5" fill="#ffffff"/>`;

/** Rounded tile: the regular icon and favicon. */
const iconSvg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="${BRAND}"/>${mark}</svg>`;
/** Full-bleed square with the mark scaled into the maskable safe zone (inner 80 % circle). */
const maskableSvg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" fill="${BRAND}"/><g transform="translate(32 32) scale(0.68) translate(-32 -32)">${mark}</g></svg>`;
/** Apple touch icons get square corners (iOS rounds them itself) and no transparency. */
const appleSvg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" fill="${BRAND}"/><g transform="translate(32 32) scale(0.85) translate(-32 -32)">${mark}</g></svg>`;

writeFileSync(join(out, 'icon.svg'), `${iconSvg}\n`);

const targets = [
  { file: 'icon-192.png', svg: iconSvg, size: 192 },
  { file: 'icon-512.png', svg: iconSvg, size: 512 },
  { file: 'icon-maskable-512.png', svg: maskableSvg, size: 512 },
  { file: 'apple-touch-icon-180.png', svg: appleSvg, size: 180 },
  { file: 'favicon-32.png', svg: iconSvg, size: 32 },
];

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
try {
  const page = await browser.newPage();
  for (const { file, svg, size } of targets) {
    await page.setViewportSize({ width: size, height: size });
    await page.setContent(`<html><body style="margin:0;background:transparent">${svg.replace('<svg ', `<svg width="${size}" height="${size}" `)}</body></html>`);
    await page.screenshot({ path: join(out, file), omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } });
    console.log(`public/icons/${file}`);
  }
} finally {
  await browser.close();
}
