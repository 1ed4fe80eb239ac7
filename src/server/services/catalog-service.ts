import { and, asc, eq, inArray } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type {
  Brand,
  BrandsTypesEquipments,
  CreateBrand,
  CreateEquipmentClass,
  CreateEquipmentType,
  CreateLegalEntity,
  EquipmentClass,
  EquipmentType,
  Lebrty,
  UpdateEquipmentType,
  UpdateLegalEntity,
} from '../../shared/api/catalog';
import { localized, textIn } from '../../shared/domain/text';
import {
  createBrand as createBrandMutation,
  createEquipmentClass as createClassMutation,
  createEquipmentType as createTypeMutation,
  createManufacturer as createManufacturerMutation,
  updateBrand as updateBrandMutation,
  updateEquipmentClass as updateClassMutation,
} from '../../shared/mutations/catalog';
import { sentFields, type MutationParsed } from '../../shared/mutations/mutation';
import type { BrandRow, EquipmentClassRow, EquipmentTypeRow, ManufacturerRow } from '../../shared/rows/catalog';
import type { Db, Tx } from '../db/client';
import { brands, equipment, equipmentClasses, equipmentTypes, legalEntities } from '../db/schema';
import { conflict } from '../http-errors';
import { nextVersion, recordTombstone } from './change-feed';
import { deleteWithOwned } from './ownership';
import { writeChangedFields } from './record-history';
import { applyContext, toColumnValues, toRowShape } from './rows';
import { writeTransaction, type Actor, type ServiceContext } from './service-context';
import { byName, existingForCreate, lockOwnRow, lockParent, notFoundError, ofTenant } from './structure-common';

/**
 * The machine catalogue: manufacturers (legal entities recorded by the tenant, `ownerlegalentitynodeid`), brands,
 * equipment types and classes. The offline actions' rows come from their declarations
 * (src/shared/mutations/catalog.ts) and their writes answer the row as the change feed sends it; creating one
 * inside the equipment create uses the `insert*` helpers here, so both paths write the same rows.
 */

const IN_USE = 'Still used by equipment';

// ---------------------------------------------------------------- manufacturers


/** A manufacturer as the change feed sends it: only what the pickers need, not the fields of a tenant. */
export function manufacturerRow(row: typeof legalEntities.$inferSelect): ManufacturerRow {
  return { nodeid: row.nodeid, name: row.name, clienttype: row.clienttype, ownerlegalentitynodeid: row.ownerlegalentitynodeid, version: row.version };
}

/** A brand as the change feed sends it: the column, and the spec's `isbrandof` beside it. */
export function brandRow(row: typeof brands.$inferSelect): BrandRow {
  return { ...(toRowShape(row) as Omit<BrandRow, 'isbrandof'>), isbrandof: row.manufacturernodeid };
}

/** A manufacturer's row needs a unique client id; recorded manufacturers never log in, so it is derived. */
export async function insertManufacturer(tx: Tx, actor: Actor, nodeid: string, name: string, version: number): Promise<void> {
  const fields = createManufacturerMutation.apply!(undefined, { params: {}, body: { lang: 'de', nodeid, name } }, applyContext(actor));
  await tx.insert(legalEntities).values({
    ...(toColumnValues(legalEntities, fields) as Pick<typeof legalEntities.$inferInsert, 'name' | 'clienttype'>),
    nodeid,
    clientid: `manufacturer:${nodeid}`,
    ownerlegalentitynodeid: actor.legalentitynodeid,
    version,
  });
}

/**
 * A manufacturer the tenant recorded; another tenant's (or a tenant itself) is not found. `lock`: `key share` for a
 * brand about to hang on it, `update` for its delete — both before the tenant's version, as every write locks
 * (docs/decisions.md "Write: the version late").
 */
async function manufacturerOfTenant(db: Db | Tx, actor: Actor, nodeid: string, lock?: 'key share' | 'update') {
  const query = db.select().from(legalEntities).where(and(eq(legalEntities.nodeid, nodeid), eq(legalEntities.ownerlegalentitynodeid, actor.legalentitynodeid)));
  const [row] = await (lock ? query.for(lock) : query);
  return row;
}

