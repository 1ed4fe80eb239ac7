/**
 * Chakra's (Ark's) dialogs, drawers and menus mount their content at once by default and only hide it, so every
 * screen rendered each closed overlay's content on its first render (the subscription dialog's whole plant tree on
 * the dashboard: docs/decisions.md, "The dashboard's first render in short tasks"). Each root therefore says
 * `lazyMount unmountOnExit`; this reads every overlay root in src/client and fails for one that does not.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
// The tag's props run to the `>` that ends its line (an arrow function's `=>` inside them does not).
const OVERLAY_ROOT = /<(Dialog|Drawer|Menu|Popover|HoverCard|Tooltip)\.Root\b([\s\S]*?)>[ \t]*\n/g;

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourcesUnder(path);
    return /\.tsx$/.test(entry.name) ? [path] : [];
  });
}

describe('overlays mount their content when opened', () => {
  const roots = sourcesUnder(join(root, 'src', 'client')).flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(OVERLAY_ROOT)].map((match) => ({ where: `${relative(root, file)}: <${match[1]}.Root>`, props: match[2]! })),
  );

  it('finds the overlay roots it checks', () => {
    expect(roots.length).toBeGreaterThanOrEqual(5);
  });

  it('gives every overlay root (dialog, drawer, menu, popover, tooltip) lazyMount and unmountOnExit', () => {
    const eager = roots.filter(({ props }) => !/\blazyMount\b/.test(props) || !/\bunmountOnExit\b/.test(props)).map(({ where }) => where);
    expect(eager).toEqual([]);
  });
});
