import { describe, expect, it } from 'vitest';
import {
  fitText,
  makerBlock,
  NAME_SIZES,
  printableText,
  STICKER_HEIGHT,
  STICKER_WIDTH,
  stickerPdf,
  stickerSheetPdf,
  TEXT_WIDTH,
  VALUE_SIZES,
  wrapText,
  type Measure,
  type StickerData,
} from '../../src/client/lib/sticker-pdf';

const labels = { manufacturer: 'Hersteller', serialnumber: 'Seriennummer', equipmentid: 'Equipment-ID', footer: 'Anlagenbuch – scannen für Historie und Meldung' };
const machine = (n: number): StickerData => ({
  nodeid: `0190f5a0-0000-7000-8000-${String(n).padStart(12, '0')}`,
  name: `Prüfstand ${n} – Größenmeßgerät`,
  equipmentid: `PRÜ ${n}`,
  manufacturer: 'Hermle AG',
  brand: 'HERMLE',
  model: 'C 42 U',
  serialnumber: `SN-${n}`,
});
const BASE = 'https://anlagenbuch.werk.example';

/** A monospaced font: every character 0.2 mm per pt wide (11 pt: 2.2 mm, 18 characters in the 41.5 mm column). */
const mono: Measure = (text, size) => [...text].length * size * 0.2;

const MM_PER_PT = 25.4 / 72;
interface PlacedText {
  text: string;
  /** Left edge, right edge and baseline in mm from the page's top-left corner. */
  left: number;
  right: number;
  baseline: number;
}

/** The text runs of a PDF's pages as pdf.js reads them (positions included), as a viewer or a search would. */
async function pdfText(pdf: Blob): Promise<PlacedText[][]> {
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const document = await getDocument({ data: new Uint8Array(await pdf.arrayBuffer()), useSystemFonts: false, isEvalSupported: false }).promise;
  const pages: PlacedText[][] = [];
  for (let number = 1; number <= document.numPages; number++) {
    const page = await document.getPage(number);
    const height = page.view[3]!;
    const { items } = await page.getTextContent();
    pages.push(
      items.flatMap((item) =>
        'str' in item && item.str.trim()
          ? [{ text: item.str, left: item.transform[4] * MM_PER_PT, right: (item.transform[4] + item.width) * MM_PER_PT, baseline: (height - item.transform[5]) * MM_PER_PT }]
          : [],
      ),
    );
  }
  await document.destroy();
  return pages;
}

