import { describe, expect, it } from 'vitest';
import { sharedChunks } from '../../scripts/vite-chunks';

/** A module graph as rolldown's chunking context answers it: static and dynamic imports per module id. */
function graph(edges: Record<string, { imports?: string[]; lazy?: string[] }>) {
  const ids = new Set(Object.keys(edges));
  for (const edge of Object.values(edges)) for (const id of [...(edge.imports ?? []), ...(edge.lazy ?? [])]) ids.add(id);
  const info = (id: string) => {
    if (!ids.has(id)) return null;
    const importers = [...ids].filter((other) => edges[other]?.imports?.includes(id));
    const dynamicImporters = [...ids].filter((other) => edges[other]?.lazy?.includes(id));
    return { id, importedIds: edges[id]?.imports ?? [], dynamicallyImportedIds: edges[id]?.lazy ?? [], importers, dynamicImporters };
  };
  // why a stand-in: rolldown builds this context only inside a build (minutes); the rule reads nothing but the
  // import lists, which this graph gives the same way.
  const ctx = { getModuleInfo: info } as unknown as Parameters<ReturnType<typeof sharedChunks>>[1];
  const name = sharedChunks();
  return Object.assign((id: string) => name(id, ctx), { ids, edges });
}

const app = (path: string) => `/repo/src/client/${path}`;
const lib = (name: string) => `/repo/node_modules/${name}/index.js`;

const chunkOf = graph({
  [app('app/main.tsx')]: { imports: [app('app/router.tsx'), lib('react')], lazy: [app('lib/register-sw.ts')] },
  [app('app/router.tsx')]: { imports: [app('app/route-table.ts'), lib('react')], lazy: [app('app/app-layout.tsx'), app('app/design-system.tsx')] },
  [app('sync/app-sync-runtime.ts')]: { imports: [app('sync/outbox.ts')] },
  [app('lib/register-sw.ts')]: { imports: [lib('workbox-window')] },
  [app('app/route-table.ts')]: {
    lazy: [app('features/auth/login-screen.tsx'), app('features/dashboard/dashboard-screen.tsx'), app('features/a/a-screen.tsx'), app('features/b/b-screen.tsx'), app('features/c/c-screen.tsx')],
  },
  [app('features/auth/login-screen.tsx')]: { imports: [app('components/logo.tsx'), lib('react')] },
  [app('app/app-layout.tsx')]: { imports: [app('components/logo.tsx'), app('sync/engine.ts'), lib('react')], lazy: [app('sync/app-sync-runtime.ts')] },
  [app('features/dashboard/dashboard-screen.tsx')]: { imports: [app('components/list.tsx')] },
  [app('sync/engine.ts')]: { imports: [lib('dexie')] },
  [app('app/design-system.tsx')]: { imports: [lib('chakra')] },
  [app('features/a/a-screen.tsx')]: { imports: [app('components/form.tsx'), app('components/list.tsx'), app('sync/outbox.ts'), lib('virtual'), lib('zoom')], lazy: [app('lib/pdf.ts')] },
  [app('features/b/b-screen.tsx')]: { imports: [app('components/form.tsx'), app('sync/outbox.ts'), lib('virtual'), lib('zoom'), lib('qr')], lazy: [app('lib/pdf.ts')] },
  [app('features/c/c-screen.tsx')]: { imports: [app('components/list.tsx'), lib('virtual')] },
  [app('components/form.tsx')]: { imports: [lib('form-lib')] },
  [app('lib/pdf.ts')]: { imports: [lib('jspdf')] },
});

describe('the signed-in shared chunk (scripts/vite-chunks.ts)', () => {
  it('holds the app frame and the design-system frame with what they import', () => {
    for (const id of [app('app/app-layout.tsx'), app('sync/engine.ts'), lib('dexie'), app('app/design-system.tsx'), lib('chakra')]) expect(chunkOf(id)).toBe('private-shared');
  });

  it('leaves out what the login route loads: the entry, its own lazy import, the login screen and what they import', () => {
    for (const id of [app('app/main.tsx'), app('app/router.tsx'), lib('react'), app('lib/register-sw.ts'), lib('workbox-window'), app('features/auth/login-screen.tsx')]) {
      expect(chunkOf(id)).toBeNull();
    }
    // Also when the signed-in frame needs it too: the login must not load the shared chunk.
    expect(chunkOf(app('components/logo.tsx'))).toBeNull();
  });

  it('takes app code two screens need, and a library only when three screens need it', () => {
    expect(chunkOf(app('components/form.tsx'))).toBe('screens-shared');
    expect(chunkOf(app('components/list.tsx'))).toBe('private-shared');
    expect(chunkOf(lib('virtual'))).toBe('screens-shared'); // three screens
    expect(chunkOf(lib('zoom'))).toBeNull(); // two screens: stays its own chunk, loaded by those two
    expect(chunkOf(lib('qr'))).toBeNull(); // one screen
  });

  it('takes along what a taken module imports, so the chunk never imports a chunk that imports it back', () => {
    // form-lib: only two screens need it, but the shared form component imports it.
    expect(chunkOf(lib('form-lib'))).toBe('screens-shared');
  });

  it('puts what the dashboard, the frames and the sync runtime load into private-shared, what only other screens share into screens-shared', () => {
    // list: the dashboard uses it; outbox: two screens and the sync runtime every signed-in start loads.
    expect(chunkOf(app('components/list.tsx'))).toBe('private-shared');
    expect(chunkOf(app('sync/outbox.ts'))).toBe('private-shared');
    // form: only screens a and b.
    expect(chunkOf(app('components/form.tsx'))).toBe('screens-shared');
    // No private-shared module imports a screens-shared one: landing on the dashboard never loads screens-shared.
    for (const id of chunkOf.ids) {
      if (chunkOf(id) !== 'private-shared') continue;
      for (const imported of chunkOf.edges[id]?.imports ?? []) expect(chunkOf(imported), `${id} → ${imported}`).not.toBe('screens-shared');
    }
  });

  it('leaves screens and their lazy parts to the automatic splitting', () => {
    for (const id of [app('features/a/a-screen.tsx'), app('features/c/c-screen.tsx'), app('lib/pdf.ts'), lib('jspdf')]) expect(chunkOf(id)).toBeNull();
  });
});
