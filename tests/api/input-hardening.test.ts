import { eq } from 'drizzle-orm';
import { v4 as uuidv4, v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorSchema } from '../../src/shared/api/errors';
import { counterReadings, counterTypes, counters } from '../../src/server/db/schema';
import { UNIT_IDS } from '../../src/server/db/seed/reference-data';
import { ensureUnits, insertCounter, insertCounterReading, insertCounterType } from '../factories/notifications';
import { insertEquipment } from '../factories/structure';
import type { TestTenant } from '../factories/tenant';
import { rowCount, tenantVersion } from './support/db-queries';
import { call } from './support/requests';
import { apiOperations, describeOperation, fieldPaths, sampleBodyWith, sampleQuery, urlOf, type Operation } from './support/route-catalog';
import { mutationHeaders, pullChanges, send } from './support/structure';
import { createTwoTenantApp, type TestApp } from './support/test-app';

/**
 * Bad input never gives a 5xx nor a partial write: deep JSON, prototype names as `lang`, a failure after the
 * service wrote, and ids another tenant already uses. The route lists come from the registered routes' OpenAPI
 * document, so a route added later is covered without editing this file.
 */

const PROTOTYPE_NAMES = ['__proto__', 'toString', 'valueOf', 'constructor', 'hasOwnProperty'];
// Far beyond the limit (32), and small enough for every route's body limit (a login takes 16 KB): the depth is refused, not the size.
const DEPTH = 1_000;

