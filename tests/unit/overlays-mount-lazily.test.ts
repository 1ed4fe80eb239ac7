/**
 * Chakra's (Ark's) dialogs, drawers and menus mount their content at once by default and only hide it, so every
 * screen rendered each closed overlay's content on its first render (the subscription dialog's whole plant tree on
 * the dashboard: docs/decisions.md, "The dashboard's first render in short tasks"). Each root therefore says
 * `lazyMount unmountOnExit`; this reads every overlay root in src/client and fails for one that does not.
 *
 * The same overlays find their own parts by id: an `id` written on a part (`<Drawer.Content id=…>`) replaces the id
 * the root looks for, so the open drawer had no focus trap and Escape did not close it. An id a screen needs goes
 * through the root's `ids` prop; the second check fails for an `id` on any overlay part.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
// The tag's props run to the `>` that ends its line (an arrow function's `=>` inside them does not).
const OVERLAY_ROOT = /<(Dialog|Drawer|Menu|Popover|HoverCard|Tooltip)\.Root\b([\s\S]*?)>[ \t]*\n/g;
// Any part of an overlay, with the props up to the tag's end (`=>` inside an arrow function does not end it).
const OVERLAY_PART = /<((?:Dialog|Drawer|Menu|Popover|HoverCard|Tooltip)\.\w+)\b((?:[^>]|=>)*)>/g;

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourcesUnder(path);
    return /\.tsx$/.test(entry.name) ? [path] : [];
  });
}

const sources = sourcesUnder(join(root, 'src', 'client')).map((file) => ({ file: relative(root, file), text: readFileSync(file, 'utf8') }));

describe('overlays mount their content when opened', () => {
  const roots = sources.flatMap(({ file, text }) =>
    [...text.matchAll(OVERLAY_ROOT)].map((match) => ({ where: `${file}: <${match[1]}.Root>`, props: match[2]! })),
  );

  it('finds the overlay roots it checks', () => {
    expect(roots.length).toBeGreaterThanOrEqual(5);
  });

  it('gives every overlay root (dialog, drawer, menu, popover, tooltip) lazyMount and unmountOnExit', () => {
    const eager = roots.filter(({ props }) => !/\blazyMount\b/.test(props) || !/\bunmountOnExit\b/.test(props)).map(({ where }) => where);
    expect(eager).toEqual([]);
  });
});

describe('overlay parts keep the ids their root looks them up by', () => {
  const parts = sources.flatMap(({ file, text }) => [...text.matchAll(OVERLAY_PART)].map((match) => ({ where: `${file}: <${match[1]}>`, props: match[2]! })));

  it('finds the overlay parts it checks', () => {
    expect(parts.length).toBeGreaterThanOrEqual(20);
  });

  it('sets no id on an overlay part (an id the screen needs goes through the root\'s ids prop)', () => {
    const renamed = parts.filter(({ props }) => /(^|\s)id=/.test(props)).map(({ where }) => where);
    expect(renamed).toEqual([]);
  });
});
