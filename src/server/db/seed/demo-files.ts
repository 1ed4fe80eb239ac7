import type { Random } from './random';

// Small generated files for the demo plant: machine pictograms, type nameplates, damage photos, drawn
// signatures (SVG) and one-page documents (PDF). Generated rather than checked in so the repository carries no
// binaries and every machine gets its own nameplate with its own serial number.

const encoder = new TextEncoder();

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Cuts at a word boundary and marks the cut, so captions never end mid-word. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

function svg(width: number, height: number, body: string): Uint8Array {
  return encoder.encode(
    `<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${body}</svg>\n`,
  );
}

/** The drawing of a machine kind: a few shapes inside a 320×240 frame. */
export type PictogramShape = 'mill' | 'lathe' | 'laser' | 'press' | 'robot' | 'compressor' | 'forklift' | 'tank' | 'molding' | 'measuring';

const SHAPES: Record<PictogramShape, string> = {
  mill: '<rect x="70" y="60" width="180" height="130" rx="8" fill="#cfd8dc"/><rect x="140" y="40" width="40" height="70" fill="#607d8b"/><rect x="150" y="110" width="20" height="30" fill="#37474f"/><rect x="95" y="150" width="130" height="16" fill="#455a64"/>',
  lathe: '<rect x="40" y="90" width="240" height="80" rx="6" fill="#cfd8dc"/><circle cx="90" cy="130" r="28" fill="#607d8b"/><rect x="118" y="124" width="110" height="12" fill="#37474f"/><rect x="228" y="110" width="30" height="40" fill="#455a64"/>',
  laser: '<rect x="30" y="80" width="260" height="100" rx="6" fill="#cfd8dc"/><rect x="60" y="60" width="200" height="20" fill="#607d8b"/><polygon points="160,80 150,130 170,130" fill="#ef5350"/><rect x="60" y="150" width="200" height="8" fill="#455a64"/>',
  press: '<rect x="90" y="30" width="140" height="40" fill="#607d8b"/><rect x="90" y="70" width="24" height="120" fill="#78909c"/><rect x="206" y="70" width="24" height="120" fill="#78909c"/><rect x="114" y="90" width="92" height="30" fill="#37474f"/><rect x="70" y="190" width="180" height="20" fill="#455a64"/>',
  robot: '<rect x="130" y="180" width="60" height="24" fill="#455a64"/><rect x="148" y="110" width="24" height="70" fill="#ff9800" transform="rotate(-20 160 180)"/><rect x="160" y="80" width="90" height="22" rx="8" fill="#ff9800"/><circle cx="160" cy="95" r="14" fill="#37474f"/><rect x="246" y="84" width="16" height="30" fill="#37474f"/>',
  compressor: '<rect x="60" y="70" width="200" height="120" rx="10" fill="#90a4ae"/><circle cx="120" cy="130" r="34" fill="#cfd8dc"/><circle cx="120" cy="130" r="10" fill="#37474f"/><rect x="180" y="95" width="60" height="14" fill="#37474f"/><rect x="180" y="120" width="60" height="14" fill="#37474f"/><rect x="180" y="145" width="60" height="14" fill="#37474f"/>',
  forklift: '<rect x="90" y="110" width="110" height="60" rx="6" fill="#ffb300"/><rect x="110" y="70" width="60" height="40" fill="none" stroke="#37474f" stroke-width="6"/><rect x="205" y="50" width="10" height="130" fill="#37474f"/><rect x="215" y="165" width="60" height="8" fill="#37474f"/><circle cx="115" cy="180" r="16" fill="#263238"/><circle cx="180" cy="180" r="16" fill="#263238"/>',
  tank: '<rect x="80" y="60" width="160" height="120" rx="12" fill="#90a4ae"/><rect x="100" y="40" width="30" height="20" fill="#546e7a"/><circle cx="200" cy="100" r="18" fill="#eceff1" stroke="#37474f" stroke-width="4"/><line x1="200" y1="100" x2="210" y2="90" stroke="#d32f2f" stroke-width="3"/><rect x="100" y="180" width="120" height="16" fill="#455a64"/>',
  molding: '<rect x="20" y="110" width="280" height="60" rx="6" fill="#cfd8dc"/><rect x="40" y="70" width="90" height="40" fill="#1e88e5"/><polygon points="200,70 240,70 230,110 210,110" fill="#78909c"/><rect x="40" y="170" width="240" height="14" fill="#455a64"/>',
  measuring: '<rect x="60" y="170" width="200" height="20" fill="#455a64"/><rect x="80" y="60" width="16" height="110" fill="#90a4ae"/><rect x="224" y="60" width="16" height="110" fill="#90a4ae"/><rect x="80" y="50" width="160" height="16" fill="#607d8b"/><rect x="150" y="66" width="12" height="60" fill="#37474f"/><circle cx="156" cy="130" r="6" fill="#e53935"/>',
};

