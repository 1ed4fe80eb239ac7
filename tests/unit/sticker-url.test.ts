import { describe, expect, it } from 'vitest';
import { isLoopbackUrl, parseScannedCode, stickerBase, stickerUrl } from '../../src/client/lib/sticker-url';

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
    const { stickerFileName } = await import('../../src/client/lib/sticker-pdf');
    expect(stickerFileName('HYD 03 Hydraulik / Presse: "Linie 2"')).toBe('HYD 03 Hydraulik Presse Linie 2 .pdf'.replace(' .pdf', '.pdf'));
    expect(stickerFileName('Fräse\tgroß')).toBe('Fräsegroß.pdf');
    expect(stickerFileName('  ')).toBe('Equipment.pdf');
  });
});

describe('sticker base URL', () => {
  it.each([
    ['http://localhost:3000', true],
    ['http://127.0.0.1:3161', true],
    ['http://127.1.2.3', true],
    ['http://[::1]:3000', true],
    ['http://app.localhost', true],
    ['http://192.168.1.20:3000', false],
    ['https://wartung.example.de', false],
    ['not a url', false],
  ])('%s is loopback: %s', (url, expected) => {
    expect(isLoopbackUrl(url)).toBe(expected);
  });

  it.each<[string | undefined, string, string]>([
    ['https://wartung.example.de', 'http://192.168.1.20:3000', 'https://wartung.example.de'],
    [undefined, 'http://192.168.1.20:3000', 'http://192.168.1.20:3000'],
    ['', 'http://192.168.1.20:3000', 'http://192.168.1.20:3000'],
    // A session stored while the server still sent its localhost default: the address the browser used wins.
    ['http://localhost:3000', 'http://192.168.1.20:3000', 'http://192.168.1.20:3000'],
    ['http://localhost:3000', 'http://127.0.0.1:3000', 'http://localhost:3000'],
    [undefined, 'http://127.0.0.1:3161', 'http://127.0.0.1:3161'],
  ])('public URL %s on origin %s: %s', (publicurl, origin, expected) => {
    expect(stickerBase(publicurl, origin)).toBe(expected);
  });
});
