/**
 * `npm run bench [-- --only W1,W7] [--quick] [--runs N] [--throttle 4] [--report]`: runs the workloads (each with its
 * comparison in the same run), stores each result in bench/results/<id>.json and rewrites docs/benchmarks.md
 * from every stored result, so running one workload keeps the others' last figures. `--report` runs nothing and
 * only rewrites the document. Not part of `npm test`.
 */
import { mkdtemp, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BenchOptions, type Workload, type WorkloadResult, describeMachine } from './lib/harness';
import { renderReport } from './lib/report';

const root = fileURLToPath(new URL('..', import.meta.url));
const resultsDir = join(root, 'bench', 'results');

function argument(args: string[], name: string): string | undefined {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : undefined;
}

async function loadWorkloads(): Promise<Workload[]> {
  const dir = join(root, 'bench', 'workloads');
  const files = (await readdir(dir)).filter((file) => /^w\d+-.*\.ts$/.test(file)).sort((a, b) => Number(a.slice(1, a.indexOf('-'))) - Number(b.slice(1, b.indexOf('-'))));
  const workloads: Workload[] = [];
  for (const file of files) {
    const module = (await import(join(dir, file))) as { default: Workload };
    workloads.push(module.default);
  }
  return workloads;
}

async function main(args: string[]): Promise<number> {
  const quick = args.includes('--quick');
  const only = argument(args, '--only')?.split(',').map((id) => id.trim().toUpperCase());
  const workDir = await mkdtemp(join(tmpdir(), 'anlagenbuch-bench-'));
  const options: BenchOptions = {
    runs: Number(argument(args, '--runs') ?? (quick ? 2 : 5)),
    quick,
    cpuThrottle: Number(argument(args, '--throttle') ?? 4),
    postgresUrl: process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? undefined,
    workDir,
    log: (line) => console.log(`  ${line}`),
  };
  await mkdir(resultsDir, { recursive: true });
  const workloads = args.includes('--report') ? [] : (await loadWorkloads()).filter((workload) => !only || only.includes(workload.id));
  let failures = 0;
  try {
    for (const workload of workloads) {
      console.log(`\n━━━ ${workload.id} ${workload.title} (vs ${workload.comparedWith})`);
      const started = Date.now();
      try {
        const outcome = await workload.run(options);
        const result: WorkloadResult = { id: workload.id, title: workload.title, comparedWith: workload.comparedWith, quick, finishedAt: new Date().toISOString(), machine: describeMachine(), ...outcome };
        await writeFile(join(resultsDir, `${workload.id}.json`), `${JSON.stringify(result, null, 2)}\n`);
        for (const target of result.targets) console.log(`  ${target.met ? 'met ' : 'MISS'} ${target.target}: ${target.actual}`);
      } catch (error) {
        failures += 1;
        console.error(`  ${workload.id} failed:`, error);
      }
      console.log(`  (${((Date.now() - started) / 1000).toFixed(0)} s)`);
    }
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
  const stored: WorkloadResult[] = [];
  for (const file of (await readdir(resultsDir)).filter((name) => name.endsWith('.json')).sort()) {
    stored.push(JSON.parse(await readFile(join(resultsDir, file), 'utf8')) as WorkloadResult);
  }
  await writeFile(join(root, 'docs', 'benchmarks.md'), renderReport(stored, await readFile(join(root, 'bench', 'README-section.md'), 'utf8')));
  console.log(`\ndocs/benchmarks.md rewritten from ${stored.length} stored results.`);
  return failures === 0 ? 0 : 1;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
