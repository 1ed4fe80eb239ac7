import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { badRequest, type ErrorDetail } from '../http-errors';

/**
 * How deep a JSON body may nest. The app's own bodies nest 4 levels at most; anything far deeper is an attack
 * on whatever walks the body (a recursive walk overflows the stack at a few thousand levels: a 500).
 */
export const MAX_JSON_DEPTH = 32;

/**
 * Input every route refuses before validation, as a 400 naming the field like any other bad input:
 * - JSON nested deeper than MAX_JSON_DEPTH, checked on the raw text before it is parsed, so nothing recursive
 *   ever sees such a body;
 * - the NUL character, which PostgreSQL cannot store in text (error 22P05, which names no column).
 * And one it mends: a lone UTF-16 surrogate (half an emoji, from a broken paste or a text cut in the middle of a
 * pair) becomes U+FFFD, as PostgreSQL's text would store it anyway — but its jsonb (the change history) refuses it,
 * so a create stored it and an update of the same text answered 400. Mended, not refused: a technician's offline
 * edit is not lost to one broken character.
 */
export default fp(
  async function inputHygiene(app: FastifyInstance) {
    // why the default parser's own settings: a body with __proto__ or constructor.prototype stays a 400.
    const parseJson = app.getDefaultJsonParser('error', 'error');
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      if (jsonDepthExceeds(body as string, MAX_JSON_DEPTH)) {
        done(badRequest('Invalid body: JSON nested too deeply', [{ field: 'body', message: `Must be nested at most ${MAX_JSON_DEPTH} levels deep` }]), undefined);
        return;
      }
      const text = body as string;
      if (!ESCAPED_SURROGATE.test(text)) {
        parseJson(request, text, done);
        return;
      }
      parseJson(request, text, (error, value) => (error ? done(error, undefined) : done(null, withWellFormedText(value))));
    });

    app.addHook('preValidation', async (request) => {
      const details = [...nulFields(request.body, ''), ...nulFields(request.query, 'query')];
      if (details.length > 0) throw badRequest('Text must not contain NUL characters', details);
    });
  },
  { name: 'input-hygiene' },
);

/**
 * Whether the JSON text opens more than `max` objects or arrays inside each other. One pass over the text,
 * brackets inside strings ignored; malformed text is left to the parser.
 */
export function jsonDepthExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === 0x5c /* \ */) i++;
      else if (char === 0x22 /* " */) inString = false;
    } else if (char === 0x22) inString = true;
    else if (char === 0x7b /* { */ || char === 0x5b /* [ */) {
      if (++depth > max) return true;
    } else if (char === 0x7d /* } */ || char === 0x5d /* ] */) depth--;
  }
  return false;
}

/**
 * Paths (`items.2.title`) of every string under `value` that holds a NUL character, in document order. An
 * explicit stack instead of recursion: the query and bodies of other content types are not depth-limited.
 * Only plain objects and arrays are walked: raw bodies (an upload's Buffer or stream) are not text.
 */
export function nulFields(value: unknown, path: string): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  const pending: [unknown, string][] = [[value, path]];
  while (pending.length > 0) {
    const [current, at] = pending.pop()!;
    if (typeof current === 'string') {
      if (current.includes('\u0000')) details.push({ field: at || '(body)', message: 'Must not contain NUL characters' });
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    // why: only parsed JSON (plain objects and arrays) holds text; walking a Buffer or a request stream visited
    // every byte (a 50 MiB upload froze the server) or a socket's object graph.
    const prototype: unknown = Object.getPrototypeOf(current);
    if (!Array.isArray(current) && prototype !== Object.prototype && prototype !== null) continue;
    const children = Object.entries(current);
    for (let i = children.length - 1; i >= 0; i--) {
      const [key, child] = children[i]!;
      pending.push([child, at ? `${at}.${key}` : key]);
    }
  }
  return details;
}

/** A surrogate written as a JSON escape: the only way a lone one reaches a parsed body (raw bytes are UTF-8). */
const ESCAPED_SURROGATE = /\\u[dD][89a-fA-F]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * `value` (parsed JSON) with every lone surrogate of its strings, keys too, replaced by U+FFFD; pairs are kept. Walks
 * with an explicit stack, like nulFields.
 */
export function withWellFormedText(value: unknown): unknown {
  const mend = (text: string) => text.replace(LONE_SURROGATE, '\uFFFD');
  if (typeof value === 'string') return mend(value);
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const current = pending.pop();
    if (current === null || typeof current !== 'object') continue;
    const record = current as Record<string, unknown>;
    for (const [key, child] of Object.entries(record)) {
      const mended = typeof child === 'string' ? mend(child) : child;
      const mendedKey = mend(key);
      if (mendedKey !== key) {
        delete record[key];
        // A key written with U+FFFD itself stays as sent: the mended one does not overwrite it.
        if (!Object.hasOwn(record, mendedKey)) record[mendedKey] = mended;
      } else if (mended !== child) record[key] = mended;
      if (typeof child === 'object') pending.push(child);
    }
  }
  return value;
}
