import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BOOT_SHELL_MARKER, bootShell, bootShellMarkup, bootShellStyle } from '../../scripts/vite-boot-shell';
import { BOOT_SHELL_ID, BRAND_COLOR, CANVAS_COLOR } from '../../src/shared/brand';

const indexHtml = readFileSync(new URL('../../index.html', import.meta.url), 'utf8');
const iconSvg = readFileSync(new URL('../../public/icons/icon.svg', import.meta.url), 'utf8');

interface HtmlTag {
  tag: string;
  children: string;
  injectTo: string;
}

/** The plugin's transformIndexHtml handler, called as Vite calls it. */
function transform(html: string): { html: string; tags: HtmlTag[] } {
  const hook = bootShell().transformIndexHtml as { handler: (html: string) => { html: string; tags: HtmlTag[] } };
  return hook.handler(html);
}

describe('boot shell', () => {
  it('sits inside #root of index.html, so React replaces it with its first render', () => {
    expect(indexHtml).toContain(`<div id="root">${BOOT_SHELL_MARKER}</div>`);
    const { html, tags } = transform(indexHtml);
    expect(html).not.toContain(BOOT_SHELL_MARKER);
    // Its styles go into the head: the app's boot screen (components/boot-screen.tsx) uses them after React has
    // replaced the markup.
    expect(tags).toEqual([{ tag: 'style', children: bootShellStyle(), injectTo: 'head' }]);
    const root = html.slice(html.indexOf('<div id="root">'), html.indexOf('</body>'));
    expect(root).toContain(`id="${BOOT_SHELL_ID}"`);
  });

  it('draws the product mark of public/icons/icon.svg in the brand colours, and runs no script', () => {
    const markup = bootShellMarkup();
    // Every shape of the icon, as drawn there (whitespace between elements aside).
    for (const shape of iconSvg.match(/<(rect|circle|g)\b[^>]*>/g)!) expect(markup).toContain(shape);
    expect(bootShellStyle()).toContain(`background:${CANVAS_COLOR}`);
    expect(bootShellStyle()).toContain(`color:${BRAND_COLOR}`);
    expect(bootShellStyle()).toContain(`#${BOOT_SHELL_ID}{`);
    expect(markup).toContain('>Anlagenbuch</p>');
    // The CSP allows inline styles, not inline scripts (src/server/plugins/security-headers.ts).
    expect(markup + bootShellStyle()).not.toMatch(/<script|\son[a-z]+=/i);
  });

  it('fails the build when index.html lost its marker', () => {
    expect(() => transform('<div id="root"></div>')).toThrow(BOOT_SHELL_MARKER);
  });
});
