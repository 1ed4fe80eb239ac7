/** Page models: the e2e specs speak in user actions, not selectors (docs/style.md §11). */
import { expect, type Page } from '@playwright/test';
import { DEMO_PASSWORD, DEMO_USERS, type DemoRole } from '../../../src/server/db/seed/demo-users';

export const TABLET_LANDSCAPE = { width: 1280, height: 800 } as const;
export const TABLET_PORTRAIT = { width: 800, height: 1280 } as const;

export class LoginPage {
  constructor(private readonly page: Page) {}

  readonly email = () => this.page.getByRole('textbox', { name: 'E-Mail', exact: true });
  readonly password = () => this.page.getByRole('textbox', { name: 'Passwort', exact: true });
  readonly submit = () => this.page.getByRole('button', { name: 'Anmelden' });

  async goto() {
    await this.page.goto('/login');
    await expect(this.submit()).toBeVisible();
  }

  async fill(email: string, password: string) {
    await this.email().fill(email);
    await this.password().fill(password);
  }

  async loginAs(role: DemoRole) {
    await this.fill(DEMO_USERS[role].email, DEMO_PASSWORD);
    await this.submit().click();
  }
}

export class AppShell {
  constructor(private readonly page: Page) {}

  greeting(role: DemoRole) {
    const user = DEMO_USERS[role];
    return this.page.getByRole('heading', { name: `Hallo ${user.givenname} ${user.surname}` });
  }

  async expectDashboard(role: DemoRole) {
    await expect(this.page).toHaveURL(/\/dashboard/);
    await expect(this.greeting(role)).toBeVisible();
  }

  userMenu() {
    return this.page.getByRole('button', { name: /Benutzermenü|User menu/ });
  }

  async logout() {
    await this.userMenu().click();
    await this.page.getByRole('menuitem', { name: /Abmelden|Log out/ }).click();
    await expect(this.page).toHaveURL(/\/login/);
  }
}

/** Logs in through the UI as a demo user and waits for the dashboard. */
export async function loginAs(page: Page, role: DemoRole) {
  const login = new LoginPage(page);
  await login.goto();
  await login.loginAs(role);
  await new AppShell(page).expectDashboard(role);
}

/** Every visible control on the page, with its size: gloved fingers on a tablet need ≥ 44 × 44 px. */
export async function smallTouchTargets(page: Page) {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('button, a[href], input, select, textarea, [role=menuitem], [role=checkbox], [role=tab]')]
      .filter((el) => el.offsetParent !== null && getComputedStyle(el).visibility !== 'hidden')
      .map((el) => ({ el, box: el.getBoundingClientRect() }))
      .filter(({ box }) => box.width > 0 && (box.width < 44 || box.height < 44))
      .map(({ el, box }) => `${el.tagName.toLowerCase()} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 30)}" ${Math.round(box.width)}×${Math.round(box.height)}`),
  );
}
