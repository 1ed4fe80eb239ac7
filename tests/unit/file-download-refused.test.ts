import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../src/client/lib/api-client';

// why mocked: the download route's answer is what is under test; the rest (mirror, file cache) is the real code.
const { get } = vi.hoisted(() => ({ get: vi.fn() }));
vi.mock('../../src/client/lib/api', () => ({ api: { get } }));

const { getLocalDb } = await import('../../src/client/db/local-db');
const { documentBlob } = await import('../../src/client/features/machine/document-files');
const { makeMachineOffline } = await import('../../src/client/sync/offline-files');

/**
 * GET /api/files/{nodeid}/download answers 403 for a file no record the user may read names
 * (docs/security.md § Files and uploads). For the app that is "not available", as a file it cannot reach: no
 * screen may fail on it.
 */
describe('a refused download (403) is a file that is not available', () => {
  beforeEach(() => {
    get.mockReset();
    get.mockRejectedValue(new ApiError({ kind: 'http', statusCode: 403, message: 'Zugriff verwehrt!' }));
  });

  it('a document opens as nothing, for the documentation tab to say it is not available', async () => {
    const document = { nodeid: 'a1', title: 'Anleitung', description: null, category: 'operation', filenodeid: 'refused-doc', mimetype: 'application/pdf', extension: 'pdf', size: 10, pending: false, local: null } as const;
    expect(await documentBlob(document, true)).toBeNull();
    expect(get).toHaveBeenCalledWith('files/refused-doc/download', expect.anything());
  });

  it('"Offline verfügbar machen" counts it as not fetched and goes on', async () => {
    const db = getLocalDb();
    await db.mirror('files').put({ nodeid: 'refused-photo', fileid: 'refused-photo', fileversion: 1, status: 'complete', size: 10, mimetype: 'image/png' });
    await db.mirror('equipment').put({ nodeid: 'machine-403', imagefilenodeid: 'refused-photo', typenameplatefilenodeid: null });
    await expect(makeMachineOffline('machine-403', { estimate: async () => null })).resolves.toMatchObject({ available: 0, total: 1, failed: 1 });
  });
});
