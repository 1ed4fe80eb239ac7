/** The soak's figures: latency percentiles and the rule that decides whether a server's memory stayed flat. */

/** Nearest-rank percentile (p in 0..100) of unsorted values; 0 for none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(sorted.length, rank) - 1]!;
}

export interface LatencySummary {
  count: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export function summarizeLatency(ms: readonly number[]): LatencySummary {
  const round = (value: number) => Math.round(value * 10) / 10;
  return { count: ms.length, p50: round(percentile(ms, 50)), p95: round(percentile(ms, 95)), p99: round(percentile(ms, 99)), max: round(Math.max(0, ...ms)) };
}

/**
 * How much a server's resident memory may grow between the second and the last third of the run.
 *
 * The first third is warm-up and left out: V8 compiles, the connection pool opens, caches and the young
 * generation grow to their working size. After that, under a steady load, a server without a leak holds its
 * RSS within what garbage collection moves it (a few percent); a leak proportional to requests grows it
 * steadily, and over the last two thirds of the run that shows as a rising mean. 15 % is well above the
 * collector's swing measured here (a couple of percent) and well below what a per-request leak at the soak's
 * request rate adds over the 1-minute CI run.
 */
export const RSS_GROWTH_LIMIT = 0.15;

export interface RssVerdict {
  samples: number;
  startMb: number;
  endMb: number;
  maxMb: number;
  secondThirdMeanMb: number;
  lastThirdMeanMb: number;
  /** (last third's mean − second third's mean) / second third's mean */
  growth: number;
  flat: boolean;
}

export function rssVerdict(samplesKb: readonly number[], limit = RSS_GROWTH_LIMIT): RssVerdict {
  const mb = (kb: number) => Math.round((kb / 1024) * 10) / 10;
  const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
  const third = Math.floor(samplesKb.length / 3);
  const second = samplesKb.slice(third, 2 * third);
  const last = samplesKb.slice(2 * third);
  const secondMean = mean(second);
  const lastMean = mean(last);
  const growth = secondMean > 0 ? (lastMean - secondMean) / secondMean : 0;
  return {
    samples: samplesKb.length,
    startMb: mb(samplesKb[0] ?? 0),
    endMb: mb(samplesKb.at(-1) ?? 0),
    maxMb: mb(Math.max(0, ...samplesKb)),
    secondThirdMeanMb: mb(secondMean),
    lastThirdMeanMb: mb(lastMean),
    growth: Math.round(growth * 1000) / 1000,
    // why at least 6 samples: with fewer, a third is one or two samples and a single GC swing decides.
    flat: samplesKb.length >= 6 && growth <= limit,
  };
}
