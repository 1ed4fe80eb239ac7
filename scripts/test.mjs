#!/usr/bin/env node
// `npm test`: every tier in order — lint, typecheck, unit, API on PGlite, API on PostgreSQL (when
// TEST_DATABASE_URL is set), e2e — each printing its own runner's summary, then one closing line
// "N passed, N failed" over all tests. A failing tier does not stop the later ones, so one run shows everything.
// TEST_TIERS=unit,api limits the run (default: all).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const reports = join(root, 'test-results', 'reports');
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

const bin = (name) => join(root, 'node_modules', '.bin', name);
const wanted = new Set((process.env.TEST_TIERS ?? 'lint,typecheck,unit,api,e2e').split(',').map((t) => t.trim()));
const pgUrl = process.env.TEST_DATABASE_URL;

const vitestCounts = (file) => {
  const report = JSON.parse(readFileSync(file, 'utf8'));
  return { passed: report.numPassedTests, failed: report.numFailedTests, skipped: report.numPendingTests + (report.numTodoTests ?? 0) };
};
const playwrightCounts = (file) => {
  const { stats } = JSON.parse(readFileSync(file, 'utf8'));
  return { passed: stats.expected + stats.flaky, failed: stats.unexpected, skipped: stats.skipped };
};

const tiers = [
  { name: 'lint', cmd: bin('eslint'), args: ['--max-warnings', '0', '.'] },
  { name: 'typecheck', cmd: 'npm', args: ['run', '--silent', 'typecheck'] },
  { name: 'unit', cmd: bin('vitest'), args: ['run', '--project', 'unit', '--reporter=default', '--reporter=json', `--outputFile.json=${join(reports, 'unit.json')}`], report: join(reports, 'unit.json'), counts: vitestCounts },
  { name: 'api', label: 'api (PGlite)', cmd: bin('vitest'), args: ['run', '--project', 'api', '--reporter=default', '--reporter=json', `--outputFile.json=${join(reports, 'api-pglite.json')}`], env: { TEST_DATABASE_URL: '' }, report: join(reports, 'api-pglite.json'), counts: vitestCounts },
  ...(pgUrl ? [{ name: 'api', label: 'api (PostgreSQL)', cmd: bin('vitest'), args: ['run', '--project', 'api', '--reporter=default', '--reporter=json', `--outputFile.json=${join(reports, 'api-postgres.json')}`], env: { TEST_DATABASE_URL: pgUrl }, report: join(reports, 'api-postgres.json'), counts: vitestCounts }] : []),
  { name: 'e2e', cmd: process.execPath, args: [join(root, 'scripts', 'e2e.mjs')], env: { PLAYWRIGHT_JSON_OUTPUT_FILE: join(reports, 'e2e.json') }, report: join(reports, 'e2e.json'), counts: playwrightCounts },
];

const results = [];
for (const tier of tiers.filter((t) => wanted.has(t.name))) {
  const label = tier.label ?? tier.name;
  console.log(`\n━━━ ${label} ━━━`);
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
}
console.log(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(results.every((r) => r.ok) && failed === 0 ? 0 : 1);
