import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { Site } from '../../shared/api/sites';
import type { MutationParsed } from '../../shared/mutations/mutation';
import { createSite as createMutation, updateSite as updateMutation } from '../../shared/mutations/structure';
import type { SiteRow as SiteRowShape } from '../../shared/rows/structure';
import type { Db } from '../db/client';
import { areas, sites } from '../db/schema';
import { notFound } from '../http-errors';
import { lockMachinesOf } from './assign-service';
import { preparedPerDatabase } from './prepared';
import { nextVersion } from './change-feed';
import { deleteWithOwned } from './ownership';
import { changedFields, writeChangedFields } from './record-history';
import { applyContext, toColumnValues, toRowShape } from './rows';
import { writeTransaction, type Actor, type ServiceContext } from './service-context';
import { lockShiftModels } from './shiftmodel-service';
import { existingForCreate, lockOwnRow, ofTenant } from './structure-common';

type SiteRow = typeof sites.$inferSelect;

const SITE_NOT_FOUND = 'Site not found';

export async function listSites(ctx: ServiceContext, actor: Actor): Promise<Site[]> {
  const queries = siteListQueries(ctx.db);
  // why all the tenant's areas: every area belongs to one of the tenant's sites, and this lists all of them.
  const [rows, areaRows] = await Promise.all([queries.sites.execute({ le: actor.legalentitynodeid }), queries.areas.execute({ le: actor.legalentitynodeid })]);
  return rows.map((row) => ({ ...toSite(row), hasarea: areaRows.filter((a) => a.sitenodeid === row.nodeid).map((a) => ({ nodeid: a.nodeid, name: a.name })) }));
}

/** GET /api/sites's two queries, prepared once (services/prepared.ts): the dashboard reads the list on every visit. */
const siteListQueries = preparedPerDatabase((db: Db) => ({
  sites: db.select().from(sites).where(eq(sites.legalentitynodeid, sql.placeholder('le'))).orderBy(asc(sites.name), asc(sites.nodeid)).prepare('site_list'),
  areas: db
    .select({ nodeid: areas.nodeid, name: areas.name, sitenodeid: areas.sitenodeid })
    .from(areas)
    .where(eq(areas.legalentitynodeid, sql.placeholder('le')))
    .orderBy(asc(areas.name), asc(areas.nodeid))
    .prepare('site_list_areas'),
}));

export async function getSite(ctx: ServiceContext, actor: Actor, nodeid: string): Promise<Site> {
  const [row] = await ctx.db.select().from(sites).where(ofTenant(sites, actor, nodeid));
  if (!row) throw notFound(SITE_NOT_FOUND);
  const [site] = await withAreas(ctx.db, actor, [row]);
  return site!;
}

/**
 * createSite: the row the declaration computes (src/shared/mutations/structure.ts). The payload names the legal
 * entity; it must be the caller's own. Another one answers 404 like any record of another tenant: the caller
 * cannot tell whether that legal entity exists. A device-chosen nodeid that exists already answers the plant
 * when it is this tenant's with the same content (the outbox sent the create twice), otherwise 409
 * (existingForCreate).
 */
export async function createSite(ctx: ServiceContext, actor: Actor, args: MutationParsed<typeof createMutation>): Promise<SiteRowShape> {
  const input = args.body;
  assertOwnLegalEntity(actor, input.legalentitynodeid);
  const nodeid = input.nodeid ?? uuidv7();
  return writeTransaction(ctx, 'site.create', async (tx) => {
    const fields = toColumnValues(sites, createMutation.apply!(undefined, args, applyContext(actor))) as Partial<SiteRow>;
    const [existing] = await tx.select().from(sites).where(eq(sites.nodeid, nodeid));
    const same = await existingForCreate(tx, actor, 'sites', nodeid, existing, (site) => Object.keys(changedFields(site, fields)).length === 0);
    if (same) return siteRow(same);
    const version = await nextVersion(tx, actor.legalentitynodeid);
    const [inserted] = await tx
      .insert(sites)
      .values({ ...(fields as typeof sites.$inferInsert), nodeid, legalentitynodeid: actor.legalentitynodeid, version })
      .returning();
    return siteRow(inserted!);
  });
}