// The stickers' QR codes are rendered and scanned in tests/e2e/equipment.spec.ts; here: what a printer and a mail get.
describe('sticker PDFs', () => {
  it('one sticker is a few kilobytes, not a bitmap: the QR code is vector modules and the streams are compressed', async () => {
    const pdf = await stickerPdf(machine(1), BASE, labels);
    const text = Buffer.from(await pdf.arrayBuffer()).toString('latin1');
    // why 30 KB: the two embedded font subsets (the glyphs in use and the licence in their name tables) are ~13 KB.
    expect(pdf.size).toBeLessThan(30_000);
    expect(text).not.toContain('/Subtype /Image');
    expect(text).toContain('/FlateDecode');
  });

  it('a sheet for 42 machines stays small (was 29 MB with a bitmap per code)', async () => {
    const pdf = await stickerSheetPdf(Array.from({ length: 42 }, (_, n) => machine(n)), BASE, labels, 'Aufkleberbogen');
    expect(pdf.size).toBeLessThan(400_000);
  });

  it('prints letters beyond Latin-1 (Czech, Turkish, Polish, Romanian, Hungarian) with the embedded font, and they extract as text', async () => {
    // Helvetica's WinAnsi printed this name as "Xez _ A ! 5 – ©".
    const data = { ...machine(1), name: 'Řez ş Ł № 5 – Ω', serialnumber: 'ȘȚ-ăîő-űĞİı', manufacturer: 'Škoda Machine Tool a.s.', brand: null, model: 'FCW 150' };
    const [page] = await pdfText(await stickerPdf(data, BASE, labels));
    const text = page!.map((run) => run.text).join('\n');
    expect(text).toContain('Řez ş Ł № 5 – Ω');
    expect(text).toContain('ȘȚ-ăîő-űĞİı');
    expect(text).toContain('Škoda Machine Tool a.s.\nFCW 150'); // too long for a line: the type on a line of its own
    const raw = Buffer.from(await (await stickerPdf(data, BASE, labels)).arrayBuffer()).toString('latin1');
    expect(raw).toContain('/FontFile2');
  });

  it('prints what the font lacks as its base letter or "?", and the rest of the line after it', async () => {
    const [page] = await pdfText(await stickerPdf({ ...machine(1), name: 'Tiếng 😀 Presse' }, BASE, labels));
    expect(page!.map((run) => run.text).join(' ')).toContain('Tieng ? Presse');
  });

  it('a long name takes two lines, whole; the maker line keeps the type; nothing overlaps the QR code or leaves the sticker', async () => {
    const name = 'KOM 01 Kompressorstation Halle Nord West'; // 40 characters: "KOM 01 Kompress…" before
    const data = { ...machine(1), name, manufacturer: 'Jungheinrich AG', brand: 'Jungheinrich', model: 'EFG 216k Elektrostapler' };
    const [page] = await pdfText(await stickerPdf(data, BASE, labels));
    const text = page!.map((run) => run.text).join(' ');
    expect(text).not.toContain('…');
    expect(text.replace(/-\s/g, '')).toContain(name.replace(/-/g, '')); // a word broken at a syllable gets a hyphen
    expect(text).toContain('EFG 216k Elektrostapler');
    expect(text).toContain('Anlagenbuch – scannen für Historie und Meldung');
    const nameRuns = page!.filter((run) => /KOM|Halle|West/.test(run.text));
    expect(new Set(nameRuns.map((run) => run.baseline.toFixed(1))).size).toBe(2);
    for (const run of page!) {
      expect(run.right, run.text).toBeLessThanOrEqual(STICKER_WIDTH - 1.5);
      expect(run.baseline, run.text).toBeLessThanOrEqual(STICKER_HEIGHT - 2);
      // The QR code is the square 4..44 mm: text is right of it, or (the footer) below it.
      expect(run.left >= 44.5 || run.baseline >= 46, run.text).toBe(true);
    }
  });

  it('the longest texts still end above the footer, on every sticker of a sheet', async () => {
    const long: StickerData = {
      ...machine(1),
      name: 'Donaudampfschifffahrtsgesellschaftskapitänsmützenreinigungsanlage Nummer 7 mit Zusatz',
      manufacturer: 'Maschinenfabrik Reinhausen Gesellschaft mit beschränkter Haftung',
      brand: 'Reinhausen Spezialmaschinenbau',
      model: 'VACUTAP VR III 1300 Y',
      serialnumber: 'SN-2019-0045-AB-778812-XYZ-0001-ABCDEF-123456',
      equipmentid: 'EQ-0000000000000000000000000000000000001',
    };
    const [page] = await pdfText(await stickerSheetPdf([long, long, long], BASE, labels, 'Bogen'));
    const footers = page!.filter((run) => run.text.startsWith('Anlagenbuch'));
    expect(footers).toHaveLength(3);
    for (const run of page!) {
      const footer = footers.find((candidate) => Math.abs(candidate.left - run.left) < 50 && candidate.baseline >= run.baseline && candidate.baseline - run.baseline < 45);
      expect(footer, run.text).toBeDefined();
      if (run !== footer) expect(footer!.baseline - run.baseline, run.text).toBeGreaterThan(3);
    }
    expect(page!.map((run) => run.text).join(' ')).toContain('VACUTAP VR III 1300 Y');
  });
});

