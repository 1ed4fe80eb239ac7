import { describe, expect, it } from 'vitest';
import { parseScannedCode, stickerUrl } from '../../src/client/lib/sticker-url';

const id = '0192f0c4-1c2b-7d3e-8f00-0123456789ab';

describe('service sticker URL', () => {
  it('is the public URL plus /machine-overview?nodeid=<id>, also below a path and without a double slash', () => {
    expect(stickerUrl('https://wartung.example.de', id)).toBe(`https://wartung.example.de/machine-overview?nodeid=${id}`);
    expect(stickerUrl('https://wartung.example.de/', id)).toBe(`https://wartung.example.de/machine-overview?nodeid=${id}`);
    expect(stickerUrl('https://example.de/anlagenbuch/', id)).toBe(`https://example.de/anlagenbuch/machine-overview?nodeid=${id}`);
  });

  it('reads back a sticker of this installation under either of its names', () => {
    const bases = ['https://wartung.example.de', 'http://192.168.1.20:3000'];
    expect(parseScannedCode(stickerUrl(bases[0]!, id), bases)).toEqual({ kind: 'machine', nodeid: id });
    expect(parseScannedCode(` ${stickerUrl(bases[1]!, id.toUpperCase())}\n`, bases)).toEqual({ kind: 'machine', nodeid: id });
  });

  it('tells a sticker of another installation from anything else', () => {
    const bases = ['https://wartung.example.de'];
    expect(parseScannedCode(stickerUrl('https://other.example.com', id), bases)).toEqual({ kind: 'other-installation', origin: 'https://other.example.com' });
    expect(parseScannedCode('4006381333931', bases)).toEqual({ kind: 'foreign' });
    expect(parseScannedCode('https://wartung.example.de/dashboard', bases)).toEqual({ kind: 'foreign' });
    expect(parseScannedCode('https://wartung.example.de/machine-overview?nodeid=42', bases)).toEqual({ kind: 'foreign' });
  });
});

describe('sticker PDF file name', () => {
  it('is the equipment name with characters file systems refuse replaced', async () => {
    const { stickerFileName } = await import('../../src/client/features/equipment/sticker-pdf');
    expect(stickerFileName('HYD 03 Hydraulik / Presse: "Linie 2"')).toBe('HYD 03 Hydraulik Presse Linie 2 .pdf'.replace(' .pdf', '.pdf'));
    expect(stickerFileName('Fräse\tgroß')).toBe('Fräsegroß.pdf');
    expect(stickerFileName('  ')).toBe('Equipment.pdf');
  });
});
