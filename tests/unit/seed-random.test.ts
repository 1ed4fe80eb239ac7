import { describe, expect, it } from 'vitest';
import { createRandom, formatUuidV4, mulberry32 } from '../../src/server/db/seed/random';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('seeded random', () => {
  it('repeats the same sequence for the same seed and differs for another', () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    const c = mulberry32(43);
    const first = Array.from({ length: 5 }, () => a());
    expect(Array.from({ length: 5 }, () => b())).toEqual(first);
    expect(Array.from({ length: 5 }, () => c())).not.toEqual(first);
    for (const value of first) {
      expect(value).toBeGreaterThanOrEqual(0);
      expect(value).toBeLessThan(1);
    }
  });

  it('keeps int, float and pick inside their bounds', () => {
    const random = createRandom(7);
    const seen = new Set<number>();
    for (let i = 0; i < 500; i++) {
      const n = random.int(3, 6);
      seen.add(n);
      expect(n).toBeGreaterThanOrEqual(3);
      expect(n).toBeLessThanOrEqual(6);
      const f = random.float(1.5, 2.5, 1);
      expect(f).toBeGreaterThanOrEqual(1.5);
      expect(f).toBeLessThanOrEqual(2.5);
      expect(Math.round(f * 10)).toBeCloseTo(f * 10, 6);
      expect(['a', 'b']).toContain(random.pick(['a', 'b']));
    }
    expect([...seen].sort()).toEqual([3, 4, 5, 6]);
    expect(() => random.pick([])).toThrow();
  });

  it('samples distinct items', () => {
    const random = createRandom(1);
    const items = [1, 2, 3, 4, 5, 6];
    const sample = random.sample(items, 4);
    expect(sample).toHaveLength(4);
    expect(new Set(sample).size).toBe(4);
    expect(random.sample(items, 10).sort()).toEqual(items);
    expect(items).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('makes valid, reproducible version-4 UUIDs', () => {
    const ids = Array.from({ length: 100 }, (_, i) => i).map(() => createRandom(99));
    expect(new Set(ids.map((r) => r.uuid())).size).toBe(1);
    const random = createRandom(5);
    const many = Array.from({ length: 200 }, () => random.uuid());
    for (const id of many) expect(id).toMatch(UUID_V4);
    expect(new Set(many).size).toBe(200);
    expect(formatUuidV4(new Uint8Array(16).fill(0xff))).toBe('ffffffff-ffff-4fff-bfff-ffffffffffff');
    expect(() => formatUuidV4(new Uint8Array(15))).toThrow();
  });
});
