/**
 * The README promises Node ≥ 20.19 (package.json `engines`). A dependency that requires a newer Node makes
 * `npm ci` print EBADENGINE and may break at run time; the lockfile is checked so that promise stays true.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

type Version = [number, number, number];

const parse = (text: string): Version => {
  const [major = 0, minor = 0, patch = 0] = text.replace(/^v/, '').split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : 0));
  return [major, minor, patch];
};
const compare = (a: Version, b: Version): number => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/** Whether one comparator of an npm range ("^20.19.0", ">= 18", "20", "6.*", "*") admits the version. */
function admits(comparator: string, version: Version): boolean {
  const match = /^(\^|~|>=|<=|>|<|=)?\s*v?([\d.x*]+)$/.exec(comparator.trim());
  if (!match) throw new Error(`Unreadable engine range part: ${comparator}`);
  const [, operator = '', text = ''] = match;
  const parts = text.split('.').filter((part) => part !== '' && part !== 'x' && part !== '*');
  const bound = parse(parts.join('.'));
  switch (operator) {
    case '>=':
      return compare(version, bound) >= 0;
    case '>':
      return compare(version, bound) > 0;
    case '<=':
      return compare(version, bound) <= 0;
    case '<':
      return compare(version, bound) < 0;
    case '^':
      return compare(version, bound) >= 0 && version[0] === bound[0];
    case '~':
      return compare(version, bound) >= 0 && version[0] === bound[0] && version[1] === bound[1];
    default:
      // A bare or x-range version: each given part must match.
      return parts.every((part, index) => version[index] === Number(part));
  }
}

function rangeAdmits(range: string, version: string): boolean {
  const wanted = parse(version);
  return range.split('||').some((alternative) => {
    const comparators = alternative.trim().replace(/(>=|<=|>|<|=)\s+/g, '$1').split(/\s+/).filter((part) => part !== '' && part !== '*');
    return comparators.every((comparator) => admits(comparator, wanted));
  });
}

interface LockPackage {
  engines?: { node?: string } | string[];
  optional?: boolean;
}

describe('Node version promise', () => {
  it('reads npm engine ranges as npm does', () => {
    expect(rangeAdmits('>=20.19', '20.19.0')).toBe(true);
    expect(rangeAdmits('>=22', '20.19.0')).toBe(false);
    expect(rangeAdmits('^20.19.0 || >=22.12.0', '20.19.0')).toBe(true);
    expect(rangeAdmits('^18.18.0 || ^20.9.0 || >=21.1.0', '20.19.0')).toBe(true);
    expect(rangeAdmits('^22.20 || ^24.12 || >=25', '20.19.0')).toBe(false);
    expect(rangeAdmits('18 || 20 || >=22', '20.19.0')).toBe(true);
    expect(rangeAdmits('6.* || 8.* || >= 10.*', '20.19.0')).toBe(true);
    expect(rangeAdmits('>=16 || 14 >=14.17', '20.19.0')).toBe(true);
    expect(rangeAdmits('*', '20.19.0')).toBe(true);
  });

  it('every package npm ci installs runs on the promised Node (no EBADENGINE)', () => {
    const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string } };
    const promised = /^>=\s*([\d.]+)$/.exec(manifest.engines.node)?.[1];
    expect(promised).toBeDefined();
    const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as { packages: Record<string, LockPackage> };
    const tooNew = Object.entries(lock.packages)
      // why optional ones are left out: npm skips an optional platform package whose engine does not fit, silently.
      .filter(([name, entry]) => name !== '' && !entry.optional && !Array.isArray(entry.engines) && entry.engines?.node !== undefined)
      .filter(([, entry]) => !rangeAdmits((entry.engines as { node: string }).node, promised!))
      .map(([name, entry]) => `${name} (${(entry.engines as { node: string }).node})`);
    expect(tooNew).toEqual([]);
  });
});
