/**
 * A small reader of the e-mails the server writes (nodemailer's output): headers, and the parts of a multipart
 * message with quoted-printable and base64 decoded. Enough for tests to check what a recipient reads — the text, the
 * HTML, the attachments and their bytes — without a mail parser dependency.
 */

export interface MimePart {
  headers: Map<string, string>;
  /** The decoded body of a leaf part (empty for a multipart). */
  body: Buffer;
  parts: MimePart[];
}

function parseHeaders(block: string): Map<string, string> {
  const headers = new Map<string, string>();
  const unfolded = block.replace(/\r?\n[ \t]+/g, ' ');
  for (const line of unfolded.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return headers;
}

function decodeQuotedPrintable(text: string): Buffer {
  const joined = text.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const char = joined[i]!;
    if (char === '=' && /^[0-9A-F]{2}$/i.test(joined.slice(i + 1, i + 3))) {
      bytes.push(parseInt(joined.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(char, 'utf8'));
    }
  }
  return Buffer.from(bytes);
}

export function parseMime(raw: string): MimePart {
  const split = /\r?\n\r?\n/.exec(raw);
  const headerBlock = split ? raw.slice(0, split.index) : raw;
  const bodyText = split ? raw.slice(split.index + split[0].length) : '';
  const headers = parseHeaders(headerBlock);
  const type = headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (type.toLowerCase().startsWith('multipart/') && boundary) {
    const chunks = bodyText.split(`--${boundary}`).slice(1);
    const parts = chunks.filter((chunk) => !chunk.startsWith('--')).map((chunk) => parseMime(chunk.replace(/^\r?\n/, '')));
    return { headers, body: Buffer.alloc(0), parts };
  }
  const encoding = (headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  const body = encoding === 'base64' ? Buffer.from(bodyText.replace(/\s+/g, ''), 'base64') : encoding === 'quoted-printable' ? decodeQuotedPrintable(bodyText) : Buffer.from(bodyText, 'utf8');
  return { headers, body, parts: [] };
}

/** Every leaf part, depth first. */
export function leaves(part: MimePart): MimePart[] {
  return part.parts.length === 0 ? [part] : part.parts.flatMap(leaves);
}

/** The decoded text of the first leaf of this content type. */
export function textOf(message: MimePart, contentType: string): string | undefined {
  return leaves(message).find((part) => (part.headers.get('content-type') ?? '').toLowerCase().startsWith(contentType))?.body.toString('utf8');
}

/** The attachments: leaves with a file name. */
export function attachmentsOf(message: MimePart): { filename: string; contentType: string; content: Buffer }[] {
  return leaves(message).flatMap((part) => {
    const disposition = part.headers.get('content-disposition') ?? '';
    const filename = /filename="?([^";]+)"?/i.exec(disposition)?.[1];
    return filename ? [{ filename, contentType: (part.headers.get('content-type') ?? '').split(';')[0]!.trim(), content: part.body }] : [];
  });
}

/** A header decoded from RFC 2047 encoded words (=?UTF-8?Q?…?= / =?UTF-8?B?…?=). */
export function decodedHeader(message: MimePart, name: string): string | undefined {
  const value = message.headers.get(name.toLowerCase());
  return value
    ?.replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([QB])\?([^?]*)\?=/gi, (_match, kind: string, text: string) =>
      kind.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : decodeQuotedPrintable(text.replace(/_/g, ' ')).toString('utf8'),
    );
}
