import { describe, expect, it } from 'vitest';
import { machinePictogram, nameplateSvg, signatureSvg, simplePdf, truncate } from '../../src/server/db/seed/demo-files';
import { nextOccurrence } from '../../src/server/db/seed/demo/build-maintenance';
import { createRandom } from '../../src/server/db/seed/random';

const text = (bytes: Uint8Array) => new TextDecoder('latin1').decode(bytes);

describe('generated demo files', () => {
  it('writes a PDF whose cross-reference table points at its objects', () => {
    const pdf = text(simplePdf('Wartungsplan (Halle 1)', ['Öl prüfen – täglich', 'Preis 12 €']));
    expect(pdf.startsWith('%PDF-1.4')).toBe(true);
    const startxref = Number(/startxref\n(\d+)/.exec(pdf)![1]);
    expect(pdf.slice(startxref, startxref + 4)).toBe('xref');
    const offsets = [...pdf.matchAll(/(\d{10}) 00000 n/g)].map((m) => Number(m[1]));
    expect(offsets).toHaveLength(6);
    offsets.forEach((offset, i) => expect(pdf.slice(offset).startsWith(`${i + 1} 0 obj`)).toBe(true));
    const length = Number(/\/Length (\d+)/.exec(pdf)![1]);
    const start = pdf.indexOf('stream\n') + 'stream\n'.length;
    expect(pdf.slice(start + length, start + length + 10)).toBe('\nendstream');
    // Parentheses in text are escaped; umlauts stay single Latin-1 bytes.
    expect(pdf).toContain('(Wartungsplan \\(Halle 1\\))');
    expect(pdf).toContain('Öl prüfen');
  });

  it('escapes text in SVGs', () => {
    const svg = new TextDecoder().decode(nameplateSvg({ manufacturer: 'A & B <GmbH>', model: 'X "1"', serialnumber: 'S-1', year: 2020, powerKw: 7.5 }));
    expect(svg).toContain('A &amp; B &lt;GmbH&gt;');
    expect(svg).toContain('X &quot;1&quot;');
    expect(svg).toContain('7,5 kW');
    expect(new TextDecoder().decode(machinePictogram('robot', 'KUKA'))).toContain('<svg');
  });

  it('draws the same signature for the same seed', () => {
    expect(signatureSvg('Jonas Weber', createRandom(3))).toEqual(signatureSvg('Jonas Weber', createRandom(3)));
  });

  it('truncates at a word boundary with an ellipsis', () => {
    expect(truncate('kurz', 10)).toBe('kurz');
    expect(truncate('Spindel blockiert – Maschine steht', 20)).toBe('Spindel blockiert…');
    expect(truncate('Donaudampfschifffahrtsgesellschaft', 10)).toBe('Donaudamp…');
  });
});

describe('task occurrences', () => {
  it('steps weeks by days and months by calendar', () => {
    const start = new Date(Date.UTC(2026, 0, 28, 8));
    expect(nextOccurrence(start, '2w').toISOString()).toBe('2026-02-11T08:00:00.000Z');
    expect(nextOccurrence(start, '1m').toISOString()).toBe('2026-02-28T08:00:00.000Z');
    expect(nextOccurrence(start, '18m').toISOString()).toBe('2027-07-28T08:00:00.000Z');
  });
});
