import { eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { expect } from 'vitest';
import { yearToEpochMs } from '../../../src/shared/domain/equipment';
import { shifts, workflowSteps } from '../../../src/server/db/schema';
import { insertCost, insertCostTypes, insertReport } from '../../factories/costs';
import { insertFile } from '../../factories/files';
import { insertCounter, insertCounterReading, insertCounterType, insertNotification } from '../../factories/notifications';
import { insertArea, insertBrand, insertEquipment, insertEquipmentPool, insertEquipmentType, insertManufacturer, insertSite } from '../../factories/structure';
import type { TestTenant } from '../../factories/tenant';
import { call, type Method } from './requests';
import { createTwoTenantApp, type TestApp } from './test-app';

/**
 * A plant with one record of every kind a write body can name, made for one tenant, and a write of each route that
 * names them (PROBES): tests/api/nested-ids.test.ts swaps each id for another tenant's, node-ids.test.ts makes new
 * records under ids other kinds hold.
 */

export type Plant = Awaited<ReturnType<typeof buildPlant>>;

export async function buildPlant(t: TestApp, tenant: TestTenant, authorization: string) {
  const db = t.database.db;
  const le = { legalentitynodeid: tenant.legalEntity.nodeid };
  const site = await insertSite(db, le);
  const area = await insertArea(db, { ...le, sitenodeid: site.nodeid });
  const otherArea = await insertArea(db, { ...le, sitenodeid: site.nodeid });
  const pool = await insertEquipmentPool(db, le);
  const manufacturer = await insertManufacturer(db, { ownerlegalentitynodeid: le.legalentitynodeid, ...le });
  const brand = await insertBrand(db, { ...le, manufacturernodeid: manufacturer.nodeid });
  const type = await insertEquipmentType(db, { ...le, brandnodeid: brand.nodeid });
  const machine = await insertEquipment(db, { ...le, equipmenttypenodeid: type.nodeid, areanodeid: area.nodeid, equipmentpoolnodeid: pool.nodeid });
  const machine2 = await insertEquipment(db, { ...le, equipmenttypenodeid: type.nodeid, areanodeid: area.nodeid });
  const notification = await insertNotification(db, { ...le, equipmentnodeid: machine.nodeid });
  const report = await insertReport(db, { ...le, notificationnodeid: notification.nodeid });
  const costTypes = await insertCostTypes(db, le.legalentitynodeid);
  const cost = await insertCost(db, { ...le, notificationnodeid: notification.nodeid, costtypenodeid: costTypes.parts });
  const counterType = await insertCounterType(db, le);
  const counter = await insertCounter(db, { ...le, equipmentnodeid: machine.nodeid, countertypenodeid: counterType.nodeid });
  const reading = await insertCounterReading(db, { ...le, counternodeid: counter.nodeid });
  const file = await insertFile(db, { ...le, status: 'complete', size: 10, createdbynodeid: tenant.admin.nodeid });
  const post = async (url: string, body: unknown) => {
    const response = await call(t, authorization, 'POST', url, body);
    expect(response.statusCode, `${url}: ${response.body}`).toBeLessThan(300);
    return response.json() as { nodeid: string };
  };
  const equipmentClass = await post('/api/equipmentclasses', { lang: 'de', name: `Klasse ${uuidv7()}` });
  const subscription = await post('/api/subscriptions', { usernodeid: tenant.admin.nodeid, sitenodeid: site.nodeid });
  const shiftModel = await post('/api/shiftmodels', { shiftmodelof: area.nodeid, shifts: [{ start: '06:00', end: '14:00', weekdays: [1] }] });
  const [shift] = await db.select({ nodeid: shifts.nodeid }).from(shifts).where(eq(shifts.shiftmodelnodeid, shiftModel.nodeid));
  const attachment = await post('/api/attachments', { lang: 'de', title: 'Anleitung', file: { fileid: file.fileid, fileversion: file.fileversion }, isattachmentof: machine.nodeid });
  const faq = await post('/api/faqs', { lang: 'de', question: 'Wie?', answer: 'So.', isfaqof: machine.nodeid, specifier: 'internalfaq' });
  const workflow = await post('/api/workflows', { lang: 'de', notificationnodeid: notification.nodeid, title_workflow: 'Gemacht' });
  const [step] = await db.select({ nodeid: workflowSteps.nodeid }).from(workflowSteps).where(eq(workflowSteps.workflownodeid, workflow.nodeid));
  return {
    le: le.legalentitynodeid,
    user: tenant.admin.nodeid,
    site: site.nodeid,
    area: area.nodeid,
    otherArea: otherArea.nodeid,
    pool: pool.nodeid,
    manufacturer: manufacturer.nodeid,
    brand: brand.nodeid,
    type: type.nodeid,
    machine: machine.nodeid,
    machine2: machine2.nodeid,
    notification: notification.nodeid,
    report: report.nodeid,
    costType: costTypes.parts,
    cost: cost.nodeid,
    counterType: counterType.nodeid,
    counter: counter.nodeid,
    reading: reading.nodeid,
    fileNode: file.nodeid,
    fileid: file.fileid,
    equipmentClass: equipmentClass.nodeid,
    subscription: subscription.nodeid,
    shiftModel: shiftModel.nodeid,
    shift: shift!.nodeid,
    attachment: attachment.nodeid,
    faq: faq.nodeid,
    workflow: workflow.nodeid,
    step: step!.nodeid,
  };
}

export interface Probe {
  method: Method;
  url: (p: Plant) => string;
  /** A body the route accepts with the caller's own ids; new ids (`fresh()`) are made per request. */
  body: (p: Plant, fresh: () => string) => unknown;
  /** Ids in the body that name the write's own rows although they exist already (a plan's row it keeps). */
  ownRows?: (p: Plant) => string[];
}

let equipmentIds = 0;
const machineBody = (p: Plant, fresh: () => string) => ({
  lang: 'de',
  equipmentnodeid: fresh(),
  name: 'Probe',
  equipmentid: `NID-${++equipmentIds}`,
  constructiondate: yearToEpochMs(2015),
  isequipmentof: [p.area, p.pool, p.le],
  brand: { isnew: false, nodeid: p.brand },
  equipmenttype: { isnew: false, nodeid: p.type },
  equipmentclassnodeid: p.equipmentClass,
  image: { fileid: p.fileid, fileversion: 1 },
  assign: { payload: [{ equipmentnodeid: p.machine2, isequipmentof: p.otherArea, deleteequipmentof: [{ type: 'pool', nodeid: p.pool }] }] },
});

export const PROBES: Probe[] = [
  { method: 'POST', url: () => '/api/sites', body: (p, f) => ({ lang: 'de', nodeid: f(), name: 'W', city: 'C', zipcode: '1', street: 'S', siteid: 'X', country: 'DE', legalentitynodeid: p.le }) },
  { method: 'PUT', url: (p) => `/api/sites/${p.site}`, body: (p) => ({ lang: 'de', sitenodeid: p.site, legalentitynodeid: p.le, name: 'W2' }) },
  { method: 'POST', url: () => '/api/areas', body: (p, f) => ({ lang: 'de', nodeid: f(), name: 'B', sitenodeid: p.site, assign: { payload: [{ equipmentnodeid: p.machine2, deleteequipmentof: [] }] }, shifts: [{ nodeid: f(), start: '06:00', end: '14:00', weekdays: [1] }] }) },
  { method: 'PUT', url: (p) => `/api/areas/${p.area}`, body: (p) => ({ lang: 'de', areanodeid: p.area, name: 'B2' }) },
  { method: 'POST', url: () => '/api/equipmentpools', body: (p, f) => ({ lang: 'de', nodeid: f(), name: 'P', isequipmentpoolof: p.le, assign: { payload: [{ equipmentnodeid: p.machine2, deleteequipmentof: [] }] } }) },
  { method: 'PUT', url: (p) => `/api/equipmentpools/${p.pool}`, body: (p) => ({ lang: 'de', name: 'P2', equipmentpoolnodeid: p.pool }) },
  { method: 'POST', url: () => '/api/assign/equipments', body: (p) => ({ payload: [{ equipmentnodeid: p.machine2, isequipmentof: p.pool, deleteequipmentof: [{ type: 'area', nodeid: p.area }] }] }) },
  { method: 'POST', url: () => '/api/shiftmodels', body: (p, f) => ({ nodeid: f(), shiftmodelof: p.machine2, shifts: [{ nodeid: f(), start: '06:00', end: '14:00', weekdays: [1] }] }) },
  {
    method: 'PUT',
    url: (p) => `/api/shiftmodels/${p.shiftModel}`,
    body: (p, f) => ({ shiftnodeid: p.shiftModel, shifts: [{ nodeid: p.shift, start: '06:00', end: '14:00', weekdays: [1] }, { nodeid: f(), start: '14:00', end: '22:00', weekdays: [2] }] }),
    ownRows: (p) => [p.shift],
  },
  { method: 'POST', url: () => '/api/equipments', body: machineBody },
  { method: 'POST', url: () => '/api/equipments/bulk', body: (p, f) => ({ items: [machineBody(p, f)] }) },
  { method: 'PUT', url: (p) => `/api/equipments/${p.machine}`, body: (p) => ({ lang: 'de', equipmentnodeid: p.machine, equipmenttypenodeid: p.type, equipmentclassnodeid: p.equipmentClass, image: { fileid: p.fileid, fileversion: 1 }, typenameplate: { fileid: p.fileid, fileversion: 1 } }) },
  { method: 'POST', url: () => '/api/legalentities', body: (_p, f) => ({ lang: 'de', nodeid: f(), name: `H ${uuidv7()}` }) },
  { method: 'POST', url: () => '/api/brands', body: (p, f) => ({ lang: 'de', nodeid: f(), name: `M ${uuidv7()}`, isbrandof: p.manufacturer }) },
  { method: 'PUT', url: (p) => `/api/brands/${p.brand}`, body: (p) => ({ lang: 'de', isbrandof: p.manufacturer }) },
  { method: 'POST', url: () => '/api/equipmenttypes', body: (p, f) => ({ lang: 'de', nodeid: f(), model: `T ${uuidv7()}`, brandnodeid: p.brand }) },
  { method: 'PUT', url: (p) => `/api/equipmenttypes/${p.type}`, body: (p) => ({ lang: 'de', brandnodeid: p.brand }) },
  { method: 'POST', url: () => '/api/equipmentclasses', body: (_p, f) => ({ lang: 'de', nodeid: f(), name: `K ${uuidv7()}` }) },
  { method: 'POST', url: () => '/api/notifications', body: (p, f) => ({ lang: 'de', nodeid: f(), type: 0, title: 'Störung', equipmentnodeid: p.machine }) },
  { method: 'PUT', url: (p) => `/api/notifications/${p.notification}`, body: (p) => ({ lang: 'de', nodeid: p.notification, equipmentnodeid: p.machine2 }) },
  { method: 'POST', url: () => '/api/workflows', body: (p, f) => ({ lang: 'de', nodeid: f(), stepnodeid: f(), usernodeid: p.user, notificationnodeid: p.notification, title_workflow: 'M' }) },
  { method: 'PUT', url: (p) => `/api/workflows/${p.workflow}`, body: (p) => ({ lang: 'de', workflownodeid: p.workflow, description: 'D' }) },
  { method: 'POST', url: () => '/api/faqs', body: (p, f) => ({ lang: 'de', nodeid: f(), question: 'Q', usernodeid: p.user, isfaqof: p.machine, specifier: 'internalfaq' }) },
  { method: 'POST', url: () => '/api/faqs', body: (p, f) => ({ lang: 'de', nodeid: f(), question: 'Q', isfaqof: p.type, specifier: 'equipmenttypefaq' }) },
  { method: 'PUT', url: (p) => `/api/faqs/${p.faq}`, body: (p) => ({ lang: 'de', questionanswernodeid: p.faq, answer: 'A' }) },
  { method: 'POST', url: () => '/api/costs/create', body: (p, f) => ({ lang: 'de', nodeid: f(), value: 1, costTypeNodeId: p.costType, hasCostSourceNodeId: p.notification }) },
  { method: 'POST', url: () => '/api/costs/create', body: (p, f) => ({ lang: 'de', nodeid: f(), value: 1, costTypeNodeId: p.costType, hasCostSourceNodeId: p.report }) },
  { method: 'PUT', url: (p) => `/api/costs/update/${p.cost}`, body: (p) => ({ lang: 'de', nodeid: p.cost, value: 2, costTypeNodeId: p.costType, hasCostSourceNodeId: p.notification }) },
  { method: 'POST', url: () => '/api/counters/create', body: (p, f) => ({ lang: 'de', nodeid: f(), name: `Z ${uuidv7()}`, counterTypeNodeId: p.counterType, equipmentNodeId: p.machine, values: [{ nodeid: f(), reading: 5 }] }) },
  { method: 'PUT', url: (p) => `/api/counters/update/${p.counter}`, body: (p, f) => ({ lang: 'de', nodeid: p.counter, counterTypeNodeId: p.counterType, values: [{ nodeid: f(), reading: 7 }] }) },
  { method: 'POST', url: () => '/api/countertypes/create', body: (p, f) => ({ lang: 'de', nodeid: f(), name: `ZT ${uuidv7()}`, unit: 'C62', counter: { nodeid: f(), name: 'Z', equipmentNodeId: p.machine, values: [{ nodeid: f(), reading: 1 }] } }) },
  { method: 'POST', url: () => '/api/attachments', body: (p, f) => ({ lang: 'de', nodeid: f(), title: 'A', file: { fileid: p.fileid, fileversion: 1 }, isattachmentof: p.step }) },
  { method: 'PUT', url: (p) => `/api/attachments/${p.attachment}`, body: (p) => ({ lang: 'de', attachmentnodeid: p.attachment, file: { fileid: p.fileid, fileversion: 1 } }) },
  { method: 'POST', url: () => '/api/subscriptions', body: (p) => ({ usernodeid: p.user, areanodeid: p.area }) },
  { method: 'POST', url: () => '/api/files', body: (p, f) => ({ count: 1, extensions: [{ nodeid: f(), extension: 'pdf', fileid: p.fileid, size: 10 }] }) },
  { method: 'POST', url: () => '/api/notifications/share', body: (p) => ({ nodeid: p.notification, receiver: 'kollege@example.com' }) },
];

/** Two tenants with a plant each (buildPlant); tenant A's admin sends the probes. */
export async function createTwoPlants(): Promise<{ t: TestApp; adminA: string; own: Plant; other: Plant }> {
  const app = await createTwoTenantApp({ SHARE_RATE_PER_HOUR: '100000' });
  return { t: app.t, adminA: app.adminA, own: await buildPlant(app.t, app.a, app.adminA), other: await buildPlant(app.t, app.b, app.adminB) };
}
