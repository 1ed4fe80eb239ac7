/**
 * When a write the server keeps failing on may be set aside by the user (docs/sync.md § Setting aside). The sender
 * retries every 5xx forever, which is right for an outage and wrong for a server bug that fails on one particular
 * write every time: then nothing queued behind it ever reaches the server. After a few failed attempts with a
 * server error that is no outage the sync panel offers "Zurückstellen"; the sender does it (`setAside`).
 */
import type { OutboxEntry } from '../db/local-db';

/** Failed attempts before the panel offers to set a write aside: about 2–4 s of retries after the first failure. */
export const SET_ASIDE_AFTER_ATTEMPTS = 5;

/**
 * Answers of an outage rather than of the write: a gateway without its server (502, 504) and a server that says it
 * cannot serve now (503). They pass by themselves; setting the write aside would not help the ones behind it.
 */
const OUTAGE_STATUSES = new Set([502, 503, 504]);

/** The 5xx status of a sender's error text (`HTTP 500`, `upload HTTP 500`), else undefined. */
export function serverErrorStatusOf(lastError: string | null | undefined): number | undefined {
  const match = /^(?:upload )?HTTP (5\d\d)$/.exec(lastError ?? '');
  return match ? Number(match[1]) : undefined;
}

/** A server error that is no outage: one that may be the request's own doing. */
export function isServerFault(status: number): boolean {
  return status >= 500 && status <= 599 && !OUTAGE_STATUSES.has(status);
}

/** The entry failed often enough, the last time with a server error that is no outage. */
export function mayBeSetAside(entry: Pick<OutboxEntry, 'attempts' | 'lastError'>): boolean {
  const status = serverErrorStatusOf(entry.lastError);
  return status !== undefined && isServerFault(status) && entry.attempts >= SET_ASIDE_AFTER_ATTEMPTS;
}