/** createManufacturer: the row its declaration computes; the same create again answers the row. */
export async function createLegalEntity(ctx: ServiceContext, actor: Actor, input: CreateLegalEntity): Promise<ManufacturerRow> {
  const nodeid = input.nodeid ?? uuidv7();
  return writeTransaction(ctx, 'legalentity.create', async (tx) => {
    const [existing] = await tx.select().from(legalEntities).where(eq(legalEntities.nodeid, nodeid));
    const same = await existingForCreate(tx, actor, 'manufacturers', nodeid, existing && { ...existing, legalentitynodeid: existing.ownerlegalentitynodeid }, (row) => row.name === input.name);
    if (same) return manufacturerRow(same);
    const version = await nextVersion(tx, actor.legalentitynodeid);
    await insertManufacturer(tx, actor, nodeid, input.name, version);
    return manufacturerRow((await manufacturerOfTenant(tx, actor, nodeid))!);
  });
}

export async function updateLegalEntity(ctx: ServiceContext, actor: Actor, nodeid: string, input: UpdateLegalEntity): Promise<ManufacturerRow> {
  return writeTransaction(ctx, 'legalentity.update', async (tx) => {
    const current = await manufacturerOfTenant(tx, actor, nodeid);
    if (!current) throw notFoundError('Legal entity');
    return manufacturerRow((await writeChangedFields(tx, actor, { table: legalEntities, kind: 'manufacturers', nodeid, current, patch: { name: input.name }, where: eq(legalEntities.nodeid, nodeid) })) ?? current);
  });
}

/** A manufacturer with brands is not deleted (409): its brands must go first. */
export async function deleteLegalEntity(ctx: ServiceContext, actor: Actor, nodeid: string): Promise<{ nodeid: string; version: number }> {
  return writeTransaction(ctx, 'legalentity.delete', async (tx) => {
    if (!(await manufacturerOfTenant(tx, actor, nodeid, 'update'))) throw notFoundError('Legal entity');
    const [brand] = await tx.select({ nodeid: brands.nodeid }).from(brands).where(eq(brands.manufacturernodeid, nodeid)).limit(1);
    if (brand) throw conflict('The manufacturer still has brands');
    const version = await nextVersion(tx, actor.legalentitynodeid);
    await tx.delete(legalEntities).where(eq(legalEntities.nodeid, nodeid));
    await recordTombstone(tx, actor.legalentitynodeid, 'manufacturers', nodeid, version);
    return { nodeid, version };
  });
}

// ---------------------------------------------------------------- brands

export async function listBrands(db: Db, actor: Actor): Promise<Brand[]> {
  const rows = await db.select().from(brands).where(eq(brands.legalentitynodeid, actor.legalentitynodeid)).orderBy(asc(brands.name), asc(brands.nodeid));
  return rows.map(toBrand);
}

/** createBrand: the row its declaration computes, of a manufacturer the tenant recorded (404 otherwise). */
export async function createBrand(ctx: ServiceContext, actor: Actor, input: CreateBrand): Promise<BrandRow> {
  const nodeid = input.nodeid ?? uuidv7();
  return writeTransaction(ctx, 'brand.create', async (tx) => {
    if (!(await manufacturerOfTenant(tx, actor, input.isbrandof, 'key share'))) throw notFoundError('Legal entity');
    const [existing] = await tx.select().from(brands).where(eq(brands.nodeid, nodeid));
    const same = await existingForCreate(tx, actor, 'brands', nodeid, existing, (row) => row.name === input.name && row.manufacturernodeid === input.isbrandof);
    if (same) return brandRow(same);
    const version = await nextVersion(tx, actor.legalentitynodeid);
    const fields = createBrandMutation.apply!(undefined, { params: {}, body: input }, applyContext(actor));
    const [row] = await tx
      .insert(brands)
      .values({ ...(toColumnValues(brands, fields) as Pick<typeof brands.$inferInsert, 'name' | 'manufacturernodeid'>), nodeid, legalentitynodeid: actor.legalentitynodeid, version })
      .returning();
    return brandRow(row!);
  });
}

/** updateBrand: its declaration's change on the locked row; only the fields sent change, with history. */
export async function updateBrand(ctx: ServiceContext, actor: Actor, args: MutationParsed<typeof updateBrandMutation>): Promise<BrandRow> {
  const nodeid = args.params.id;
  return writeTransaction(ctx, 'brand.update', async (tx) => {
    // The new manufacturer before the brand: parents before children (docs/decisions.md "Write: the version late").
    if (args.body.isbrandof !== undefined && !(await manufacturerOfTenant(tx, actor, args.body.isbrandof, 'key share'))) throw notFoundError('Legal entity');
    const current = await lockOwnRow(tx, brands, actor, nodeid, () => notFoundError('Brand'), 'change');
    const patch = toColumnValues(brands, updateBrandMutation.apply!(brandRow(current), args, applyContext(actor)));
    return brandRow((await writeChangedFields(tx, actor, { table: brands, kind: 'brands', nodeid, current, patch, where: eq(brands.nodeid, nodeid) })) ?? current);
  });
}

