import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BOOT_SHELL_ID, BOOT_SHELL_MARKER, bootShell, bootShellMarkup } from '../../scripts/vite-boot-shell';
import { BRAND_COLOR, CANVAS_COLOR } from '../../src/shared/brand';

const indexHtml = readFileSync(new URL('../../index.html', import.meta.url), 'utf8');
const iconSvg = readFileSync(new URL('../../public/icons/icon.svg', import.meta.url), 'utf8');

/** The plugin's transformIndexHtml handler, called as Vite calls it. */
function transform(html: string): string {
  const hook = bootShell().transformIndexHtml as { handler: (html: string) => string };
  return hook.handler(html);
}

describe('boot shell', () => {
  it('sits inside #root of index.html, so React replaces it with its first render', () => {
    expect(indexHtml).toContain(`<div id="root">${BOOT_SHELL_MARKER}</div>`);
    const html = transform(indexHtml);
    expect(html).not.toContain(BOOT_SHELL_MARKER);
    const root = html.slice(html.indexOf('<div id="root">'), html.indexOf('</body>'));
    expect(root).toContain(`id="${BOOT_SHELL_ID}"`);
  });

  it('draws the product mark of public/icons/icon.svg in the brand colours, and runs no script', () => {
    const markup = bootShellMarkup();
    // Every shape of the icon, as drawn there (whitespace between elements aside).
    for (const shape of iconSvg.match(/<(rect|circle|g)\b[^>]*>/g)!) expect(markup).toContain(shape);
    expect(markup).toContain(`background:${CANVAS_COLOR}`);
    expect(markup).toContain(`color:${BRAND_COLOR}`);
    expect(markup).toContain('>Anlagenbuch</p>');
    // The CSP allows inline styles, not inline scripts (src/server/plugins/security-headers.ts).
    expect(markup).not.toMatch(/<script|\son[a-z]+=/i);
  });

  it('fails the build when index.html lost its marker', () => {
    expect(() => transform('<div id="root"></div>')).toThrow(BOOT_SHELL_MARKER);
  });
});
