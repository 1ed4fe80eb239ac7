import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorSchema } from '../../src/shared/api/errors';
import { NODEID_TAKEN } from '../../src/server/http-errors';
import { tenantVersion } from './support/db-queries';
import { createTwoPlants, PROBES, type Plant } from './support/plant-probes';
import { call } from './support/requests';
import type { TestApp } from './support/test-app';

// Found 2026-12-03 by a probe: ids were unique per table only. A technician made a notification under a FAQ's id,
// and the manual an admin then attached to "the FAQ" went to the notification (the attachment route takes any
// record as its target) and was deleted with it. One nodeid now names one record, whatever its kind or tenant.

/** The kind of record each create probe makes, as buildPlant names it. */
const MADE: Record<string, keyof Plant> = {
  '/api/sites': 'site',
  '/api/areas': 'area',
  '/api/equipmentpools': 'pool',
  '/api/shiftmodels': 'shiftModel',
  '/api/equipments': 'machine',
  '/api/equipments/bulk': 'machine',
  '/api/legalentities': 'manufacturer',
  '/api/brands': 'brand',
  '/api/equipmenttypes': 'type',
  '/api/equipmentclasses': 'equipmentClass',
  '/api/notifications': 'notification',
  '/api/workflows': 'workflow',
  '/api/faqs': 'faq',
  '/api/costs/create': 'cost',
  '/api/counters/create': 'counter',
  '/api/countertypes/create': 'counterType',
  '/api/attachments': 'attachment',
  '/api/files': 'fileNode',
};

/** Ids of records of every family: structure, catalogue, notifications and what hangs on them, files. */
const HELD: (keyof Plant)[] = ['site', 'area', 'pool', 'machine', 'brand', 'notification', 'report', 'faq', 'step', 'attachment', 'reading', 'shift', 'fileNode', 'counter'];

describe('one nodeid, one record', () => {
  let t: TestApp;
  let own: Plant;
  let other: Plant;
  let adminA: string;

  beforeAll(async () => {
    ({ t, adminA, own, other } = await createTwoPlants());
  }, 120_000);
  afterAll(() => t?.close());

  it('a new record under the id another kind of record holds, of the tenant or of another, is 409 and writes nothing', { timeout: 300_000 }, async () => {
    const creates = PROBES.filter((probe) => probe.method === 'POST' && MADE[probe.url(own)] !== undefined);
    expect(creates.length).toBeGreaterThan(15);
    const versions = [await tenantVersion(t.database.db, own.le), await tenantVersion(t.database.db, other.le)];
    const wrong: string[] = [];
    for (const probe of creates) {
      const made = MADE[probe.url(own)]!;
      for (const [owner, plant] of [['own', own], ['other tenant’s', other]] as const) {
        for (const held of HELD.filter((kind) => kind !== made)) {
          // The probe's first new id is the record it makes: here, the id the other record holds.
          let first = true;
          const body = probe.body(own, () => (first ? ((first = false), plant[held]) : uuidv7()));
          const response = await call(t, adminA, 'POST', probe.url(own), body);
          const message = response.statusCode === 409 ? apiErrorSchema.parse(response.json()).message : response.body.slice(0, 160);
          if (response.statusCode !== 409 || message !== NODEID_TAKEN) wrong.push(`${probe.url(own)} under the ${owner} ${held}'s id: ${response.statusCode} ${message}`);
        }
      }
    }
    expect(wrong).toEqual([]);
    expect([await tenantVersion(t.database.db, own.le), await tenantVersion(t.database.db, other.le)]).toEqual(versions);
  });

  it('the same create sent again is still its own record (no registry conflict with itself)', async () => {
    const body = { lang: 'de', nodeid: uuidv7(), question: 'Wie wechsle ich den Filter?', answer: 'So.', isfaqof: own.machine, specifier: 'internalfaq' };
    const first = await call(t, adminA, 'POST', '/api/faqs', body);
    expect(first.statusCode, first.body).toBe(201);
    const again = await call(t, adminA, 'POST', '/api/faqs', body);
    expect(again.statusCode, again.body).toBeLessThan(300);
    expect(again.json()).toMatchObject({ nodeid: body.nodeid });
  });
});
