/**
 * What a service sticker's QR code says (spec part 2 §2.2: "a default base URL plus the equipment node id"):
 * `<PUBLIC_URL>/machine-overview?nodeid=<id>`. The base is the server's PUBLIC_URL from the session
 * (`baseinfo.publicurl`), else the origin the app runs on.
 */
export const MACHINE_OVERVIEW_PATH = '/machine-overview';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A URL on this computer only (localhost, 127.x, ::1): a sticker with it is useless on a tablet. */
export function isLoopbackUrl(url: string): boolean {
  try {
    const host = new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase();
    return host === 'localhost' || host.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(host) || host === '::1';
  } catch {
    return false;
  }
}

/**
 * The base a sticker encodes: the server's PUBLIC_URL, else the origin the browser reached the app at. A session
 * stored before the server stopped sending its localhost default may still carry it: a loopback public URL gives
 * way to an origin that is not loopback.
 */
export function stickerBase(publicurl: string | undefined, origin: string): string {
  if (!publicurl) return origin;
  return isLoopbackUrl(publicurl) && !isLoopbackUrl(origin) ? origin : publicurl;
}

export function stickerUrl(baseUrl: string, nodeid: string): string {
  const base = new URL(baseUrl);
  const prefix = base.pathname.replace(/\/+$/, '');
  return `${base.origin}${prefix}${MACHINE_OVERVIEW_PATH}?nodeid=${encodeURIComponent(nodeid)}`;
}

export type ScannedCode =
  | { kind: 'machine'; nodeid: string }
  /** A sticker of Anlagenbuch, but of another installation (other host). */
  | { kind: 'other-installation'; origin: string }
  /** Not a sticker at all (a product barcode, a web link, text). */
  | { kind: 'foreign' };

/**
 * Reads a scanned text. A machine sticker is a URL to /machine-overview with a UUID `nodeid`, on one of the
 * `ownBases` (the server's public URL and the app's origin: a tablet on the LAN may reach the server under
 * another name than the one printed). Whether the machine exists is the caller's question (the local mirror).
 */
export function parseScannedCode(text: string, ownBases: readonly string[]): ScannedCode {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return { kind: 'foreign' };
  }
  const nodeid = url.searchParams.get('nodeid');
  if (!url.pathname.endsWith(MACHINE_OVERVIEW_PATH) || !nodeid || !UUID.test(nodeid)) return { kind: 'foreign' };
  const own = ownBases.some((base) => {
    try {
      const parsed = new URL(base);
      return parsed.origin === url.origin && url.pathname === `${parsed.pathname.replace(/\/+$/, '')}${MACHINE_OVERVIEW_PATH}`;
    } catch {
      return false;
    }
  });
  return own ? { kind: 'machine', nodeid: nodeid.toLowerCase() } : { kind: 'other-installation', origin: url.origin };
}
