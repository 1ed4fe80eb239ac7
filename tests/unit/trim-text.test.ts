import { describe, expect, it } from 'vitest';
import { sameName, trimText } from '../../src/shared/domain/text';

const ENGLAND = '🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}';

/** What the input schemas store: a text without what shows nothing at its ends (src/shared/domain/text.ts). */
describe('trimText', () => {
  it('takes whitespace and invisible characters off both ends, nothing inside', () => {
    expect(trimText('  Presse 1\u200B ')).toBe('Presse 1');
    expect(trimText('\u200B\u2060\u00AD\u202E')).toBe('');
    expect(trimText('\uFEFFHalle\u200D 2\u2060')).toBe('Halle\u200D 2');
    expect(trimText('a\u200D')).toBe('a');
    expect(trimText('Presse')).toBe('Presse');
  });

  it('keeps what belongs to an emoji: a variation selector, a ZWJ sequence, a keycap, a subdivision flag’s tags', () => {
    expect(trimText('❤️')).toBe('❤️');
    expect(trimText(' 👨‍👩‍👧 ')).toBe('👨‍👩‍👧');
    expect(trimText('1️⃣')).toBe('1️⃣');
    expect(trimText(`Team ${ENGLAND}`)).toBe(`Team ${ENGLAND}`);
    // Tags after anything but the flag show nothing.
    expect(trimText('Team \u{E0067}\u{E007F}')).toBe('Team');
  });

  it('is linear in a long invisible run at either end (a regular expression anchored at the end was quadratic)', () => {
    const run = '\u200B'.repeat(200_000);
    expect(trimText(`${run}x${run}`)).toBe('x');
  });

  it('a name with an invisible character at its end is the same name as without (the duplicate checks use it)', () => {
    expect(sameName('Schuler\u200B', 'schuler')).toBe(true);
    expect(sameName('Presse', 'Pressé')).toBe(false);
  });
});
