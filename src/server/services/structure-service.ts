import { and, eq, sql } from 'drizzle-orm';
import type { EquipmentSummary, StructureTree } from '../../shared/api/structure';
import { selectionOf, subscribedTree } from '../../shared/domain/subscription';
import { localized } from '../../shared/domain/text';
import { areas, brands, equipment, equipmentPools, equipmentTypes, sites, structureSubscriptions } from '../db/schema';
import type { Db } from '../db/client';
import { preparedPerDatabase } from './prepared';
import type { Actor, ServiceContext } from './service-context';

export type StructureScope = 'all' | 'subscribed';

/** The tree's queries, prepared once (services/prepared.ts): the dashboard reads the tree on every visit. */
const structureQueries = preparedPerDatabase((db: Db) => {
  const le = sql.placeholder('le');
  return {
    sites: db.select().from(sites).where(eq(sites.legalentitynodeid, le)).prepare('structure_sites'),
    areas: db.select({ nodeid: areas.nodeid, name: areas.name, sitenodeid: areas.sitenodeid }).from(areas).where(eq(areas.legalentitynodeid, le)).prepare('structure_areas'),
    pools: db.select({ nodeid: equipmentPools.nodeid, name: equipmentPools.name }).from(equipmentPools).where(eq(equipmentPools.legalentitynodeid, le)).prepare('structure_pools'),
    machines: db
      .select({
        nodeid: equipment.nodeid,
        name: equipment.name,
        equipmentid: equipment.equipmentid,
        inventoryid: equipment.inventoryid,
        brand: brands.name,
        model: equipmentTypes.model,
        areanodeid: equipment.areanodeid,
        equipmentpoolnodeid: equipment.equipmentpoolnodeid,
      })
      .from(equipment)
      .leftJoin(equipmentTypes, eq(equipmentTypes.nodeid, equipment.equipmenttypenodeid))
      .leftJoin(brands, eq(brands.nodeid, equipmentTypes.brandnodeid))
      .where(eq(equipment.legalentitynodeid, le))
      .prepare('structure_machines'),
    subscriptions: db
      .select({ sitenodeid: structureSubscriptions.sitenodeid, areanodeid: structureSubscriptions.areanodeid, equipmentpoolnodeid: structureSubscriptions.equipmentpoolnodeid })
      .from(structureSubscriptions)
      .where(and(eq(structureSubscriptions.legalentitynodeid, le), eq(structureSubscriptions.usernodeid, sql.placeholder('usernodeid'))))
      .prepare('structure_subscriptions'),
  };
});

const byName = <T extends { name: string }>(a: T, b: T) => a.name.localeCompare(b.name, 'de') || 0;

/**
 * The site → area → machine tree plus pools and unlinked machines (structureTreeSchema), for the whole tenant
 * (GET /api/allsitesareasequipments) or only what the user subscribes to (GET /api/sitesareasequipments), as
 * `subscribedTree` (src/shared/domain/subscription.ts) selects it — the dashboard selects offline the same way.
 */
export async function loadStructureTree(ctx: ServiceContext, actor: Actor, scope: StructureScope, lang: string): Promise<StructureTree> {
  const le = actor.legalentitynodeid;
  const queries = structureQueries(ctx.db);
  const [siteRows, areaRows, poolRows, machineRows, subscriptionRows] = await Promise.all([
    queries.sites.execute({ le }),
    queries.areas.execute({ le }),
    queries.pools.execute({ le }),
    queries.machines.execute({ le }),
    scope === 'subscribed' ? queries.subscriptions.execute({ le, usernodeid: actor.usernodeid }) : Promise.resolve([]),
  ]);

  // why no image URL yet: file URLs are signed per request by the storage layer (files issue); null until then.
  const summary = (m: (typeof machineRows)[number]): EquipmentSummary => ({
    nodeid: m.nodeid,
    name: m.name,
    equipmentid: m.equipmentid,
    inventoryid: m.inventoryid,
    brand: m.brand,
    model: m.model,
    imageurl: null,
  });
  const machinesOf = (key: 'areanodeid' | 'equipmentpoolnodeid', nodeid: string) => machineRows.filter((m) => m[key] === nodeid).map(summary).sort(byName);

  const treeSites = siteRows
    .map((site) => ({
      nodeid: site.nodeid,
      name: site.name,
      street: site.street,
      siteid: site.siteid,
      zipcode: site.zipcode,
      city: site.city,
      country: site.country,
      areas: areaRows
        .filter((a) => a.sitenodeid === site.nodeid)
        .map((a) => ({ nodeid: a.nodeid, name: a.name, equipment: machinesOf('areanodeid', a.nodeid) }))
        .sort(byName),
    }))
    .sort(byName);
  const equipmentpools = poolRows.map((p) => ({ nodeid: p.nodeid, name: localized(p.name, lang) ?? '', equipment: machinesOf('equipmentpoolnodeid', p.nodeid) })).sort(byName);
  const unlinked = machineRows.filter((m) => m.areanodeid === null && m.equipmentpoolnodeid === null).map(summary).sort(byName);
  const tree = { sites: treeSites, equipmentpools, unlinked };
  return scope === 'all' ? tree : subscribedTree(tree, selectionOf(subscriptionRows));
}