/**
 * updateSite: the declaration's change on the locked row, only the fields sent (what it overwrites goes to the
 * record history); `sitenodeid` must be the path's id.
 */
export async function updateSite(ctx: ServiceContext, actor: Actor, args: MutationParsed<typeof updateMutation>): Promise<SiteRowShape> {
  const nodeid = args.params.id;
  const input = args.body;
  if (input.legalentitynodeid !== undefined) assertOwnLegalEntity(actor, input.legalentitynodeid);
  return writeTransaction(ctx, 'site.update', async (tx) => {
    const current = await lockOwnRow(tx, sites, actor, nodeid, () => notFound(SITE_NOT_FOUND), 'change');
    const patch = toColumnValues(sites, updateMutation.apply!(toRowShape(current), args, applyContext(actor))) as Partial<SiteRow>;
    return siteRow((await writeChangedFields(tx, actor, { table: sites, kind: 'sites', nodeid, current, patch, where: ofTenant(sites, actor, nodeid) })) ?? current);
  });
}

/**
 * deleteSite, with everything that only exists through it, in one transaction: its areas, the areas' shift
 * models, and subscriptions to the site or its areas each get a tombstone; machines in those areas are kept,
 * now unlinked ('Nicht verknüpfte Geräte'), and get the new version so devices learn they moved.
 */
export async function deleteSite(ctx: ServiceContext, actor: Actor, nodeid: string): Promise<{ nodeid: string; version: number }> {
  const le = actor.legalentitynodeid;
  return writeTransaction(ctx, 'site.delete', async (tx) => {
    // why the rows first and the version last: see deleteEquipment (equipment-service.ts).
    const [site] = await tx.select({ nodeid: sites.nodeid }).from(sites).where(ofTenant(sites, actor, nodeid)).for('update');
    if (!site) throw notFound(SITE_NOT_FOUND);

    const areaRows = await tx
      .select({ nodeid: areas.nodeid, shiftmodelnodeid: areas.shiftmodelnodeid })
      .from(areas)
      .where(and(eq(areas.legalentitynodeid, le), eq(areas.sitenodeid, nodeid)))
      .orderBy(asc(areas.nodeid)) // the order every write locks several areas in
      .for('update');
    const machines = await lockMachinesOf(tx, actor, 'area', areaRows.map((a) => a.nodeid));
    const plans = await lockShiftModels(tx, le, areaRows.map((a) => a.shiftmodelnodeid));
    const { version } = await deleteWithOwned(tx, le, 'sites', [nodeid], 'next');
    await machines.unlink(version);
    await plans.deleteOrphaned(version);
    return { nodeid, version };
  });
}

function assertOwnLegalEntity(actor: Actor, legalentitynodeid: string): void {
  if (legalentitynodeid !== actor.legalentitynodeid) throw notFound('Legal entity not found');
}

/** The plant's row (src/shared/rows/structure.ts): what its writes answer. */
function siteRow(row: SiteRow): SiteRowShape {
  return toRowShape(row) as SiteRowShape;
}

function toSite(row: SiteRow): Omit<Site, 'hasarea'> {
  return {
    nodeid: row.nodeid,
    legalentitynodeid: row.legalentitynodeid,
    name: row.name,
    street: row.street,
    siteid: row.siteid,
    zipcode: row.zipcode,
    city: row.city,
    country: row.country,
    version: row.version,
  };
}

async function withAreas(db: Db, actor: Actor, rows: SiteRow[]): Promise<Site[]> {
  if (rows.length === 0) return [];
  const areaRows = await db
    .select({ nodeid: areas.nodeid, name: areas.name, sitenodeid: areas.sitenodeid })
    .from(areas)
    .where(and(eq(areas.legalentitynodeid, actor.legalentitynodeid), inArray(areas.sitenodeid, rows.map((r) => r.nodeid))))
    .orderBy(asc(areas.name), asc(areas.nodeid));
  return rows.map((row) => ({
    ...toSite(row),
    hasarea: areaRows.filter((a) => a.sitenodeid === row.nodeid).map((a) => ({ nodeid: a.nodeid, name: a.name })),
  }));
}