/** A machine picture: the kind's drawing on a light background with the model name below. */
export function machinePictogram(shape: PictogramShape, label: string): Uint8Array {
  return svg(320, 240, `<rect width="320" height="240" fill="#f5f7f8"/>${SHAPES[shape]}<text x="160" y="228" font-family="Arial, sans-serif" font-size="14" text-anchor="middle" fill="#263238">${escapeXml(label)}</text>`);
}

export interface NameplateData {
  manufacturer: string;
  model: string;
  serialnumber: string;
  year: number;
  powerKw?: number | null;
  weightKg?: number;
}

/** A type nameplate (Typenschild) as riveted to the machine. */
export function nameplateSvg(data: NameplateData): Uint8Array {
  const rows: [string, string][] = [
    ['Typ / Type', data.model],
    ['Serien-Nr. / Serial No.', data.serialnumber],
    ['Baujahr / Year', String(data.year)],
    ['Anschlussleistung', data.powerKw != null ? `${data.powerKw.toLocaleString('de-DE')} kW` : '—'],
    ['Netz', '3/N/PE AC 400 V 50 Hz'],
  ];
  if (data.weightKg) rows.push(['Gewicht / Weight', `${data.weightKg.toLocaleString('de-DE')} kg`]);
  const lines = rows
    .map(([key, value], i) => `<text x="24" y="${88 + i * 26}" font-size="13" fill="#37474f">${escapeXml(key)}</text><text x="220" y="${88 + i * 26}" font-size="14" font-weight="bold" fill="#212121">${escapeXml(value)}</text>`)
    .join('');
  const height = 100 + rows.length * 26;
  return svg(
    440,
    height,
    `<rect x="2" y="2" width="436" height="${height - 4}" rx="10" fill="#e0e0e0" stroke="#9e9e9e" stroke-width="3"/><circle cx="16" cy="16" r="4" fill="#9e9e9e"/><circle cx="424" cy="16" r="4" fill="#9e9e9e"/><circle cx="16" cy="${height - 16}" r="4" fill="#9e9e9e"/><circle cx="424" cy="${height - 16}" r="4" fill="#9e9e9e"/><g font-family="Arial, sans-serif"><text x="24" y="44" font-size="20" font-weight="bold" fill="#0d47a1">${escapeXml(data.manufacturer)}</text><text x="416" y="44" font-size="12" text-anchor="end" fill="#616161">CE</text>${lines}</g>`,
  );
}

/** A stand-in for a photo taken at the machine: a framed drawing with a warning sign and a caption. */
export function damagePhotoSvg(caption: string, random: Random): Uint8Array {
  const hue = random.int(180, 220);
  const cracks = Array.from({ length: 4 }, () => `<line x1="${random.int(60, 260)}" y1="${random.int(60, 160)}" x2="${random.int(60, 260)}" y2="${random.int(60, 160)}" stroke="#5d4037" stroke-width="${random.int(2, 4)}"/>`).join('');
  return svg(
    320,
    240,
    `<rect width="320" height="240" fill="hsl(${hue},10%,75%)"/><rect x="40" y="40" width="240" height="140" fill="hsl(${hue},8%,55%)"/>${cracks}<polygon points="160,70 200,140 120,140" fill="#fdd835" stroke="#212121" stroke-width="4"/><text x="160" y="132" font-family="Arial" font-size="40" font-weight="bold" text-anchor="middle" fill="#212121">!</text><text x="160" y="215" font-family="Arial, sans-serif" font-size="13" text-anchor="middle" fill="#212121">${escapeXml(truncate(caption, 48))}</text>`,
  );
}