/** A brand whose types machines use is not deleted (409); otherwise its types (with their FAQs and attachments) go with it. */
export async function deleteBrand(ctx: ServiceContext, actor: Actor, nodeid: string): Promise<{ nodeid: string; version: number }> {
  const le = actor.legalentitynodeid;
  return writeTransaction(ctx, 'brand.delete', async (tx) => {
    await lockOwnRow(tx, brands, actor, nodeid, () => notFoundError('Brand'), 'delete');
    const typeIds = (await tx.select({ nodeid: equipmentTypes.nodeid }).from(equipmentTypes).where(eq(equipmentTypes.brandnodeid, nodeid))).map((t) => t.nodeid);
    await assertTypesUnused(tx, typeIds);
    const { version } = await deleteWithOwned(tx, le, 'brands', [nodeid], 'next');
    return { nodeid, version };
  });
}

function toBrand(row: typeof brands.$inferSelect): Brand {
  return { nodeid: row.nodeid, name: row.name, isbrandof: row.manufacturernodeid, version: row.version };
}

// ---------------------------------------------------------------- equipment types

export async function listEquipmentTypes(db: Db, actor: Actor): Promise<EquipmentType[]> {
  const rows = await db.select().from(equipmentTypes).where(eq(equipmentTypes.legalentitynodeid, actor.legalentitynodeid)).orderBy(asc(equipmentTypes.model), asc(equipmentTypes.nodeid));
  return rows.map(toEquipmentType);
}

/** A brand of the tenant, locked for a model about to hang on it (lockParent): a brand's delete locks it, then its models. */
function brandOfTenant(tx: Tx, actor: Actor, nodeid: string): Promise<boolean> {
  return lockParent(tx, brands, actor, nodeid);
}

/** createEquipmentType: the row its declaration computes, of a brand of the tenant (404 otherwise). */
export async function createEquipmentType(ctx: ServiceContext, actor: Actor, input: CreateEquipmentType): Promise<EquipmentTypeRow> {
  const nodeid = input.nodeid ?? uuidv7();
  return writeTransaction(ctx, 'equipmenttype.create', async (tx) => {
    if (!(await brandOfTenant(tx, actor, input.brandnodeid))) throw notFoundError('Brand');
    const [existing] = await tx.select().from(equipmentTypes).where(eq(equipmentTypes.nodeid, nodeid));
    const same = await existingForCreate(tx, actor, 'equipment_types', nodeid, existing, (row) => row.model === input.model && row.brandnodeid === input.brandnodeid);
    if (same) return toRowShape(same) as EquipmentTypeRow;
    const version = await nextVersion(tx, actor.legalentitynodeid);
    const fields = createTypeMutation.apply!(undefined, { params: {}, body: input }, applyContext(actor));
    const [row] = await tx
      .insert(equipmentTypes)
      .values({ ...(toColumnValues(equipmentTypes, fields) as Pick<typeof equipmentTypes.$inferInsert, 'model' | 'brandnodeid'>), nodeid, legalentitynodeid: actor.legalentitynodeid, version })
      .returning();
    return toRowShape(row!) as EquipmentTypeRow;
  });
}

export async function updateEquipmentType(ctx: ServiceContext, actor: Actor, nodeid: string, input: UpdateEquipmentType): Promise<EquipmentTypeRow> {
  return writeTransaction(ctx, 'equipmenttype.update', async (tx) => {
    // The new brand before the model: a brand's delete locks the brand, then its models.
    if (input.brandnodeid !== undefined && !(await brandOfTenant(tx, actor, input.brandnodeid))) throw notFoundError('Brand');
    const current = await lockOwnRow(tx, equipmentTypes, actor, nodeid, () => notFoundError('Equipment type'), 'change');
    const patch = sentFields(input, ['model', 'brandnodeid']);
    return toRowShape((await writeChangedFields(tx, actor, { table: equipmentTypes, kind: 'equipment_types', nodeid, current, patch, where: eq(equipmentTypes.nodeid, nodeid) })) ?? current) as EquipmentTypeRow;
  });
}

