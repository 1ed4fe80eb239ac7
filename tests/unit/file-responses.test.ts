import { describe, expect, it } from 'vitest';
import { nulFields } from '../../src/server/plugins/input-hygiene';
import { contentDisposition, fileResponseHeaders } from '../../src/server/routes/files/index';

describe('served file headers', () => {
  it('names the file in ASCII, with RFC 5987 filename* for anything else', () => {
    expect(contentDisposition('attachment', 'plan.pdf')).toBe('attachment; filename="plan.pdf"');
    expect(contentDisposition('attachment', 'Prüfplan März.xlsx')).toBe(`attachment; filename="Pr_fplan M_rz.xlsx"; filename*=UTF-8''Pr%C3%BCfplan%20M%C3%A4rz.xlsx`);
    expect(contentDisposition('inline', 'a"b\\c.png')).toBe(`inline; filename="a_b_c.png"; filename*=UTF-8''a%22b%5Cc.png`);
  });

  it('shows raster images and PDF inline, everything else as a download, always with nosniff and a sandbox', () => {
    expect(fileResponseHeaders('image/png', 'x.png')).toEqual({
      'x-content-type-options': 'nosniff',
      'content-disposition': 'inline; filename="x.png"',
      'content-security-policy': "default-src 'none'; sandbox",
    });
    expect(fileResponseHeaders('image/svg+xml', 'x.svg')['content-disposition']).toBe('attachment; filename="x.svg"');
    expect(fileResponseHeaders('text/html', 'x.html')['content-disposition']).toBe('attachment; filename="x.html"');
  });
});

describe('input hygiene on raw bodies', () => {
  it('never walks a Buffer, typed array or stream body (a 50 MiB upload was walked byte by byte)', () => {
    const walked = () => {
      throw new Error('walked the body');
    };
    expect(nulFields(new Proxy(Buffer.alloc(16), { ownKeys: walked }), '')).toEqual([]);
    expect(nulFields(new Proxy(new Uint8Array(16), { ownKeys: walked }), '')).toEqual([]);
    class Upload {
      readonly name = 'not\u0000text';
    }
    expect(nulFields(new Upload(), '')).toEqual([]);
  });

  it('still finds NUL in parsed JSON', () => {
    expect(nulFields({ items: [{ title: 'a\u0000b' }], plain: Object.assign(Object.create(null) as object, { x: '\u0000' }) }, '')).toEqual([
      { field: 'items.0.title', message: 'Must not contain NUL characters' },
      { field: 'plain.x', message: 'Must not contain NUL characters' },
    ]);
  });
});
