import { expect, test } from './support/test';
import { DEMO_USERS, type DemoRole } from '../../src/server/db/seed/demo-users';
import { AppShell, LoginPage, loginAs } from './support/pages';

const roles = Object.keys(DEMO_USERS) as DemoRole[];

test.describe('login', () => {
  for (const role of roles) {
    test(`${role} logs in and sees the dashboard greeting`, async ({ page }) => {
      await loginAs(page, role);
      await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
    });
  }

  test('the spec texts: required, e-mail format, minimum length, wrong credentials', async ({ page }) => {
    const login = new LoginPage(page);
    await login.goto();
    await login.submit().click();
    await expect(page.getByText('Bitte geben Sie Ihre E-Mail-Adresse ein.')).toBeVisible();
    await expect(page.getByText('Bitte geben Sie Ihr Passwort ein.')).toBeVisible();

    await login.fill('kein-at-zeichen', 'kurz');
    await login.submit().click();
    await expect(page.getByText('Bitte geben Sie eine gültige E-Mail-Adresse ein.')).toBeVisible();
    await expect(page.getByText('Das Passwort muss mindestens 8 Zeichen lang sein.')).toBeVisible();

    await login.fill(DEMO_USERS.admin.email, 'Falsch!2026');
    await login.submit().click();
    await expect(page.getByText('E-Mail und Passwort stimmen nicht überein.')).toBeVisible();
    await expect(page).toHaveURL(/\/login/);
  });

  test('logout returns to the login and guards the dashboard again', async ({ page }) => {
    await loginAs(page, 'technician');
    await new AppShell(page).logout();
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/login/);
  });

  test('the session survives a reload', async ({ page }) => {
    await loginAs(page, 'reader');
    await page.reload();
    await new AppShell(page).expectDashboard('reader');
  });
});

test.describe('login → first pull', () => {
  // why blocked: a controlling service worker would answer the login request before page.route sees it.
  test.use({ serviceWorkers: 'block' });

  test('while the login request runs, the signed-in shared chunk (design system and frame), the dashboard and the sync runtime load, not one after another after the answer', async ({ page }) => {
    // private-shared: the design-system frame, the app frame and what the dashboard shares with the other screens (scripts/vite-chunks.ts).
    const chunks = ['private-shared', 'dashboard-screen', 'app-sync-runtime'];
    const requested = new Set<string>();
    page.on('request', (request) => {
      const chunk = chunks.find((name) => new RegExp(`/assets/${name}-[^/]*\\.js$`).test(request.url()));
      if (chunk) requested.add(chunk);
    });
    let beforeAnswer: string[] = [];
    // The answer is held until the chunks were asked for (or 10 s passed): what was requested by then is what the
    // tap started, not what the answer's render asked for.
    await page.route('**/api/auth/login', async (route) => {
      await expect.poll(() => requested.size, { timeout: 10_000 }).toBe(chunks.length).catch(() => undefined);
      beforeAnswer = [...requested].sort();
      await route.continue();
    });
    const login = new LoginPage(page);
    await login.goto();
    // The login itself is drawn without the design system: nothing of Chakra UI is loaded before the tap.
    expect([...requested]).not.toContain('private-shared');
    // Chakra's styling runtime (emotion) writes its rules into <style data-emotion> elements once anything renders.
    expect(await page.locator('style[data-emotion]').count()).toBe(0);
    const screensShared: string[] = [];
    page.on('request', (request) => {
      if (/\/assets\/screens-shared-[^/]*\.js$/.test(request.url())) screensShared.push(request.url());
    });
    await login.loginAs('technician');
    await new AppShell(page).expectDashboard('technician');
    expect(beforeAnswer).toEqual([...chunks].sort());
    // What only the other screens share stays out of the login → dashboard path (scripts/vite-chunks.ts).
    await page.waitForLoadState('networkidle');
    expect(screensShared).toEqual([]);
  });
});
