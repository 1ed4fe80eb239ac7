/**
 * Chunk grouping for the build (vite.config.ts): the code every signed-in screen shares goes into one chunk.
 *
 * Left to the automatic splitting, each combination of screens that shares a module got its own chunk: 194
 * files, 111 under 2 kB, and a cold sticker start (offline, 4× CPU) fetched 133 of them through the service
 * worker. A profile showed the per-file cost, not the bytes, was the price: ~450 ms of the main thread only
 * starting those fetches (appendChild of the modulepreload links), and the module loader's work per file after
 * it (docs/decisions.md § Chunks).
 *
 * The rule, computed from the module graph once per build:
 * - shared: the signed-in frames (app-layout, design-system) and what two or more routed screens need — a library
 *   only when three do (a library two screens use stays a chunk of its own, and not every start pays for it; kept
 *   for the total of login → dashboard, W8) — together with everything those import, unless the login route loads
 *   it (the entry, the entry's own lazy import, the login screen and their imports): the login never loads it.
 * - Of that, `private-shared` is what the frames, the sync runtime and the dashboard (the screen every login lands
 *   on) load; `screens-shared` the rest, what only other screens share (forms, pickers, the machine screen's parts).
 *   So the login → dashboard path does not load code only other screens need (W8's total), and every other screen
 *   loads one file more. `private-shared` imports only itself and the first route's chunks, `screens-shared` those
 *   and `private-shared`: no two chunks import each other.
 * - everything else keeps the automatic splitting: a screen's own modules in its chunk, lazy parts (the PDF
 *   writer, the PDF viewer, the scanner, the zoom viewer) with their libraries loaded only when used.
 * The icons are a group of their own (vite.config.ts): the login needs four of them.
 */
import type { Rolldown } from 'vite';

type ChunkingContext = Rolldown.ChunkingContext;

/** The name of the chunk the signed-in frames and the dashboard share with the other screens. */
export const PRIVATE_SHARED_CHUNK = 'private-shared';
/** The name of the chunk with what the other signed-in screens share beyond it. */
export const SCREENS_SHARED_CHUNK = 'screens-shared';

const ROUTE_TABLE = /src[\\/]client[\\/]app[\\/]route-table\.ts$/;
const APP_LAYOUT = /src[\\/]client[\\/]app[\\/]app-layout\.tsx$/;
const LOGIN_SCREEN = /src[\\/]client[\\/]features[\\/]auth[\\/]login-screen\.tsx$/;
const MAIN = /src[\\/]client[\\/]app[\\/]main\.tsx$/;
const LIBRARY = /[\\/]node_modules[\\/]/;
const DESIGN_SYSTEM = /src[\\/]client[\\/]app[\\/]design-system\.tsx$/;
const DASHBOARD = /src[\\/]client[\\/]features[\\/]dashboard[\\/]dashboard-screen\.tsx$/;
const SYNC_RUNTIME = /src[\\/]client[\\/]sync[\\/]app-sync-runtime\.ts$/;

/** Every module reachable from `start` along `next` (the start included). */
function reachable(start: string, next: (id: string) => readonly string[]): Set<string> {
  const seen = new Set<string>();
  const stack = [start];
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    stack.push(...next(id));
  }
  return seen;
}

/** Modules reachable from `start` through static imports (what loading `start` loads). */
function staticClosure(start: string, ctx: ChunkingContext): Set<string> {
  return reachable(start, (id) => ctx.getModuleInfo(id)?.importedIds ?? []);
}

/** Finds one module id matching `pattern` among `ids`, or fails the build: the rule depends on it. */
function findModule(ids: Iterable<string>, pattern: RegExp): string {
  for (const id of ids) if (pattern.test(id)) return id;
  throw new Error(`vite-chunks: no module matches ${pattern}; update scripts/vite-chunks.ts`);
}

/**
 * The `name` function of the shared groups: `'private-shared'` or `'screens-shared'` for a module in the rule
 * above, null otherwise. The graph is read on the first call (every module is known by then) and kept for the build.
 */
export function sharedChunks(): (id: string, ctx: ChunkingContext) => string | null {
  let chunks: Map<string, string> | undefined;
  return (id, ctx) => {
    chunks ??= sharedModules(id, ctx);
    return chunks.get(id) ?? null;
  };
}

function sharedModules(anyId: string, ctx: ChunkingContext): Map<string, string> {
  // The whole graph: from any module along imports and importers, static and dynamic.
  const all = reachable(anyId, (id) => {
    const info = ctx.getModuleInfo(id);
    return [...(info?.importers ?? []), ...(info?.dynamicImporters ?? []), ...(info?.importedIds ?? []), ...(info?.dynamicallyImportedIds ?? [])];
  });
  const main = findModule(all, MAIN);
  const routeTable = findModule(all, ROUTE_TABLE);
  const appLayout = findModule(all, APP_LAYOUT);
  const login = findModule(all, LOGIN_SCREEN);
  const designSystem = findModule(all, DESIGN_SYSTEM);
  const dashboard = findModule(all, DASHBOARD);
  const syncRuntime = findModule(all, SYNC_RUNTIME);

  // What the login loads: the entry, what the entry itself imports lazily (the service worker's registration) and the screen.
  const firstRouteStarts = [main, ...(ctx.getModuleInfo(main)?.dynamicallyImportedIds ?? []), login];
  const firstRoute = new Set(firstRouteStarts.flatMap((start) => [...staticClosure(start, ctx)]));
  const screens = (ctx.getModuleInfo(routeTable)?.dynamicallyImportedIds ?? []).filter((screen) => screen !== login);
  const uses = new Map<string, number>();
  for (const screen of screens) for (const id of staticClosure(screen, ctx)) uses.set(id, (uses.get(id) ?? 0) + 1);
  const picked = [appLayout, designSystem, ...[...uses].filter(([id, count]) => count >= (LIBRARY.test(id) ? 3 : 2)).map(([id]) => id)];
  // With what they import (the group does not take imports along: that would pull the entry's modules in), so the
  // chunk imports only itself and the first route's chunks — never a chunk that imports it back.
  const shared = new Set<string>();
  for (const start of picked) for (const id of staticClosure(start, ctx)) if (!firstRoute.has(id)) shared.add(id);
  // What landing on the dashboard loads (the sync runtime is loaded by every signed-in start); a static closure,
  // so whatever these modules import is in it too.
  const home = new Set([appLayout, designSystem, dashboard, syncRuntime].flatMap((start) => [...staticClosure(start, ctx)]));
  return new Map([...shared].map((id) => [id, home.has(id) ? PRIVATE_SHARED_CHUNK : SCREENS_SHARED_CHUNK]));
}
