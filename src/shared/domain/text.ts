/** Display truncation of §9 ("notification header title 50", "card and badge text 20", …). */

/** `text` cut to at most `max` characters, the last one an ellipsis when something was cut. */
/** Part 2 §9: card titles (plants, areas, pools, machines, the equipment form's preview) are cut to 40 characters. */
export const CARD_TITLE_MAX = 40;

/** `text` cut to `max` characters (code points) with the ellipsis counted: 'Ölwechsel Hydraulik…'. */
export function truncateText(text: string, max: number): string {
  const chars = [...text];
  if (chars.length <= max) return text;
  return `${chars.slice(0, Math.max(0, max - 1)).join('').trimEnd()}…`;
}

const isText = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

/**
 * A localised text ({de: 'Halle 1', en: 'Hall 1'}) in `lang`, else German, else any language's; null when it has
 * none (an empty or blank text counts as none). A plain string is itself: a route's answer merged into a device's mirror
 * may hold the text already picked. Only own keys are read, because `lang` comes from a request or a device:
 * `__proto__` or `toString` must find nothing, not Object.prototype.
 */
export function localized(value: unknown, lang: string): string | null {
  if (typeof value === 'string') return isText(value) ? value : null;
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const texts = value as Record<string, unknown>;
  const inLanguage = (key: string) => (Object.hasOwn(texts, key) && isText(texts[key]) ? texts[key] : undefined);
  return inLanguage(lang) ?? inLanguage('de') ?? Object.values(texts).find(isText) ?? null;
}

/**
 * The text stored under exactly `lang` (no fallback), undefined when there is none. Own keys only, like
 * `localized`: `lang` comes from a request or a device.
 */
export function textIn(value: unknown, lang: string): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  // eslint-disable-next-line no-restricted-syntax -- guarded by Object.hasOwn: the one place such a lookup is safe
  return Object.hasOwn(value, lang) ? (value as Record<string, unknown>)[lang] : undefined;
}

/** A localised text with `value` written under `lang`, the other languages kept (a computed key: own property). */
export function withLanguage(current: unknown, lang: string, value: string): Record<string, string> {
  const texts = current && typeof current === 'object' && !Array.isArray(current) ? (current as Record<string, string>) : {};
  return { ...texts, [lang]: value };
}

// why one collator per language: localeCompare with options builds a collator on every call (100× slower: a list
// of 5,000 machines took 238 ms to sort).
const nameCollators = new Map<string, Intl.Collator>();

/** Names as people count them: "Drehbank 2" before "Drehbank 10" (a plain comparison puts 10–19 between 1 and 2). */
export function compareNames(a: string, b: string, language: string): number {
  let collator = nameCollators.get(language);
  if (!collator) {
    collator = new Intl.Collator(language, { numeric: true });
    nameCollators.set(language, collator);
  }
  return collator.compare(a, b);
}

const PRINTABLE_ASCII = /^[\x20-\x7E]*$/;

/**
 * The form a name or an identifier is matched in: as stored (trimText), case aside, and as it looks rather than how
 * its characters were encoded — one compatibility form (NFKC: "Ü" pasted from macOS as U+0055 U+0308 is "Ü",
 * a full-width "ＢＡＺ－０１" from a Japanese keyboard is "BAZ-01") without the invisible characters inside
 * ("STR-BAZ\u200B-01" is "STR-BAZ-01"). "STR-BAZ-05 " is "str-baz-05". Two IDs that print the same on a sticker
 * are one ID (docs/decisions.md "One Equipment-ID, one machine").
 */
export function matchKey(text: string): string {
  const trimmed = trimText(text);
  if (PRINTABLE_ASCII.test(trimmed)) return trimmed.toLocaleLowerCase('de');
  return trimmed.normalize('NFKC').replace(INVISIBLE_INSIDE, '').toLocaleLowerCase('de');
}

/**
 * Whether two names are the same name to a user: case and surrounding spaces aside (accents count: "Presse" is not
 * "Pressé"). What a new catalogue entry or counter type is checked against, so no second entry of the same name
 * appears in a picker where the two cannot be told apart.
 */
export function sameName(a: string, b: string): boolean {
  // trimText as the schemas store it: "Schuler\u200B" is stored as "Schuler", so it is that name.
  return trimText(a).localeCompare(trimText(b), 'de', { sensitivity: 'accent' }) === 0;
}

/**
 * Whether `name` is the name (sameName) of one of `others` — the fellow entries a list or picker shows beside it
 * (the other plants, the other areas of the plant, the other pools). An empty name is not taken (it is missing);
 * an edit that keeps the name it was filled with (`kept`) is not held up by a duplicate that was there before.
 */
