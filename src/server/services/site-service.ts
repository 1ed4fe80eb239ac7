import { and, asc, eq, inArray, isNotNull, or } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { CreateSite, Site, UpdateSite } from '../../shared/api/sites';
import type { Db, Tx } from '../db/client';
import { areas, equipment, shiftModels, shifts, sites, structureSubscriptions } from '../db/schema';
import { badRequest, notFound } from '../http-errors';
import { nextVersion, recordTombstone, recordTombstones } from './change-feed';
import { writeTransaction, type Actor, type ServiceContext } from './service-context';

type SiteRow = typeof sites.$inferSelect;

const SITE_NOT_FOUND = 'Site not found';

export async function listSites(ctx: ServiceContext, actor: Actor): Promise<Site[]> {
  const rows = await ctx.db.select().from(sites).where(eq(sites.legalentitynodeid, actor.legalentitynodeid)).orderBy(asc(sites.name), asc(sites.nodeid));
  return withAreas(ctx.db, actor, rows);
}

export async function getSite(ctx: ServiceContext, actor: Actor, nodeid: string): Promise<Site> {
  const [row] = await ctx.db.select().from(sites).where(siteOfTenant(actor, nodeid));
  if (!row) throw notFound(SITE_NOT_FOUND);
  const [site] = await withAreas(ctx.db, actor, [row]);
  return site!;
}

/**
 * createSite. The payload names the legal entity; it must be the caller's own. Another one answers 404 like
 * any record of another tenant: the caller cannot tell whether that legal entity exists.
 */
export async function createSite(ctx: ServiceContext, actor: Actor, input: CreateSite): Promise<Site> {
  assertOwnLegalEntity(actor, input.legalentitynodeid);
  const row = await writeTransaction(ctx, 'site.create', async (tx) => {
    const version = await nextVersion(tx, actor.legalentitynodeid);
    const [inserted] = await tx
      .insert(sites)
      .values({
        nodeid: input.nodeid ?? uuidv7(),
        legalentitynodeid: actor.legalentitynodeid,
        name: input.name,
        street: input.street,
        siteid: input.siteid,
        zipcode: input.zipcode,
        city: input.city,
        country: input.country,
        version,
      })
      .returning();
    return inserted!;
  });
  return { ...toSite(row), hasarea: [] };
}

/** updateSite: changes only the fields sent; `sitenodeid` must be the path's id. */
export async function updateSite(ctx: ServiceContext, actor: Actor, nodeid: string, input: UpdateSite): Promise<Site> {
  if (input.sitenodeid !== nodeid) throw badRequest('sitenodeid does not match the path', [{ field: 'sitenodeid', message: 'Must equal the id in the path' }]);
  if (input.legalentitynodeid !== undefined) assertOwnLegalEntity(actor, input.legalentitynodeid);
  const changes = {
    ...(input.name !== undefined && { name: input.name }),
    ...(input.street !== undefined && { street: input.street }),
    ...(input.siteid !== undefined && { siteid: input.siteid }),
    ...(input.zipcode !== undefined && { zipcode: input.zipcode }),
    ...(input.city !== undefined && { city: input.city }),
    ...(input.country !== undefined && { country: input.country }),
  };
  const row = await writeTransaction(ctx, 'site.update', async (tx) => {
    const version = await nextVersion(tx, actor.legalentitynodeid);
    const [updated] = await tx
      .update(sites)
      .set({ ...changes, version, updatedAt: new Date() })
      .where(siteOfTenant(actor, nodeid))
      .returning();
    if (!updated) throw notFound(SITE_NOT_FOUND);
    return updated;
  });
  const [site] = await withAreas(ctx.db, actor, [row]);
  return site!;
}

/**
 * deleteSite, with everything that only exists through it, in one transaction: its areas, the areas' shift
 * models, and subscriptions to the site or its areas each get a tombstone; machines in those areas are kept,
 * now unlinked ('Nicht verknüpfte Geräte'), and get the new version so devices learn they moved.
 */
