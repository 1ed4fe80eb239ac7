import { isInlineMimetype } from '../../shared/domain/upload-types';

/**
 * How a link opens a file held as an object URL: a blob: URL runs in the app's origin, without the download
 * disposition and sandbox the server gives the same file, so only a type the browser may show inline from this
 * origin (isInlineMimetype: raster images and PDF) opens in a new tab; anything else (the demo's SVG photos, which
 * can hold script, a type not known yet) is downloaded under its title instead of being opened as a page.
 */
export function fileLinkProps(mimetype: string | null, title: string): { target: '_blank'; rel: 'noreferrer' } | { download: string; rel: 'noreferrer' } {
  return mimetype !== null && isInlineMimetype(mimetype) ? { target: '_blank', rel: 'noreferrer' } : { download: title, rel: 'noreferrer' };
}
