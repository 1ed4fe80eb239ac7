/**
 * W8 — bundle and boot. What a fresh tablet downloads for the first route (/login) and on the way to the
 * dashboard (the JavaScript files, their size raw, gzip-compressed and as actually transferred), and Lighthouse's
 * mobile performance score of /login — all compared in the same run with a bare React 19 app (bench/bare-react)
 * built by the same Vite and React plugin, served the same way (precompressed files, @fastify/static).
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { CHROMIUM_PATH, launchTablet, logIn } from '../lib/browser';
import { buildBareReact, serveStatic, startApp } from '../lib/browser-app';
import { formatNumber, median, repeat, type BenchOptions, type Measurement, type TargetCheck, type Workload } from '../lib/harness';

const root = fileURLToPath(new URL('../..', import.meta.url));
const execFileAsync = promisify(execFile);

interface ScriptLoad {
  files: number;
  rawKb: number;
  gzipKb: number;
  transferredKb: number;
  /** Files that came without content-encoding. */
  uncompressed: string[];
}

/** Records every script the page loads (not the service worker's own fetches) while `navigate` runs. */
async function scriptsLoaded(options: BenchOptions, navigate: (page: Page) => Promise<void>): Promise<ScriptLoad> {
  const tablet = await launchTablet({ workDir: options.workDir, cpuThrottle: 1 });
  try {
    const page = await tablet.page();
    const pending: Promise<{ raw: number; gzip: number; transferred: number; encoding: string | undefined; url: string } | null>[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() !== 'script' || /\/sw\.js$/.test(response.url())) return;
      pending.push(
        (async () => {
          const body = await response.body().catch(() => null);
          if (!body) return null;
          const sizes = await response.request().sizes();
          return { raw: body.length, gzip: gzipSync(body, { level: 9 }).length, transferred: sizes.responseBodySize, encoding: (await response.allHeaders())['content-encoding'], url: response.url() };
        })(),
      );
    });
    await navigate(page);
    await page.waitForLoadState('networkidle');
    const loads = (await Promise.all(pending)).filter((load) => load !== null);
    return {
      files: loads.length,
      rawKb: loads.reduce((sum, load) => sum + load.raw, 0) / 1024,
      gzipKb: loads.reduce((sum, load) => sum + load.gzip, 0) / 1024,
      transferredKb: loads.reduce((sum, load) => sum + load.transferred, 0) / 1024,
      uncompressed: loads.filter((load) => load.encoding !== 'br' && load.encoding !== 'gzip').map((load) => new URL(load.url).pathname),
    };
  } finally {
    await tablet.close();
  }
}

/** One Lighthouse run (mobile, its default simulated throttling): the performance score 0–100 and the LCP. */
async function lighthouse(url: string, options: BenchOptions): Promise<{ score: number; lcpMs: number; tbtMs: number }> {
  const { stdout } = await execFileAsync(
    join(root, 'node_modules', '.bin', 'lighthouse'),
    [url, `--chrome-path=${CHROMIUM_PATH}`, '--chrome-flags=--headless --no-sandbox', '--only-categories=performance', '--output=json', '--output-path=stdout', '--quiet'],
    { maxBuffer: 64 * 1024 * 1024, cwd: options.workDir, timeout: 180_000 },
  );
  const report = JSON.parse(stdout) as { categories: { performance: { score: number | null } }; audits: Record<string, { numericValue?: number }> };
  return {
    score: Math.round((report.categories.performance.score ?? 0) * 100),
    lcpMs: report.audits['largest-contentful-paint']?.numericValue ?? Number.NaN,
    tbtMs: report.audits['total-blocking-time']?.numericValue ?? Number.NaN,
  };
}

