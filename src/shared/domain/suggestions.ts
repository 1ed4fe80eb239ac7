/**
 * "What the machine already knows" (issue #13): while a technician types a fault's title, the notification form
 * offers the machine's FAQs, its equipment type's FAQs and the solutions of earlier notifications of this machine
 * and of machines of the same type. Pure ranking, so the device ranks from its mirror offline and tests pin the
 * order: an equal error code first, then how well the words match, then the most recent.
 *
 * Candidates are prepared once (their words normalized) when the machine is chosen; each debounced keystroke only
 * normalizes the typed title and scores the prepared set, so ranking thousands of solved notifications is a few
 * milliseconds of set lookups, not a re-tokenization of every text.
 */

export type SuggestionKind = 'faq' | 'solution';
/** Where a candidate comes from: the machine itself or another machine / the equipment type of the same type. */
export type SuggestionScope = 'machine' | 'type';

export interface SuggestionCandidate {
  kind: SuggestionKind;
  scope: SuggestionScope;
  /** The FAQ's nodeid, or the solved notification's nodeid (what a tap opens). */
  nodeid: string;
  /** FAQ question, or the earlier notification's title. */
  title: string;
  /** FAQ answer, or the solution's title and steps: matched at a lower weight than the title. */
  body: string | null;
  errorcode: string | null;
  /** Recency (epoch ms): when the notification was solved; FAQs carry none and rank after dated ties. */
  at: number | null;
  /** Display only, never ranked: the solution's title or the answer's start. */
  summary?: string | null;
  /** Display only: the machine a solution was found on, or the equipment type's model of a type FAQ. */
  ownerName?: string | null;
  /** What a FAQ belongs to (the machine, or the equipment type for scope `type`): where a tap opens it. */
  ownernodeid?: string | null;
}

export interface PreparedCandidate {
  candidate: SuggestionCandidate;
  titleWords: ReadonlySet<string>;
  bodyWords: ReadonlySet<string>;
  errorcode: string | null;
}

export interface SuggestionQuery {
  title: string;
  errorcode?: string | null;
}

export type SuggestionReason = 'errorcode' | 'text';

export interface RankedSuggestion {
  candidate: SuggestionCandidate;
  reason: SuggestionReason;
  /** 0–1: the share of the typed words the candidate matches (title words count fully, body words half). */
  score: number;
}

/** How many suggestions the panel shows. */
export const SUGGESTION_LIMIT = 6;
/** A text match must cover at least this share of the typed words (one of three, so one stray word is not enough for long titles). */
export const SUGGESTION_MIN_SCORE = 0.3;
/** A typed word shorter than this only matches whole words, never as a prefix ("Öl" must not match "Ölkühler" by accident, "Ölk" may). */
const PREFIX_MIN_LENGTH = 3;
const BODY_WEIGHT = 0.5;
const PREFIX_WEIGHT = 0.8;

/** Words too common in German and English fault texts to say anything about a match. */
const STOP_WORDS: ReadonlySet<string> = new Set([
  'der', 'die', 'das', 'den', 'dem', 'des', 'ein', 'eine', 'einen', 'einem', 'einer', 'und', 'oder', 'ist', 'sind', 'nicht', 'kein', 'keine',
  'mit', 'von', 'bei', 'beim', 'im', 'in', 'am', 'an', 'auf', 'aus', 'zu', 'zum', 'zur', 'fuer', 'nach', 'vor', 'wie', 'was', 'wo', 'wann', 'ich',
  'er', 'sie', 'es', 'wird', 'hat', 'mehr', 'noch', 'the', 'and', 'or', 'of', 'is', 'not', 'no', 'a', 'an', 'to', 'on', 'at', 'for', 'with',
]);

/** Lower case with umlauts and ß folded the way Germans type them without the keys (ä → ae, ß → ss), other accents dropped. */
export function foldText(text: string): string {
  return text
    .toLowerCase()
    .replace(/ä/g, 'ae')
    .replace(/ö/g, 'oe')
    .replace(/ü/g, 'ue')
    .replace(/ß/g, 'ss')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '');
}

