import { v4 as uuidv4 } from 'uuid';
import { expect } from 'vitest';
import { pullResponseSchema, type SyncChange } from '../../../src/shared/api/sync';
import type { Method } from './requests';
import type { TestApp } from './test-app';

/** A request with extra headers (X-Client-Id, X-Mutation-Id), as the outbox sends it. */
export function send(t: TestApp, authorization: string, method: Method, url: string, payload?: unknown, headers: Record<string, string> = {}) {
  return t.app.inject({ method, url, headers: { authorization, ...headers }, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
}

/** The outbox's headers; a string id only to send a malformed one. */
export const mutationHeaders = (clientid: string, mutationId: number | string) => ({ 'x-client-id': clientid, 'x-mutation-id': String(mutationId) });

/**
 * A write as the outbox sends it, then the same write again under the same mutation id, as after a lost answer:
 * the resend gets the stored answer (Idempotent-Replayed, the same status and body), and what `unchanged` reads
 * is the same after it as before. `status` is what the first send must answer.
 */
export async function sentTwice(
  t: TestApp,
  authorization: string,
  method: Method,
  url: string,
  body: unknown,
  options: { clientid?: string; status?: number; unchanged?: () => Promise<unknown> } = {},
) {
  const headers = mutationHeaders(options.clientid ?? uuidv4(), 1);
  const first = await send(t, authorization, method, url, body, headers);
  if (options.status !== undefined) expect(first.statusCode, first.body).toBe(options.status);
  const before = await options.unchanged?.();
  const replay = await send(t, authorization, method, url, body, headers);
  expect(replay.statusCode).toBe(first.statusCode);
  expect(replay.headers['idempotent-replayed']).toBe('true');
  expect(replay.json()).toEqual(first.json());
  if (options.unchanged) expect(await options.unchanged()).toEqual(before);
  return first;
}

/** Every change after `cursor` through GET /api/sync/pull, following `hasMore`, as a fresh device. */
export async function pullChanges(t: TestApp, authorization: string, cursor: number): Promise<SyncChange[]> {
  const clientid = uuidv4();
  const changes: SyncChange[] = [];
  let next = cursor;
  for (;;) {
    const response = await send(t, authorization, 'GET', `/api/sync/pull?cursor=${next}`, undefined, { 'x-client-id': clientid });
    expect(response.statusCode, response.body).toBe(200);
    const page = pullResponseSchema.parse(response.json());
    changes.push(...page.changes);
    next = page.cursor;
    if (!page.hasMore) return changes;
  }
}

/** The change of `kind`/`nodeid` in a pull, failing when it is missing. */
export function changeOf(changes: SyncChange[], kind: string, nodeid: string): SyncChange {
  const change = changes.find((c) => c.kind === kind && c.nodeid === nodeid);
  expect(change, `${kind} ${nodeid} in the pull`).toBeDefined();
  return change!;
}
