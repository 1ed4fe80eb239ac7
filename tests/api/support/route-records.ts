import { eq } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../../../src/server/db/client';
import * as schema from '../../../src/server/db/schema';

// The records every /api route's path parameters stand for, found in the database per tenant, so a test that
// walks all registered routes (authorization-matrix.test.ts) can fill each parameter with a real id.

type TenantTable = PgTable & { nodeid: typeof schema.sites.nodeid; legalentitynodeid: typeof schema.sites.legalentitynodeid };

/**
 * Which table the ids of a route's path parameter come from: by the parameter's name first (a client id is not a
 * node id), otherwise by the route's resource, the first path segment after /api. A route whose resource is not
 * here fails the matrix with a message saying to add it: a new route cannot slip through unfilled.
 */
// why the cast: each table's columns have their own generic types; all that is used here is nodeid and legalentitynodeid.
const tenantTable = (table: PgTable): TenantTable => table as TenantTable;
const TABLE_BY_RESOURCE: Record<string, TenantTable> = {
  sites: tenantTable(schema.sites),
  areas: tenantTable(schema.areas),
  equipmentpools: tenantTable(schema.equipmentPools),
  shiftmodels: tenantTable(schema.shiftModels),
  brands: tenantTable(schema.brands),
  equipmenttypes: tenantTable(schema.equipmentTypes),
  equipmentclasses: tenantTable(schema.equipmentClasses),
  equipments: tenantTable(schema.equipment),
  notifications: tenantTable(schema.notifications),
  counters: tenantTable(schema.counters),
  attachments: tenantTable(schema.attachments),
  faqs: tenantTable(schema.faqs),
  subscriptions: tenantTable(schema.structureSubscriptions),
  users: tenantTable(schema.users),
  files: tenantTable(schema.files),
  costs: tenantTable(schema.costs),
  workflows: tenantTable(schema.workflows),
};

export interface TenantRecords {
  legalentitynodeid: string;
  /** The organisation's client id (GET /api/users/acl/{clientid}). */
  clientid: string;
  /** One id per resource (and `legalentities`: a manufacturer the tenant owns); absent when the tenant has none. */
  ids: Partial<Record<string, string>>;
}

export async function tenantRecords(db: Db, legalentitynodeid: string): Promise<TenantRecords> {
  const [entity] = await db.select().from(schema.legalEntities).where(eq(schema.legalEntities.nodeid, legalentitynodeid));
  const ids: Partial<Record<string, string>> = {};
  for (const [resource, table] of Object.entries(TABLE_BY_RESOURCE)) {
    const [row] = await db.select({ nodeid: table.nodeid }).from(table).where(eq(table.legalentitynodeid, legalentitynodeid)).limit(1);
    if (row) ids[resource] = row.nodeid;
  }
  const [manufacturer] = await db
    .select({ nodeid: schema.legalEntities.nodeid })
    .from(schema.legalEntities)
    .where(eq(schema.legalEntities.ownerlegalentitynodeid, legalentitynodeid))
    .limit(1);
  if (manufacturer) ids.legalentities = manufacturer.nodeid;
  return { legalentitynodeid, clientid: entity!.clientid, ids };
}

/** `url` with every `:param` replaced by the tenant's record of that kind; throws naming what is missing. */
export function fillPath(url: string, records: TenantRecords): string {
  const resource = /^\/api\/([^/]+)/.exec(url)?.[1] ?? '';
  return url.replace(/:([A-Za-z]+)/g, (_match, param: string) => {
    if (param === 'clientid') return records.clientid;
    if (param === 'fileversion') return '1';
    const id = records.ids[resource];
    if (!id) throw new Error(`${url}: no ${resource} record of tenant ${records.legalentitynodeid} for :${param}; add the resource to TABLE_BY_RESOURCE and the fixture`);
    return id;
  });
}

/**
 * What of a tenant must never reach another tenant: every id of its own rows in the tables above and of its
 * users, its organisation's id, client id and name, and its users' e-mail addresses.
 */
export async function tenantSecrets(db: Db, legalentitynodeid: string): Promise<string[]> {
  const secrets = new Set<string>([legalentitynodeid]);
  const [entity] = await db.select().from(schema.legalEntities).where(eq(schema.legalEntities.nodeid, legalentitynodeid));
  secrets.add(entity!.clientid);
  secrets.add(entity!.name);
  for (const table of Object.values(TABLE_BY_RESOURCE)) {
    for (const row of await db.select({ nodeid: table.nodeid }).from(table).where(eq(table.legalentitynodeid, legalentitynodeid))) secrets.add(row.nodeid);
  }
  for (const user of await db.select({ email: schema.users.email }).from(schema.users).where(eq(schema.users.legalentitynodeid, legalentitynodeid))) secrets.add(user.email);
  return [...secrets];
}
