/**
 * The "Equipment Report" PDF (spec part 1 §2.1 history tab, §6 `export` create, §9): A4 portrait with the
 * machine's header, the active filters in words and the filtered notifications as a table, page numbers and the
 * export date on every page. Built on the device (jsPDF + jspdf-autotable), so it works offline. jsPDF's built-in
 * Helvetica covers Latin-1, so ä ö ü ß print without embedding a font.
 */
import { jsPDF } from 'jspdf';
import { autoTable } from 'jspdf-autotable';
import { notificationTypeStyle, type NotificationColour } from '../../../shared/domain/notification';
import { formatDateTime } from '../../lib/dates';
import type { HistoryEntry } from '../../sync/machine-history';
import {
  HISTORY_REPORT_TITLE,
  historyReportFileName,
  historyReportHeader,
  historyReportRows,
  type HistoryReportLabels,
  type HistoryReportMachine,
} from './history-report';

export interface HistoryPdfTexts extends HistoryReportLabels {
  /** "Maschinenhistorie", "Filter", "{{count}} Meldungen", "Erstellt am {{date}}", "Seite {{page}} von {{pages}}", "Keine Meldung …". */
  subtitle: string;
  filterHeading: string;
  count: (count: number) => string;
  createdAt: (date: string) => string;
  page: (page: number, pages: number) => string;
  empty: string;
  columns: { date: string; type: string; title: string; status: string; closed: string; author: string };
}

const BRAND: [number, number, number] = [26, 61, 112];
const TEXT: [number, number, number] = [30, 30, 30];
const MUTED: [number, number, number] = [100, 100, 100];
const MARGIN = 15;

/** The badge colours of §4.1 as print colours (the screen's palette, a shade darker for paper). */
const PRINT_COLOURS: Record<NotificationColour, [number, number, number]> = {
  red: [197, 48, 48],
  amber: [214, 158, 46],
  grey: [113, 128, 150],
  blue: [43, 108, 176],
  purple: [107, 70, 193],
  green: [47, 133, 90],
  orange: [221, 107, 32],
  black: [0, 0, 0],
};

