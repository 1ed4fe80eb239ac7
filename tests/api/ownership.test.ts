import { and, eq, inArray } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AttachmentTargetKind } from '../../src/shared/domain/attachment';
import type { Weekday } from '../../src/shared/domain/shift';
import { UNIT_IDS } from '../../src/server/db/seed/reference-data';
import {
  attachments,
  brands,
  chatMessages,
  chatRoomMembers,
  chatRooms,
  costs,
  costTypes,
  counterReadings,
  counters,
  equipment,
  equipmentClasses,
  equipmentTypes,
  faqs,
  files,
  maintenanceTasks,
  notificationAssignments,
  notifications,
  reports,
  shiftModels,
  shifts,
  structureSubscriptions,
  tombstones,
  workflowSteps,
  workflows,
} from '../../src/server/db/schema';
import { insertFile, pngBytes } from '../factories/files';
import { ensureUnits, insertCounter, insertCounterReading, insertCounterType, insertNotification } from '../factories/notifications';
import { insertArea, insertBrand, insertEquipment, insertEquipmentPool, insertEquipmentType, insertManufacturer, insertSite } from '../factories/structure';
import type { TestTenant } from '../factories/tenant';
import { call } from './support/requests';
import { createOneTenantApp, type TestApp } from './support/test-app';

