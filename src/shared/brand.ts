/**
 * Brand colours used outside the Chakra theme too: the web manifest and theme-color (vite.config.ts, at
 * build time in Node) and the theme's tokens. index.html's <meta name="theme-color"> repeats BRAND_COLOR.
 */
export const BRAND_COLOR = '#1a3d70';
export const CANVAS_COLOR = '#f4f6f8';
/** The boot shell's element id: index.html's shell (scripts/vite-boot-shell.ts) and the app's boot screen. */
export const BOOT_SHELL_ID = 'boot-shell';