describe('input hardening', () => {
  let t: TestApp;
  let a: TestTenant;
  let b: TestTenant;
  let adminA: string;
  let adminB: string;
  let operations: Operation[];

  beforeAll(async () => {
    ({ t, a, b, adminA, adminB } = await createTwoTenantApp());
    operations = apiOperations(t.app);
    await ensureUnits(t.database.db);
    // why a first write per tenant: a pull from cursor 0 means "everything" (rows outside the feed too), so the
    // feed checks below need each tenant's cursor above 0.
    for (const authorization of [adminA, adminB]) {
      const response = await call(t, authorization, 'POST', '/api/countertypes/create', { lang: 'de', name: 'Erste Zählerart', unit: 'C62' });
      expect(response.statusCode, response.body).toBe(201);
    }
  });
  afterAll(() => t?.close());

  /** Asserts that nothing reached tenant A's change feed since `cursor` (what a device would pull). */
  async function expectFeedUnchanged(cursor: number, authorization = adminA) {
    expect(await pullChanges(t, authorization, cursor)).toEqual([]);
  }

  describe('deeply nested JSON', () => {
    const deepObject = `${'{"a":'.repeat(DEPTH)}1${'}'.repeat(DEPTH)}`;
    const deepArray = `${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}`;

    it('is a 400 naming the limit on every route that takes a JSON body, before anything walks it', async () => {
      const jsonRoutes = operations.filter((o) => o.body !== undefined);
      expect(jsonRoutes.length).toBeGreaterThan(30);
      const cursor = await tenantVersion(t.database.db, a.legalEntity.nodeid);
      for (const operation of jsonRoutes) {
        for (const payload of [deepObject, deepArray]) {
          const response = await t.app.inject({
            method: operation.method,
            url: urlOf(operation, sampleQuery(operation)),
            headers: { authorization: adminA, 'content-type': 'application/json' },
            payload,
          });
          expect(response.statusCode, `${describeOperation(operation)}: ${response.body}`).toBe(400);
          const error = apiErrorSchema.parse(response.json());
          expect(error.message).toMatch(/nested too deeply/);
          expect(error.details).toEqual([{ field: 'body', message: expect.stringMatching(/at most \d+ levels/) }]);
        }
      }
      await expectFeedUnchanged(cursor);
    });

    it('the same with the sync headers: the refusal is the stored outcome, nothing else is written', async () => {
      const cursor = await tenantVersion(t.database.db, a.legalEntity.nodeid);
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/sites',
        headers: { authorization: adminA, 'content-type': 'application/json', ...mutationHeaders(uuidv4(), 1) },
        payload: deepObject,
      });
      expect(response.statusCode, response.body).toBe(400);
      await expectFeedUnchanged(cursor);
    });

    it('a body nested as deep as real forms are is still accepted', async () => {
      // why a deep-ish legal body: the limit must sit far above what the app's own forms send.
      const response = await call(t, adminA, 'POST', '/api/equipments/bulk', { items: [{ name: 'Presse', mediasupply: ['Druckluft'] }] });
      expect(response.statusCode, response.body).not.toBe(500);
      expect(apiErrorSchema.safeParse(response.json()).data?.message ?? '').not.toMatch(/nested too deeply/);
    });
  });

  describe('lang is one of the supported languages', () => {
    it('a prototype name as the query `lang` is a 400 naming the field on every route that takes it', async () => {
      const withLang = operations.filter((o) => o.query.some((p) => p.name === 'lang'));
      expect(withLang.length).toBeGreaterThan(10);
      for (const operation of withLang) {
        for (const lang of [...PROTOTYPE_NAMES, 'fr', 'DE']) {
          const response = await call(t, adminA, operation.method as 'GET', urlOf(operation, { ...sampleQuery(operation), lang }));
          expect(response.statusCode, `${describeOperation(operation)} lang=${lang}: ${response.body}`).toBe(400);
          expect(apiErrorSchema.parse(response.json()).details?.map((d) => d.field)).toContain('lang');
        }
      }
    });

    it('a prototype name as the body `lang` is a 400 naming the field, and nothing is written', async () => {
      const withLang = operations.flatMap((o) => fieldPaths(o.body, 'lang').map((path) => ({ operation: o, path })));
      expect(withLang.length).toBeGreaterThan(15);
      const cursor = await tenantVersion(t.database.db, a.legalEntity.nodeid);
      for (const { operation, path } of withLang) {
        for (const lang of PROTOTYPE_NAMES) {
          const response = await call(t, adminA, operation.method as 'POST', urlOf(operation, sampleQuery(operation)), sampleBodyWith(operation.body!, path, lang));
          expect(response.statusCode, `${describeOperation(operation)} ${path}=${lang}: ${response.body}`).toBe(400);
          expect(apiErrorSchema.parse(response.json()).details?.map((d) => d.field)).toContain(path);
        }
      }
      await expectFeedUnchanged(cursor);
    });

    it('countertypes/create with lang __proto__ is a 400 and no counter type is stored (it was a 500 after the commit)', async () => {
      const cursor = await tenantVersion(t.database.db, a.legalEntity.nodeid);
      const response = await call(t, adminA, 'POST', '/api/countertypes/create', { lang: '__proto__', name: 'Hübe', unit: 'C62' });
      expect(response.statusCode, response.body).toBe(400);
      expect(await rowCount(t.database.db, counterTypes, eq(counterTypes.name, 'Hübe'))).toBe(0);
      await expectFeedUnchanged(cursor);
    });

    it('every read that takes lang answers in the supported languages', async () => {
      for (const operation of operations.filter((o) => o.method === 'GET' && o.query.some((p) => p.name === 'lang') && o.pathParams.length === 0)) {
        for (const lang of ['de', 'en']) {
          const response = await call(t, adminA, 'GET', urlOf(operation, { ...sampleQuery(operation), lang }));
          expect(response.statusCode, `${describeOperation(operation)} lang=${lang}: ${response.body}`).toBeLessThan(500);
        }
      }
    });
  });

  describe('a failure after the service wrote leaves nothing written', () => {
    let counterA: string;
    let notANumber: { nodeid: string; takenat: Date };

    beforeAll(async () => {
      const machine = await insertEquipment(t.database.db, { legalentitynodeid: a.legalEntity.nodeid });
      const type = await insertCounterType(t.database.db, { legalentitynodeid: a.legalEntity.nodeid, unitnodeid: UNIT_IDS.piece });
      counterA = (await insertCounter(t.database.db, { legalentitynodeid: a.legalEntity.nodeid, equipmentnodeid: machine.nodeid, countertypenodeid: type.nodeid })).nodeid;
      // why NaN: PostgreSQL's numeric stores it, the answer's schema refuses it, so the answer of a write that names
      // this reading (the update answers the readings it sent, as stored) fails to serialize after the service wrote
      // its part: the answer failure a 5xx must undo.
      notANumber = await insertCounterReading(t.database.db, { legalentitynodeid: a.legalEntity.nodeid, counternodeid: counterA, value: Number.NaN });
    });

    const addReading = (headers: Record<string, string>) =>
      send(
        t,
        adminA,
        'PUT',
        `/api/counters/update/${counterA}`,
        { lang: 'de', values: [{ nodeid: uuidv7(), reading: 7, timestamp: Date.now() }, { nodeid: notANumber.nodeid, reading: 1, timestamp: notANumber.takenat.getTime() }] },
        headers,
      );

    it.each([
      ['without the sync headers', () => ({})],
      ['with the sync headers', () => mutationHeaders(uuidv4(), 1)],
    ])('%s: an answer that fails its schema is a 500 and the write is rolled back', async (_label, headers) => {
      const cursor = await tenantVersion(t.database.db, a.legalEntity.nodeid);
      const readingsBefore = await rowCount(t.database.db, counterReadings, eq(counterReadings.counternodeid, counterA));
      const response = await addReading(headers());
      expect(response.statusCode, response.body).toBe(500);
      expect(await rowCount(t.database.db, counterReadings, eq(counterReadings.counternodeid, counterA))).toBe(readingsBefore);
      await expectFeedUnchanged(cursor);
    });

    it.each([
      ['without the sync headers', () => ({})],
      ['with the sync headers', () => mutationHeaders(uuidv4(), 1)],
    ])('%s: a failure just before the commit is a 500 and nothing is in the feed', async (_label, headers) => {
      const cursor = await tenantVersion(t.database.db, a.legalEntity.nodeid);
      t.faults.beforeCommit = () => {
        throw new Error('injected before commit');
      };
      try {
        const response = await send(t, adminA, 'POST', '/api/countertypes/create', { lang: 'de', name: 'Vor dem Commit', unit: 'C62' }, headers());
        expect(response.statusCode, response.body).toBe(500);
      } finally {
        t.faults.beforeCommit = undefined;
      }
      expect(await rowCount(t.database.db, counterTypes, eq(counterTypes.name, 'Vor dem Commit'))).toBe(0);
      await expectFeedUnchanged(cursor);
    });
  });

  describe("an id another tenant uses is a 409, never skipped", () => {
    let readingA: string;
    let counterA: string;
    let machineB: string;
    let typeB: string;
    let counterB: string;

    beforeAll(async () => {
      const machineA = await insertEquipment(t.database.db, { legalentitynodeid: a.legalEntity.nodeid });
      const typeA = await insertCounterType(t.database.db, { legalentitynodeid: a.legalEntity.nodeid });
      counterA = (await insertCounter(t.database.db, { legalentitynodeid: a.legalEntity.nodeid, equipmentnodeid: machineA.nodeid, countertypenodeid: typeA.nodeid })).nodeid;
      readingA = (await insertCounterReading(t.database.db, { legalentitynodeid: a.legalEntity.nodeid, counternodeid: counterA, value: 42 })).nodeid;
      machineB = (await insertEquipment(t.database.db, { legalentitynodeid: b.legalEntity.nodeid })).nodeid;
      typeB = (await insertCounterType(t.database.db, { legalentitynodeid: b.legalEntity.nodeid })).nodeid;
      counterB = (await insertCounter(t.database.db, { legalentitynodeid: b.legalEntity.nodeid, equipmentnodeid: machineB, countertypenodeid: typeB })).nodeid;
    });

    const foreignReading = () => [{ nodeid: readingA, reading: 5, timestamp: Date.now() }];
    const readingOfA = () => t.database.db.select().from(counterReadings).where(eq(counterReadings.nodeid, readingA));

    async function expectConflictAndNothingWritten(response: { statusCode: number; body: string; json(): unknown }, cursorB: number) {
      expect(response.statusCode, response.body).toBe(409);
      const error = apiErrorSchema.parse(response.json());
      expect(error).toMatchObject({ statusCode: 409, error: 'Conflict', message: expect.stringMatching(/cannot be used/) });
      expect(response.body).not.toContain(a.legalEntity.nodeid);
      expect(await readingOfA()).toEqual([expect.objectContaining({ legalentitynodeid: a.legalEntity.nodeid, counternodeid: counterA, value: 42 })]);
      await expectFeedUnchanged(cursorB, adminB);
    }

    it('POST /api/counters/create with a reading id of tenant A', async () => {
      const cursorB = await tenantVersion(t.database.db, b.legalEntity.nodeid);
      const nodeid = uuidv7();
      const response = await call(t, adminB, 'POST', '/api/counters/create', { lang: 'de', nodeid, name: 'Fremd', counterTypeNodeId: typeB, equipmentNodeId: machineB, values: foreignReading() });
      await expectConflictAndNothingWritten(response, cursorB);
      expect(await rowCount(t.database.db, counters, eq(counters.nodeid, nodeid))).toBe(0);
    });

    it('PUT /api/counters/update with a reading id of tenant A', async () => {
      const cursorB = await tenantVersion(t.database.db, b.legalEntity.nodeid);
      const response = await call(t, adminB, 'PUT', `/api/counters/update/${counterB}`, { lang: 'de', values: foreignReading() });
      await expectConflictAndNothingWritten(response, cursorB);
    });

    it('POST /api/countertypes/create whose first counter has a reading id of tenant A', async () => {
      const cursorB = await tenantVersion(t.database.db, b.legalEntity.nodeid);
      const response = await call(t, adminB, 'POST', '/api/countertypes/create', {
        lang: 'de',
        name: 'Fremdzähler',
        unit: 'C62',
        counter: { name: 'Erster', equipmentNodeId: machineB, values: foreignReading() },
      });
      await expectConflictAndNothingWritten(response, cursorB);
      expect(await rowCount(t.database.db, counterTypes, eq(counterTypes.name, 'Fremdzähler'))).toBe(0);
    });

    it('a reading id of another counter of the same tenant is a 409 as well', async () => {
      const cursorA = await tenantVersion(t.database.db, a.legalEntity.nodeid);
      const other = await insertCounter(t.database.db, { legalentitynodeid: a.legalEntity.nodeid });
      const response = await call(t, adminA, 'PUT', `/api/counters/update/${other.nodeid}`, { lang: 'de', values: foreignReading() });
      expect(response.statusCode, response.body).toBe(409);
      expect(await readingOfA()).toEqual([expect.objectContaining({ counternodeid: counterA })]);
      await expectFeedUnchanged(cursorA);
    });

    it('the same reading sent again by its own tenant for its own counter stays a no-op (the outbox resends)', async () => {
      const values = [{ nodeid: readingA, reading: 42, timestamp: Date.now() }];
      const first = await call(t, adminA, 'PUT', `/api/counters/update/${counterA}`, { lang: 'de', values });
      expect(first.statusCode, first.body).toBe(200);
      const again = await call(t, adminA, 'PUT', `/api/counters/update/${counterA}`, { lang: 'de', values });
      expect(again.statusCode, again.body).toBe(200);
      expect(await rowCount(t.database.db, counterReadings, eq(counterReadings.counternodeid, counterA))).toBe(1);
    });

    it('a counter type id of tenant A is a 409 for tenant B, and A keeps its type', async () => {
      const typeA = await insertCounterType(t.database.db, { legalentitynodeid: a.legalEntity.nodeid, name: 'Typ von A' });
      const cursorB = await tenantVersion(t.database.db, b.legalEntity.nodeid);
      const response = await call(t, adminB, 'POST', '/api/countertypes/create', { lang: 'de', nodeid: typeA.nodeid, name: 'Übernommen', unit: 'C62' });
      expect(response.statusCode, response.body).toBe(409);
      expect(await t.database.db.select({ name: counterTypes.name, le: counterTypes.legalentitynodeid }).from(counterTypes).where(eq(counterTypes.nodeid, typeA.nodeid))).toEqual([
        { name: 'Typ von A', le: a.legalEntity.nodeid },
      ]);
      await expectFeedUnchanged(cursorB, adminB);
    });
  });
});
