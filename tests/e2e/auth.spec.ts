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
