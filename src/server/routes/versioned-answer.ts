import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AnswerEncoding } from '../plugins/answer-compression';

/**
 * Answers of read routes kept per tenant change state (docs/decisions.md "Read answers kept per change state").
 *
 * Every write of a tenant's rows takes the tenant's next change version under the version row's lock
 * (services/change-feed.ts), and the auth query reads that row's state with the caller (AuthContext.tenantstate).
 * An answer built from rows read after the caller was loaded is therefore at least as new as that state, and it
 * stays right for every later request that sees the same state: nothing of the tenant was committed in between.
 * So a read route whose answer is a function of the tenant's rows and of the key parts it names — no clock, no
 * signed URL, no caller detail left out of the key — serializes (and compresses) its answer once per change and
 * serves the bytes to every request after it, instead of running its queries, the response check and the
 * compression again. The caller's permission is still checked on each request, before the handler.
 *
 * The store is per server process; a second instance keeps its own and reads the same state from the shared
 * database, so instances never serve each other's stale answers.
 */
export interface VersionedAnswers {
  /** The entry of `key` built at `state`, or undefined (then build it with `fill`). */
  get(key: string, state: string): CachedAnswer | undefined;
  /** Builds the entry once, however many requests miss it at the same time; a failed build is not kept. */
  fill(key: string, state: string, build: () => Promise<string>): Promise<CachedAnswer>;
  /** The answer's bytes in `encoding`, compressed the first time a client asks for it and kept with it. */
  encoded(key: string, answer: CachedAnswer, encoding: AnswerEncoding, compress: (body: Buffer) => Promise<Buffer>): Promise<Buffer>;
  /** Entries and their approximate size, for tests and the operator's view. */
  readonly size: { entries: number; bytes: number };
  /**
   * Since the start: requests answered from a kept entry (`hits`), answers built (`builds`: a change, a first
   * request, or an entry pushed out), and entries pushed out by the limits (`evicted`). Logged periodically
   * (jobs/kept-answers-log.ts) so an operator sees whether the limits fit.
   */
  readonly counts: { hits: number; builds: number; evicted: number };
}

export interface CachedAnswer {
  /** The serialized answer (UTF-8 JSON), as the route's response schema serializes it. */
  readonly body: Buffer;
  /** Its bytes per encoding, each made the first time a client asks for it. */
  readonly encodings: Partial<Record<AnswerEncoding, Buffer>>;
}

export interface VersionedAnswerLimits {
  maxEntries: number;
  /** The answers' bytes with their compressed copies. */
  maxBytes: number;
}

/** Room for a few hundred tenants' or users' trees; the biggest plant's tree (5,000 machines) is ~1 MB. */
export const VERSIONED_ANSWER_LIMITS: VersionedAnswerLimits = { maxEntries: 2_000, maxBytes: 64 * 1024 * 1024 };

interface Entry {
  state: string;
  answer: CachedAnswer;
  bytes: number;
}

/** The store: least recently used entries go first when either limit is reached. */
export function createVersionedAnswers(limits: VersionedAnswerLimits = VERSIONED_ANSWER_LIMITS): VersionedAnswers {
  const entries = new Map<string, Entry>();
  const building = new Map<string, Promise<CachedAnswer>>();
  let bytes = 0;
  const counts = { hits: 0, builds: 0, evicted: 0 };

  const remove = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    bytes -= entry.bytes;
  };
  const trim = () => {
    for (const key of entries.keys()) {
      if (entries.size <= limits.maxEntries && bytes <= limits.maxBytes) return;
      remove(key);
      counts.evicted += 1;
    }
  };

  return {
    get(key, state) {
      const entry = entries.get(key);
      if (entry?.state !== state) return undefined;
      // Most recently used last: Map keeps insertion order.
      entries.delete(key);
      entries.set(key, entry);
      counts.hits += 1;
      return entry.answer;
    },
    fill(key, state, build) {
      const buildKey = `${key}\u0000${state}`;
      const pending = building.get(buildKey);
      if (pending) return pending;
      counts.builds += 1;
      const made = build()
        .then((json) => {
          const answer: CachedAnswer = { body: Buffer.from(json), encodings: {} };
          remove(key);
          entries.set(key, { state, answer, bytes: answer.body.length });
          bytes += answer.body.length;
          trim();
          return answer;
        })
        .finally(() => building.delete(buildKey));
      building.set(buildKey, made);
      return made;
    },
    async encoded(key, answer, encoding, compress) {
      const kept = answer.encodings[encoding];
      if (kept) return kept;
      const made = await compress(answer.body);
      answer.encodings[encoding] = made;
      // Counted only while the answer is still the key's: it may have been replaced while compressing.
      const entry = entries.get(key);
      if (entry?.answer === answer) {
        entry.bytes += made.length;
        bytes += made.length;
        trim();
      }
      return made;
    },
    get size() {
      return { entries: entries.size, bytes };
    },
    get counts() {
      return { ...counts };
    },
  };
}

/**
 * Sends the route's answer for `parts` (what the answer depends on besides the tenant and the route: the
 * language, the user for a per-user answer) from the store, building it with `load` when the tenant changed
 * since. The answer is serialized by the route's response schema, as a returned value would be.
 */
export async function versionedAnswer(request: FastifyRequest, reply: FastifyReply, parts: readonly string[], load: () => Promise<unknown>): Promise<void> {
  const store = request.server.versionedAnswers;
  const { legalentitynodeid, tenantstate } = request.auth;
  const key = [legalentitynodeid, request.routeOptions.url ?? request.url, ...parts].join('\u0000');
  const answer = store.get(key, tenantstate) ?? (await store.fill(key, tenantstate, async () => reply.serialize(await load()) as string));

  void reply.type('application/json; charset=utf-8');
  const compression = request.server.answerCompression;
  const encoding = compression.encodingFor(request, reply, answer.body.length);
  if (encoding === undefined) {
    void reply.send(answer.body);
  } else {
    const bytes = await store.encoded(key, answer, encoding, (body) => compression.compress(body, encoding));
    compression.markEncoded(reply, encoding);
    void reply.send(bytes);
  }
  // why await: an async handler that sends itself resolves once the answer is out (Fastify's `return reply`).
  await reply;
}