/** A drawn signature: a pen stroke whose shape follows the signer's name. */
export function signatureSvg(name: string, random: Random): Uint8Array {
  let x = 20;
  let d = `M ${x} ${60 + random.int(-8, 8)}`;
  for (const char of name.replace(/\s+/g, '')) {
    const rise = ((char.charCodeAt(0) % 7) - 3) * 8;
    x += 10 + random.int(0, 8);
    d += ` Q ${x - 6} ${60 + rise - random.int(10, 25)} ${x} ${60 + rise / 2}`;
  }
  d += ` T ${x + 30} ${50 + random.int(-5, 5)}`;
  const width = Math.max(200, x + 50);
  return svg(width, 100, `<path d="${d}" fill="none" stroke="#1a237e" stroke-width="2.5" stroke-linecap="round" stroke-linejoin="round"/><line x1="10" y1="85" x2="${width - 10}" y2="85" stroke="#9e9e9e" stroke-width="1"/>`);
}

// ---------------------------------------------------------------- PDF

/** Latin-1 bytes for PDF's WinAnsi text; characters outside it become '?'. */
function latin1(text: string): number[] {
  return Array.from(text, (char) => {
    const code = char.charCodeAt(0);
    if (char === '–' || char === '—') return 0x96;
    if (char === '€') return 0x80;
    if (char === '„') return 0x84;
    if (char === '“') return 0x93;
    return code < 256 ? code : 0x3f;
  });
}

function pdfString(text: string): number[] {
  const out: number[] = [0x28];
  for (const byte of latin1(text)) {
    if (byte === 0x28 || byte === 0x29 || byte === 0x5c) out.push(0x5c);
    out.push(byte);
  }
  out.push(0x29);
  return out;
}

/**
 * A one-page A4 PDF with a title and text lines in Helvetica. Hand-built (header, five objects, xref, trailer)
 * because the demo needs only a readable document, not a PDF library.
 */
export function simplePdf(title: string, lines: readonly string[]): Uint8Array {
  const content: number[] = [];
  const push = (text: string) => content.push(...latin1(text));
  push('BT /F2 18 Tf 56 780 Td ');
  content.push(...pdfString(title));
  push(' Tj ET\n0.6 G 56 768 m 539 768 l S\n');
  let y = 740;
  for (const line of lines) {
    if (y < 60) break;
    push(`BT /F1 11 Tf 56 ${y} Td `);
    content.push(...pdfString(line));
    push(' Tj ET\n');
    y -= 16;
  }
  const objects: number[][] = [
    [...latin1('<< /Type /Catalog /Pages 2 0 R >>')],
    [...latin1('<< /Type /Pages /Kids [3 0 R] /Count 1 >>')],
    [...latin1('<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R /F2 5 0 R >> >> /Contents 6 0 R >>')],
    [...latin1('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>')],
    [...latin1('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>')],
    [...latin1(`<< /Length ${content.length} >>\nstream\n`), ...content, ...latin1('\nendstream')],
  ];
  const bytes: number[] = [...latin1('%PDF-1.4\n%'), 0xe2, 0xe3, 0xcf, 0xd3, 0x0a];
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(bytes.length);
    bytes.push(...latin1(`${index + 1} 0 obj\n`), ...object, ...latin1('\nendobj\n'));
  });
  const xref = bytes.length;
  bytes.push(...latin1(`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`));
  for (const offset of offsets) bytes.push(...latin1(`${String(offset).padStart(10, '0')} 00000 n \n`));
  bytes.push(...latin1(`trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`));
  return Uint8Array.from(bytes);
}
