/**
 * The benchmark harness's contract. A workload (bench/workloads/wN-*.ts) measures the product and its comparison
 * in the same run, at least `runs` times each, and returns rows; the runner (bench/run.ts) stores them in
 * bench/results/<id>.json and rewrites docs/benchmarks.md from every stored result. Timing lives here and in the
 * workloads only: tests never assert on time.
 */
import os from 'node:os';

export interface BenchOptions {
  /** Repetitions per measurement (≥ 5 for a reported figure; --quick lowers it and marks the report). */
  runs: number;
  /** Smaller data and fewer runs: for trying a workload, never for the figures in docs/benchmarks.md. */
  quick: boolean;
  /** Chromium's CPU throttling rate for the "tablet" measurements (4 = a mid-range tablet). */
  cpuThrottle: number;
  /** A PostgreSQL server for workloads that compare it with PGlite (BENCH_DATABASE_URL or TEST_DATABASE_URL). */
  postgresUrl: string | undefined;
  /** Scratch directory of this run (removed afterwards). */
  workDir: string;
  log: (line: string) => void;
}

/** One measured quantity: its samples (one per run), the unit, and whether smaller is better. */
export interface Measurement {
  label: string;
  unit: 'ms' | 's' | 'KB' | 'MB' | 'req/s' | 'rows/s' | 'count' | 'ratio' | 'score';
  samples: number[];
  lowerIsBetter?: boolean;
}

/** A target of the issue checked against the run's figures, e.g. "≤ 1.5× the floor". */
export interface TargetCheck {
  target: string;
  /** What was measured, in words with the figure: "1.31× (median 812 ms vs 620 ms)". */
  actual: string;
  met: boolean;
  /** Why a target does not hold yet, or what limits it. */
  note?: string;
}

export interface WorkloadResult {
  id: string;
  title: string;
  comparedWith: string;
  measurements: Measurement[];
  targets: TargetCheck[];
  /** Free text for the report: data size, setup, what a reader needs to read the figures. */
  notes: string[];
  quick: boolean;
  finishedAt: string;
  machine: string;
}

export interface Workload {
  /** "W1" … "W8". */
  id: string;
  title: string;
  comparedWith: string;
  run(options: BenchOptions): Promise<Omit<WorkloadResult, 'id' | 'title' | 'comparedWith' | 'quick' | 'finishedAt' | 'machine'>>;
}

export function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Runs `measure` `runs` times after one unmeasured warm-up, returning the samples. */
export async function repeat(runs: number, measure: (run: number) => Promise<number>, warmUp = true): Promise<number[]> {
  if (warmUp) await measure(-1);
  const samples: number[] = [];
  for (let run = 0; run < runs; run++) samples.push(await measure(run));
  return samples;
}

export function ratio(product: number[], comparison: number[]): number {
  return median(product) / median(comparison);
}

export function describeMachine(): string {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  return `${os.cpus().length} × ${cpu.trim()}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.versions.node}, ${os.platform()} ${os.release()}`;
}

export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return '–';
  if (Math.abs(value) >= 100) return Math.round(value).toLocaleString('en-US');
  if (Math.abs(value) >= 10) return value.toFixed(1);
  return value.toFixed(2);
}
