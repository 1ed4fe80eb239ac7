import { describe, expect, it } from 'vitest';
import { localized, textIn } from '../../src/shared/domain/text';

describe('localized', () => {
  const hall = { de: 'Halle 1', en: 'Hall 1', fr: 'Hall un' };

  it('is the text in the asked language', () => {
    expect(localized(hall, 'en')).toBe('Hall 1');
    expect(localized(hall, 'fr')).toBe('Hall un');
  });

  it('falls back to German, then to any language', () => {
    expect(localized(hall, 'pl')).toBe('Halle 1');
    expect(localized({ en: 'Hall 1' }, 'pl')).toBe('Hall 1');
    expect(localized({ en: 'Hall 1', de: '' }, 'pl')).toBe('Hall 1');
  });

  it('treats an empty text as missing', () => {
    expect(localized({ de: 'Halle 1', en: '' }, 'en')).toBe('Halle 1');
    expect(localized({ en: '' }, 'en')).toBeNull();
    expect(localized('', 'de')).toBeNull();
  });

  it('reads a plain string as is', () => {
    expect(localized('Fräse 1', 'en')).toBe('Fräse 1');
  });

  it('is null for no text at all', () => {
    for (const value of [null, undefined, {}, [], ['Halle'], 42, true]) expect(localized(value, 'de')).toBeNull();
  });

  it('never reads inherited keys: __proto__, toString and constructor find nothing', () => {
    for (const lang of ['__proto__', 'toString', 'constructor', 'hasOwnProperty', 'valueOf']) {
      expect(localized(hall, lang)).toBe('Halle 1');
      expect(localized({}, lang)).toBeNull();
    }
  });

  it('reads a key named __proto__ only when the text has it as its own (JSON from a request)', () => {
    const parsed = JSON.parse('{"__proto__": "Prototyp", "de": "Halle"}') as Record<string, string>;
    expect(localized(parsed, '__proto__')).toBe('Prototyp');
    expect(localized(parsed, 'en')).toBe('Halle');
  });
});

describe('textIn', () => {
  it('is the text stored under exactly that language, without fallback', () => {
    expect(textIn({ de: 'Halle 1', en: 'Hall 1' }, 'en')).toBe('Hall 1');
    expect(textIn({ de: 'Halle 1' }, 'en')).toBeUndefined();
    expect(textIn('Halle 1', 'de')).toBeUndefined();
  });

  it("finds nothing for Object.prototype's members", () => {
    for (const lang of ['__proto__', 'toString', 'valueOf', 'constructor', 'hasOwnProperty']) expect(textIn({ de: 'Halle 1' }, lang)).toBeUndefined();
  });
});