describe('deletes (src/server/services/ownership.ts)', () => {
  let t: TestApp;
  let a: TestTenant;
  let admin: string;
  let le: string;
  let costtypenodeid: string;

  beforeAll(async () => {
    ({ t, a, adminA: admin } = await createOneTenantApp());
    le = a.legalEntity.nodeid;
    await ensureUnits(t.database.db);
    const [type] = await t.database.db.insert(costTypes).values({ nodeid: uuidv7(), legalentitynodeid: le, name: { de: 'Ersatzteile' }, unitnodeid: UNIT_IDS.hour }).returning();
    costtypenodeid = type!.nodeid;
  });
  afterAll(() => t?.close());

  /**
   * What a delete takes along (src/server/services/ownership.ts): each case builds a record with everything that
   * can hang off it, deletes it through its route and compares the tombstones of that version, kind by kind, with
   * what must go. Records of the same tenant that merely point at it must stay.
   */
  describe('deleting a record takes what it owns along, each with a tombstone', () => {
    /** Collects the expected tombstones as `kind:nodeid`. */
    const expected = () => {
      const stones: string[] = [];
      const add = (kind: string, nodeid: string) => (stones.push(`${kind}:${nodeid}`), nodeid);
      /** A record just inserted that must go: its row back. */
      const row = <T extends { nodeid: string }>(kind: string, inserted: T) => (add(kind, inserted.nodeid), inserted);
      return { add, row, sorted: () => [...stones].sort() };
    };
    type Stones = ReturnType<typeof expected>;

    const tombstonesOf = async (version: number) =>
      (await t.database.db.select().from(tombstones).where(and(eq(tombstones.legalentitynodeid, le), eq(tombstones.version, version)))).map((s) => `${s.kind}:${s.nodeid}`).sort();

    /** Deletes through `url` and checks that the tombstones of that version are exactly the expected ones; returns the version. */
    const removeTaking = async (url: string, stones: Stones) => {
      const response = await call(t, admin, 'DELETE', url);
      expect(response.statusCode, response.body).toBe(200);
      const { version } = response.json() as { version: number };
      expect(await tombstonesOf(version)).toEqual(stones.sorted());
      return version;
    };

    const attach = async (targetkind: AttachmentTargetKind, isattachmentof: string) => {
      const file = await insertFile(t.database.db, { legalentitynodeid: le, status: 'complete' });
      const [row] = await t.database.db.insert(attachments).values({ nodeid: uuidv7(), legalentitynodeid: le, title: 'Foto', filenodeid: file.nodeid, isattachmentof, targetkind }).returning();
      return row!.nodeid;
    };

    /** A shift plan of its own with one shift on `weekdays`; both go with their owner. */
    const ownShiftPlan = async (stones: Stones, weekdays: Weekday[]) => {
      const model = stones.add('shift_models', uuidv7());
      await t.database.db.insert(shiftModels).values({ nodeid: model, legalentitynodeid: le });
      await t.database.db.insert(shifts).values({ nodeid: stones.add('shifts', uuidv7()), legalentitynodeid: le, shiftmodelnodeid: model, weekdays, startminute: 360, endminute: 840, position: 0 });
      return model;
    };

    /** The admin's subscription to a plant, an area or a pool; with `stones`, one that must go. */
    const subscription = (to: { sitenodeid: string } | { areanodeid: string } | { equipmentpoolnodeid: string }, stones?: Stones) => {
      const nodeid = uuidv7();
      stones?.add('structure_subscriptions', nodeid);
      return { nodeid, legalentitynodeid: le, usernodeid: a.admin.nodeid, ...to };
    };

    /** A model's FAQ, and an attachment on the model and on the FAQ; all go with the model. */
    const modelFaqWithAttachments = async (model: string, stones: Stones) => {
      const faq = stones.add('faqs', uuidv7());
      await t.database.db.insert(faqs).values({ nodeid: faq, legalentitynodeid: le, question: 'Modell-FAQ', equipmenttypenodeid: model });
      stones.add('attachments', await attach('equipmenttype', model));
      stones.add('attachments', await attach('faq', faq));
    };

    /** A notification with a solution (and step), a report, costs on both, an assignment, a chat room, attachments. */
    const notificationWithEverything = async (equipmentnodeid: string, stones: Stones) => {
      const db = t.database.db;
      const created = new Date();
      const n = stones.row('notifications', await insertNotification(db, { legalentitynodeid: le, equipmentnodeid, authornodeid: a.admin.nodeid }));
      const workflow = stones.add('workflows', uuidv7());
      await db.insert(workflows).values({ nodeid: workflow, legalentitynodeid: le, notificationnodeid: n.nodeid, title: 'Lager getauscht', created });
      const step = stones.add('workflow_steps', uuidv7());
      await db.insert(workflowSteps).values({ nodeid: step, legalentitynodeid: le, workflownodeid: workflow, description: 'Alt raus, neu rein', created });
      const report = stones.add('reports', uuidv7());
      await db.insert(reports).values({ nodeid: report, legalentitynodeid: le, notificationnodeid: n.nodeid, executed: created, created });
      await db.insert(costs).values([
        { nodeid: stones.add('costs', uuidv7()), legalentitynodeid: le, value: 10, costtypenodeid, notificationnodeid: n.nodeid },
        { nodeid: stones.add('costs', uuidv7()), legalentitynodeid: le, value: 20, costtypenodeid, reportnodeid: report },
      ]);
      await db.insert(notificationAssignments).values({ nodeid: stones.add('notification_assignments', uuidv7()), legalentitynodeid: le, notificationnodeid: n.nodeid, usernodeid: a.admin.nodeid });
      const room = stones.add('chat_rooms', uuidv7());
      await db.insert(chatRooms).values({ nodeid: room, legalentitynodeid: le, name: n.title, notificationnodeid: n.nodeid });
      await db.insert(chatRoomMembers).values({ nodeid: stones.add('chat_room_members', uuidv7()), legalentitynodeid: le, chatroomnodeid: room, usernodeid: a.admin.nodeid });
      await db.insert(chatMessages).values({ nodeid: stones.add('chat_messages', uuidv7()), legalentitynodeid: le, chatroomnodeid: room, authornodeid: a.admin.nodeid, body: 'Bin dran', sent: created });
      stones.add('attachments', await attach('notification', n.nodeid));
      stones.add('attachments', await attach('workflowstep', step));
      stones.add('attachments', await attach('report', report));
      return n.nodeid;
    };

    it('a notification: solutions and steps, reports, costs (its own and its reports’), assignments, chat room with members and messages, attachments', async () => {
      const machine = await insertEquipment(t.database.db, { legalentitynodeid: le });
      const stones = expected();
      const nodeid = await notificationWithEverything(machine.nodeid, stones);
      const sibling = await notificationWithEverything(machine.nodeid, expected());
      const onMachine = await attach('equipment', machine.nodeid);

      await removeTaking(`/api/notifications/${nodeid}`, stones);

      for (const table of [workflows, workflowSteps, reports, costs, notificationAssignments, chatRooms, chatRoomMembers, chatMessages]) {
        expect((await t.database.db.select().from(table)).length, 'the sibling notification keeps its own').toBeGreaterThan(0);
      }
      expect(await t.database.db.select().from(attachments).where(eq(attachments.nodeid, onMachine))).toHaveLength(1);
      expect((await call(t, admin, 'GET', `/api/notifications/${sibling}`)).statusCode).toBe(200);
    });

    it('a machine: its notifications with all of theirs, maintenance tasks with procedures and planned costs, counters with readings, FAQs, attachments, its own shift plan', async () => {
      const db = t.database.db;
      const stones = expected();
      const model = await ownShiftPlan(stones, [1, 2, 3]);
      const machine = stones.row('equipment', await insertEquipment(db, { legalentitynodeid: le, shiftmodelnodeid: model, useareashiftmodel: false }));
      stones.add('attachments', await attach('equipment', machine.nodeid));
      await notificationWithEverything(machine.nodeid, stones);
      await notificationWithEverything(machine.nodeid, stones);

      const task = stones.add('maintenance_tasks', uuidv7());
      await db.insert(maintenanceTasks).values({ nodeid: task, legalentitynodeid: le, maintenancetaskid: `WA-${task.slice(-6)}`, title: 'Öl wechseln', startingfrom: new Date(), repetitioninterval: '1m', equipmentnodeid: machine.nodeid });
      const procedure = stones.add('workflows', uuidv7());
      await db.insert(workflows).values({ nodeid: procedure, legalentitynodeid: le, maintenancetasknodeid: task, title: 'Ablauf', created: new Date() });
      const procedureStep = stones.add('workflow_steps', uuidv7());
      await db.insert(workflowSteps).values({ nodeid: procedureStep, legalentitynodeid: le, workflownodeid: procedure, description: 'Ablassen', created: new Date() });
      await db.insert(costs).values({ nodeid: stones.add('costs', uuidv7()), legalentitynodeid: le, value: 30, costtypenodeid, maintenancetasknodeid: task, specifier: 'plannedcost' });
      stones.add('attachments', await attach('maintenancetask', task));
      stones.add('attachments', await attach('workflowstep', procedureStep));

      const counter = stones.row('counters', await insertCounter(db, { legalentitynodeid: le, equipmentnodeid: machine.nodeid }));
      stones.add('counter_readings', (await insertCounterReading(db, { legalentitynodeid: le, counternodeid: counter.nodeid })).nodeid);
      stones.add('counter_readings', (await insertCounterReading(db, { legalentitynodeid: le, counternodeid: counter.nodeid, value: 200 })).nodeid);

      const faq = stones.add('faqs', uuidv7());
      await db.insert(faqs).values({ nodeid: faq, legalentitynodeid: le, question: 'Wo ist der Ölstab?', equipmentnodeid: machine.nodeid });
      stones.add('attachments', await attach('faq', faq));

      const other = await insertEquipment(db, { legalentitynodeid: le });
      const othersNotification = await notificationWithEverything(other.nodeid, expected());
      const typeFaq = uuidv7();
      await db.insert(faqs).values({ nodeid: typeFaq, legalentitynodeid: le, question: 'Modell-FAQ', equipmenttypenodeid: machine.equipmenttypenodeid });

      await removeTaking(`/api/equipments/${machine.nodeid}`, stones);

      expect(await db.select().from(equipment).where(eq(equipment.nodeid, other.nodeid))).toHaveLength(1);
      expect(await db.select().from(faqs).where(eq(faqs.nodeid, typeFaq)), 'the model’s FAQ belongs to the model').toHaveLength(1);
      expect(await db.select().from(chatRooms).where(eq(chatRooms.notificationnodeid, othersNotification)), 'the other machine’s notification keeps its room').toHaveLength(1);
    });

    it('a plant: its areas and the subscriptions to it and them; its machines stay, unlinked; an area’s shift plan no one else uses goes', async () => {
      const db = t.database.db;
      const stones = expected();
      const site = stones.row('sites', await insertSite(db, { legalentitynodeid: le }));
      const model = await ownShiftPlan(stones, [1]);
      const area = stones.row('areas', await insertArea(db, { legalentitynodeid: le, sitenodeid: site.nodeid, shiftmodelnodeid: model }));
      const machine = await insertEquipment(db, { legalentitynodeid: le, areanodeid: area.nodeid });
      const pool = await insertEquipmentPool(db, { legalentitynodeid: le });
      await db.insert(structureSubscriptions).values([
        subscription({ sitenodeid: site.nodeid }, stones),
        subscription({ areanodeid: area.nodeid }, stones),
        subscription({ equipmentpoolnodeid: pool.nodeid }),
      ]);

      const version = await removeTaking(`/api/sites/${site.nodeid}`, stones);

      const [kept] = await db.select().from(equipment).where(eq(equipment.nodeid, machine.nodeid));
      expect(kept).toMatchObject({ areanodeid: null, version });
      expect(await db.select().from(structureSubscriptions).where(eq(structureSubscriptions.equipmentpoolnodeid, pool.nodeid))).toHaveLength(1);
    });

    it('an area: the subscriptions to it; its machines stay', async () => {
      const db = t.database.db;
      const stones = expected();
      const site = await insertSite(db, { legalentitynodeid: le });
      const area = stones.row('areas', await insertArea(db, { legalentitynodeid: le, sitenodeid: site.nodeid }));
      const machine = await insertEquipment(db, { legalentitynodeid: le, areanodeid: area.nodeid });
      await db.insert(structureSubscriptions).values([
        subscription({ areanodeid: area.nodeid }, stones),
        subscription({ sitenodeid: site.nodeid }),
      ]);

      await removeTaking(`/api/areas/${area.nodeid}`, stones);

      expect(await db.select().from(equipment).where(eq(equipment.nodeid, machine.nodeid))).toHaveLength(1);
    });

    it('a pool: the subscriptions to it; its machines stay', async () => {
      const db = t.database.db;
      const stones = expected();
      const pool = stones.row('equipment_pools', await insertEquipmentPool(db, { legalentitynodeid: le }));
      const machine = await insertEquipment(db, { legalentitynodeid: le, equipmentpoolnodeid: pool.nodeid });
      await db.insert(structureSubscriptions).values(subscription({ equipmentpoolnodeid: pool.nodeid }, stones));

      await removeTaking(`/api/equipmentpools/${pool.nodeid}`, stones);

      expect(await db.select().from(equipment).where(eq(equipment.nodeid, machine.nodeid))).toHaveLength(1);
    });

    it('a counter: its readings', async () => {
      const db = t.database.db;
      const stones = expected();
      const counter = stones.row('counters', await insertCounter(db, { legalentitynodeid: le }));
      stones.add('counter_readings', (await insertCounterReading(db, { legalentitynodeid: le, counternodeid: counter.nodeid })).nodeid);

      await removeTaking(`/api/counters/delete/${counter.nodeid}`, stones);
    });

    it('a brand: its models with their FAQs, and the attachments on both', async () => {
      const db = t.database.db;
      const stones = expected();
      const manufacturer = await insertManufacturer(db, { legalentitynodeid: le });
      const brand = stones.row('brands', await insertBrand(db, { legalentitynodeid: le, manufacturernodeid: manufacturer.nodeid }));
      const model = stones.row('equipment_types', await insertEquipmentType(db, { legalentitynodeid: le, brandnodeid: brand.nodeid }));
      await modelFaqWithAttachments(model.nodeid, stones);

      await removeTaking(`/api/brands/${brand.nodeid}`, stones);

      expect(await db.select().from(attachments).where(eq(attachments.isattachmentof, model.nodeid))).toEqual([]);
    });

    it('a model: its FAQs and the attachments on both; its brand stays', async () => {
      const db = t.database.db;
      const stones = expected();
      const model = stones.row('equipment_types', await insertEquipmentType(db, { legalentitynodeid: le }));
      await modelFaqWithAttachments(model.nodeid, stones);

      await removeTaking(`/api/equipmenttypes/${model.nodeid}`, stones);

      expect((await call(t, admin, 'GET', '/api/brands')).json()).toEqual(expect.arrayContaining([expect.objectContaining({ nodeid: model.brandnodeid })]));
    });
  });

  /**
   * A record deleted while something is created under it (a report, FAQ or counter on a machine, a solution, cost or
   * photo on a notification) or one of its rows is changed: the create locks the record before it takes the
   * tenant's version, as the delete does, so one waits for the other. Either the create comes first and the delete
   * takes the new row along (a tombstone tells the device), or the delete comes first and the create answers 404.
   * Never a deadlock (503), never a row left on a deleted record (an attachment has no foreign key to stop one).
   */
  describe('a record deleted while something is created under it', () => {
    // why on both databases: PGlite runs one transaction at a time, so there only the outcomes are checked (the
    // new row goes with the delete, no row is left behind); the interleavings, and the deadlocks these tests were
    // written against, happen on PostgreSQL (CI runs them there: TEST_DATABASE_URL).
    const ROUNDS = 12;
    const machine = async () => (await insertEquipment(t.database.db, { legalentitynodeid: le, name: 'Presse 07' })).nodeid;
    const notification = async () => (await insertNotification(t.database.db, { legalentitynodeid: le, equipmentnodeid: await machine() })).nodeid;

    /**
     * Runs the create and the delete at once, `ROUNDS` times: the create answers 201 or 404, the delete 200 — or 409
     * after a create that came first, when the record may not go while it is used (`create.uses`: a model a machine
     * has, a manufacturer's brand). Once the delete went through, `left(parent)` (the rows still hanging on the
     * deleted record) is empty, and a create that won has a tombstone at the delete's version when the delete takes
     * its row along (`create.kind`).
     */
    const race = async (
      parent: () => Promise<string>,
      deleteUrl: (parent: string) => string,
      create: { url: string; kind?: string; uses?: boolean; body: (parent: string) => Promise<Record<string, unknown>> },
      left: (parent: string) => Promise<unknown[]>,
    ) => {
      for (let round = 0; round < ROUNDS; round++) {
        const target = await parent();
        const body = await create.body(target);
        const [made, removal] = await Promise.all([call(t, admin, 'POST', create.url, body), call(t, admin, 'DELETE', deleteUrl(target))]);
        expect([201, 404], made.body).toContain(made.statusCode);
        expect(create.uses && made.statusCode === 201 ? [409] : [200], removal.body).toContain(removal.statusCode);
        if (removal.statusCode !== 200) continue;
        expect(await left(target)).toEqual([]);
        if (create.kind && made.statusCode === 201) {
          const [stone] = await t.database.db.select().from(tombstones).where(and(eq(tombstones.kind, create.kind), eq(tombstones.nodeid, body.nodeid as string)));
          expect(stone?.version).toBe((removal.json() as { version: number }).version);
        }
      }
    };

    const notificationUrl = (nodeid: string) => `/api/notifications/${nodeid}`;
    const machineUrl = (nodeid: string) => `/api/equipments/${nodeid}`;

    it('a quick report on a machine being deleted', async () => {
      const report = async (equipmentnodeid: string) => ({ lang: 'de', nodeid: uuidv7(), type: 0, title: 'Spindel blockiert', description: '', errorcode: '', equipmentnodeid, dueuntil: null });
      await race(machine, machineUrl, { url: '/api/notifications', kind: 'notifications', body: report }, (m) => t.database.db.select().from(notifications).where(eq(notifications.equipmentnodeid, m)));
    });

    it('a solution on a notification being deleted', async () => {
      const solution = async (notificationnodeid: string) => ({ lang: 'de', nodeid: uuidv7(), stepnodeid: uuidv7(), notificationnodeid, title_workflow: 'Lager getauscht', description: 'Alt raus, neu rein' });
      await race(notification, notificationUrl, { url: '/api/workflows', kind: 'workflows', body: solution }, (n) => t.database.db.select().from(workflows).where(eq(workflows.notificationnodeid, n)));
    });

    it('a cost on a notification being deleted', async () => {
      const cost = async (hasCostSourceNodeId: string) => ({ lang: 'de', nodeid: uuidv7(), name: 'Ersatzteile', value: 12.5, costTypeNodeId: costtypenodeid, hasCostSourceNodeId, specifier: 'actualcost' });
      await race(notification, notificationUrl, { url: '/api/costs/create', kind: 'costs', body: cost }, (n) => t.database.db.select().from(costs).where(eq(costs.notificationnodeid, n)));
    });

    it('a photo on a notification being deleted (no foreign key: the lock alone keeps it from being left behind)', async () => {
      const photo = async (isattachmentof: string) => {
        const file = await insertFile(t.database.db, { legalentitynodeid: le, status: 'complete', createdbynodeid: a.admin.nodeid });
        return { lang: 'de', nodeid: uuidv7(), title: 'Foto', isattachmentof, file: { fileid: file.fileid, fileversion: file.fileversion } };
      };
      await race(notification, notificationUrl, { url: '/api/attachments', kind: 'attachments', body: photo }, (n) => t.database.db.select().from(attachments).where(eq(attachments.isattachmentof, n)));
    });

    it('a FAQ on a machine being deleted', async () => {
      const faq = async (isfaqof: string) => ({ lang: 'de', nodeid: uuidv7(), question: 'Wie wird gekühlt?', answer: 'Über den Kreislauf links.', isfaqof, specifier: 'internalfaq' });
      await race(machine, machineUrl, { url: '/api/faqs', kind: 'faqs', body: faq }, (m) => t.database.db.select().from(faqs).where(eq(faqs.equipmentnodeid, m)));
    });

    type CounterInput = { nodeid: string; name: string; equipmentNodeId: string; values: { nodeid: string; reading: string; timestamp: number }[] };
    /**
     * A counter made with a first reading, then the same create sent again with a second reading while the counter
     * is deleted, `ROUNDS` times: the delete answers 200, the resend 201, 404 or 410, and no reading is left.
     * `creates()` answers, per round, how to send that one create (its first send and its resend).
     */
    const resentWhileDeleted = async (creates: () => (counter: CounterInput) => Promise<Awaited<ReturnType<typeof call>>>) => {
      for (let round = 0; round < ROUNDS; round++) {
        const send = creates();
        const counter = { nodeid: uuidv7(), name: 'Hubzähler Presse', equipmentNodeId: await machine(), values: [{ nodeid: uuidv7(), reading: '10', timestamp: Date.now() - 120_000 }] };
        const first = await send(counter);
        expect(first.statusCode, first.body).toBe(201);
        const resend = { ...counter, values: [...counter.values, { nodeid: uuidv7(), reading: '20', timestamp: Date.now() - 60_000 }] };
        // why the delete a little later each round (0–3 ms): the resend does more before it takes the version, and a
        // delete sent at the same instant mostly takes the version before it; staggered, some round meets its lock.
        const removing = new Promise((resolve) => setTimeout(resolve, round % 4)).then(() => call(t, admin, 'DELETE', `/api/counters/delete/${counter.nodeid}`));
        const [again, removal] = await Promise.all([send(resend), removing]);
        expect(removal.statusCode, removal.body).toBe(200);
        expect([201, 404, 410], again.body).toContain(again.statusCode);
        expect(await t.database.db.select().from(counterReadings).where(eq(counterReadings.counternodeid, counter.nodeid))).toEqual([]);
      }
    };

    it('a counter create sent again with a new reading while the counter is deleted', async () => {
      const countertype = (await insertCounterType(t.database.db, { legalentitynodeid: le, name: 'Hubzähler', unitnodeid: UNIT_IDS.piece })).nodeid;
      await resentWhileDeleted(() => (counter) => call(t, admin, 'POST', '/api/counters/create', { lang: 'de', counterTypeNodeId: countertype, ...counter }));
    });

    it('a counter type create with its first counter sent again with a new reading while the counter is deleted: the type create locks the counter before the version', async () => {
      await resentWhileDeleted(() => {
        const nodeid = uuidv7();
        return (counter) => call(t, admin, 'POST', '/api/countertypes/create', { lang: 'de', nodeid, name: `Hubzähler ${nodeid.slice(-6)}`, unit: 'C62', counter });
      });
    });

    it('counters deleted while their machine is deleted, with maintenance tasks they trigger: a counter’s delete locks the machine first and its own rows before the version', async () => {
      const db = t.database.db;
      const countertype = (await insertCounterType(db, { legalentitynodeid: le, name: 'Hubzähler', unitnodeid: UNIT_IDS.piece })).nodeid;
      for (let round = 0; round < ROUNDS; round++) {
        const owner = await machine();
        // why two: one counter's delete alone meets the machine's at the wrong moment too rarely to show the old order.
        const counterIds = await Promise.all(
          [0, 1].map(async () => {
            const counter = (await insertCounter(db, { legalentitynodeid: le, equipmentnodeid: owner, countertypenodeid: countertype })).nodeid;
            await insertCounterReading(db, { legalentitynodeid: le, counternodeid: counter });
            const task = uuidv7();
            await db.insert(maintenanceTasks).values({ nodeid: task, legalentitynodeid: le, maintenancetaskid: `WA-${task.slice(-8)}`, title: 'Öl wechseln', startingfrom: new Date(), repetitioninterval: '1m', triggertype: 'counter', triggeringcounternodeid: counter, triggeringvalue: 500, equipmentnodeid: owner });
            return counter;
          }),
        );
        const [machineGone, ...countersGone] = await Promise.all([call(t, admin, 'DELETE', machineUrl(owner)), ...counterIds.map((counter) => call(t, admin, 'DELETE', `/api/counters/delete/${counter}`))]);
        expect(machineGone.statusCode, machineGone.body).toBe(200);
        for (const gone of countersGone) expect([200, 404], gone.body).toContain(gone.statusCode);
        expect(await db.select().from(maintenanceTasks).where(eq(maintenanceTasks.equipmentnodeid, owner))).toEqual([]);
        expect(await db.select().from(counters).where(eq(counters.equipmentnodeid, owner))).toEqual([]);
      }
    });

    it('a counter with a first reading on a machine being deleted', async () => {
      const countertype = (await insertCounterType(t.database.db, { legalentitynodeid: le, name: 'Hubzähler', unitnodeid: UNIT_IDS.piece })).nodeid;
      const counter = async (equipmentNodeId: string) => ({ lang: 'de', nodeid: uuidv7(), name: 'Hubzähler Presse', counterTypeNodeId: countertype, equipmentNodeId, values: [{ nodeid: uuidv7(), reading: '1234,5', timestamp: Date.now() - 60_000 }] });
      await race(machine, machineUrl, { url: '/api/counters/create', kind: 'counters', body: counter }, (m) => t.database.db.select().from(counters).where(eq(counters.equipmentnodeid, m)));
    });

    it('machines changed and moved while their plant, area or pool is deleted: the delete locks its machines before the version, as the changes and the move do', async () => {
      const changeOf = (nodeid: string, round: number) => call(t, admin, 'PUT', machineUrl(nodeid), { lang: 'de', name: `Presse ${round}` });
      for (let round = 0; round < ROUNDS; round++) {
        const site = (await insertSite(t.database.db, { legalentitynodeid: le })).nodeid;
        const area = (await insertArea(t.database.db, { legalentitynodeid: le, sitenodeid: site })).nodeid;
        const pool = (await insertEquipmentPool(t.database.db, { legalentitynodeid: le })).nodeid;
        const inArea = (await insertEquipment(t.database.db, { legalentitynodeid: le, areanodeid: area })).nodeid;
      const alsoInArea = (await insertEquipment(t.database.db, { legalentitynodeid: le, areanodeid: area })).nodeid;
        const inPool = (await insertEquipment(t.database.db, { legalentitynodeid: le, equipmentpoolnodeid: pool })).nodeid;
        const moving = (await insertEquipment(t.database.db, { legalentitynodeid: le, equipmentpoolnodeid: pool })).nodeid;
        const [deleteUrl, changed] = ([[`/api/sites/${site}`, inArea], [`/api/areas/${area}`, inArea], [`/api/equipmentpools/${pool}`, inPool]] as const)[round % 3]!;
        const [change, move, removal] = await Promise.all([
          changeOf(changed, round),
          call(t, admin, 'POST', '/api/assign/equipments', {
          payload: [
            { equipmentnodeid: moving, isequipmentof: area },
            { equipmentnodeid: inArea, isequipmentof: pool },
            // out of the area being deleted, into a pool: the move and the delete lock the same machines
            { equipmentnodeid: alsoInArea, isequipmentof: pool, deleteequipmentof: [{ type: 'area', nodeid: area }] },
          ],
        }),
          call(t, admin, 'DELETE', deleteUrl),
        ]);
        expect(removal.statusCode, removal.body).toBe(200);
        expect(change.statusCode, change.body).toBe(200);
        expect([200, 404], move.body).toContain(move.statusCode);
        // Whatever came first, no machine is left linked to what is gone.
        const rows = await t.database.db.select().from(equipment).where(inArray(equipment.nodeid, [inArea, alsoInArea, inPool, moving]));
        const gone = round % 3 === 2 ? [pool] : [area];
        for (const row of rows) {
          expect(gone).not.toContain(row.areanodeid);
          expect(gone).not.toContain(row.equipmentpoolnodeid);
        }
      }
    });

    it('an area followed while it is deleted: the follow locks the area before the version', async () => {
      const area = async () => (await insertArea(t.database.db, { legalentitynodeid: le })).nodeid;
      for (let round = 0; round < ROUNDS; round++) {
        const target = await area();
        const [follow, removal] = await Promise.all([
          call(t, admin, 'POST', '/api/subscriptions', { usernodeid: a.admin.nodeid, areanodeid: target }),
          call(t, admin, 'DELETE', `/api/areas/${target}`),
        ]);
        expect(removal.statusCode, removal.body).toBe(200);
        expect([200, 404], follow.body).toContain(follow.statusCode);
        expect(await t.database.db.select().from(structureSubscriptions).where(eq(structureSubscriptions.areanodeid, target))).toEqual([]);
      }
    });

    it('a machine renamed while its shift plan is deleted: the delete locks the machine before the version, as the rename does', async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const model = uuidv7();
        await t.database.db.insert(shiftModels).values({ nodeid: model, legalentitynodeid: le });
        await t.database.db.insert(shifts).values({ nodeid: uuidv7(), legalentitynodeid: le, shiftmodelnodeid: model, weekdays: [1, 2, 3], startminute: 360, endminute: 840, position: 0 });
        const owner = (await insertEquipment(t.database.db, { legalentitynodeid: le, shiftmodelnodeid: model })).nodeid;
        const [rename, removal] = await Promise.all([
          call(t, admin, 'PUT', machineUrl(owner), { lang: 'de', name: `Presse ${round}` }),
          call(t, admin, 'DELETE', `/api/shiftmodels/${model}`, { shiftnodeid: model }),
        ]);
        expect(removal.statusCode, removal.body).toBe(200);
        expect(rename.statusCode, rename.body).toBe(200);
        const [row] = await t.database.db.select().from(equipment).where(eq(equipment.nodeid, owner));
        expect(row).toMatchObject({ name: `Presse ${round}`, shiftmodelnodeid: null });
      }
    });

    it('a shift plan deleted or changed while its machine is deleted: owner before plan, both before the version', async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const model = uuidv7();
        await t.database.db.insert(shiftModels).values({ nodeid: model, legalentitynodeid: le });
        await t.database.db.insert(shifts).values({ nodeid: uuidv7(), legalentitynodeid: le, shiftmodelnodeid: model, weekdays: [1], startminute: 360, endminute: 840, position: 0 });
        const owner = (await insertEquipment(t.database.db, { legalentitynodeid: le, shiftmodelnodeid: model })).nodeid;
        const planWrite =
          round % 2 === 0
            ? call(t, admin, 'DELETE', `/api/shiftmodels/${model}`, { shiftnodeid: model })
            : call(t, admin, 'PUT', `/api/shiftmodels/${model}`, { shiftnodeid: model, shifts: [{ start: '06:00', end: '13:59', weekdays: [1, 2] }] });
        const [plan, removal] = await Promise.all([planWrite, call(t, admin, 'DELETE', machineUrl(owner))]);
        expect(removal.statusCode, removal.body).toBe(200);
        expect([200, 404], plan.body).toContain(plan.statusCode);
        expect(await t.database.db.select().from(shiftModels).where(eq(shiftModels.nodeid, model))).toEqual([]);
      }
    });

    it('the catalogue: a model created while its brand is deleted, a brand while its manufacturer is deleted, a machine renamed while its class is deleted', async () => {
      const db = t.database.db;
      for (let round = 0; round < ROUNDS; round++) {
        const manufacturer = (await insertManufacturer(db, { legalentitynodeid: le })).nodeid;
        const brand = (await insertBrand(db, { legalentitynodeid: le, manufacturernodeid: manufacturer })).nodeid;
        const [model, brandGone] = await Promise.all([
          call(t, admin, 'POST', '/api/equipmenttypes', { nodeid: uuidv7(), model: `Modell ${round}`, brandnodeid: brand }),
          call(t, admin, 'DELETE', `/api/brands/${brand}`),
        ]);
        expect(brandGone.statusCode, brandGone.body).toBe(200);
        expect([201, 404], model.body).toContain(model.statusCode);
        expect(await db.select().from(equipmentTypes).where(eq(equipmentTypes.brandnodeid, brand))).toEqual([]);

        // A manufacturer with a brand is not deleted (409): whichever comes first, the outcomes agree.
        const [newBrand, manufacturerGone] = await Promise.all([
          call(t, admin, 'POST', '/api/brands', { nodeid: uuidv7(), name: `Marke ${round}`, isbrandof: manufacturer }),
          call(t, admin, 'DELETE', `/api/legalentities/${manufacturer}`),
        ]);
        expect(newBrand.statusCode === 201 ? [409] : [200], manufacturerGone.body).toContain(manufacturerGone.statusCode);
        expect([201, 404], newBrand.body).toContain(newBrand.statusCode);

        const [cls] = await db.insert(equipmentClasses).values({ nodeid: uuidv7(), legalentitynodeid: le, name: { de: `Klasse ${round}` } }).returning();
        const machineOfClass = (await insertEquipment(db, { legalentitynodeid: le, equipmentclassnodeid: cls!.nodeid })).nodeid;
        const [rename, classGone] = await Promise.all([
          call(t, admin, 'PUT', machineUrl(machineOfClass), { lang: 'de', name: `Presse ${round}`, equipmentclassnodeid: cls!.nodeid }),
          call(t, admin, 'DELETE', `/api/equipmentclasses/${cls!.nodeid}`),
        ]);
        expect(classGone.statusCode, classGone.body).toBe(200);
        expect([200, 404], rename.body).toContain(rename.statusCode);
        const [row] = await db.select().from(equipment).where(eq(equipment.nodeid, machineOfClass));
        expect(row?.equipmentclassnodeid).toBeNull();
      }
    });

    it('a machine created while what it hangs on or moves into is deleted: a new model’s brand, a new brand’s manufacturer, its class, the area it moves a machine into; an import into an area being deleted', async () => {
      const db = t.database.db;
      const pool = (await insertEquipmentPool(db, { legalentitynodeid: le })).nodeid;
      const model = (await insertEquipmentType(db, { legalentitynodeid: le })).nodeid;
      const created = (fields: Record<string, unknown>) => ({ lang: 'de', equipmentnodeid: uuidv7(), name: 'Presse 08', constructiondate: Date.UTC(2015, 0, 1), isequipmentof: [pool], equipmenttypenodeid: model, ...fields });
      const newModel = () => ({ isnew: true, nodeid: uuidv7(), model: 'Modell neu' });
      const area = async () => (await insertArea(db, { legalentitynodeid: le })).nodeid;
      const machinesIn = (areanodeid: string) => db.select().from(equipment).where(eq(equipment.areanodeid, areanodeid));

      await race(
        async () => (await insertBrand(db, { legalentitynodeid: le })).nodeid,
        (brand) => `/api/brands/${brand}`,
        { url: '/api/equipments', uses: true, body: async (brand) => created({ equipmenttypenodeid: undefined, brand: { isnew: false, nodeid: brand }, equipmenttype: newModel() }) },
        (brand) => db.select().from(equipmentTypes).where(eq(equipmentTypes.brandnodeid, brand)),
      );
      await race(
        async () => (await insertManufacturer(db, { legalentitynodeid: le })).nodeid,
        (manufacturer) => `/api/legalentities/${manufacturer}`,
        {
          url: '/api/equipments',
          uses: true,
          body: async (manufacturer) => created({ equipmenttypenodeid: undefined, legalentity: { isnew: false, nodeid: manufacturer }, brand: { isnew: true, nodeid: uuidv7(), name: 'Marke neu' }, equipmenttype: newModel() }),
        },
        (manufacturer) => db.select().from(brands).where(eq(brands.manufacturernodeid, manufacturer)),
      );
      await race(
        async () => (await db.insert(equipmentClasses).values({ nodeid: uuidv7(), legalentitynodeid: le, name: { de: 'Klasse' } }).returning())[0]!.nodeid,
        (cls) => `/api/equipmentclasses/${cls}`,
        { url: '/api/equipments', body: async (cls) => created({ equipmentclassnodeid: cls }) },
        (cls) => db.select().from(equipment).where(eq(equipment.equipmentclassnodeid, cls)),
      );
      await race(area, (target) => `/api/areas/${target}`, { url: '/api/equipments', body: async (target) => created({ assign: { payload: [{ equipmentnodeid: await machine(), isequipmentof: target }] } }) }, machinesIn);
      await race(area, (target) => `/api/areas/${target}`, { url: '/api/equipments/bulk', body: async (target) => ({ items: [created({ isequipmentof: [target] }), created({ isequipmentof: [target], equipmenttypenodeid: undefined, equipmenttype: newModel(), brand: { isnew: false, nodeid: (await insertBrand(db, { legalentitynodeid: le })).nodeid } })] }) }, machinesIn);
    });

    it('a file’s upload completing while new versions of it are registered and machines are created and changed with it as their photo: each locks the file before the version, as the upload does', async () => {
      const db = t.database.db;
      const pool = (await insertEquipmentPool(db, { legalentitynodeid: le })).nodeid;
      const model = (await insertEquipmentType(db, { legalentitynodeid: le })).nodeid;
      for (let round = 0; round < ROUNDS; round++) {
        const first = await call(t, admin, 'POST', '/api/files', { count: 1, extensions: [{ nodeid: uuidv7(), extension: 'png' }] });
        expect(first.statusCode, first.body).toBe(200);
        const [pending] = first.json() as { nodeid: string; fileid: string; url: string }[];
        const photo = { fileid: pending!.fileid, fileversion: 1 };
        const changed = await machine();
        const created = uuidv7();
        // why several writers: one alone rarely meets the upload's short lock; they are also devices sending what they queued offline.
        const [upload, create, change, ...registered] = await Promise.all([
          t.app.inject({ method: 'PUT', url: pending!.url, headers: { 'content-type': 'image/png' }, payload: pngBytes() }),
          call(t, admin, 'POST', '/api/equipments', { lang: 'de', equipmentnodeid: created, name: 'Presse 09', constructiondate: Date.UTC(2015, 0, 1), isequipmentof: [pool], equipmenttypenodeid: model, image: photo }),
          call(t, admin, 'PUT', machineUrl(changed), { lang: 'de', typenameplate: photo }),
          ...[0, 1].map(() => call(t, admin, 'POST', '/api/files', { count: 1, extensions: [{ nodeid: uuidv7(), extension: 'png', fileid: pending!.fileid }] })),
        ]);
        expect(upload.statusCode, upload.body).toBe(200);
        expect(create.statusCode, create.body).toBe(201);
        expect(change.statusCode, change.body).toBe(200);
        // Before the upload a registration signs the pending version again; after it, the first makes the next version and the other signs that one again.
        const answers = registered.map((response) => {
          expect(response.statusCode, response.body).toBe(200);
          const [file] = response.json() as { fileversion: number; status: string }[];
          return { fileversion: file!.fileversion, status: file!.status };
        });
        for (const answer of answers) expect([{ fileversion: 1, status: 'pending' }, { fileversion: 2, status: 'pending' }]).toContainEqual(answer);
        const versions = await db.select({ fileversion: files.fileversion, status: files.status }).from(files).where(eq(files.fileid, pending!.fileid)).orderBy(files.fileversion);
        expect(versions).toEqual([{ fileversion: 1, status: 'complete' }, ...(answers.some((answer) => answer.fileversion === 2) ? [{ fileversion: 2, status: 'pending' }] : [])]);
        const machines = await db.select({ image: equipment.imagefilenodeid, typenameplate: equipment.typenameplatefilenodeid }).from(equipment).where(inArray(equipment.nodeid, [created, changed]));
        expect(machines.flatMap((row) => [row.image, row.typenameplate]).filter(Boolean)).toEqual([pending!.nodeid, pending!.nodeid]);
      }
    });

    it('a notification changed while its machine is deleted: the delete locks the machine’s rows before it takes the version, as the change does', async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const target = await machine();
        const [n, other] = await Promise.all([0, 1].map(async () => (await insertNotification(t.database.db, { legalentitynodeid: le, equipmentnodeid: target })).nodeid));
        const [change, closing, removal] = await Promise.all([
          call(t, admin, 'PUT', notificationUrl(n!), { title: `Runde ${round}` }),
          call(t, admin, 'PUT', notificationUrl(other!), { status: 2 }),
          call(t, admin, 'DELETE', machineUrl(target)),
        ]);
        expect(removal.statusCode, removal.body).toBe(200);
        for (const write of [change, closing]) expect([200, 404, 410], write.body).toContain(write.statusCode);
        expect(await t.database.db.select().from(notifications).where(eq(notifications.equipmentnodeid, target))).toEqual([]);
        const stones = await t.database.db.select({ nodeid: tombstones.nodeid }).from(tombstones).where(and(eq(tombstones.kind, 'notifications'), eq(tombstones.version, (removal.json() as { version: number }).version)));
        expect(stones.map((stone) => stone.nodeid).sort()).toEqual([n, other].sort());
      }
    });
  });
});
