/**
 * The `test` every e2e spec uses (lint forbids @playwright/test's own in specs): it fails the test when the page
 * breaks the server's Content-Security-Policy (src/server/plugins/security-headers.ts) — a blocked script, style,
 * image, worker or connection — so each flow of the suite is also the proof that the app works under that policy.
 */
import { test as base, expect, type BrowserContext } from '@playwright/test';

export { expect };

/** What the browser reported: the blocked directive and URL, or the console's "Refused to …" line. */
export type CspViolations = string[];

declare global {
  interface Window {
    __reportCspViolation?: (violation: string) => void;
  }
}

/**
 * Records every CSP violation of the context's pages, through the DOM event (page scripts) and the console
 * (also workers and anything reported before the listener ran). Call before the first page of the context opens
 * its app; contexts of the `context`/`page` fixtures are watched already.
 */
export async function watchCsp(context: BrowserContext): Promise<CspViolations> {
  const violations: CspViolations = [];
  await context.exposeBinding('__reportCspViolation', ({ page }, violation: string) => {
    violations.push(`${page?.url() ?? '?'}: ${violation}`);
  });
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const sample = event.sample ? ` "${event.sample}"` : '';
      const where = event.sourceFile ? ` at ${event.sourceFile}:${event.lineNumber}:${event.columnNumber}` : '';
      void window.__reportCspViolation?.(`${event.effectiveDirective} blocked ${event.blockedURI || 'inline'}${sample}${where}`);
    });
  });
  context.on('console', (message) => {
    const text = message.text();
    if (/Content Security Policy/i.test(text)) violations.push(`console: ${text}`);
  });
  return violations;
}

/** Fails with the list when the browser reported any violation. */
export function expectNoCspViolations(violations: CspViolations): void {
  expect(violations, 'the page broke the Content-Security-Policy').toEqual([]);
}

export const test = base.extend<{ cspViolations: CspViolations }>({
  cspViolations: [
    async ({ context }, use) => {
      const violations = await watchCsp(context);
      await use(violations);
      expectNoCspViolations(violations);
    },
    // why auto: every spec is checked, also those that never ask for it.
    { auto: true },
  ],
});