export async function deleteSite(ctx: ServiceContext, actor: Actor, nodeid: string): Promise<{ nodeid: string; version: number }> {
  const le = actor.legalentitynodeid;
  return writeTransaction(ctx, 'site.delete', async (tx) => {
    const version = await nextVersion(tx, le);
    const [site] = await tx.select({ nodeid: sites.nodeid }).from(sites).where(siteOfTenant(actor, nodeid)).for('update');
    if (!site) throw notFound(SITE_NOT_FOUND);

    const areaRows = await tx
      .select({ nodeid: areas.nodeid, shiftmodelnodeid: areas.shiftmodelnodeid })
      .from(areas)
      .where(and(eq(areas.legalentitynodeid, le), eq(areas.sitenodeid, nodeid)));
    const areaIds = areaRows.map((a) => a.nodeid);

    if (areaIds.length > 0) {
      await tx
        .update(equipment)
        .set({ areanodeid: null, version, updatedAt: new Date() })
        .where(and(eq(equipment.legalentitynodeid, le), inArray(equipment.areanodeid, areaIds)));
    }

    const subscriptionTargets = areaIds.length > 0 ? or(eq(structureSubscriptions.sitenodeid, nodeid), inArray(structureSubscriptions.areanodeid, areaIds)) : eq(structureSubscriptions.sitenodeid, nodeid);
    const endedSubscriptions = await tx
      .delete(structureSubscriptions)
      .where(and(eq(structureSubscriptions.legalentitynodeid, le), subscriptionTargets))
      .returning({ nodeid: structureSubscriptions.nodeid });

    await tx.delete(areas).where(and(eq(areas.legalentitynodeid, le), eq(areas.sitenodeid, nodeid)));
    await tx.delete(sites).where(siteOfTenant(actor, nodeid));
    const removedShiftModels = await deleteOrphanedShiftModels(tx, le, areaRows.flatMap((a) => (a.shiftmodelnodeid ? [a.shiftmodelnodeid] : [])));

    await recordTombstone(tx, le, 'sites', nodeid, version);
    await recordTombstones(tx, le, 'areas', areaIds, version);
    await recordTombstones(tx, le, 'structure_subscriptions', endedSubscriptions.map((s) => s.nodeid), version);
    await recordTombstones(tx, le, 'shift_models', removedShiftModels.models, version);
    await recordTombstones(tx, le, 'shifts', removedShiftModels.shifts, version);
    return { nodeid, version };
  });
}

/** Shift models of deleted areas, unless a machine or another area still points at one. */
async function deleteOrphanedShiftModels(tx: Tx, le: string, candidates: string[]): Promise<{ models: string[]; shifts: string[] }> {
  if (candidates.length === 0) return { models: [], shifts: [] };
  const stillUsed = new Set<string>();
  const usedByEquipment = await tx
    .select({ id: equipment.shiftmodelnodeid })
    .from(equipment)
    .where(and(eq(equipment.legalentitynodeid, le), inArray(equipment.shiftmodelnodeid, candidates)));
  const usedByAreas = await tx
    .select({ id: areas.shiftmodelnodeid })
    .from(areas)
    .where(and(eq(areas.legalentitynodeid, le), isNotNull(areas.shiftmodelnodeid), inArray(areas.shiftmodelnodeid, candidates)));
  for (const { id } of [...usedByEquipment, ...usedByAreas]) if (id) stillUsed.add(id);
  const orphaned = candidates.filter((id) => !stillUsed.has(id));
  if (orphaned.length === 0) return { models: [], shifts: [] };
  const removedShifts = await tx
    .delete(shifts)
    .where(and(eq(shifts.legalentitynodeid, le), inArray(shifts.shiftmodelnodeid, orphaned)))
    .returning({ nodeid: shifts.nodeid });
  const removedModels = await tx
    .delete(shiftModels)
    .where(and(eq(shiftModels.legalentitynodeid, le), inArray(shiftModels.nodeid, orphaned)))
    .returning({ nodeid: shiftModels.nodeid });
  return { models: removedModels.map((m) => m.nodeid), shifts: removedShifts.map((s) => s.nodeid) };
}

function siteOfTenant(actor: Actor, nodeid: string) {
  return and(eq(sites.nodeid, nodeid), eq(sites.legalentitynodeid, actor.legalentitynodeid));
}

function assertOwnLegalEntity(actor: Actor, legalentitynodeid: string): void {
  if (legalentitynodeid !== actor.legalentitynodeid) throw notFound('Legal entity not found');
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
