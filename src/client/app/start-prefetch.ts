/**
 * Imported first by main.tsx, so this runs before the rest of the entry is evaluated (ES modules run in import
 * order; a call in main.tsx's body would run only after React DOM, Chakra's system and the router are set up):
 * the current route's chunks download while the entry's own work runs (prefetch.ts).
 */
import { prefetchCurrentRoute } from './prefetch';

prefetchCurrentRoute();
