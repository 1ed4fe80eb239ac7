#!/usr/bin/env node
// `npm test`: every tier in order — lint, typecheck, unit, API on PGlite, API on PostgreSQL and the 60-second soak
// (both when TEST_DATABASE_URL is set; the soak reports itself skipped without it), e2e — each printing its own
// runner's summary, then one closing line "N passed, N failed" over all tests (the soak counts its checks).
// A failing tier does not stop the later ones, so one run shows everything.
// TEST_TIERS=unit,api limits the run (default: all). SOAK_SECONDS changes the soak's length (default 60).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const reports = join(root, 'test-results', 'reports');
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

const bin = (name) => join(root, 'node_modules', '.bin', name);
const wanted = new Set((process.env.TEST_TIERS ?? 'lint,typecheck,unit,api,soak,e2e').split(',').map((t) => t.trim()));
const pgUrl = process.env.TEST_DATABASE_URL;

// Each counter also names its failed tests with the first line of their error, so the summary at the end of a long
// log (often all a CI page shows) says what broke.
// eslint-disable-next-line no-control-regex -- why: the runners' messages carry ANSI colour codes (ESC [ … m).
const firstLine = (text) => String(text ?? '').replace(/\u001b\[[0-9;]*m/g, '').split('\n').find((line) => line.trim()) ?? '';
const vitestCounts = (file) => {
  const report = JSON.parse(readFileSync(file, 'utf8'));
  const failures = report.testResults.flatMap((fileResult) => {
    const path = fileResult.name.replace(`${root}`, '');
    const tests = fileResult.assertionResults.filter((a) => a.status === 'failed');
    if (tests.length === 0 && fileResult.status === 'failed') return [`${path}: ${firstLine(fileResult.message)}`];
    return tests.map((a) => `${path} › ${a.fullName}: ${firstLine(a.failureMessages?.[0])}`);
  });
  return { passed: report.numPassedTests, failed: report.numFailedTests, skipped: report.numPendingTests + (report.numTodoTests ?? 0), failures };
};
// The soak (tests/soak/soak.ts) writes its checks into test-results/soak.json.
const soakReport = join(root, 'test-results', 'soak.json');
const soakCounts = (file) => {
  const report = JSON.parse(readFileSync(file, 'utf8'));
  return { passed: report.passed, failed: report.failed, skipped: 0, failures: (report.checks ?? []).filter((c) => !c.ok).map((c) => `${c.name}: ${c.detail ?? ''}`) };
};
const playwrightCounts = (file) => {
  const { stats, suites } = JSON.parse(readFileSync(file, 'utf8'));
  const failures = [];
  const walk = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status !== 'unexpected') continue;
        const error = test.results?.at(-1)?.error?.message;
        failures.push(`${spec.file}:${spec.line} [${test.projectName}] › ${[...titles, spec.title].join(' › ')}: ${firstLine(error)}`);
      }
    }
    for (const child of suite.suites ?? []) walk(child, [...titles, child.title].filter(Boolean));
  };
  for (const suite of suites ?? []) walk(suite, []);
  return { passed: stats.expected + stats.flaky, failed: stats.unexpected, skipped: stats.skipped, failures };
};

const tiers = [
  { name: 'lint', cmd: bin('eslint'), args: ['--max-warnings', '0', '.'] },
  { name: 'typecheck', cmd: 'npm', args: ['run', '--silent', 'typecheck'] },
  { name: 'unit', cmd: bin('vitest'), args: ['run', '--project', 'unit', '--reporter=default', '--reporter=json', `--outputFile.json=${join(reports, 'unit.json')}`], report: join(reports, 'unit.json'), counts: vitestCounts },
  { name: 'api', label: 'api (PGlite)', cmd: bin('vitest'), args: ['run', '--project', 'api', '--reporter=default', '--reporter=json', `--outputFile.json=${join(reports, 'api-pglite.json')}`], env: { TEST_DATABASE_URL: '' }, report: join(reports, 'api-pglite.json'), counts: vitestCounts },
  ...(pgUrl ? [{ name: 'api', label: 'api (PostgreSQL)', cmd: bin('vitest'), args: ['run', '--project', 'api', '--reporter=default', '--reporter=json', `--outputFile.json=${join(reports, 'api-postgres.json')}`], env: { TEST_DATABASE_URL: pgUrl }, report: join(reports, 'api-postgres.json'), counts: vitestCounts }] : []),
  pgUrl
    ? { name: 'soak', label: `soak (${process.env.SOAK_SECONDS ?? 60} s)`, cmd: process.execPath, args: ['--import', 'tsx', join(root, 'tests', 'soak', 'soak.ts')], env: { SOAK_DATABASE_URL: pgUrl }, report: soakReport, counts: soakCounts }
    : { name: 'soak', skip: 'needs TEST_DATABASE_URL: its two server instances share one PostgreSQL database' },
  { name: 'e2e', cmd: process.execPath, args: [join(root, 'scripts', 'e2e.mjs')], env: { PLAYWRIGHT_JSON_OUTPUT_FILE: join(reports, 'e2e.json') }, report: join(reports, 'e2e.json'), counts: playwrightCounts },
];

const results = [];
for (const tier of tiers.filter((t) => wanted.has(t.name))) {
  const label = tier.label ?? tier.name;
  console.log(`\n━━━ ${label} ━━━`);
  if (tier.skip) {
    console.log(`skipped: ${tier.skip}`);
    results.push({ label, ok: true, seconds: '0', counts: { passed: 0, failed: 0, skipped: 1 } });
    continue;
  }
  // A report left from an earlier run must not be counted for a runner that crashed before writing its own.
  if (tier.report) rmSync(tier.report, { force: true });
  const started = Date.now();
  const run = spawnSync(tier.cmd, tier.args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...tier.env } });
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  const counts = tier.report && existsSync(tier.report) ? tier.counts(tier.report) : undefined;
  results.push({ label, ok: run.status === 0, seconds, counts });
}

console.log('\n━━━ summary ━━━');
let passed = 0;
let failed = 0;
let skipped = 0;
for (const r of results) {
  const detail = r.counts ? `${r.counts.passed} passed, ${r.counts.failed} failed, ${r.counts.skipped} skipped` : r.ok ? 'clean' : 'errors';
  console.log(`${r.ok ? 'ok  ' : 'FAIL'} ${r.label.padEnd(18)} ${detail} (${r.seconds}s)`);
  if (r.counts) {
    passed += r.counts.passed;
    failed += r.counts.failed;
    skipped += r.counts.skipped;
  }
  // A tier that failed without counted test failures (lint, typecheck, a crash) still fails the run.
  if (!r.ok && (!r.counts || r.counts.failed === 0)) failed += 1;
  for (const failure of r.counts?.failures ?? []) console.log(`       ✗ ${failure.slice(0, 300)}`);
}
console.log(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(results.every((r) => r.ok) && failed === 0 ? 0 : 1);
