/**
 * The namespaces of de.json the entry carries: what /login, the page titles, the loading skeleton and the route
 * error screen show (the last shows when a chunk, perhaps the texts' own, could not load). Every other German text
 * (~90 % of de.json, ~14 KB gzip) is a chunk of its own (`loadAppTexts` in lib/i18n.ts) that every other screen and
 * the app frame load with their own chunks (router.tsx), so a guest's first route does not download the texts of
 * screens it cannot open. Split at build time from de.json (scripts/vite-text-parts.ts).
 */
export const SHELL_NAMESPACES = ['app', 'pages', 'appBar', 'language', 'login', 'skeleton', 'routeError'] as const;
