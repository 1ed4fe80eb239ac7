import { describe, expect, it } from 'vitest';
import { mayBeSetAside, SET_ASIDE_AFTER_ATTEMPTS, serverErrorStatusOf } from '../../src/client/sync/stuck-entry';

describe('when a write the server keeps failing on may be set aside', () => {
  it('reads the 5xx of a send or of an upload, nothing else', () => {
    expect(['HTTP 500', 'upload HTTP 507', 'HTTP 409', 'network', 'HTTP 500 ', 'xHTTP 500', null, undefined].map(serverErrorStatusOf)).toEqual([500, 507, undefined, undefined, undefined, undefined, undefined, undefined]);
  });

  it('after enough failed attempts with a server error that is no outage', () => {
    const at = (attempts: number, lastError: string | null) => mayBeSetAside({ attempts, lastError });
    expect(at(SET_ASIDE_AFTER_ATTEMPTS - 1, 'HTTP 500')).toBe(false);
    expect(at(SET_ASIDE_AFTER_ATTEMPTS, 'HTTP 500')).toBe(true);
    expect(at(SET_ASIDE_AFTER_ATTEMPTS + 20, 'upload HTTP 500')).toBe(true);
    // An outage passes by itself: a gateway without its server, a server that cannot serve now, no connection.
    for (const outage of ['HTTP 502', 'HTTP 503', 'HTTP 504', 'upload HTTP 503', 'network', 'HTTP 429', 'HTTP 401', 'HTTP 409 (expected 3)']) expect(at(50, outage), outage).toBe(false);
    expect(at(50, null)).toBe(false);
  });
});

describe('the app bar when the next change is stuck', () => {
  it('says so as something to act on; a refused change still comes first', async () => {
    const { syncHeadline, syncProblem } = await import('../../src/client/components/sync-status-slot');
    const base = { pendingCount: 2, deadLetterCount: 0, stuck: false, sending: false, pulling: false, online: true, error: null, lastSyncAt: 1, serverLostWrites: 0 };
    expect([syncHeadline(base).key, syncProblem(base)]).toEqual(['sync.pending', false]);
    expect([syncHeadline({ ...base, stuck: true }).key, syncProblem({ ...base, stuck: true })]).toEqual(['sync.problem.stuck', true]);
    expect(syncHeadline({ ...base, stuck: true, deadLetterCount: 1, pendingCount: 0 }).key).toBe('sync.deadLetters');
    // Setting aside needs a session, and a full disk stops every write: those come first.
    expect(syncHeadline({ ...base, stuck: true, error: { kind: 'session' } }).key).toBe('sync.problem.session');
    expect(syncHeadline({ ...base, stuck: true, error: { kind: 'quota' } }).key).toBe('sync.problem.quota');
    expect([syncHeadline({ ...base, error: { kind: 'devices' } }).key, syncProblem({ ...base, error: { kind: 'devices' } })]).toEqual(['sync.problem.devices', true]);
  });
});

describe('the app bar names every kind of change that is not on the server, and says when the device is not ready offline', () => {
  const base = { pendingCount: 0, deadLetterCount: 0, stuck: false, sending: false, pulling: false, online: true, error: null, lastSyncAt: 1, serverLostWrites: 0 };

  it('refused changes beside unsent ones: both counted in words (the badge adds them; the text hid the unsent ones)', async () => {
    const { syncHeadline } = await import('../../src/client/components/sync-status-slot');
    expect(syncHeadline({ ...base, deadLetterCount: 2, pendingCount: 1 })).toEqual({ key: 'sync.deadLettersAndPending', count: 2, pending: 1 });
    expect(syncHeadline({ ...base, deadLetterCount: 2 })).toEqual({ key: 'sync.deadLetters', count: 2 });
    expect(syncHeadline({ ...base, pendingCount: 1 })).toEqual({ key: 'sync.pending', count: 1 });
  });

  it('"Synchronisiert" only once the app itself is stored for offline starts', async () => {
    const { syncHeadline } = await import('../../src/client/components/sync-status-slot');
    expect(syncHeadline({ ...base, offline: 'preparing' }).key).toBe('sync.preparingOffline');
    expect(syncHeadline({ ...base, offline: 'ready' }).key).toBe('sync.synced');
    // No service worker to wait for (the dev server, a browser without one): nothing to say.
    expect(syncHeadline({ ...base, offline: 'unknown' }).key).toBe('sync.synced');
    // What the user did comes first: unsent changes, a running sync.
    expect(syncHeadline({ ...base, offline: 'preparing', pendingCount: 3 }).key).toBe('sync.pending');
    expect(syncHeadline({ ...base, offline: 'preparing', pulling: true }).key).toBe('sync.syncing');
  });
});