describe('sticker text layout', () => {
  it('a 40-character name takes two lines, not one line with an ellipsis', () => {
    const name = 'KOM 01 Kompressor Halle Nord Ost Wartung'; // 40 characters; 18 fit on a line at 11 pt, 23 at 9 pt
    const block = fitText(name, TEXT_WIDTH, NAME_SIZES, 2, mono);
    expect(block.lines).toEqual(['KOM 01 Kompressor Halle', 'Nord Ost Wartung']);
    expect(block.ellipsized).toBe(false);
    expect(block.lines.join(' ')).toBe(name);
    for (const line of block.lines) expect(mono(line, block.size)).toBeLessThanOrEqual(TEXT_WIDTH);
  });

  it('shrinks a step or two before an ellipsis, and only then cuts the last line', () => {
    expect(fitText('HUB 02 Ersatz-Hubwagen', TEXT_WIDTH, NAME_SIZES, 2, mono)).toEqual({ size: 11, lines: ['HUB 02 Ersatz-', 'Hubwagen'], ellipsized: false });
    // 41 characters: three lines of 18 at 11 pt, two of 20 at 10 pt.
    const name = 'Kompressor Halle Süd Rampe 12 Wartung Ost';
    const smaller = fitText(name, TEXT_WIDTH, NAME_SIZES, 2, mono);
    expect(smaller.size).toBe(10);
    expect(smaller.ellipsized).toBe(false);
    expect(smaller.lines.join(' ')).toBe(name);
    const tooLong = fitText(`${name} und noch sehr viel mehr Text als auf zwei Zeilen passt`, TEXT_WIDTH, NAME_SIZES, 2, mono);
    expect(tooLong.size).toBe(NAME_SIZES[NAME_SIZES.length - 1]);
    expect(tooLong.lines).toHaveLength(2);
    expect(tooLong.lines[0]!.endsWith('…')).toBe(false);
    expect(tooLong.lines[1]!.endsWith('…')).toBe(true);
    expect(tooLong.ellipsized).toBe(true);
  });

  it('wraps at spaces and after hyphens, breaks a word only when it is wider than a line', () => {
    expect(wrapText('HUB 02 Ersatz-Hubwagen Lager', 40, 11, mono)).toEqual(['HUB 02 Ersatz-', 'Hubwagen Lager']);
    expect(wrapText('Prüfstand 1 – Größenmeßgerät', 40, 11, mono)).toEqual(['Prüfstand 1 –', 'Größenmeßgerät']);
    const lines = wrapText('Donaudampfschifffahrtsgesellschaft', 40, 11, mono);
    expect(lines).toHaveLength(2);
    expect(lines[0]!.endsWith('-')).toBe(true);
    expect(lines.join('').replace('-', '')).toBe('Donaudampfschifffahrtsgesellschaft');
  });

  it('breaks inside a word at a syllable before it gives up and ellipsizes', () => {
    // "KOM 01" / "Kompressorstation" / "Halle Nord": three lines by words even at 9 pt.
    const narrow = (text: string, size: number) => [...text].length * size * 0.21;
    const block = fitText('KOM 01 Kompressorstation Halle Nord', TEXT_WIDTH, NAME_SIZES, 2, narrow);
    expect(block.ellipsized).toBe(false);
    expect(block.lines).toEqual(['KOM 01 Kompressorsta-', 'tion Halle Nord']);
  });

  it('the maker line drops the manufacturer before it cuts, and keeps the type when even that does not fit', () => {
    const full = { manufacturer: 'Jungheinrich AG', brand: 'Jungheinrich', model: 'EFG 216k' };
    expect(makerBlock(full, TEXT_WIDTH, mono)).toEqual({ size: VALUE_SIZES[0], lines: ['Jungheinrich · EFG 216k'], ellipsized: false });
    expect(makerBlock({ manufacturer: 'Hermle AG', brand: null, model: 'C 42 U' }, TEXT_WIDTH, mono).lines).toEqual(['Hermle AG · C 42 U']);
    // no brand: the manufacturer is the only maker, so two lines, the type whole on the second
    expect(makerBlock({ manufacturer: 'Jungheinrich AG', brand: null, model: 'ETV 216i Schubstapler' }, TEXT_WIDTH, mono)).toEqual({
      size: VALUE_SIZES[0],
      lines: ['Jungheinrich AG', 'ETV 216i Schubstapler'],
      ellipsized: false,
    });
    const huge = makerBlock({ manufacturer: 'Maschinenfabrik Reinhausen GmbH', brand: 'Reinhausen Spezialmaschinenbau Regensburg Werk Süd', model: 'VACUTAP VR III 1300' }, TEXT_WIDTH, mono);
    expect(huge.lines.at(-1)).toBe('VACUTAP VR III 1300');
    expect(makerBlock({ manufacturer: null, brand: null, model: null }, TEXT_WIDTH, mono).lines).toEqual(['–']);
  });

  it('keeps what the font has, prints a lacking letter as its base letter, anything else as "?"', () => {
    const latin = (char: string) => char.codePointAt(0)! < 0x250;
    expect(printableText('Řez ş Ł Ő ț', latin)).toBe('Řez ş Ł Ő ț');
    expect(printableText('Tiếng Việt 😀 漢\nZeile', latin)).toBe('Tieng Viet ? ? Zeile');
    expect(printableText('R\u030Cez', latin)).toBe('Řez'); // decomposed input is composed first
  });
});
