import { describe, expect, it } from 'vitest';
import { percentile, rssVerdict, summarizeLatency } from '../soak/measures';

describe('soak measures', () => {
  it('percentile is the nearest rank', () => {
    const values = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentile(values, 50)).toBe(50);
    expect(percentile(values, 99)).toBe(99);
    expect(percentile(values, 100)).toBe(100);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([], 99)).toBe(0);
    expect(summarizeLatency([1, 2, 3, 4])).toEqual({ count: 4, p50: 2, p95: 4, p99: 4, max: 4 });
  });

  it('memory is flat when the last third stays within 15 % of the second; the warm-up third does not count', () => {
    const warmUpThenSteady = [100, 150, 200, 200, 205, 198, 202, 199, 204];
    expect(rssVerdict(warmUpThenSteady.map((mb) => mb * 1024))).toMatchObject({ flat: true, startMb: 100, endMb: 204, secondThirdMeanMb: 201, maxMb: 205 });
    const leaking = [200, 200, 200, 200, 210, 220, 240, 250, 260];
    const verdict = rssVerdict(leaking.map((mb) => mb * 1024));
    expect(verdict.flat).toBe(false);
    expect(verdict.growth).toBeCloseTo(250 / 210 - 1, 3);
    // Too few samples decide nothing: not flat.
    expect(rssVerdict([1, 1, 1, 1, 1]).flat).toBe(false);
  });
});
