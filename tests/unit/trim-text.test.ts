import { describe, expect, it } from 'vitest';
import { matchKey, sameName, trimText } from '../../src/shared/domain/text';

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
    // A run of tag characters went a tag at a time, each rescanning the run: 100k tags blocked the server for 15 s.
    const tags = '\u{E0067}'.repeat(200_000);
    expect(trimText(`x${tags}`)).toBe('x');
    expect(trimText(`🏴${tags}`)).toBe(`🏴${tags}`);
  });

  it('keeps the format characters that are drawn (the prepended concatenation marks)', () => {
    expect(trimText('\u06DD١٢٣')).toBe('\u06DD١٢٣');
    expect(trimText('\u0600١٢')).toBe('\u0600١٢');
    expect(trimText('\u{110BD}\u200B')).toBe('\u{110BD}');
  });

  it('a name with an invisible character at its end is the same name as without (the duplicate checks use it)', () => {
    expect(sameName('Schuler\u200B', 'schuler')).toBe(true);
    expect(sameName('Presse', 'Pressé')).toBe(false);
  });
});

/** How names and Equipment-IDs are matched (one Equipment-ID, one machine): as they print, not as they are encoded. */
describe('matchKey', () => {
  it('is the trimmed text in lower case', () => {
    expect(matchKey(' STR-BAZ-05 ')).toBe('str-baz-05');
    expect(matchKey('Ölpresse-Ä1\u200B')).toBe('ölpresse-ä1');
  });

  it('matches a letter composed of two code points (NFD), full-width characters and a no-break space with their usual form', () => {
    expect(matchKey('PRU\u0308F-7')).toBe(matchKey('PR\u00DCF-7'));
    expect(matchKey('\uFF22\uFF21\uFF3A\uFF0D\uFF10\uFF15')).toBe('baz-05');
    expect(matchKey('STR\u00A0BAZ')).toBe(matchKey('STR BAZ'));
  });

  it('drops invisible characters inside, but keeps spaces and drawn format characters', () => {
    expect(matchKey('STR-BAZ\u200B-01')).toBe('str-baz-01');
    expect(matchKey('A\u2060\u00ADB')).toBe('ab');
    expect(matchKey('A B')).not.toBe(matchKey('AB'));
    expect(matchKey('x\u0600y')).toBe('x\u0600y');
  });

  it('keeps letters that are others: ß is not ss', () => {
    expect(matchKey('STRA\u1E9EE-1')).toBe('straße-1');
    expect(matchKey('strasse-1')).not.toBe(matchKey('straße-1'));
  });
});
