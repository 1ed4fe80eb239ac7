/**
 * The boot shell: what a cold start paints before any script has run. index.html's `<!--boot-shell-->` becomes the
 * product mark (public/icons/icon.svg, inline: no request, offline too) and the name on the canvas colour; its
 * styles go into the head, inline (the CSP allows inline styles, not inline scripts). React's first render
 * replaces the markup; while the stored session is restored the app renders the same shell again
 * (components/boot-screen.tsx, with these styles), so nothing flickers between the two.
 *
 * why: a cold start (the sticker URL from the camera app, the dashboard from the home screen) evaluates the entry
 * (React DOM, the router, i18next) and, for every screen but the login, Chakra UI's styling system before the
 * screen paints — about two seconds of a white page on a throttled tablet. The shell is painted with the HTML. It holds no content of a screen, so the
 * largest contentful paint is still the screen's own (docs/client.md § What loads when).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { BOOT_SHELL_ID, BRAND_COLOR, CANVAS_COLOR } from '../src/shared/brand.ts';

const ICON_SVG = fileURLToPath(new URL('../public/icons/icon.svg', import.meta.url));
export const BOOT_SHELL_MARKER = '<!--boot-shell-->';

/** The product name as the shell shows it (the same in every language: it is the name). */
const PRODUCT_NAME = 'Anlagenbuch';

/** The shell's styles (a `<style>` in the head): also those of the app's own boot screen. */
export function bootShellStyle(): string {
  return [
    `#${BOOT_SHELL_ID}{position:fixed;inset:0;display:flex;flex-direction:column;align-items:center;justify-content:center;gap:16px;background:${CANVAS_COLOR};`,
    `font-family:Inter,-apple-system,BlinkMacSystemFont,"Segoe UI",Helvetica,Arial,sans-serif;color:${BRAND_COLOR}}`,
    `#${BOOT_SHELL_ID} p{margin:0;font-size:24px;font-weight:700;letter-spacing:-0.01em}`,
    // why a delayed fade-in of the bar: a warm start replaces the shell within a few frames; only a slow start shows it.
    `#${BOOT_SHELL_ID} span{display:block;width:120px;height:4px;border-radius:2px;background:${BRAND_COLOR};opacity:0;animation:boot-shell-wait 1.2s ease-in-out 0.6s infinite alternate}`,
    `@keyframes boot-shell-wait{from{opacity:.15}to{opacity:.6}}`,
    `@media (prefers-reduced-motion:reduce){#${BOOT_SHELL_ID} span{animation:none;opacity:.3}}`,
  ].join('');
}

/** The shell's markup inside #root: the mark and the name. */
export function bootShellMarkup(iconSvg: string = readFileSync(ICON_SVG, 'utf8')): string {
  const svg = iconSvg
    .trim()
    .replace(/\s*\n\s*/g, '')
    .replace('<svg ', '<svg width="72" height="72" aria-hidden="true" focusable="false" ');
  return `<div id="${BOOT_SHELL_ID}" aria-busy="true">${svg}<p>${PRODUCT_NAME}</p><span></span></div>`;
}

export function bootShell(): Plugin {
  return {
    name: 'anlagenbuch-boot-shell',
    transformIndexHtml: {
      order: 'pre',
      handler(html) {
        if (!html.includes(BOOT_SHELL_MARKER)) throw new Error(`index.html has no ${BOOT_SHELL_MARKER} inside #root`);
        return {
          html: html.replace(BOOT_SHELL_MARKER, bootShellMarkup()),
          tags: [{ tag: 'style', children: bootShellStyle(), injectTo: 'head' }],
        };
      },
    },
  };
}