/** A type machines use is not deleted (409); its type FAQs and attachments go with it. */
export async function deleteEquipmentType(ctx: ServiceContext, actor: Actor, nodeid: string): Promise<{ nodeid: string; version: number }> {
  const le = actor.legalentitynodeid;
  return writeTransaction(ctx, 'equipmenttype.delete', async (tx) => {
    await lockOwnRow(tx, equipmentTypes, actor, nodeid, () => notFoundError('Equipment type'), 'delete');
    await assertTypesUnused(tx, [nodeid]);
    const { version } = await deleteWithOwned(tx, le, 'equipment_types', [nodeid], 'next');
    return { nodeid, version };
  });
}

async function assertTypesUnused(tx: Tx, typeIds: string[]): Promise<void> {
  if (typeIds.length === 0) return;
  const [used] = await tx.select({ nodeid: equipment.nodeid }).from(equipment).where(inArray(equipment.equipmenttypenodeid, typeIds)).limit(1);
  if (used) throw conflict(IN_USE);
}

function toEquipmentType(row: typeof equipmentTypes.$inferSelect): EquipmentType {
  return { nodeid: row.nodeid, model: row.model, brandnodeid: row.brandnodeid, version: row.version };
}

// ---------------------------------------------------------------- equipment classes

export async function listEquipmentClasses(db: Db, actor: Actor, lang: string): Promise<EquipmentClass[]> {
  const rows = await db.select().from(equipmentClasses).where(eq(equipmentClasses.legalentitynodeid, actor.legalentitynodeid));
  return rows.map((row) => toEquipmentClass(row, lang)).sort(byName);
}

/** createEquipmentClass: the row its declaration computes (the name under the request's language). */
export async function createEquipmentClass(ctx: ServiceContext, actor: Actor, input: CreateEquipmentClass): Promise<EquipmentClassRow> {
  const nodeid = input.nodeid ?? uuidv7();
  return writeTransaction(ctx, 'equipmentclass.create', async (tx) => {
    const [existing] = await tx.select().from(equipmentClasses).where(eq(equipmentClasses.nodeid, nodeid));
    const same = await existingForCreate(tx, actor, 'equipment_classes', nodeid, existing, (row) => textIn(row.name, input.lang) === input.name);
    if (same) return toRowShape(same) as EquipmentClassRow;
    const version = await nextVersion(tx, actor.legalentitynodeid);
    const fields = createClassMutation.apply!(undefined, { params: {}, body: input }, applyContext(actor));
    const [row] = await tx
      .insert(equipmentClasses)
      .values({ ...(toColumnValues(equipmentClasses, fields) as Pick<typeof equipmentClasses.$inferInsert, 'name'>), nodeid, legalentitynodeid: actor.legalentitynodeid, version })
      .returning();
    return toRowShape(row!) as EquipmentClassRow;
  });
}

/** updateEquipmentClass: its declaration's change (one language of the name) on the locked row, with history. */
export async function updateEquipmentClass(ctx: ServiceContext, actor: Actor, args: MutationParsed<typeof updateClassMutation>): Promise<EquipmentClassRow> {
  const nodeid = args.params.id;
  return writeTransaction(ctx, 'equipmentclass.update', async (tx) => {
    const current = await lockOwnRow(tx, equipmentClasses, actor, nodeid, () => notFoundError('Equipment class'), 'change');
    const patch = toColumnValues(equipmentClasses, updateClassMutation.apply!(toRowShape(current), args, applyContext(actor)));
    return toRowShape((await writeChangedFields(tx, actor, { table: equipmentClasses, kind: 'equipment_classes', nodeid, current, patch, where: eq(equipmentClasses.nodeid, nodeid) })) ?? current) as EquipmentClassRow;
  });
}

