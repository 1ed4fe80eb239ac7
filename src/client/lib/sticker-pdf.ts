/**
 * Service stickers as PDF (spec part 2 §2.2: QR code, manufacturer, serial number, "PDF download named after the
 * equipment name"): one sticker on its own label-sized page, or a sheet of stickers on A4 in a grid.
 * Shared by the equipment form, the export screen and the machine screen's QR dialog.
 * jsPDF (~400 kB) and the font (two chunks of ~125 kB) are imported when a PDF is made, not with this module: the
 * screens showing the QR preview load only the QR encoder (docs/decisions.md § Chunks).
 *
 * Text: DejaVu Sans Condensed, embedded (jsPDF's Helvetica has WinAnsi only: "Řez ş Ł" printed as "Xez _ A"); a
 * character the font lacks prints as its base letter or "?" (printableText). The name takes up to two lines and a
 * step or two smaller font before an ellipsis (fitText); the maker line drops the manufacturer before the type is cut
 * (makerBlock). The column's spacing tightens as the text grows (columnSpacing), so nothing runs into the footer,
 * which spans the sticker below the QR code.
 *
 * The QR code is drawn as filled rectangles (one per run of dark modules in a row), not placed as an image, and the
 * PDF's streams are compressed: a 480-px PNG went in as a 675 KB uncompressed bitmap, so one sticker was a 696 KB
 * PDF and a sheet of 42 machines 29 MB. Vector modules also print sharp at any size.
 */
import type { jsPDF, jsPDFOptions } from 'jspdf';
import QRCode from 'qrcode';
import { stickerUrl } from './sticker-url';

export interface StickerData {
  nodeid: string;
  name: string;
  equipmentid: string | null;
  manufacturer: string | null;
  brand: string | null;
  model: string | null;
  serialnumber: string | null;
}

export interface StickerLabels {
  manufacturer: string;
  serialnumber: string;
  equipmentid: string;
  footer: string;
}

/** One sticker in mm: 90 × 50 fits two columns and five rows on A4 with margins. */
export const STICKER_WIDTH = 90;
export const STICKER_HEIGHT = 50;
/** The QR code's square and its top-left corner in the sticker, in mm. */
const QR_SIZE = 40;
const QR_OFFSET = 4;
/** The text column right of the QR code (its quiet zone is white already) and its width, in mm. */
const TEXT_LEFT = QR_OFFSET + QR_SIZE + 2;
export const TEXT_WIDTH = STICKER_WIDTH - TEXT_LEFT - 2.5;

export function qrDataUrl(text: string): Promise<string> {
  // why M: survives a scratched or dirty sticker (15 %) and keeps modules large enough for a tablet camera.
  return QRCode.toDataURL(text, { errorCorrectionLevel: 'M', margin: 1, width: 480 });
}

