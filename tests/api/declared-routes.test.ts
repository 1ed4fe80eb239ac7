import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MUTATIONS } from '../../src/shared/mutations/registry';
import { createTestApp, type TestApp } from './support/test-app';

/**
 * Every declared user action (src/shared/mutations) has its route on the server, at the declaration's method and
 * path: an action a device can queue never meets a 404 because the route was forgotten or moved.
 */
describe('declared actions and their routes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it.each(MUTATIONS.map((definition) => [definition.name, definition.method, definition.route] as const))('%s: %s /api%s is a route', (_name, method, route) => {
    expect(t.app.hasRoute({ method, url: `/api${route}` })).toBe(true);
  });

  it('every action name (and alias) is declared once', () => {
    const names = MUTATIONS.flatMap((definition) => [definition.name, ...(definition.aliases ?? [])]);
    expect(new Set(names).size).toBe(names.length);
  });
});
