import { describe, expect, it } from 'vitest';
import {
  SUGGESTION_LIMIT,
  foldText,
  normalizeErrorcode,
  prepareCandidate,
  rankSuggestions,
  suggestionWords,
  type SuggestionCandidate,
} from '../../src/shared/domain/suggestions';

let sequence = 0;
/** A candidate with overrides (a solved notification unless told otherwise). */
function candidate(overrides: Partial<SuggestionCandidate> = {}): SuggestionCandidate {
  sequence += 1;
  return { kind: 'solution', scope: 'machine', nodeid: `n-${String(sequence).padStart(3, '0')}`, title: 'Etwas anderes', body: null, errorcode: null, at: null, ...overrides };
}

const rank = (title: string, candidates: SuggestionCandidate[], errorcode: string | null = null, limit?: number) =>
  rankSuggestions({ title, errorcode }, candidates.map(prepareCandidate), limit === undefined ? {} : { limit }).map((item) => item.candidate.nodeid);

describe('normalizing German text', () => {
  it.each([
    ['Ölkühler', 'oelkuehler'],
    ['Straße', 'strasse'],
    ['GRÖSSE', 'groesse'],
    ['Überdruck', 'ueberdruck'],
    ['Café', 'cafe'],
  ])('%s folds to %s', (text, folded) => {
    expect(foldText(text)).toBe(folded);
  });

  it('splits at punctuation, drops stop words, single letters and repeats', () => {
    expect(suggestionWords('Die Spindel läuft heiß – Spindel, Lager & X')).toEqual(['spindel', 'laeuft', 'heiss', 'lager']);
  });

  it.each([
    ['ALM 25000', 'alm25000'],
    [' alm-25000 ', 'alm25000'],
    ['', null],
    ['  ', null],
    [null, null],
  ])('error code %j compares as %j', (code, normalized) => {
    expect(normalizeErrorcode(code)).toBe(normalized);
  });
});

describe('ranking suggestions', () => {
  it.each(['', '   ', 'die der und', '–'])('nothing meaningful typed (%j) suggests nothing', (title) => {
    expect(rank(title, [candidate({ title: 'Spindel blockiert' })])).toEqual([]);
  });

  it('an equal error code comes first, even before a better text match and a newer one', () => {
    const text = candidate({ title: 'Spindel blockiert', at: 2000 });
    const code = candidate({ title: 'Achse steht', errorcode: 'ALM 25000', at: 1000 });
    expect(rank('Spindel blockiert', [text, code], 'alm25000')).toEqual([code.nodeid, text.nodeid]);
  });

  it('an error code typed into the title matches as well', () => {
    const code = candidate({ title: 'Achse steht', errorcode: 'F-30005' });
    expect(rank('Fehler F 30005 an der Maschine', [code])).toEqual([code.nodeid]);
  });

  it('a one- or two-character code is never found inside a title by accident', () => {
    const code = candidate({ title: 'Achse steht', errorcode: '12' });
    expect(rank('Zylinder 123 undicht', [code])).toEqual([]);
    expect(rank('Zylinder undicht', [code], '12')).toEqual([code.nodeid]);
  });

  it('matches across umlauts and ß whichever way they are typed', () => {
    const faq = candidate({ kind: 'faq', title: 'Welches Schmieröl gehört in die Zentralschmierung?' });
    expect(rank('Schmieroel fehlt', [faq])).toEqual([faq.nodeid]);
    const hot = candidate({ title: 'Spindel läuft heiss' });
    expect(rank('Spindel heiß', [hot])).toEqual([hot.nodeid]);
  });

  it('a half-typed last word matches as a prefix, a compound by its last part', () => {
    const pump = candidate({ title: 'Hydraulikpumpe fördert nicht' });
    expect(rank('Hydraulikpu', [pump])).toEqual([pump.nodeid]);
    expect(rank('Pumpe', [pump])).toEqual([pump.nodeid]);
  });

  it('a title match ranks above a match in the answer or the solution only', () => {
    const inBody = candidate({ title: 'Maschine steht', body: 'Kupplung erneuert', at: 3000 });
    const inTitle = candidate({ title: 'Kupplung gebrochen', at: 1000 });
    expect(rank('Kupplung', [inBody, inTitle])).toEqual([inTitle.nodeid, inBody.nodeid]);
  });

  it('more of the typed words matched ranks higher', () => {
    const one = candidate({ title: 'Laser schaltet ab', at: 5000 });
    const two = candidate({ title: 'Laserquelle Kühlkreis schaltet ab Laser', at: 1000 });
    expect(rank('Laser Kühlkreis', [one, two])).toEqual([two.nodeid, one.nodeid]);
  });

  it('ties on the score go to the most recent; FAQs (no date) after dated ones', () => {
    const older = candidate({ title: 'Stapler fährt nicht', at: 1000 });
    const newer = candidate({ title: 'Stapler fährt nicht', at: 2000 });
    const faq = candidate({ kind: 'faq', title: 'Stapler fährt nicht', at: null });
    expect(rank('Stapler fährt', [faq, older, newer])).toEqual([newer.nodeid, older.nodeid, faq.nodeid]);
  });

  it('full ties: the machine before its type, then by title, so the order never flickers', () => {
    const typeB = candidate({ kind: 'faq', scope: 'type', title: 'Roboter B Grundstellung' });
    const machine = candidate({ kind: 'faq', scope: 'machine', title: 'Roboter Z Grundstellung' });
    const typeA = candidate({ kind: 'faq', scope: 'type', title: 'Roboter A Grundstellung' });
    expect(rank('Roboter Grundstellung', [typeB, machine, typeA])).toEqual([machine.nodeid, typeA.nodeid, typeB.nodeid]);
  });

  it('a single common word among many typed ones is not enough', () => {
    const weak = candidate({ title: 'Tür klemmt' });
    expect(rank('Kühlmittel tropft aus der Tür am Boden', [weak])).toEqual([]);
  });

  it('unrelated candidates are left out', () => {
    expect(rank('Spindel blockiert', [candidate({ title: 'Stapler fährt nicht', body: 'Fahrschalter getauscht' })])).toEqual([]);
  });

  it(`shows at most ${SUGGESTION_LIMIT} by default, or the limit given`, () => {
    const many = Array.from({ length: 20 }, (_, index) => candidate({ title: `Spindel Alarm ${index}`, at: index }));
    expect(rank('Spindel', many)).toHaveLength(SUGGESTION_LIMIT);
    expect(rank('Spindel', many, null, 3)).toEqual([many[19]!.nodeid, many[18]!.nodeid, many[17]!.nodeid]);
  });

  it('ranks 100,000 prepared solutions without losing the best one', () => {
    const haystack = Array.from({ length: 100_000 }, (_, index) => candidate({ title: `Störung ${index % 97} Förderband`, body: 'Band nachgespannt', at: index }));
    const needle = candidate({ title: 'Hauptspindel Lagerschaden', errorcode: 'ALM 25000', at: 0 });
    const prepared = [...haystack, needle].map(prepareCandidate);
    const result = rankSuggestions({ title: 'Hauptspindel Lager', errorcode: 'ALM 25000' }, prepared);
    expect(result[0]?.candidate.nodeid).toBe(needle.nodeid);
    expect(result[0]?.reason).toBe('errorcode');
  });
});