export function nameTaken(name: string, others: readonly string[], kept?: string | null): boolean {
  const trimmed = trimText(name);
  if (trimmed === '' || (kept != null && sameName(kept, trimmed))) return false;
  return others.some((other) => sameName(other, trimmed));
}

/**
 * What shows nothing: whitespace, the format characters (category Cf: zero-width space, ZWNJ, ZWJ, word joiner, soft
 * hyphen, bidi marks, embeddings and overrides, BOM) and the other default-ignorable code points (Hangul fillers,
 * variation selectors, the combining grapheme joiner); not the prepended concatenation marks, format characters
 * that are drawn (Arabic number sign, end of ayah, …). The text upload check skips these too before looking for
 * markup (it is stricter on purpose: anything before "<html" that shows nothing or little).
 */
const DRAWN_FORMAT = String.raw`[\u0600-\u0605\u06DD\u070F\u0890\u0891\u08E2\u{110BD}\u{110CD}]`;
const SHOWS_NOTHING = String.raw`[\p{Cf}\p{Default_Ignorable_Code_Point}]`;
const INVISIBLE = new RegExp(`^(?!${DRAWN_FORMAT})(?:\\s|${SHOWS_NOTHING})$`, 'u');
/** What matchKey drops inside a text: the invisible characters above that are no whitespace ("A B" stays two words). */
const INVISIBLE_INSIDE = new RegExp(`(?!${DRAWN_FORMAT})${SHOWS_NOTHING}`, 'gu');
/** A variation selector at the end belongs to the character before it (an emoji's presentation, "❤️"): kept. */
const VARIATION_SELECTOR = /^[\uFE00-\uFE0F\u{E0100}-\u{E01EF}]$/u;
/** Tag characters: invisible alone, but the end of a subdivision flag after U+1F3F4 ("🏴󠁧󠁢󠁥󠁮󠁧󠁿", England). */
const isTag = (codePoint: number) => codePoint >= 0xe0020 && codePoint <= 0xe007f;
const WAVING_BLACK_FLAG = 0x1f3f4;

// why a cache: a long invisible run (up to the body limit) would otherwise run one regular expression per character.
const invisibleCache = new Map<number, boolean>();
function isInvisible(codePoint: number): boolean {
  let invisible = invisibleCache.get(codePoint);
  if (invisible === undefined) {
    invisible = INVISIBLE.test(String.fromCodePoint(codePoint));
    if (invisibleCache.size < 4096) invisibleCache.set(codePoint, invisible);
  }
  return invisible;
}

/** The code point that ends at `end` (a surrogate pair counted whole). */
function codePointBefore(text: string, end: number): number {
  const low = text.charCodeAt(end - 1);
  if (low >= 0xdc00 && low <= 0xdfff && end >= 2) {
    const high = text.charCodeAt(end - 2);
    if (high >= 0xd800 && high <= 0xdbff) return (high - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
  }
  return low;
}

/**
 * `text` without what shows nothing at either end: String.prototype.trim's whitespace and the invisible characters
 * above. The input schemas trim with it, so a text of only such characters ("\u200B", a lone bidi override) is
 * empty — a required name "Required", an optional text none — instead of a record whose name shows as nothing,
 * and "Presse 1\u200B" is stored as "Presse 1". Kept at the end: a variation selector ("❤️") and the tags of a
 * subdivision flag. Loops, not a regular expression anchored at the end: that one would try every position of a
 * long invisible run (quadratic in the text's length); an ASCII-bounded text takes the native trim alone.
 */
export function trimText(text: string): string {
  const trimmed = text.trim();
  if (trimmed === '' || (trimmed.charCodeAt(0) < 0x80 && trimmed.charCodeAt(trimmed.length - 1) < 0x80)) return trimmed;
  let start = 0;
  while (start < trimmed.length) {
    const codePoint = trimmed.codePointAt(start)!;
    if (!isInvisible(codePoint)) break;
    start += codePoint > 0xffff ? 2 : 1;
  }
  let end = trimmed.length;
  while (end > start) {
    const codePoint = codePointBefore(trimmed, end);
    const size = codePoint > 0xffff ? 2 : 1;
    if (!isInvisible(codePoint) || VARIATION_SELECTOR.test(String.fromCodePoint(codePoint))) break;
    if (isTag(codePoint)) {
      // A run of tags after the waving black flag is one flag: kept whole; any other run of tags shows nothing and
      // goes whole (one pass over the run: a tag at a time rescanned the rest, quadratic in the run's length).
      let before = end;
      while (before > start && isTag(codePointBefore(trimmed, before))) before -= 2;
      if (before > start && codePointBefore(trimmed, before) === WAVING_BLACK_FLAG) break;
      end = before;
      continue;
    }
    end -= size;
  }
  return start === 0 && end === trimmed.length ? trimmed : trimmed.slice(start, end);
}
