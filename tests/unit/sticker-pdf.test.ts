import { describe, expect, it } from 'vitest';
import { stickerPdf, stickerSheetPdf, type StickerData } from '../../src/client/lib/sticker-pdf';

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

// The stickers' QR codes are rendered and scanned in tests/e2e/equipment.spec.ts; here: what a printer and a mail get.
describe('sticker PDFs', () => {
  it('one sticker is a few kilobytes, not a bitmap: the QR code is vector modules and the streams are compressed', async () => {
    const pdf = await stickerPdf(machine(1), 'https://anlagenbuch.werk.example', labels);
    const text = Buffer.from(await pdf.arrayBuffer()).toString('latin1');
    expect(pdf.size).toBeLessThan(30_000);
    expect(text).not.toContain('/Subtype /Image');
    expect(text).toContain('/FlateDecode');
  });

  it('a sheet for 42 machines stays small (was 29 MB with a bitmap per code)', async () => {
    const pdf = await stickerSheetPdf(Array.from({ length: 42 }, (_, n) => machine(n)), 'https://anlagenbuch.werk.example', labels, 'Aufkleberbogen');
    expect(pdf.size).toBeLessThan(400_000);
  });
});