function typeColour(entry: HistoryEntry): [number, number, number] {
  const style = notificationTypeStyle(entry.type, entry.colorcode);
  if (style.colorcode) {
    const hex = style.colorcode.slice(1);
    return [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
  }
  return PRINT_COLOURS[style.colour];
}

export interface HistoryPdf {
  doc: jsPDF;
  fileName: string;
}

export function buildHistoryPdf(input: { machine: HistoryReportMachine; entries: readonly HistoryEntry[]; filterSummary: string; texts: HistoryPdfTexts; now: number }): HistoryPdf {
  const { machine, entries, filterSummary, texts, now } = input;
  const doc = new jsPDF({ unit: 'mm', format: 'a4', orientation: 'portrait' });
  doc.setProperties({ title: HISTORY_REPORT_TITLE, subject: `${texts.subtitle}: ${machine.name}`, creator: 'Anlagenbuch' });
  const pageWidth = doc.internal.pageSize.getWidth();
  const pageHeight = doc.internal.pageSize.getHeight();
  const exported = formatDateTime(now);

  // Title block.
  doc.setFillColor(...BRAND);
  doc.rect(0, 0, pageWidth, 4, 'F');
  doc.setTextColor(...BRAND);
  doc.setFont('helvetica', 'bold');
  doc.setFontSize(20);
  doc.text(HISTORY_REPORT_TITLE, MARGIN, 18);
  doc.setFont('helvetica', 'normal');
  doc.setFontSize(10);
  doc.setTextColor(...MUTED);
  doc.text(texts.createdAt(exported), pageWidth - MARGIN, 18, { align: 'right' });
  doc.setTextColor(...TEXT);
  doc.setFont('helvetica', 'bold');
  doc.setFontSize(14);
  doc.text(doc.splitTextToSize(`${texts.subtitle}: ${machine.name}`, pageWidth - 2 * MARGIN) as string[], MARGIN, 27);

  // Machine header: label/value pairs in two columns.
  const header = historyReportHeader(machine, texts);
  const half = Math.ceil(header.length / 2);
  autoTable(doc, {
    startY: 33,
    margin: { left: MARGIN, right: MARGIN },
    theme: 'plain',
    styles: { font: 'helvetica', fontSize: 9.5, cellPadding: { top: 1.2, bottom: 1.2, left: 2, right: 2 }, textColor: TEXT },
    columnStyles: { 0: { textColor: MUTED, cellWidth: 30 }, 1: { fontStyle: 'bold' }, 2: { textColor: MUTED, cellWidth: 30 }, 3: { fontStyle: 'bold' } },
    body: header.slice(0, half).map(([label, value], i) => [label, value, header[half + i]?.[0] ?? '', header[half + i]?.[1] ?? '']),
    tableLineColor: [220, 220, 220],
    tableLineWidth: 0.2,
  });

  // Filters and count.
  let y = (doc as jsPDF & { lastAutoTable: { finalY: number } }).lastAutoTable.finalY + 7;
  doc.setFontSize(10);
  doc.setFont('helvetica', 'bold');
  doc.text(`${texts.filterHeading}:`, MARGIN, y);
  doc.setFont('helvetica', 'normal');
  const filterLines = doc.splitTextToSize(filterSummary, pageWidth - 2 * MARGIN - 18) as string[];
  doc.text(filterLines, MARGIN + 18, y);
  y += filterLines.length * 4.6 + 1;
  doc.setFont('helvetica', 'bold');
  doc.text(texts.count(entries.length), MARGIN, y);

  const rows = historyReportRows(entries, texts);
  autoTable(doc, {
    startY: y + 3,
    margin: { left: MARGIN, right: MARGIN, top: 18, bottom: 18 },
    theme: 'striped',
    head: [[texts.columns.date, texts.columns.type, texts.columns.title, texts.columns.status, texts.columns.closed, texts.columns.author]],
    body: rows.length > 0 ? rows : [[{ content: texts.empty, colSpan: 6, styles: { halign: 'center', textColor: MUTED } }]],
    styles: { font: 'helvetica', fontSize: 8.5, cellPadding: 1.8, textColor: TEXT, overflow: 'linebreak', valign: 'top' },
    headStyles: { fillColor: BRAND, textColor: [255, 255, 255], fontStyle: 'bold' },
    alternateRowStyles: { fillColor: [244, 246, 250] },
    columnStyles: { 0: { cellWidth: 20 }, 1: { cellWidth: 33, cellPadding: { top: 1.8, bottom: 1.8, left: 3.4, right: 1.8 } }, 3: { cellWidth: 20 }, 4: { cellWidth: 20 }, 5: { cellWidth: 29 } },
    rowPageBreak: 'avoid',
    showHead: 'everyPage',
    didDrawCell: (data) => {
      // A stripe in the type's colour, as the badge on screen.
      if (data.section !== 'body' || data.column.index !== 1 || rows.length === 0) return;
      const entry = entries[data.row.index];
      if (!entry) return;
      doc.setFillColor(...typeColour(entry));
      doc.rect(data.cell.x + 0.6, data.cell.y + 1.2, 1.4, data.cell.height - 2.4, 'F');
    },
  });

  // Footer on every page: what it is, when it was made, page n of m.
  const pages = doc.getNumberOfPages();
  for (let page = 1; page <= pages; page++) {
    doc.setPage(page);
    doc.setDrawColor(200, 200, 200);
    doc.setLineWidth(0.2);
    doc.line(MARGIN, pageHeight - 12, pageWidth - MARGIN, pageHeight - 12);
    doc.setFont('helvetica', 'normal');
    doc.setFontSize(8);
    doc.setTextColor(...MUTED);
    doc.text(`${HISTORY_REPORT_TITLE} · ${machine.name} · ${texts.createdAt(exported)}`, MARGIN, pageHeight - 7);
    doc.text(texts.page(page, pages), pageWidth - MARGIN, pageHeight - 7, { align: 'right' });
  }
  return { doc, fileName: historyReportFileName(machine.name, now) };
}
