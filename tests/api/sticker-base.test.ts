import { afterEach, describe, expect, it } from 'vitest';
import { insertTenant, loginAs } from '../factories/tenant';
import { createTestApp, type TestApp } from './support/test-app';

/**
 * Service stickers encode the login answer's `baseinfo.publicurl`, else the address the browser reached the app at
 * (client lib/use-sticker-base.ts). The server's localhost default must not reach the client: every sticker printed
 * with it pointed at the server's own machine, which no tablet reaches.
 */
describe('login answer: the public URL for service stickers', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('is left out when PUBLIC_URL is not set (the client then uses its own address)', async () => {
    t = await createTestApp();
    expect(t.app.config.publicUrl).toMatch(/^http:\/\/localhost:\d+$/);
    const tenant = await insertTenant(t.database.db, { name: 'Ohne Adresse GmbH' });
    const session = await loginAs(t.app, tenant.admin);
    expect(session.baseinfo).not.toHaveProperty('publicurl');
  });

  it('is the configured PUBLIC_URL when it is set', async () => {
    t = await createTestApp({ PUBLIC_URL: 'https://wartung.example.de' });
    const tenant = await insertTenant(t.database.db, { name: 'Mit Adresse GmbH' });
    const session = await loginAs(t.app, tenant.admin);
    expect(session.baseinfo.publicurl).toBe('https://wartung.example.de');
  });
});
