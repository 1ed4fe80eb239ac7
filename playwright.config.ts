import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 3107);
export const baseURL = `http://127.0.0.1:${port}`;
/** Short-lived access tokens, so the suite watches real expiries being refreshed transparently. */
export const E2E_ACCESS_TOKEN_TTL = 20;

export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: 'test-results/e2e',
  // why one worker: the tests share one server and one demo database, and the machine has 2 cores.
  workers: 1,
  fullyParallel: false,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [
    ['list'],
    ['json', { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_FILE ?? 'test-results/e2e-report.json' }],
    ['html', { open: 'never', outputFolder: 'playwright-report' }],
  ],
  use: {
    baseURL,
    locale: 'de-DE',
    timezoneId: 'Europe/Berlin',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      // Debian's Chromium: Playwright cannot download its own browser on these machines.
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      // German browser language (needs Debian's chromium-l10n): time inputs show 24 h as on a German tablet.
      env: { ...process.env, LANGUAGE: 'de', LANG: 'de_DE.UTF-8' },
      args: ['--no-sandbox', '--lang=de-DE', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
  projects: [
    { name: 'tablet-landscape', use: { browserName: 'chromium', viewport: { width: 1280, height: 800 }, hasTouch: true } },
    // Admins work on desktops: the login flows once more at a desktop size.
    { name: 'desktop', testMatch: 'auth.spec.ts', use: { browserName: 'chromium', viewport: { width: 1440, height: 900 } } },
  ],
  webServer: {
    command: 'node scripts/start.mjs',
    url: `${baseURL}/api/health`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: 'pipe',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: process.env.E2E_DATA_DIR ?? 'test-results/e2e-data',
      ACCESS_TOKEN_TTL: String(E2E_ACCESS_TOKEN_TTL),
      // Every test logs in; the production limits (10 per IP, 5 per account a minute) would answer 429.
      LOGIN_RATE_LIMIT: '500/500',
      // Every test is a new browser profile, a new device of the same demo users.
      NEW_DEVICES_PER_DAY: '100000',
      LOG_LEVEL: 'warn',
      // why: the e2e suite builds once before starting; avoid a second build inside start.mjs.
      CLIENT_DIST: 'dist',
    },
  },
});
