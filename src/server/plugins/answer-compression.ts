import type { FastifyInstance, FastifyReply, FastifyRequest, onSendHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants as zlib, gzip, gzipSync } from 'node:zlib';

export type AnswerEncoding = 'br' | 'gzip';

export interface AnswerCompressionOptions {
  /** In order of preference when the client accepts several with the same weight. */
  encodings: AnswerEncoding[];
  /** Answers shorter than this (bytes) stay plain. */
  threshold: number;
  brotliQuality: number;
  gzipLevel: number;
  /**
   * Up to this many bytes an answer is compressed on the event loop (a few hundred microseconds at most); a longer
   * one (a full pull) in the zlib thread pool, so the requests behind it are not held up.
   */
  inlineLimit: number;
}

/**
 * The plugin's choice and compressor, for a route that keeps its answer's compressed bytes itself
 * (routes/versioned-answer.ts) and sends them with `markEncoded`, which this plugin's hook then leaves alone.
 */
export interface AnswerCompression {
  /** The encoding to answer `length` bytes with, undefined for a plain answer (as the hook decides). */
  encodingFor(request: FastifyRequest, reply: FastifyReply, length: number): AnswerEncoding | undefined;
  compress(input: Buffer, encoding: AnswerEncoding): Promise<Buffer>;
  /** Content-Encoding and Vary for an answer sent already compressed. */
  markEncoded(reply: FastifyReply, encoding: AnswerEncoding): void;
}

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Compression of the API's JSON answers in one call per answer (docs/api.md § Compression). Why not only
 * @fastify/compress: it turns every answer into a stream (an async iterator, a pump into a zlib stream, a chunked
 * response), which cost a small read more server CPU than the compression itself (profile in docs/decisions.md).
 * Here an answer that is already text or bytes — every JSON answer — is compressed into one buffer and leaves with
 * its Content-Length in one write. Whatever this hook leaves alone (streams, other types, an Accept-Encoding it
 * does not settle) still goes through @fastify/compress, registered after it in the same scope; it sees the
 * Content-Encoding set here and passes the answer on.
 *
 * The hook is added to each route's own onSend hooks (onRoute), after the mutation log's, which must store the
 * answer as it was before compression (plugins/mutation-log.ts), and respects a route's `config.compress: false`.
 */
export default fp<AnswerCompressionOptions>(
  async function answerCompression(app: FastifyInstance, options: AnswerCompressionOptions) {
    const brotliParams = { [zlib.BROTLI_PARAM_QUALITY]: options.brotliQuality, [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT };
    const compressors = {
      br: {
        inline: (input: Buffer) => brotliCompressSync(input, { params: { ...brotliParams, [zlib.BROTLI_PARAM_SIZE_HINT]: input.length } }),
        pooled: (input: Buffer) => brotliAsync(input, { params: { ...brotliParams, [zlib.BROTLI_PARAM_SIZE_HINT]: input.length } }),
      },
      gzip: {
        inline: (input: Buffer) => gzipSync(input, { level: options.gzipLevel }),
        pooled: (input: Buffer) => gzipAsync(input, { level: options.gzipLevel }),
      },
    };

    const answerEncoding: AnswerCompression = {
      encodingFor(request, reply, length) {
        if (reply.hasHeader('content-encoding') || request.headers['x-no-compression'] !== undefined) return undefined;
        if (length < options.threshold) return undefined;
        return negotiateEncoding(request.headers['accept-encoding'], options.encodings);
      },
      async compress(input, encoding) {
        return input.length <= options.inlineLimit ? compressors[encoding].inline(input) : compressors[encoding].pooled(input);
      },
      markEncoded(reply, encoding) {
        void reply.header('content-encoding', encoding);
        varyOnAcceptEncoding(reply);
      },
    };
    app.decorate('answerCompression', answerEncoding);

    const onSend: onSendHookHandler = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
      if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
      if (!isJsonOrText(reply.getHeader('content-type'))) return payload;
      const length = typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length;
      const encoding = answerEncoding.encodingFor(request, reply, length);
      if (encoding === undefined) return payload;
      const compressed = await answerEncoding.compress(typeof payload === 'string' ? Buffer.from(payload) : payload, encoding);
      answerEncoding.markEncoded(reply, encoding);
      return compressed;
    };

    app.addHook('onRoute', (route) => {
      if (route.config?.compress === false) return;
      const own = route.onSend === undefined ? [] : Array.isArray(route.onSend) ? route.onSend : [route.onSend];
      route.onSend = [...own, onSend];
    });
  },
  { name: 'answer-compression' },
);

/**
 * The encoding to answer with, or undefined when the header asks for none of `supported` (or is absent, or is
 * something this function does not settle, such as `identity` alone: left to @fastify/compress). Highest weight
 * wins; at equal weight the earlier of `supported`; `q=0` refuses; `*` stands for the first supported encoding
 * not named otherwise; `x-gzip` is gzip. As RFC 9110 § 12.5.3 reads it.
 */
export function negotiateEncoding(header: string | string[] | undefined, supported: readonly AnswerEncoding[]): AnswerEncoding | undefined {
  if (typeof header !== 'string' || header === '') return undefined;
  const weights = new Map<string, number>();
  for (const part of header.toLowerCase().split(',')) {
    const [rawName, ...parameters] = part.split(';');
    const name = rawName!.trim() === 'x-gzip' ? 'gzip' : rawName!.trim();
    if (name === '') continue;
    let weight = 1;
    for (const parameter of parameters) {
      const [key, value] = parameter.split('=');
      if (key?.trim() === 'q') weight = Number.parseFloat(value ?? '') || 0;
    }
    weights.set(name, Math.max(weight, weights.get(name) ?? 0));
  }
  let best: AnswerEncoding | undefined;
  let bestWeight = 0;
  for (const encoding of supported) {
    const weight = weights.get(encoding) ?? weights.get('*') ?? 0;
    if (weight > bestWeight) {
      best = encoding;
      bestWeight = weight;
    }
  }
  return best;
}

function isJsonOrText(contentType: ReturnType<FastifyReply['getHeader']>): boolean {
  // why no header counts as JSON: Fastify sets it after onSend for a serialized object, as @fastify/compress assumes.
  if (contentType === undefined) return true;
  const type = String(contentType).split(';', 1)[0]!.trim().toLowerCase();
  return type === 'application/json' || type.startsWith('text/');
}

function varyOnAcceptEncoding(reply: FastifyReply): void {
  const vary = reply.getHeader('vary');
  if (vary === undefined) {
    void reply.header('vary', 'accept-encoding');
    return;
  }
  const values = (Array.isArray(vary) ? vary.join(',') : String(vary)).split(',').map((value) => value.trim().toLowerCase());
  if (!values.includes('accept-encoding') && !values.includes('*')) void reply.header('vary', `${String(vary)}, accept-encoding`);
}