const workload: Workload = {
  id: 'W8',
  title: 'Bundle and boot: first-route JavaScript and Lighthouse mobile score',
  comparedWith: 'a bare React 19 app built with the same Vite and React plugin and served the same way',
  async run(options) {
    const app = await startApp({ dataDir: join(options.workDir, 'w8-data') });
    const bareDir = join(options.workDir, 'bare-react-dist');
    await buildBareReact(bareDir);
    const bare = await serveStatic(bareDir);
    try {
      const appLogin: ScriptLoad[] = [];
      const appDashboard: ScriptLoad[] = [];
      const bareFirst: ScriptLoad[] = [];
      options.log('W8: scripts of /login, of login → dashboard, and of the bare app');
      await repeat(options.runs, async (run) => {
        const login = await scriptsLoaded(options, (page) => page.goto(`${app.url}/login`).then(() => undefined));
        const dashboard = await scriptsLoaded(options, async (page) => {
          await logIn(page, app.url);
          await page.locator('a[href^="/machine-overview?nodeid="]').first().waitFor({ timeout: 300_000 });
        });
        const first = await scriptsLoaded(options, (page) => page.goto(`${bare.url}/`).then(() => undefined));
        if (run >= 0) {
          appLogin.push(login);
          appDashboard.push(dashboard);
          bareFirst.push(first);
        }
        return login.gzipKb;
      });

      options.log('W8: Lighthouse mobile, /login and the bare app');
      const appLighthouse: { score: number; lcpMs: number; tbtMs: number }[] = [];
      const bareLighthouse: { score: number; lcpMs: number; tbtMs: number }[] = [];
      await repeat(options.runs, async (run) => {
        const product = await lighthouse(`${app.url}/login`, options);
        const comparison = await lighthouse(`${bare.url}/`, options);
        if (run >= 0) {
          appLighthouse.push(product);
          bareLighthouse.push(comparison);
        }
        return product.score;
      });

      const pick = (loads: ScriptLoad[], key: 'files' | 'rawKb' | 'gzipKb' | 'transferredKb') => loads.map((load) => load[key]);
      const measurements: Measurement[] = [
        { label: 'App /login: JS files', unit: 'count', samples: pick(appLogin, 'files'), lowerIsBetter: true },
        { label: 'App /login: JS raw', unit: 'KB', samples: pick(appLogin, 'rawKb'), lowerIsBetter: true },
        { label: 'App /login: JS gzip', unit: 'KB', samples: pick(appLogin, 'gzipKb'), lowerIsBetter: true },
        { label: 'App /login: JS as transferred (br)', unit: 'KB', samples: pick(appLogin, 'transferredKb'), lowerIsBetter: true },
        { label: 'App login → dashboard (cold): JS files', unit: 'count', samples: pick(appDashboard, 'files'), lowerIsBetter: true },
        { label: 'App login → dashboard (cold): JS raw', unit: 'KB', samples: pick(appDashboard, 'rawKb'), lowerIsBetter: true },
        { label: 'App login → dashboard (cold): JS gzip', unit: 'KB', samples: pick(appDashboard, 'gzipKb'), lowerIsBetter: true },
        { label: 'App login → dashboard (cold): JS as transferred', unit: 'KB', samples: pick(appDashboard, 'transferredKb'), lowerIsBetter: true },
        { label: 'Bare React: JS files', unit: 'count', samples: pick(bareFirst, 'files'), lowerIsBetter: true },
        { label: 'Bare React: JS raw', unit: 'KB', samples: pick(bareFirst, 'rawKb'), lowerIsBetter: true },
        { label: 'Bare React: JS gzip', unit: 'KB', samples: pick(bareFirst, 'gzipKb'), lowerIsBetter: true },
        { label: 'Bare React: JS as transferred', unit: 'KB', samples: pick(bareFirst, 'transferredKb'), lowerIsBetter: true },
        { label: 'Lighthouse mobile performance, app /login', unit: 'score', samples: appLighthouse.map((r) => r.score) },
        { label: 'Lighthouse mobile performance, bare React', unit: 'score', samples: bareLighthouse.map((r) => r.score) },
        { label: 'Lighthouse LCP (simulated slow 4G, 4× CPU), app /login', unit: 'ms', samples: appLighthouse.map((r) => r.lcpMs), lowerIsBetter: true },
        { label: 'Lighthouse LCP (simulated slow 4G, 4× CPU), bare React', unit: 'ms', samples: bareLighthouse.map((r) => r.lcpMs), lowerIsBetter: true },
        { label: 'Lighthouse TBT, app /login', unit: 'ms', samples: appLighthouse.map((r) => r.tbtMs), lowerIsBetter: true },
        { label: 'Lighthouse TBT, bare React', unit: 'ms', samples: bareLighthouse.map((r) => r.tbtMs), lowerIsBetter: true },
      ];

      const loginGzip = median(pick(appLogin, 'gzipKb'));
      const bareGzip = median(pick(bareFirst, 'gzipKb'));
      const uncompressed = [...new Set(appLogin.flatMap((load) => load.uncompressed))];
      const dashboardGzip = median(pick(appDashboard, 'gzipKb'));
      const score = median(appLighthouse.map((r) => r.score));
      const bareScore = median(bareLighthouse.map((r) => r.score));
      const targets: TargetCheck[] = [
        {
          target: 'First-route JS (/login) ≤ 170 KB gzip',
          actual: `${formatNumber(loginGzip)} KB gzip in ${formatNumber(median(pick(appLogin, 'files')))} files (${formatNumber(loginGzip / bareGzip)}× the bare app's ${formatNumber(bareGzip)} KB)`,
          met: loginGzip <= 170,
          ...(loginGzip <= 170
            ? {}
            : { note: "Dexie, zod, the sync engine and the screens are out, and Chakra's system carries only the recipes of the components in use (src/client/app/theme.ts). What remains is what the shell needs before anything paints: React DOM (~60 KB gzip, nearly all of the bare app's figure), react-router (~29 KB), i18next with the German texts of the shell (the other screens' texts are a chunk of their own), Chakra UI's styling runtime with its tokens and the used recipes, and emotion. Below 170 KB needs a lighter styling layer or router, not a different split." }),
        },
        {
          target: 'First-route JS sent compressed',
          actual: uncompressed.length === 0 ? 'every script came br-encoded' : `uncompressed: ${uncompressed.join(', ')}`,
          met: uncompressed.length === 0,
        },
        {
          target: 'Total JS (cold login → dashboard) ≤ 400 KB gzip',
          actual: `${formatNumber(dashboardGzip)} KB gzip, ${formatNumber(median(pick(appDashboard, 'transferredKb')))} KB transferred`,
          met: dashboardGzip <= 400,
        },
        {
          target: 'Lighthouse mobile performance ≥ 90 (/login)',
          actual: `median ${formatNumber(score)} (bare React ${formatNumber(bareScore)}); LCP ${formatNumber(median(appLighthouse.map((r) => r.lcpMs)))} ms vs ${formatNumber(median(bareLighthouse.map((r) => r.lcpMs)))} ms`,
          met: score >= 90,
          ...(score >= 90
            ? {}
            : {
                note: "Lighthouse simulates a slow 4G link and a 4× slower CPU from the tasks it observed; most of the lost points are total blocking time: evaluating the entry and the first render are each one long task (Chakra UI's runtime styling — createSystem, then emotion serialising every component's styles — and React DOM). The score follows the first-route JS above and the machine's load: on a shared 2-core machine the same build scored 41 and 54 in consecutive runs.",
              }),
        },
      ];
      return {
        measurements,
        targets,
        notes: [
          '"As transferred" is the body size on the wire (the server sends the precompressed .br files); "gzip" is each file gzip -9 compressed here, for comparison with other tools. The service worker\'s own precache downloads after the first paint are not counted.',
          '"Total" is every script a fresh device loads from /login through the login to the dashboard with its machine names (the demo plant, technician).',
          "The login renders on plain elements with a CSS module and loads no Chakra UI; Chakra's runtime, theme and components come with the design-system frame, requested when the login form is sent (docs/decisions.md, \"The login without the design system\"). Before it (2026-11-25, with Chakra in the entry): /login 207 KB gzip in 35 files, Lighthouse 81.",

          `Lighthouse ${options.runs} runs per app (median), mobile form factor with its default simulated throttling, Debian's Chromium headless; the app served by its own server (\`npm start\`), the bare app by @fastify/static with the same precompressed files.`,
        ],
      };
    } finally {
      await bare.stop();
      await app.stop();
    }
  },
};

export default workload;