/** Machines of a deleted class keep existing without one (and get the new version). */
export async function deleteEquipmentClass(ctx: ServiceContext, actor: Actor, nodeid: string): Promise<{ nodeid: string; version: number }> {
  const le = actor.legalentitynodeid;
  return writeTransaction(ctx, 'equipmentclass.delete', async (tx) => {
    const [current] = await tx.select({ nodeid: equipmentClasses.nodeid }).from(equipmentClasses).where(ofTenant(equipmentClasses, actor, nodeid)).for('update');
    if (!current) throw notFoundError('Equipment class');
    // why the machines locked before the version: a change of one of them locks it, then takes the version.
    const ofClass = and(eq(equipment.legalentitynodeid, le), eq(equipment.equipmentclassnodeid, nodeid));
    await tx.select({ nodeid: equipment.nodeid }).from(equipment).where(ofClass).orderBy(asc(equipment.nodeid)).for('no key update');
    const version = await nextVersion(tx, le);
    await tx.update(equipment).set({ equipmentclassnodeid: null, version, updatedAt: new Date() }).where(ofClass);
    await tx.delete(equipmentClasses).where(eq(equipmentClasses.nodeid, nodeid));
    await recordTombstone(tx, le, 'equipment_classes', nodeid, version);
    return { nodeid, version };
  });
}

function toEquipmentClass(row: typeof equipmentClasses.$inferSelect, lang: string): EquipmentClass {
  return { nodeid: row.nodeid, name: localized(row.name, lang) ?? '', version: row.version };
}

// ---------------------------------------------------------------- lists

/** GET /api/getlebrty: the tenant's manufacturers, with brands and types when asked, by name. */
export async function listLegalEntitiesWithBrands(db: Db, actor: Actor, options: { includeBrands: boolean; includeTypes: boolean }): Promise<Lebrty> {
  const le = actor.legalentitynodeid;
  const manufacturers = await db.select({ nodeid: legalEntities.nodeid, name: legalEntities.name }).from(legalEntities).where(eq(legalEntities.ownerlegalentitynodeid, le));
  const brandRows = options.includeBrands ? await db.select().from(brands).where(eq(brands.legalentitynodeid, le)) : [];
  const typeRows = options.includeBrands && options.includeTypes ? await db.select().from(equipmentTypes).where(eq(equipmentTypes.legalentitynodeid, le)) : [];
  return manufacturers.sort(byName).map((m) => ({
    nodeid: m.nodeid,
    name: m.name,
    ...(options.includeBrands && {
      hasbrand: brandRows
        .filter((b) => b.manufacturernodeid === m.nodeid)
        .sort(byName)
        .map((b) => ({
          nodeid: b.nodeid,
          name: b.name,
          ...(options.includeTypes && {
            hasequipmenttype: typeRows
              .filter((t) => t.brandnodeid === b.nodeid)
              .sort((x, y) => x.model.localeCompare(y.model, 'de'))
              .map((t) => ({ nodeid: t.nodeid, model: t.model })),
          }),
        })),
    }),
  }));
}

/** GET /api/brands-types-equipments: brands with manufacturer, types and the machines of each type. */
export async function listBrandsTypesEquipments(db: Db, actor: Actor): Promise<BrandsTypesEquipments> {
  const le = actor.legalentitynodeid;
  const [brandRows, typeRows, machineRows, manufacturerRows] = await Promise.all([
    db.select().from(brands).where(eq(brands.legalentitynodeid, le)),
    db.select().from(equipmentTypes).where(eq(equipmentTypes.legalentitynodeid, le)),
    db.select({ nodeid: equipment.nodeid, name: equipment.name, equipmentid: equipment.equipmentid, typenodeid: equipment.equipmenttypenodeid }).from(equipment).where(eq(equipment.legalentitynodeid, le)),
    db.select({ nodeid: legalEntities.nodeid, name: legalEntities.name }).from(legalEntities).where(eq(legalEntities.ownerlegalentitynodeid, le)),
  ]);
  const manufacturerNames = new Map(manufacturerRows.map((m) => [m.nodeid, m.name]));
  return brandRows.sort(byName).map((b) => ({
    nodeid: b.nodeid,
    name: b.name,
    isbrandof: { nodeid: b.manufacturernodeid, name: manufacturerNames.get(b.manufacturernodeid) ?? '' },
    hasequipmenttype: typeRows
      .filter((t) => t.brandnodeid === b.nodeid)
      .sort((x, y) => x.model.localeCompare(y.model, 'de'))
      .map((t) => ({
        nodeid: t.nodeid,
        model: t.model,
        hasequipment: machineRows
          .filter((m) => m.typenodeid === t.nodeid)
          .sort(byName)
          .map(({ nodeid, name, equipmentid }) => ({ nodeid, name, equipmentid })),
      })),
  }));
}
