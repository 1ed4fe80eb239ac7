import { describe, expect, it } from 'vitest';
import { fileLinkProps } from '../../src/client/lib/file-link';

/** A blob: URL runs in the app's origin: only what may show inline from it opens as a page (docs/security.md). */
describe('fileLinkProps', () => {
  it('opens raster images and PDF in a new tab', () => {
    expect(fileLinkProps('image/jpeg', 'Foto')).toEqual({ target: '_blank', rel: 'noreferrer' });
    expect(fileLinkProps('application/pdf; charset=binary', 'Handbuch')).toEqual({ target: '_blank', rel: 'noreferrer' });
  });

  it('downloads SVG, HTML, other types and a type not known yet under the title', () => {
    expect(fileLinkProps('image/svg+xml', 'Foto vor Ort')).toEqual({ download: 'Foto vor Ort', rel: 'noreferrer' });
    expect(fileLinkProps('text/html', 'Seite')).toEqual({ download: 'Seite', rel: 'noreferrer' });
    expect(fileLinkProps('text/plain', 'Notiz')).toEqual({ download: 'Notiz', rel: 'noreferrer' });
    expect(fileLinkProps(null, 'Unbekannt')).toEqual({ download: 'Unbekannt', rel: 'noreferrer' });
  });
});