/** The distinct meaningful words of a text: folded, split at anything not a letter or digit, stop words and single letters dropped. */
export function suggestionWords(text: string | null | undefined): string[] {
  if (!text) return [];
  const words = foldText(text)
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 1 && !STOP_WORDS.has(word));
  return [...new Set(words)];
}

/** An error code compared without case, spaces or punctuation ("ALM 25000" = "alm-25000"); null when empty. */
export function normalizeErrorcode(code: string | null | undefined): string | null {
  const folded = foldText(code ?? '').replace(/[^a-z0-9]+/g, '');
  return folded === '' ? null : folded;
}

export function prepareCandidate(candidate: SuggestionCandidate): PreparedCandidate {
  return {
    candidate,
    titleWords: new Set(suggestionWords(candidate.title)),
    bodyWords: new Set(suggestionWords(candidate.body)),
    errorcode: normalizeErrorcode(candidate.errorcode),
  };
}

function matchWeight(word: string, words: ReadonlySet<string>): number {
  if (words.has(word)) return 1;
  if (word.length < PREFIX_MIN_LENGTH) return 0;
  // The last word is often half typed: "Hydraulikpu" finds "hydraulikpumpe"; German compounds also end in the
  // typed word's stem ("pumpe" in "hydraulikpumpe") — both count slightly less than a whole word.
  for (const candidate of words) {
    if (candidate.startsWith(word) || (word.length >= 4 && candidate.endsWith(word))) return PREFIX_WEIGHT;
  }
  return 0;
}

/** The share of `queryWords` the candidate matches: title words fully, answer/solution words at half weight. */
export function textScore(queryWords: readonly string[], prepared: PreparedCandidate): number {
  if (queryWords.length === 0) return 0;
  let total = 0;
  for (const word of queryWords) {
    const inTitle = matchWeight(word, prepared.titleWords);
    total += inTitle > 0 ? inTitle : matchWeight(word, prepared.bodyWords) * BODY_WEIGHT;
  }
  return total / queryWords.length;
}

/**
 * The typed title (and error code, when one is given) against prepared candidates. An error code matches when it
 * equals the candidate's, or when the typed title contains the candidate's code ("ALM 25000 Spindel"). Order:
 * error-code matches first, then the text score, then the most recent, then the title (a stable order for
 * ties). Nothing typed, nothing suggested.
 */
export function rankSuggestions(query: SuggestionQuery, prepared: readonly PreparedCandidate[], options: { limit?: number; minScore?: number } = {}): RankedSuggestion[] {
  const limit = options.limit ?? SUGGESTION_LIMIT;
  const minScore = options.minScore ?? SUGGESTION_MIN_SCORE;
  const queryWords = suggestionWords(query.title);
  const queryCode = normalizeErrorcode(query.errorcode);
  const foldedTitle = normalizeErrorcode(query.title) ?? '';
  if (queryWords.length === 0 && queryCode === null) return [];
  const ranked: RankedSuggestion[] = [];
  for (const item of prepared) {
    const score = textScore(queryWords, item);
    // why length ≥ 3 for a code found inside the title: a code "1" would otherwise match every title with a 1.
    const codeMatch = item.errorcode !== null && (item.errorcode === queryCode || (item.errorcode.length >= 3 && foldedTitle.includes(item.errorcode)));
    if (codeMatch) ranked.push({ candidate: item.candidate, reason: 'errorcode', score });
    else if (score >= minScore) ranked.push({ candidate: item.candidate, reason: 'text', score });
  }
  ranked.sort(compareRanked);
  return ranked.slice(0, limit);
}

function compareRanked(a: RankedSuggestion, b: RankedSuggestion): number {
  if (a.reason !== b.reason) return a.reason === 'errorcode' ? -1 : 1;
  if (a.score !== b.score) return b.score - a.score;
  const at = (b.candidate.at ?? -Infinity) - (a.candidate.at ?? -Infinity);
  if (at !== 0 && !Number.isNaN(at)) return at;
  if (a.candidate.scope !== b.candidate.scope) return a.candidate.scope === 'machine' ? -1 : 1;
  return a.candidate.title.localeCompare(b.candidate.title, 'de') || a.candidate.nodeid.localeCompare(b.candidate.nodeid);
}
