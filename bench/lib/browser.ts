/**
 * Chromium for the browser workloads: Debian's build (CHROMIUM_PATH), headless, a persistent profile (IndexedDB,
 * service worker and HTTP cache survive between launches like on a tablet), and the CPU throttled through the
 * DevTools protocol. Every page of the context gets the same throttle.
 */
import { mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type BrowserContext, type CDPSession, type Page } from 'playwright-core';
import { DEMO_PASSWORD, DEMO_USERS, type DemoRole } from '../../src/server/db/seed/demo-users';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface TabletOptions {
  /** Profile directory; a new one under `workDir` when omitted (a fresh device). */
  profileDir?: string;
  workDir: string;
  /** CPU slowdown (1 = none, 4 = a mid-range tablet). */
  cpuThrottle: number;
  viewport?: { width: number; height: number };
  offline?: boolean;
}

export interface Tablet {
  context: BrowserContext;
  profileDir: string;
  /** A page with the throttle applied (the first page of the context, or a new one). */
  page(): Promise<Page>;
  /** The CDP session of a page (opened once per page), e.g. for Performance.getMetrics or tracing. */
  cdp(page: Page): Promise<CDPSession>;
  close(): Promise<void>;
}

export async function launchTablet(options: TabletOptions): Promise<Tablet> {
  const profileDir = options.profileDir ?? (await mkdtemp(join(options.workDir, 'profile-')));
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ['--no-sandbox', '--lang=de-DE'],
    locale: 'de-DE',
    timezoneId: 'Europe/Berlin',
    viewport: options.viewport ?? { width: 1280, height: 800 },
    offline: options.offline ?? false,
  });
  const sessions = new Map<Page, CDPSession>();
  const cdp = async (page: Page) => {
    let session = sessions.get(page);
    if (!session) {
      session = await context.newCDPSession(page);
      sessions.set(page, session);
    }
    return session;
  };
  const throttle = async (page: Page) => {
    if (options.cpuThrottle > 1) await (await cdp(page)).send('Emulation.setCPUThrottlingRate', { rate: options.cpuThrottle });
  };
  for (const page of context.pages()) await throttle(page);
  context.on('page', (page) => void throttle(page));
  return {
    context,
    profileDir,
    page: async () => {
      const page = context.pages()[0] ?? (await context.newPage());
      await throttle(page);
      return page;
    },
    cdp,
    close: () => context.close(),
  };
}

/** Logs in through the login screen as a demo user (the same fields a user types into). */
export async function logIn(page: Page, baseUrl: string, role: DemoRole = 'technician'): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  await page.getByRole('textbox', { name: 'E-Mail' }).fill(DEMO_USERS[role].email);
  await page.getByRole('textbox', { name: 'Passwort' }).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Anmelden' }).click();
}

/**
 * Waits until the app bar's sync state says the mirror is complete and nothing is pending. The data sync, not the
 * service worker storing the app's files beside it: the app bar says "Offline-Nutzung wird vorbereitet …" instead of
 * "Synchronisiert" while that install runs (docs/client.md), which the sync workloads do not measure.
 */
export async function waitUntilSynced(page: Page, timeoutMs = 600_000): Promise<void> {
  await page.locator('[data-slot="sync-status"] button[data-pending="0"][data-refused="0"]').first().waitFor({ timeout: timeoutMs });
  // why a regex: hasText is a case-insensitive substring, and "Noch nicht synchronisiert" (before the first pull
  // finished) contains it.
  await page.locator('[data-slot="sync-status"] [data-testid="sync-headline"]', { hasText: /^(Synchronisiert|Offline-Nutzung wird vorbereitet)/ }).first().waitFor({ timeout: timeoutMs });
  await page.locator('[data-testid="initial-sync"]').waitFor({ state: 'detached', timeout: timeoutMs });
}

/**
 * The longest main-thread task since the page loaded, from a PerformanceObserver installed before any script; beside
 * it the long animation frames with their scripts (which code the long task ran, for the log).
 */
export async function installLongTaskObserver(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const record: number[] = [];
    const frames: unknown[] = [];
    const target = window as unknown as { __longTasks?: number[]; __longFrames?: unknown[] };
    target.__longTasks = record;
    target.__longFrames = frames;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) record.push(entry.duration);
    }).observe({ type: 'longtask', buffered: true });
    try {
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) frames.push(entry.toJSON());
      }).observe({ type: 'long-animation-frame', buffered: true });
    } catch {
      // why: a browser without the Long Animation Frames API still measures long tasks.
    }
  });
}

/** Forget the long tasks and frames recorded so far (before the part of a run that is measured). */
export async function resetLongTasks(page: Page): Promise<void> {
  await page.evaluate(() => {
    const target = window as unknown as { __longTasks: number[]; __longFrames: unknown[] };
    target.__longTasks.length = 0;
    target.__longFrames.length = 0;
  });
}

interface LongFrameScript {
  invoker: string;
  sourceFunctionName: string;
  sourceURL: string;
  sourceCharPosition: number;
  duration: number;
  forcedStyleAndLayoutDuration: number;
}
interface LongFrame {
  startTime: number;
  duration: number;
  blockingDuration: number;
  renderStart: number;
  styleAndLayoutStart: number;
  scripts: LongFrameScript[];
}

/**
 * The longest animation frame since the last reset, as one line for the log: its length, how much of it was scripts,
 * style and layout, and its three longest scripts (invoker, function, file); its start counted from `since` (page time).
 */
export async function describeLongestFrame(page: Page, since = 0): Promise<string> {
  const frames = await page.evaluate(() => (window as unknown as { __longFrames?: unknown[] }).__longFrames ?? []);
  const longest = (frames as LongFrame[]).reduce<LongFrame | undefined>((best, frame) => (!best || frame.duration > best.duration ? frame : best), undefined);
  if (!longest) return 'no long animation frame';
  const scriptsMs = longest.scripts.reduce((sum, script) => sum + script.duration, 0);
  const renderMs = longest.renderStart > 0 ? longest.startTime + longest.duration - longest.renderStart : 0;
  const styleMs = longest.styleAndLayoutStart > 0 ? longest.startTime + longest.duration - longest.styleAndLayoutStart : 0;
  const top = [...longest.scripts]
    .sort((a, b) => b.duration - a.duration)
    .slice(0, 3)
    .map((script) => `${Math.round(script.duration)} ms ${script.invoker} → ${script.sourceFunctionName || '(anonymous)'} @ ${script.sourceURL.split('/').pop()}:${script.sourceCharPosition}${script.forcedStyleAndLayoutDuration ? ` (forced layout ${Math.round(script.forcedStyleAndLayoutDuration)} ms)` : ''}`);
  return `longest frame ${Math.round(longest.duration)} ms (blocking ${Math.round(longest.blockingDuration)}) at +${Math.round(longest.startTime - since)} ms: scripts ${Math.round(scriptsMs)} ms, rendering ${Math.round(renderMs)} ms (style+layout ${Math.round(styleMs)} ms); ${top.join('; ')}`;
}

export async function longestTask(page: Page): Promise<number> {
  return page.evaluate(() => Math.max(0, ...((window as unknown as { __longTasks?: number[] }).__longTasks ?? [])));
}
