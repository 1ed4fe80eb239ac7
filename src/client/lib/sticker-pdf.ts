/**
 * Service stickers as PDF (spec part 2 §2.2: QR code, manufacturer, serial number, "PDF download named after the
 * equipment name"): one sticker on its own label-sized page, or a sheet of stickers on A4 in a grid.
 * jsPDF's built-in Helvetica covers Latin-1, so German umlauts and ß print without embedding a font.
 * Shared by the equipment form, the export screen and the machine screen's QR dialog.
 * jsPDF (~400 kB) is imported when a PDF is made, not with this module: the screens showing the QR preview
 * load only the QR encoder (docs/decisions.md § Chunks).
 *
 * The QR code is drawn as filled rectangles (one per run of dark modules in a row), not placed as an image, and the
 * PDF's streams are compressed: a 480-px PNG went in as a 675 KB uncompressed bitmap, so one sticker was a 696 KB
 * PDF and a sheet of 42 machines 29 MB. Vector modules also print sharp at any size.
 */
import type { jsPDF } from 'jspdf';
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
const QR_SIZE = 40;

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

function fit(doc: jsPDF, text: string, width: number): string {
  if (doc.getTextWidth(text) <= width) return text;
  let cut = text;
  while (cut.length > 1 && doc.getTextWidth(`${cut}…`) > width) cut = cut.slice(0, -1);
  return `${cut}…`;
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

async function drawSticker(doc: jsPDF, x: number, y: number, data: StickerData, baseUrl: string, labels: StickerLabels): Promise<void> {
  doc.setDrawColor(26, 61, 112);
  doc.setLineWidth(0.4);
  doc.roundedRect(x + 0.5, y + 0.5, STICKER_WIDTH - 1, STICKER_HEIGHT - 1, 2, 2);
  drawQr(doc, stickerUrl(baseUrl, data.nodeid), x + 4, y + 5, QR_SIZE);
  const left = x + QR_SIZE + 7;
  const width = STICKER_WIDTH - QR_SIZE - 10;
  let line = y + 10;
  doc.setTextColor(26, 61, 112);
  doc.setFont('helvetica', 'bold');
  doc.setFontSize(11);
  doc.text(fit(doc, data.name, width), left, line);
  line += 6;
  doc.setTextColor(30, 30, 30);
  const rows: [string, string | null][] = [
    [labels.manufacturer, [data.manufacturer, data.brand, data.model].filter(Boolean).join(' · ') || null],
    [labels.serialnumber, data.serialnumber],
    [labels.equipmentid, data.equipmentid],
  ];
  for (const [label, value] of rows) {
    doc.setFont('helvetica', 'normal');
    doc.setFontSize(6.5);
    doc.text(label, left, line);
    doc.setFont('helvetica', 'bold');
    doc.setFontSize(8.5);
    doc.text(fit(doc, value ?? '–', width), left, line + 3.6);
    line += 8.6;
  }
  doc.setFont('helvetica', 'normal');
  doc.setFontSize(6);
  doc.setTextColor(90, 90, 90);
  doc.text(fit(doc, labels.footer, width), left, y + STICKER_HEIGHT - 4);
}

/** One sticker on a label-sized page. */
export async function stickerPdf(data: StickerData, baseUrl: string, labels: StickerLabels): Promise<Blob> {
  const { jsPDF } = await import('jspdf');
  const doc = new jsPDF({ orientation: 'landscape', unit: 'mm', format: [STICKER_HEIGHT, STICKER_WIDTH], compress: true });
  doc.setProperties({ title: data.name });
  await drawSticker(doc, 0, 0, data, baseUrl, labels);
  return doc.output('blob');
}

/** Grid on A4 portrait: 2 columns × 5 rows per page, centred. */
export const SHEET_COLUMNS = 2;
export const SHEET_ROWS = 5;

export async function stickerSheetPdf(list: readonly StickerData[], baseUrl: string, labels: StickerLabels, title: string): Promise<Blob> {
  const { jsPDF } = await import('jspdf');
  const doc = new jsPDF({ orientation: 'portrait', unit: 'mm', format: 'a4', compress: true });
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