/** File name for the download: the equipment name without characters file systems refuse. */
export function stickerFileName(name: string): string {
  // why the filter: control characters are refused by file systems and cannot be typed into a regex literal here.
  const printable = [...name].filter((char) => char.charCodeAt(0) >= 0x20).join('');
  const cleaned = printable.replace(/[\\/:*?"<>|]+/g, ' ').replace(/\s+/g, ' ').trim();
  return `${cleaned || 'Equipment'}.pdf`;
}

/** Measures `text` at `size` pt in mm (the sticker's font, bold or normal as set). */
export type Measure = (text: string, size: number) => number;

/** A text block of the sticker: its font size and the lines to print. */
export interface TextBlock {
  size: number;
  lines: string[];
  /** Whether the last line was cut with an ellipsis. */
  ellipsized: boolean;
}

const ELLIPSIS = '…';
// why: a dash or a middle dot between words stays with the word before it, so a line never starts with one.
const GLUE = /^[·–—\-/|:;,.&+]+$/u;

/** The pieces a line may break between: words, and the parts of a word after a hyphen or a slash ("Ersatz-" "Hub"). */
function pieces(text: string): { text: string; space: boolean }[] {
  const result: { text: string; space: boolean }[] = [];
  for (const word of text.split(' ').filter(Boolean)) {
    const last = result.at(-1);
    if (GLUE.test(word) && last) {
      last.text += ` ${word}`;
      continue;
    }
    // why the lookbehind for a letter: "-5" or "A/B" stay whole; "Ersatz-Hubwagen" may break after the hyphen.
    word.split(/(?<=\p{L}{2}[-/])(?=\p{L})/u).forEach((part, index) => result.push({ text: part, space: index === 0 }));
  }
  return result;
}

/** The longest prefix of `text` (whole characters, at least one) no wider than `width`. */
function prefixFitting(text: string, width: number, size: number, measure: Measure, suffix = ''): string {
  const chars = [...text];
  let count = chars.length;
  while (count > 1 && measure(chars.slice(0, count).join('') + suffix, size) > width) count--;
  return chars.slice(0, count).join('');
}

/**
 * `text` in lines no wider than `width` at `size` pt: broken between words and after hyphens; inside a word only when
 * the word is wider than a line, or with `breakWords` wherever a line would end short (with a hyphen between letters).
 */
export function wrapText(text: string, width: number, size: number, measure: Measure, breakWords = false): string[] {
  const lines: string[] = [];
  let current = '';
  for (const piece of pieces(text)) {
    const glue = current && piece.space ? ' ' : '';
    const joined = `${current}${glue}${piece.text}`;
    if (measure(joined, size) <= width) {
      current = joined;
      continue;
    }
    let rest = piece.text;
    const split = current && breakWords ? splitWord(rest, (head) => measure(`${current}${glue}${head}`, size) <= width) : null;
    if (split) {
      lines.push(`${current}${glue}${split[0]}`);
      rest = split[1];
    } else if (current) {
      lines.push(current);
    }
    while (measure(rest, size) > width) {
      const head = splitWord(rest, (part) => measure(part, size) <= width, 1) ?? [rest, ''];
      lines.push(head[0]);
      rest = head[1];
    }
    current = rest;
  }
  if (current) lines.push(current);
  return lines;
}

const isVowel = (char: string | undefined): boolean => char !== undefined && /^[aeiouy]/i.test(char.normalize('NFD'));
const isLetter = (char: string | undefined): char is string => char !== undefined && /^\p{L}$/u.test(char);

/**
 * Whether a word may be hyphenated before `chars[index]`, by a rough syllable rule: before a consonant (or ch, ck, ph,
 * sch, th) that a vowel follows, as in "Kompressorsta-tion", "Spritzgieß-ma-schine". Not a dictionary: it only keeps
 * breaks like "Kompressorstat-ion" out.
 */
function syllableBreak(chars: readonly string[], index: number): boolean {
  const before = chars[index - 1];
  const after = chars[index];
  if (!isLetter(before) || !isLetter(after)) return false;
  const rest = chars.slice(index, index + 4).join('').toLowerCase();
  const cluster = /^(sch|ch|ck|ph|th)/u.exec(rest)?.[0] ?? after;
  const inside = /^(ch|ck|ph|th)$/u.test(`${before}${after}`.toLowerCase()) || (before.toLowerCase() === 's' && rest.startsWith('ch'));
  return !inside && !isVowel(cluster) && isVowel(chars[index + [...cluster].length]);
}

/**
 * The longest break of `word` whose head `fits` — at a syllable if one fits, else anywhere — leaving `least`
 * characters on either side: [head, rest], the head with a hyphen when the break is between two letters; else null.
 */
function splitWord(word: string, fits: (head: string) => boolean, least = 3): [string, string] | null {
  const chars = [...word];
  const at = (count: number): [string, string] => {
    const before = chars.slice(0, count).join('');
    return [isLetter(chars[count - 1]) && isLetter(chars[count]) ? `${before}-` : before, chars.slice(count).join('')];
  };
  for (const good of [(count: number) => syllableBreak(chars, count), () => true]) {
    for (let count = chars.length - least; count >= least; count--) {
      if (!good(count)) continue;
      const split = at(count);
      if (fits(split[0])) return split;
    }
  }
  return null;
}

/** `text` cut to `width` with an ellipsis (no dangling space, dash or dot before it). */
function ellipsize(text: string, width: number, size: number, measure: Measure): string {
  if (measure(text, size) <= width) return text;
  const head = prefixFitting(text, width, size, measure, ELLIPSIS).replace(/[\s·–—\-/|:;,]+$/u, '');
  return `${head}${ELLIPSIS}`;
}

/**
 * `text` in at most `maxLines` lines of `width`: at the first of `sizes` (largest first) that holds it whole, else at
 * the last size with the last line ellipsized.
 */
export function fitText(value: string, width: number, sizes: readonly number[], maxLines: number, measure: Measure): TextBlock {
  const text = value.replace(/\s+/g, ' ').trim();
  let lines: string[] = [];
  let size = sizes[0] ?? 10;
  for (size of sizes) {
    lines = wrapText(text, width, size, measure);
    if (lines.length <= maxLines) return { size, lines, ellipsized: false };
  }
  // why before the ellipsis: "Kompressor-" "station Halle Nord" tells the whole name, "Kompressorstation Hal…" does not.
  const broken = wrapText(text, width, size, measure, true);
  if (broken.length <= maxLines) return { size, lines: broken, ellipsized: false };
  const kept = lines.slice(0, maxLines - 1);
  // why from the text, not the lines joined: a word broken at a hyphen or inside stays one word on the cut line.
  let rest = text;
  // why the check for a hyphen: a word broken inside got one that is not in the text.
  for (const line of kept) rest = rest.slice(line.endsWith('-') && rest[line.length - 1] !== '-' ? line.length - 1 : line.length).trimStart();
  const last = ellipsize(rest, width, size, measure);
  return { size, lines: [...kept, last], ellipsized: true };
}

/** The sizes (pt) of the machine name and of the values, largest first: a step or two smaller before an ellipsis. */
export const NAME_SIZES = [11, 10, 9] as const;
export const VALUE_SIZES = [8.5, 7.5] as const;
const SINGLE_VALUE_SIZES = [8.5, 7.5, 6.5] as const;
const LABEL_SIZE = 6.5;
const FOOTER_SIZES = [6, 5.5] as const;

/**
 * The "manufacturer · brand · type" value: on one line if it fits; else without the manufacturer when there is a
 * brand (the brand names the maker, the type is what a technician needs); else on two lines, broken between the parts
 * (the type on a line of its own first), a step smaller, then between words; when nothing fits, the maker is cut and
 * the type keeps its line.
 */
export function makerBlock(data: Pick<StickerData, 'manufacturer' | 'brand' | 'model'>, width: number, measure: Measure): TextBlock {
  const parts = [data.manufacturer, data.brand, data.model].filter((part): part is string => Boolean(part));
  const [size] = VALUE_SIZES;
  if (parts.length === 0) return { size, lines: ['–'], ellipsized: false };
  const candidates = data.manufacturer && data.brand ? [parts, parts.slice(1)] : [parts];
  for (const list of candidates) {
    const text = list.join(' · ');
    if (measure(text, size) <= width) return { size, lines: [text], ellipsized: false };
  }
  for (const list of candidates) {
    for (const step of VALUE_SIZES) {
      for (let split = list.length - 1; split >= 1; split--) {
        const lines = [list.slice(0, split).join(' · '), list.slice(split).join(' · ')];
        if (lines.every((line) => measure(line, step) <= width)) return { size: step, lines, ellipsized: false };
      }
    }
  }
  const wrapped = candidates.map((list) => fitText(list.join(' · '), width, VALUE_SIZES, 2, measure));
  const whole = wrapped.find((block) => !block.ellipsized);
  if (whole) return whole;
  const small = VALUE_SIZES.at(-1) ?? size;
  const maker = data.brand ?? data.manufacturer;
  if (maker && data.model && measure(data.model, small) <= width) return { size: small, lines: [ellipsize(maker, width, small, measure), data.model], ellipsized: true };
  return data.model ? fitText(data.model, width, VALUE_SIZES, 2, measure) : wrapped[wrapped.length - 1]!;
}

/** The QR code of `text` as vector modules in a `size` mm square at (x, y), with a one-module quiet zone. */
function drawQr(doc: jsPDF, text: string, x: number, y: number, size: number): void {
  // why M: as qrDataUrl, the same code on screen and on the sticker.
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const margin = 1;
  const cell = size / (modules.size + 2 * margin);
  doc.setFillColor(255, 255, 255);
  doc.rect(x, y, size, size, 'F');
  const runs: [number, number, number][] = [];
  for (let row = 0; row < modules.size; row++) {
    let start = -1;
    for (let col = 0; col <= modules.size; col++) {
      const dark = col < modules.size && modules.get(row, col) === 1;
      if (dark && start < 0) start = col;
      if (!dark && start >= 0) {
        runs.push([row, start, col - start]);
        start = -1;
      }
    }
  }
  // why one path filled once (style null until the last rectangle): rectangles filled one by one leave hairline
  // seams between rows where a viewer anti-aliases each edge; the filled union has none.
  doc.setFillColor(0, 0, 0);
  runs.forEach(([row, col, length], index) => {
    doc.rect(x + (margin + col) * cell, y + (margin + row) * cell, length * cell, cell, index === runs.length - 1 ? 'F' : null);
  });
}

/** The sticker's font family, registered in each document (DejaVu Sans Condensed, see loadFonts). */
const FONT = 'DejaVuSansCondensed';

let fonts: Promise<{ normal: string; bold: string }> | null = null;

/**
 * The sticker's fonts as base64 TTF: DejaVu Sans Condensed, subset to Latin (Latin-1, Extended-A and -B: Czech,
 * Polish, Turkish, Hungarian, Romanian…), Greek, Cyrillic and the usual punctuation and symbols (assets/fonts/README.md,
 * with the licence).
 * jsPDF's built-in Helvetica has WinAnsi only and printed "Řez ş Ł" as "Xez _ A". Loaded with the PDF writer, not with
 * this module (the QR preview loads it too); each file is its own chunk of ~125 KB (~70 KB compressed), and jsPDF
 * embeds only the glyphs a PDF uses.
 */
function loadFonts(): Promise<{ normal: string; bold: string }> {
  fonts ??= Promise.all([import('../assets/fonts/DejaVuSansCondensed-subset.ttf?inline'), import('../assets/fonts/DejaVuSansCondensed-Bold-subset.ttf?inline')]).then(
    ([normal, bold]) => ({ normal: normal.default.slice(normal.default.indexOf(',') + 1), bold: bold.default.slice(bold.default.indexOf(',') + 1) }),
  );
  return fonts;
}

/** A jsPDF document with the sticker's font registered and set. */
async function stickerDocument(options: jsPDFOptions): Promise<jsPDF> {
  // why `then` with the name: with the module object destructured from Promise.all, the bundler kept all of jsPDF's exports.
  const [JsPdf, { normal, bold }] = await Promise.all([import('jspdf').then(({ jsPDF }) => jsPDF), loadFonts()]);
  const doc = new JsPdf(options);
  doc.addFileToVFS(`${FONT}.ttf`, normal);
  doc.addFileToVFS(`${FONT}-Bold.ttf`, bold);
  doc.addFont(`${FONT}.ttf`, FONT, 'normal');
  doc.addFont(`${FONT}-Bold.ttf`, FONT, 'bold');
  doc.setFont(FONT, 'normal');
  return doc;
}

/** jsPDF's parsed TrueType font (`Font.metadata` is typed `any`): the glyph of a UTF-16 code unit, 0 when missing. */
interface TrueTypeMetadata {
  characterToGlyph(code: number): number;
}

/**
 * `text` as the sticker's font can print it: whitespace (line breaks, tabs) as single spaces; a character the font
 * lacks as its base letter when it has one (NFD without the marks: "ạ" → "a"), else "?". Why not leave it to jsPDF:
 * it looks glyphs up per UTF-16 unit and stops the line at the first one missing (an emoji cut the rest of a name).
 */
export function printableText(text: string, hasGlyph: (char: string) => boolean): string {
  let result = '';
  for (const char of text.normalize('NFC').replace(/\s+/g, ' ').trim()) {
    if (hasGlyph(char)) {
      result += char;
      continue;
    }
    const base = [...char.normalize('NFD')].filter((part) => !/\p{M}/u.test(part) && hasGlyph(part)).join('');
    result += base || '?';
  }
  return result;
}

/** Whether both of the sticker's fonts (normal and bold) have a glyph for `char`. */
function fontHasGlyph(doc: jsPDF): (char: string) => boolean {
  const fonts = (['normal', 'bold'] as const).map((style) => {
    doc.setFont(FONT, style);
    return doc.getFont().metadata as TrueTypeMetadata;
  });
  return (char) => char.length === 1 && char.charCodeAt(0) >= 0x20 && fonts.every((font) => font.characterToGlyph(char.charCodeAt(0)) > 0);
}

function measureWith(doc: jsPDF, style: 'normal' | 'bold'): Measure {
  return (text, size) => {
    doc.setFont(FONT, style);
    doc.setFontSize(size);
    return doc.getTextWidth(text);
  };
}

const MM_PER_PT = 25.4 / 72;
/** Baseline to baseline of a block's lines, in mm. */
const lineHeight = (size: number): number => size * MM_PER_PT * 1.15;

interface Spacing {
  /** From the sticker's top to the name's first baseline. */
  top: number;
  /** From the name's last baseline to the first label's. */
  afterName: number;
  /** From a label's baseline to its value's first. */
  label: number;
  /** From a value's last baseline to the next label's. */
  afterValue: number;
}
/** The text column's spacing in mm: roomy for one line of name and values, down to tight for two lines of each. */
const ROOMY: Spacing = { top: 9.5, afterName: 6.5, label: 3.6, afterValue: 5.4 };
const TIGHT: Spacing = { top: 8.5, afterName: 5.2, label: 3.3, afterValue: 4.4 };
/** The last value's baseline stays above this (mm from the sticker's top), clear of the footer. */
const TEXT_BOTTOM = 43.5;
/** The footer's baseline, below the QR code, across the sticker. */
const FOOTER_BASELINE = 47;

/** The spacing that ends the column at TEXT_BOTTOM, as roomy as that allows (never looser than ROOMY). */
function columnSpacing(blocks: readonly TextBlock[]): Spacing {
  const end = (spacing: Spacing): number =>
    spacing.top +
    spacing.afterName +
    (blocks.length - 1) * spacing.label +
    Math.max(0, blocks.length - 2) * spacing.afterValue +
    blocks.reduce((sum, block) => sum + (block.lines.length - 1) * lineHeight(block.size), 0);
  const share = Math.min(1, Math.max(0, (TEXT_BOTTOM - end(TIGHT)) / (end(ROOMY) - end(TIGHT))));
  const between = (key: keyof Spacing): number => TIGHT[key] + share * (ROOMY[key] - TIGHT[key]);
  return { top: between('top'), afterName: between('afterName'), label: between('label'), afterValue: between('afterValue') };
}

async function drawSticker(doc: jsPDF, x: number, y: number, data: StickerData, baseUrl: string, labels: StickerLabels): Promise<void> {
  doc.setDrawColor(26, 61, 112);
  doc.setLineWidth(0.4);
  doc.roundedRect(x + 0.5, y + 0.5, STICKER_WIDTH - 1, STICKER_HEIGHT - 1, 2, 2);
  drawQr(doc, stickerUrl(baseUrl, data.nodeid), x + QR_OFFSET, y + QR_OFFSET, QR_SIZE);
  const hasGlyph = fontHasGlyph(doc);
  const clean = (text: string | null): string | null => (text === null ? null : printableText(text, hasGlyph) || null);
  const bold = measureWith(doc, 'bold');
  const normal = measureWith(doc, 'normal');
  const name = fitText(clean(data.name) ?? '–', TEXT_WIDTH, NAME_SIZES, 2, bold);
  const rows: [string, TextBlock][] = [
    [labels.manufacturer, makerBlock({ manufacturer: clean(data.manufacturer), brand: clean(data.brand), model: clean(data.model) }, TEXT_WIDTH, bold)],
    [labels.serialnumber, fitText(clean(data.serialnumber) ?? '–', TEXT_WIDTH, SINGLE_VALUE_SIZES, 1, bold)],
    [labels.equipmentid, fitText(clean(data.equipmentid) ?? '–', TEXT_WIDTH, SINGLE_VALUE_SIZES, 1, bold)],
  ];
  const spacing = columnSpacing([name, ...rows.map(([, block]) => block)]);
  const left = x + TEXT_LEFT;
  /** Prints `block` with its first baseline at `top`; returns its last baseline. */
  const print = (block: TextBlock, top: number, at = left): number => {
    doc.setFontSize(block.size);
    block.lines.forEach((text, index) => doc.text(text, at, top + index * lineHeight(block.size)));
    return top + (block.lines.length - 1) * lineHeight(block.size);
  };
  doc.setTextColor(26, 61, 112);
  doc.setFont(FONT, 'bold');
  let line = print(name, y + spacing.top) + spacing.afterName;
  doc.setTextColor(30, 30, 30);
  for (const [label, value] of rows) {
    doc.setFont(FONT, 'normal');
    print(fitText(printableText(label, hasGlyph), TEXT_WIDTH, [LABEL_SIZE], 1, normal), line);
    doc.setFont(FONT, 'bold');
    line = print(value, line + spacing.label) + spacing.afterValue;
  }
  doc.setFont(FONT, 'normal');
  doc.setTextColor(90, 90, 90);
  print(fitText(printableText(labels.footer, hasGlyph), STICKER_WIDTH - 2 * QR_OFFSET, FOOTER_SIZES, 1, normal), y + FOOTER_BASELINE, x + QR_OFFSET);
}

/** One sticker on a label-sized page. */
export async function stickerPdf(data: StickerData, baseUrl: string, labels: StickerLabels): Promise<Blob> {
  const doc = await stickerDocument({ orientation: 'landscape', unit: 'mm', format: [STICKER_HEIGHT, STICKER_WIDTH], compress: true });
  doc.setProperties({ title: data.name });
  await drawSticker(doc, 0, 0, data, baseUrl, labels);
  return doc.output('blob');
}

/** Grid on A4 portrait: 2 columns × 5 rows per page, centred. */
export const SHEET_COLUMNS = 2;
export const SHEET_ROWS = 5;

export async function stickerSheetPdf(list: readonly StickerData[], baseUrl: string, labels: StickerLabels, title: string): Promise<Blob> {
  const doc = await stickerDocument({ orientation: 'portrait', unit: 'mm', format: 'a4', compress: true });
  doc.setProperties({ title });
  const pageWidth = doc.internal.pageSize.getWidth();
  const pageHeight = doc.internal.pageSize.getHeight();
  const gap = 4;
  const marginX = (pageWidth - SHEET_COLUMNS * STICKER_WIDTH - (SHEET_COLUMNS - 1) * gap) / 2;
  const marginY = (pageHeight - SHEET_ROWS * STICKER_HEIGHT - (SHEET_ROWS - 1) * gap) / 2;
  const perPage = SHEET_COLUMNS * SHEET_ROWS;
  for (const [index, data] of list.entries()) {
    if (index > 0 && index % perPage === 0) doc.addPage();
    const slot = index % perPage;
    const column = slot % SHEET_COLUMNS;
    const row = Math.floor(slot / SHEET_COLUMNS);
    await drawSticker(doc, marginX + column * (STICKER_WIDTH + gap), marginY + row * (STICKER_HEIGHT + gap), data, baseUrl, labels);
  }
  return doc.output('blob');
}
