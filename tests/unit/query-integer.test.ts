import { describe, expect, it } from 'vitest';
import { queryInteger } from '../../src/shared/api/fields';

const messageOf = (schema: ReturnType<typeof queryInteger>, value: string) => {
  const result = schema.safeParse(value);
  return result.success ? undefined : result.error.issues.map((issue) => issue.message);
};

describe('queryInteger', () => {
  it('reads plain decimal digits, a leading zero too', () => {
    expect(queryInteger(0).parse('0')).toBe(0);
    expect(queryInteger(1, 5000).parse('02')).toBe(2);
    expect(queryInteger(0).parse('9007199254740991')).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('refuses any other form as not decimal digits', () => {
    for (const value of ['0x10', '1e1', '', ' 5', '-1', '1.5', '+5']) {
      expect(messageOf(queryInteger(0), value), value).toEqual(['Must be a whole number written in decimal digits']);
    }
  });

  it('says a number of digits above the maximum is too large, however many digits it has', () => {
    // A 64-bit maximum pasted from a database tool: the digits are right, the number is not.
    expect(messageOf(queryInteger(0), '9223372036854775807')).toEqual([`Must be at most ${Number.MAX_SAFE_INTEGER}`]);
    expect(messageOf(queryInteger(0), '9007199254740992')).toEqual([`Must be at most ${Number.MAX_SAFE_INTEGER}`]);
    expect(messageOf(queryInteger(0), '9'.repeat(400))).toEqual([`Must be at most ${Number.MAX_SAFE_INTEGER}`]);
    expect(messageOf(queryInteger(1, 5000), '5001')).toEqual(['Must be at most 5000']);
  });
});
