/**
 * FAQs (part 1 §2.3, §6, §7) through their declarations createFaq / updateFaq / deleteFaq: every request is built
 * from the declaration (method, path, body) as the device queues it, and goes through the real route.
 */
import { and, eq } from 'drizzle-orm';
import { v4 as uuidv4, v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_DENIED_MESSAGE, apiErrorSchema } from '../../src/shared/api/errors';
import type { CreateFaqInput } from '../../src/shared/api/faqs';
import { createFaq, deleteFaq, updateFaq } from '../../src/shared/mutations/faqs';
import { mutationPath, parseMutation } from '../../src/shared/mutations/mutation';
import { faqRowSchema } from '../../src/shared/rows/solutions';
import { attachments, faqs, syncMutations, tombstones } from '../../src/server/db/schema';
import { insertFile } from '../factories/files';
import { insertBrand, insertEquipment, insertEquipmentType, insertManufacturer } from '../factories/structure';
import type { TestTenant } from '../factories/tenant';
import { rowCount, tenantVersion } from './support/db-queries';
import { allFlagsBut, userWithFlags } from './support/requests';
import { changeOf, pullChanges, send, sentTwice } from './support/structure';
import { createTwoTenantApp, type TestApp } from './support/test-app';

describe('FAQs (createFaq, updateFaq, deleteFaq)', () => {
  let t: TestApp;
  let a: TestTenant;
  let adminA: string;
  let adminB: string;
  let machine: string;
  let type: string;

  const createUrl = `/api/${mutationPath(createFaq, {})}`;
  const faqUrl = (id: string) => `/api/${mutationPath(updateFaq, { id })}`;
  const body = (overrides: Partial<CreateFaqInput> = {}): CreateFaqInput => ({
    lang: 'de',
    nodeid: uuidv7(),
    question: 'Wie wird die Spindel gekühlt?',
    answer: 'Über den Kühlkreislauf links am Gehäuse; Füllstand wöchentlich prüfen.',
    isfaqof: machine,
    specifier: 'internalfaq',
    ...overrides,
  });
  const create = (authorization: string, payload: CreateFaqInput, headers: Record<string, string> = {}) => send(t, authorization, createFaq.method, createUrl, payload, headers);
  const made = async (payload: CreateFaqInput = body()) => {
    const response = await create(adminA, payload);
    expect(response.statusCode, response.body).toBe(201);
    return faqRowSchema.parse(response.json());
  };
  const version = () => tenantVersion(t.database.db, a.legalEntity.nodeid);

  beforeAll(async () => {
    ({ t, a, adminA, adminB } = await createTwoTenantApp());
    const tenant = { legalentitynodeid: a.legalEntity.nodeid };
    const manufacturer = await insertManufacturer(t.database.db, { ownerlegalentitynodeid: a.legalEntity.nodeid, ...tenant });
    const brand = await insertBrand(t.database.db, { ...tenant, manufacturernodeid: manufacturer.nodeid });
    type = (await insertEquipmentType(t.database.db, { ...tenant, brandnodeid: brand.nodeid, model: 'DMU 50' })).nodeid;
    machine = (await insertEquipment(t.database.db, { ...tenant, name: 'BAZ 01', equipmenttypenodeid: type })).nodeid;
  });
  afterAll(() => t?.close());

  it('registers the three routes of the declarations', () => {
    for (const definition of [createFaq, updateFaq, deleteFaq]) expect(t.app.hasRoute({ method: definition.method, url: `/api${definition.route}` })).toBe(true);
  });

  it('creates a machine FAQ (internalfaq): 201 with the row the declaration computes on the device, and it reaches the pull', async () => {
    const payload = body({ question: '  Wo liegt der Spannschlüssel?  ', answer: '' });
    const row = await made(payload);
    const device = createFaq.apply!(undefined, parseMutation(createFaq, { params: {}, body: payload }), { now: Date.now(), usernodeid: a.admin.nodeid });
    expect(row).toMatchObject({ ...device, nodeid: payload.nodeid, question: 'Wo liegt der Spannschlüssel?', answer: null, equipmentnodeid: machine, equipmenttypenodeid: null });
    expect(changeOf(await pullChanges(t, adminA, 0), 'faqs', payload.nodeid!).data).toMatchObject(device);
  });

  it('creates an equipment type FAQ (equipmenttypefaq) on the type, not on a machine', async () => {
    const row = await made(body({ isfaqof: type, specifier: 'equipmenttypefaq' }));
    expect(row).toMatchObject({ specifier: 'equipmenttypefaq', equipmenttypenodeid: type, equipmentnodeid: null, authornodeid: a.admin.nodeid });
  });

  it('refuses a target of the wrong kind for the specifier (404): a type id as a machine FAQ', async () => {
    const before = await version();
    const response = await create(adminA, body({ isfaqof: type, specifier: 'internalfaq' }));
    expect(response.statusCode).toBe(404);
    expect(await version()).toBe(before);
  });

  it('updates question and answer, only the fields sent; the change reaches the pull', async () => {
    const row = await made();
    const response = await send(t, adminA, updateFaq.method, faqUrl(row.nodeid), { lang: 'de', questionanswernodeid: row.nodeid, answer: 'Neu: Kühlmittel nur bei Stillstand nachfüllen.' });
    expect(response.statusCode, response.body).toBe(200);
    const updated = faqRowSchema.parse(response.json());
    expect(updated).toMatchObject({ question: row.question, answer: 'Neu: Kühlmittel nur bei Stillstand nachfüllen.' });
    expect(updated.version).toBeGreaterThan(row.version);
    expect(changeOf(await pullChanges(t, adminA, row.version), 'faqs', row.nodeid).data).toMatchObject({ answer: 'Neu: Kühlmittel nur bei Stillstand nachfüllen.' });
  });

  it('an update that changes nothing writes no version', async () => {
    const row = await made();
    const before = await version();
    const response = await send(t, adminA, updateFaq.method, faqUrl(row.nodeid), { lang: 'de', question: row.question });
    expect(response.statusCode, response.body).toBe(200);
    expect(await version()).toBe(before);
  });

  it('deletes a FAQ with its attachments: tombstones for both reach the pull', async () => {
    const row = await made();
    const file = await insertFile(t.database.db, { legalentitynodeid: a.legalEntity.nodeid, status: 'complete', size: 10, createdbynodeid: a.admin.nodeid });
    const attached = await send(t, adminA, 'POST', '/api/attachments', { lang: 'de', title: 'Skizze', file: { fileid: file.fileid, fileversion: file.fileversion }, isattachmentof: row.nodeid });
    expect(attached.statusCode, attached.body).toBe(201);
    expect(attached.json()).toMatchObject({ targetkind: 'faq' });
    const attachment = (attached.json() as { nodeid: string }).nodeid;

    const response = await send(t, adminA, deleteFaq.method, faqUrl(row.nodeid), { nodeid: row.nodeid });
    expect(response.statusCode, response.body).toBe(200);
    expect(await rowCount(t.database.db, faqs, eq(faqs.nodeid, row.nodeid))).toBe(0);
    expect(await rowCount(t.database.db, attachments, eq(attachments.nodeid, attachment))).toBe(0);
    const changes = await pullChanges(t, adminA, row.version);
    expect(changeOf(changes, 'faqs', row.nodeid).deleted).toBe(true);
    expect(changeOf(changes, 'attachments', attachment).deleted).toBe(true);
    // A resend of the create of a deleted FAQ (another mutation id) does not bring it back.
    expect((await create(adminA, body({ nodeid: row.nodeid, question: row.question, answer: row.answer }))).statusCode).toBe(410);
  });

  it('refuses bad input with 400 naming the field, writing nothing', async () => {
    const before = await version();
    const cases: [unknown, string][] = [
      [{ ...body(), question: '   ' }, 'question'],
      [{ ...body(), question: undefined }, 'question'],
      [{ ...body(), question: 'x'.repeat(2001) }, 'question'],
      [{ ...body(), answer: 'x'.repeat(20_001) }, 'answer'],
      [{ ...body(), isfaqof: 'not-a-uuid' }, 'isfaqof'],
      [{ ...body(), specifier: 'externalfaq' }, 'specifier'],
      [{ ...body(), lang: 'fr' }, 'lang'],
      [{ ...body(), usernodeid: uuidv4() }, 'usernodeid'],
    ];
    for (const [payload, field] of cases) {
      const response = await send(t, adminA, 'POST', createUrl, payload);
      expect(response.statusCode, `${field}: ${response.body}`).toBe(400);
      expect(apiErrorSchema.parse(response.json()).details?.map((detail) => detail.field)).toContain(field);
    }
    const row = await made();
    const afterCreate = await version();
    const mismatch = await send(t, adminA, 'PUT', faqUrl(row.nodeid), { lang: 'de', questionanswernodeid: uuidv4(), question: 'Andere' });
    expect(mismatch.statusCode).toBe(400);
    const empty = await send(t, adminA, 'PUT', faqUrl(row.nodeid), { lang: 'de', question: '' });
    expect(empty.statusCode).toBe(400);
    expect(await version()).toBe(afterCreate);
    expect(afterCreate).toBe(before + 1);
  });

  it('answers 403 without the equipment.faq flag each write needs', async () => {
    const row = await made();
    const forCreate = await userWithFlags(t, a.legalEntity.nodeid, 'equipment.faq', allFlagsBut('create'));
    const forUpdate = await userWithFlags(t, a.legalEntity.nodeid, 'equipment.faq', allFlagsBut('update'));
    const forDelete = await userWithFlags(t, a.legalEntity.nodeid, 'equipment.faq', allFlagsBut('delete'));
    const responses = [
      await create(forCreate.authorization, body()),
      await send(t, forUpdate.authorization, 'PUT', faqUrl(row.nodeid), { lang: 'de', question: 'Geändert?' }),
      await send(t, forDelete.authorization, 'DELETE', faqUrl(row.nodeid)),
    ];
    for (const response of responses) {
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ message: ACCESS_DENIED_MESSAGE });
    }
    // …and each of them may do what its flags allow.
    expect((await send(t, forCreate.authorization, 'PUT', faqUrl(row.nodeid), { lang: 'de', answer: 'Darf ändern.' })).statusCode).toBe(200);
  });

  it('another tenant: its machine or type cannot get a FAQ, its FAQ cannot be changed or deleted (404), nothing leaks', async () => {
    const row = await made();
    const before = await version();
    const responses = [
      await create(adminB, body()),
      await create(adminB, body({ isfaqof: type, specifier: 'equipmenttypefaq' })),
      await send(t, adminB, 'PUT', faqUrl(row.nodeid), { lang: 'de', question: 'Gekapert' }),
      await send(t, adminB, 'DELETE', faqUrl(row.nodeid)),
    ];
    for (const response of responses) {
      expect(response.statusCode).toBe(404);
      expect(response.body).not.toContain(row.question);
    }
    expect(await version()).toBe(before);
    const [stored] = await t.database.db.select().from(faqs).where(eq(faqs.nodeid, row.nodeid));
    expect(stored?.question).toBe(row.question);
    // A FAQ id of tenant A chosen again by tenant B's device is refused without saying whose it is.
    const taken = await create(adminB, body({ nodeid: row.nodeid, isfaqof: machine }));
    expect([404, 409]).toContain(taken.statusCode);
  });

  it('with X-Client-Id/X-Mutation-Id each write is applied once; a resend answers the stored result', async () => {
    const clientid = uuidv4();
    const payload = body();
    const first = await sentTwice(t, adminA, createFaq.method, createUrl, payload, { clientid, status: 201, unchanged: version });
    expect(await rowCount(t.database.db, faqs, eq(faqs.nodeid, payload.nodeid!))).toBe(1);
    expect(await rowCount(t.database.db, syncMutations, eq(syncMutations.clientid, clientid))).toBe(1);

    await sentTwice(t, adminA, updateFaq.method, faqUrl(payload.nodeid!), { lang: 'de', question: 'Offline geändert' }, { status: 200, unchanged: version });
    await sentTwice(t, adminA, deleteFaq.method, faqUrl(payload.nodeid!), { nodeid: payload.nodeid }, { status: 200, unchanged: version });
    expect(await rowCount(t.database.db, tombstones, and(eq(tombstones.kind, 'faqs'), eq(tombstones.nodeid, payload.nodeid!)))).toBe(1);
    expect(first.json()).toMatchObject({ nodeid: payload.nodeid });
  });

  it('the same create sent again under a new mutation id answers the row it made, without a second version', async () => {
    const payload = body();
    const first = await made(payload);
    const before = await version();
    const again = await create(adminA, payload);
    expect(again.statusCode).toBe(201);
    expect(faqRowSchema.parse(again.json())).toEqual(first);
    expect(await version()).toBe(before);
  });
});
