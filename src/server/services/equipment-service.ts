import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { CreateEquipment, Equipment } from '../../shared/api/equipment';
import { catalogSelectionIssues, HOURLY_RATE_UNIT, type CatalogSelection } from '../../shared/domain/equipment';
import { createEquipment as createMutation, updateEquipment as updateMutation } from '../../shared/mutations/equipment';
import type { MutationParsed } from '../../shared/mutations/mutation';
import type { EquipmentRow as EquipmentRowShape } from '../../shared/rows/equipment';
import type { Db, Tx } from '../db/client';
import {
  areas,
  brands,
  equipment,
  equipmentClasses,
  equipmentPools,
  equipmentTypes,
  files,
  legalEntities,
  sites,
  tombstones,
  users,
} from '../db/schema';
import { badRequest, conflict, HttpError, notFound } from '../http-errors';
import type { FileUrlSigner } from '../storage/file-storage';
import { planAssignments } from './assign-service';
import { insertManufacturer } from './catalog-service';
import { nextVersion } from './change-feed';
import { downloadUrl } from './file-service';
import { deleteWithOwned } from './ownership';
import { appendHistory, writeChangedFields } from './record-history';
import { applyContext, toColumnValues, toRowShape } from './rows';
import { writeTransaction, type Actor, type ServiceContext } from './service-context';
import { lockShiftModels, shiftsOfModels } from './shiftmodel-service';
import { classifyTargets, existingForCreate, localizedText, lockOwnRow, lockParent, NODEID_TAKEN, notFoundError, ofTenant } from './structure-common';

const KIND = 'equipment';
type EquipmentRow = typeof equipment.$inferSelect;
type FileInput = NonNullable<CreateEquipment['image']>;

// ---------------------------------------------------------------- reads

export async function getEquipment(db: Db | Tx, actor: Actor, signer: FileUrlSigner, nodeid: string, lang: string): Promise<Equipment> {
  const [row] = await db.select().from(equipment).where(ofTenant(equipment, actor, nodeid));
  if (!row) throw notFoundError('Equipment');
  const [record] = await toEquipment(db, actor, signer, [row], lang);
  return record!;
}

/** GET /api/equipments: every machine of the tenant, by name. */
export async function listEquipment(db: Db, actor: Actor, signer: FileUrlSigner, lang: string): Promise<Equipment[]> {
  const rows = await db.select().from(equipment).where(eq(equipment.legalentitynodeid, actor.legalentitynodeid)).orderBy(asc(equipment.name), asc(equipment.nodeid));
  return toEquipment(db, actor, signer, rows, lang);
}

// ---------------------------------------------------------------- create

/** The machine's row (src/shared/rows/equipment.ts): what its writes answer. */
async function equipmentRow(db: Db | Tx, actor: Actor, nodeid: string): Promise<EquipmentRowShape> {
  const [row] = await db.select().from(equipment).where(ofTenant(equipment, actor, nodeid));
  if (!row) throw notFoundError('Equipment');
  return toRowShape(row) as EquipmentRowShape;
}

/**
 * createEquipment (spec part 2 §7): new manufacturer, brand and type (with their client-chosen nodeids), the
 * machine, and the `assign.payload` links, in one transaction and one change version. See
 * createEquipmentSchema for the payload rules; here the catalogue is checked against the database: an
 * existing record of another tenant (or none) is 404, a brand/type that does not fit is 400 naming the field.
 */
export async function createEquipment(ctx: ServiceContext, actor: Actor, input: CreateEquipment): Promise<EquipmentRowShape> {
  return writeTransaction(ctx, 'equipment.create', async (tx) => equipmentRow(tx, actor, await insertEquipment(tx, actor, input, () => nextVersion(tx, actor.legalentitynodeid))));
}

/**
 * POST /api/equipments/bulk (CSV import): many creates in one transaction and one change version, so an import
 * is one outbox entry and one round trip. All or nothing: the first failing item rolls everything back and its
 * error names `items.N.<field>`.
 */
export async function createEquipmentBulk(ctx: ServiceContext, actor: Actor, items: readonly CreateEquipment[]): Promise<{ version: number; nodeids: string[] }> {
  return writeTransaction(ctx, 'equipment.bulk', async (tx) => {
    const version = await nextVersion(tx, actor.legalentitynodeid);
    const lookups = await bulkLookups(tx, actor, items);
    const nodeids: string[] = [];
    for (const [index, item] of items.entries()) {
      try {
        nodeids.push(await insertEquipment(tx, actor, item, async () => version, lookups));
      } catch (error) {
        throw error instanceof HttpError ? withItemIndex(error, index) : error;
      }
    }
    await lookups.flush();
    return { version, nodeids };
  });
}

/**
 * How insertEquipment reads and writes. A single create asks the database each time; a bulk create reads what
 * all items refer to once, remembers catalogue entries it created, and inserts the machines in batches — an
 * import of 500 rows with one area and one type then costs a handful of statements instead of thousands.
 */
interface EquipmentLookups {
  /** The existing row with this nodeid, or undefined; `deleted` when the tenant has a tombstone for it. */
  existing(nodeid: string): Promise<{ row: EquipmentRow | undefined; deleted: boolean | undefined }>;
  targets(ids: readonly string[]): ReturnType<typeof classifyTargets>;
  typeRow(nodeid: string): Promise<typeof equipmentTypes.$inferSelect | undefined>;
  brandRow(nodeid: string): Promise<typeof brands.$inferSelect | undefined>;
  manufacturerRow(nodeid: string): Promise<typeof legalEntities.$inferSelect | undefined>;
  /** After a catalogue insert, so later items see the new entry. */
  remember(kind: 'type' | 'brand' | 'manufacturer', row: Record<string, unknown> & { nodeid: string }): void;
  insert(values: typeof equipment.$inferInsert): Promise<void>;
  flush(): Promise<void>;
}

function directLookups(tx: Tx, actor: Actor): EquipmentLookups {
  return {
    existing: async (nodeid) => ({ row: (await tx.select().from(equipment).where(eq(equipment.nodeid, nodeid)))[0], deleted: undefined }),
    // why locked: the new machine hangs on its area and pool; a single create locks them before it takes the version
    // (insertEquipment), as their deletes do (docs/decisions.md "Write: the version late").
    targets: (ids) => classifyTargets(tx, actor, ids, true),
    typeRow: async (nodeid) => (await tx.select().from(equipmentTypes).where(eq(equipmentTypes.nodeid, nodeid)))[0],
    brandRow: async (nodeid) => (await tx.select().from(brands).where(eq(brands.nodeid, nodeid)))[0],
    manufacturerRow: async (nodeid) => (await tx.select().from(legalEntities).where(eq(legalEntities.nodeid, nodeid)))[0],
    remember: () => undefined,
    insert: async (values) => {
      await tx.insert(equipment).values(values);
    },
    flush: async () => undefined,
  };
}

const BULK_INSERT_CHUNK = 200;

async function bulkLookups(tx: Tx, actor: Actor, items: readonly CreateEquipment[]): Promise<EquipmentLookups> {
  const ids = items.flatMap((item) => (item.equipmentnodeid ? [item.equipmentnodeid] : []));
  const existingRows = ids.length ? await tx.select().from(equipment).where(inArray(equipment.nodeid, ids)) : [];
  const deletedRows = ids.length
    ? await tx
        .select({ nodeid: tombstones.nodeid })
        .from(tombstones)
        .where(and(eq(tombstones.legalentitynodeid, actor.legalentitynodeid), eq(tombstones.kind, KIND), inArray(tombstones.nodeid, ids)))
    : [];
  const existing = new Map(existingRows.map((row) => [row.nodeid, row]));
  const deleted = new Set(deletedRows.map((row) => row.nodeid));
  const direct = directLookups(tx, actor);
  const memo = <T>(load: (id: string) => Promise<T>) => {
    const cache = new Map<string, T>();
    const get = async (id: string) => {
      if (!cache.has(id)) cache.set(id, await load(id));
      return cache.get(id)!;
    };
    return Object.assign(get, { cache });
  };
  const typeRow = memo(direct.typeRow);
  const brandRow = memo(direct.brandRow);
  const manufacturerRow = memo(direct.manufacturerRow);
  const targetCache = new Map<string, Awaited<ReturnType<typeof classifyTargets>>>();
  const pending: (typeof equipment.$inferInsert)[] = [];
  const pendingIds = new Set<string>();
  const flush = async () => {
    for (let i = 0; i < pending.length; i += BULK_INSERT_CHUNK) await tx.insert(equipment).values(pending.slice(i, i + BULK_INSERT_CHUNK));
    pending.length = 0;
  };
  return {
    existing: async (nodeid) => ({ row: existing.get(nodeid), deleted: deleted.has(nodeid) }),
    targets: async (targetIds) => {
      const key = [...targetIds].sort().join(',');
      if (!targetCache.has(key)) targetCache.set(key, await classifyTargets(tx, actor, targetIds));
      return targetCache.get(key)!;
    },
    typeRow,
    brandRow,
    manufacturerRow,
    remember: (kind, row) => {
      const cache = kind === 'type' ? typeRow.cache : kind === 'brand' ? brandRow.cache : manufacturerRow.cache;
      (cache as Map<string, unknown>).set(row.nodeid, row);
    },
    insert: async (values) => {
      if (existing.has(values.nodeid) || pendingIds.has(values.nodeid)) throw conflict(NODEID_TAKEN);
      pendingIds.add(values.nodeid);
      pending.push(values);
    },
    flush,
  };
}

function withItemIndex(error: HttpError, index: number): HttpError {
  const details = (error.details ?? [{ field: '', message: error.message }]).map((d) => ({ field: d.field ? `items.${index}.${d.field}` : `items.${index}`, message: d.message }));
  return new HttpError(error.statusCode, `items.${index}: ${error.message}`, details);
}

/** One machine with its new catalogue entries and links, inside the caller's transaction; returns its nodeid. */
async function insertEquipment(tx: Tx, actor: Actor, input: CreateEquipment, takeVersion: () => Promise<number>, lookups = directLookups(tx, actor)): Promise<string> {
  const le = actor.legalentitynodeid;
  const nodeid = input.equipmentnodeid ?? uuidv7();
  const { row: existing, deleted } = await lookups.existing(nodeid);
  const sameContent = (row: EquipmentRow) => row.name === input.name && row.equipmenttypenodeid === input.equipmenttype?.nodeid;
  if (existing || deleted !== false) {
    const same = await existingForCreate(tx, actor, KIND, nodeid, existing, sameContent);
    if (same) return nodeid;
  }

  const links = await resolveMembership(lookups, actor, input.isequipmentof);
  const version = await takeVersion();
  const equipmenttypenodeid = await resolveCatalog(tx, actor, input, version, lookups);
  const imagefilenodeid = await fileOfTenant(tx, actor, 'image', input.image);
  const typenameplatefilenodeid = await fileOfTenant(tx, actor, 'typenameplate', input.typenameplate);
  if (input.equipmentclassnodeid) await assertClassOfTenant(tx, actor, input.equipmentclassnodeid);

  // The row is the declaration's; the server adds what only it knows: the area and pool `isequipmentof` names,
  // the file rows the photo references name, the type the catalogue resolved.
  const fields = createMutation.apply!(undefined, { params: {}, body: input }, applyContext(actor));
  await lookups.insert({
    ...(toColumnValues(equipment, fields) as Omit<typeof equipment.$inferInsert, 'nodeid' | 'legalentitynodeid'>),
    nodeid,
    legalentitynodeid: le,
    imagefilenodeid,
    typenameplatefilenodeid,
    equipmenttypenodeid,
    areanodeid: links.areanodeid,
    equipmentpoolnodeid: links.equipmentpoolnodeid,
    version,
  });
  if (input.assign) {
    // why: planAssignments reads the machines it moves from the database.
    await lookups.flush();
    await (await planAssignments(tx, actor, input.assign.payload)).write(version);
  }
  return nodeid;
}

/** `isequipmentof`: at most one area and one pool of the tenant, at least one of them; the caller's legal entity is allowed and ignored. */
async function resolveMembership(lookups: EquipmentLookups, actor: Actor, ids: readonly string[]): Promise<{ areanodeid: string | null; equipmentpoolnodeid: string | null }> {
  const targets = await lookups.targets(ids.filter((id) => id !== actor.legalentitynodeid));
  if (targets.unknown.length > 0) throw notFound('Area or equipment pool not found');
  if (targets.areas.size > 1 || targets.pools.size > 1) throw badRequest('Invalid body: isequipmentof: At most one area and one pool', [{ field: 'isequipmentof', message: 'At most one area and one pool' }]);
  if (targets.areas.size + targets.pools.size === 0) throw badRequest('Invalid body: isequipmentof: Choose an equipment pool or an area', [{ field: 'isequipmentof', message: 'Choose an equipment pool or an area' }]);
  return { areanodeid: [...targets.areas][0] ?? null, equipmentpoolnodeid: [...targets.pools][0] ?? null };
}

/**
 * One catalogue choice of the machine form against the database: an existing entry must be the tenant's (404), a
 * new one's id must be free (409) — unless the tenant has it already with the same name, which then counts as
 * existing (an earlier offline create was sent first). Answers the tenant's row, if it has one.
 */
function ownCatalogRow<Row>(choice: { isnew?: boolean | undefined; nodeid: string }, row: Row | undefined, isOwn: (row: Row) => boolean, sameContent: (row: Row) => boolean, what: string): Row | undefined {
  const own = row && isOwn(row) ? row : undefined;
  if (row && !own) throw choice.isnew ? conflict(NODEID_TAKEN) : notFoundError(what);
  if (!choice.isnew && !own) throw notFoundError(what);
  if (choice.isnew && own && !sameContent(own)) throw conflict(NODEID_TAKEN);
  return own;
}

/**
 * The §4 catalogue rule against the database. A "new" entry whose nodeid the tenant already has with the same
 * name (e.g. made by an earlier offline create that was sent first) counts as existing. Returns the type's nodeid.
 */
async function resolveCatalog(tx: Tx, actor: Actor, input: CreateEquipment, version: number, lookups: EquipmentLookups): Promise<string> {
  const le = actor.legalentitynodeid;
  const selection: CatalogSelection = { legalentity: input.legalentity, brand: input.brand, equipmenttype: input.equipmenttype };
  const type = input.equipmenttype!;

  const typeOfTenant = ownCatalogRow(type, await lookups.typeRow(type.nodeid), (row) => row.legalentitynodeid === le, (row) => row.model === type.model, 'Equipment type');
  if (type.isnew && typeOfTenant) selection.equipmenttype = { isnew: false, nodeid: type.nodeid };
  // An existing type alone brings its brand.
  if (!selection.brand && typeOfTenant) selection.brand = { isnew: false, nodeid: typeOfTenant.brandnodeid };

  const brandChoice = selection.brand;
  const brandOfTenant = brandChoice && ownCatalogRow(brandChoice, await lookups.brandRow(brandChoice.nodeid), (row) => row.legalentitynodeid === le, (row) => row.name === brandChoice.name, 'Brand');
  if (brandChoice?.isnew && brandOfTenant) selection.brand = { isnew: false, nodeid: brandChoice.nodeid };

  const manufacturerChoice = selection.legalentity;
  const manufacturerOfTenant =
    manufacturerChoice && ownCatalogRow(manufacturerChoice, await lookups.manufacturerRow(manufacturerChoice.nodeid), (row) => row.ownerlegalentitynodeid === le, (row) => row.name === manufacturerChoice.name, 'Legal entity');
  if (manufacturerChoice?.isnew && manufacturerOfTenant) selection.legalentity = { isnew: false, nodeid: manufacturerChoice.nodeid };

  const issues = catalogSelectionIssues(selection, {
    manufacturerOfBrand: (id) => (brandOfTenant && brandOfTenant.nodeid === id ? brandOfTenant.manufacturernodeid : undefined),
    brandOfType: (id) => (typeOfTenant && typeOfTenant.nodeid === id ? typeOfTenant.brandnodeid : undefined),
  });
  if (issues.length > 0) {
    const details = issues.map((issue) => ({ field: issue.field, message: issue.code === 'brandNotOfManufacturer' ? 'The brand is not of this manufacturer' : issue.code === 'typeNotOfBrand' ? 'The type is not of this brand' : 'Required' }));
    throw badRequest(`Invalid body: ${details.map((d) => `${d.field}: ${d.message}`).join('; ')}`, details);
  }

  const { legalentity, brand, equipmenttype } = selection;
  if (legalentity?.isnew) {
    await insertManufacturer(tx, actor, legalentity.nodeid, legalentity.name!.trim(), version);
    lookups.remember('manufacturer', { nodeid: legalentity.nodeid, name: legalentity.name!.trim(), ownerlegalentitynodeid: le });
  }
  if (brand?.isnew) {
    const row = { nodeid: brand.nodeid, legalentitynodeid: le, name: brand.name!.trim(), manufacturernodeid: brand.isbrandof ?? legalentity!.nodeid, version };
    await tx.insert(brands).values(row);
    lookups.remember('brand', row);
  }
  if (equipmenttype!.isnew) {
    const row = { nodeid: equipmenttype!.nodeid, legalentitynodeid: le, model: equipmenttype!.model!.trim(), brandnodeid: equipmenttype!.brandnodeid ?? brand!.nodeid, version };
    await tx.insert(equipmentTypes).values(row);
    lookups.remember('type', row);
  }
  return equipmenttype!.nodeid;
}

// ---------------------------------------------------------------- update

/**
 * updateEquipment: only the fields sent change (field-level last write wins in server commit order); the
 * overwritten values go to the record history. The change is the declaration's on the locked row (a localised
 * field changes only in `lang`); the photo references are mapped to the tenant's file rows here.
 */
export async function updateEquipment(ctx: ServiceContext, actor: Actor, args: MutationParsed<typeof updateMutation>): Promise<EquipmentRowShape> {
  const { params, body: input } = args;
  const nodeid = params.id;
  return writeTransaction(ctx, 'equipment.update', async (tx) => {
    // The type and class the machine is to hang on, locked (key share) before the machine and the version: a class's
    // delete locks the class, then its machines (docs/decisions.md "Write: the version late").
    if (input.equipmenttypenodeid !== undefined && !(await lockParent(tx, equipmentTypes, actor, input.equipmenttypenodeid))) throw notFoundError('Equipment type');
    if (input.equipmentclassnodeid) await assertClassOfTenant(tx, actor, input.equipmentclassnodeid);
    const current = await lockOwnRow(tx, equipment, actor, nodeid, () => notFoundError('Equipment'), 'change');
    const change = updateMutation.apply!(toRowShape(current), args, applyContext(actor));
    const patch: Partial<EquipmentRow> = {
      ...toColumnValues(equipment, change),
      ...(input.image !== undefined && { imagefilenodeid: await fileOfTenant(tx, actor, 'image', input.image) }),
      ...(input.typenameplate !== undefined && { typenameplatefilenodeid: await fileOfTenant(tx, actor, 'typenameplate', input.typenameplate) }),
    };
    const written = await writeChangedFields(tx, actor, { table: equipment, kind: KIND, nodeid, current, patch, where: ofTenant(equipment, actor, nodeid) });
    return toRowShape(written ?? current) as EquipmentRowShape;
  });
}

// ---------------------------------------------------------------- delete

/**
 * deleteEquipment {nodeid}: the machine and everything that only exists through it (ownership.ts: notifications
 * with their solutions, reports, costs, assignments and chat rooms; counters and readings; maintenance tasks with
 * their procedures and planned costs; internal FAQs; attachments on any of these), and its own shift plan when
 * no one else uses it, each with a tombstone, in one transaction. Its removal from users' assigned equipment
 * bumps those users. A history row keeps the machine's name and ids for audit.
 */
export async function deleteEquipment(ctx: ServiceContext, actor: Actor, nodeid: string): Promise<{ nodeid: string; version: number }> {
  const le = actor.legalentitynodeid;
  return writeTransaction(ctx, 'equipment.delete', async (tx) => {
    const current = await lockOwnRow(tx, equipment, actor, nodeid, () => notFoundError('Equipment'), 'delete');
    // why the rows first and the version last: a technician's change of one of the machine's notifications locks
    // that row, then takes the version; the delete must not hold the version while it waits for such a row
    // (docs/decisions.md "Write: the version late"). The users it unassigns are locked here too, for the same reason.
    const assigned = and(eq(users.legalentitynodeid, le), sql`${users.assignedequipment} ? ${nodeid}`);
    await tx.select({ nodeid: users.nodeid }).from(users).where(assigned).orderBy(asc(users.nodeid)).for('no key update');
    const plan = await lockShiftModels(tx, le, [current.shiftmodelnodeid]);
    const { deleted, version } = await deleteWithOwned(tx, le, KIND, [nodeid], 'next');
    await plan.deleteOrphaned(version);
    await tx
      .update(users)
      .set({ assignedequipment: sql`${users.assignedequipment} - ${nodeid}::text`, version, updatedAt: new Date() })
      .where(assigned);
    await appendHistory(tx, {
      legalentitynodeid: le,
      kind: KIND,
      nodeid,
      version,
      changes: {},
      context: { deleted: true, name: current.name, equipmentid: current.equipmentid, inventoryid: current.inventoryid, notifications: deleted.notifications.length },
      usernodeid: actor.usernodeid,
    });
    return { nodeid, version };
  });
}

// ---------------------------------------------------------------- helpers

/** A file reference of the tenant (any upload state: the bytes may still be on their way from an offline device). */
async function fileOfTenant(tx: Tx, actor: Actor, field: string, ref: FileInput | null | undefined): Promise<string | null> {
  if (!ref) return null;
  const [row] = await tx
    .select({ nodeid: files.nodeid })
    .from(files)
    .where(and(eq(files.fileid, ref.fileid), eq(files.fileversion, ref.fileversion), eq(files.legalentitynodeid, actor.legalentitynodeid)));
  if (!row) throw new HttpError(404, 'File not found', [{ field, message: 'File not found' }]);
  return row.nodeid;
}

/** The class the machine is to hang on, locked (lockParent); 404 when there is none. */
async function assertClassOfTenant(tx: Tx, actor: Actor, nodeid: string): Promise<void> {
  if (!(await lockParent(tx, equipmentClasses, actor, nodeid))) throw notFoundError('Equipment class');
}

async function toEquipment(db: Db | Tx, actor: Actor, signer: FileUrlSigner, rows: EquipmentRow[], lang: string): Promise<Equipment[]> {
  if (rows.length === 0) return [];
  const le = actor.legalentitynodeid;
  const unique = (values: (string | null)[]) => [...new Set(values.filter((v): v is string => v !== null))];
  const typeIds = unique(rows.map((r) => r.equipmenttypenodeid));
  const areaIds = unique(rows.map((r) => r.areanodeid));
  const poolIds = unique(rows.map((r) => r.equipmentpoolnodeid));
  const fileIds = unique(rows.flatMap((r) => [r.imagefilenodeid, r.typenameplatefilenodeid]));

  const typeRows = await db
    .select({ nodeid: equipmentTypes.nodeid, model: equipmentTypes.model, brandnodeid: brands.nodeid, brandname: brands.name, manufacturernodeid: legalEntities.nodeid, manufacturername: legalEntities.name })
    .from(equipmentTypes)
    .innerJoin(brands, eq(brands.nodeid, equipmentTypes.brandnodeid))
    .innerJoin(legalEntities, eq(legalEntities.nodeid, brands.manufacturernodeid))
    .where(and(eq(equipmentTypes.legalentitynodeid, le), inArray(equipmentTypes.nodeid, typeIds)));
  const areaRows = areaIds.length
    ? await db
        .select({ nodeid: areas.nodeid, name: areas.name, sitenodeid: sites.nodeid, sitename: sites.name })
        .from(areas)
        .innerJoin(sites, eq(sites.nodeid, areas.sitenodeid))
        .where(and(eq(areas.legalentitynodeid, le), inArray(areas.nodeid, areaIds)))
    : [];
  const poolRows = poolIds.length ? await db.select({ nodeid: equipmentPools.nodeid, name: equipmentPools.name }).from(equipmentPools).where(and(eq(equipmentPools.legalentitynodeid, le), inArray(equipmentPools.nodeid, poolIds))) : [];
  const fileRows = fileIds.length ? await db.select().from(files).where(and(eq(files.legalentitynodeid, le), inArray(files.nodeid, fileIds))) : [];
  const shiftRows = await shiftsOfModels(db, le, unique(rows.map((r) => r.shiftmodelnodeid)));

  const typesById = new Map(typeRows.map((t) => [t.nodeid, t]));
  const areasById = new Map(areaRows.map((a) => [a.nodeid, a]));
  const poolsById = new Map(poolRows.map((p) => [p.nodeid, p]));
  const filesById = new Map(fileRows.map((f) => [f.nodeid, f]));
  const fileRef = (id: string | null) => {
    const file = id ? filesById.get(id) : undefined;
    if (!file) return null;
    return { fileid: file.fileid, fileversion: file.fileversion, mimetype: file.mimetype, bucketid: file.bucketid, url: file.status === 'complete' ? downloadUrl(signer, file) : null };
  };

  return rows.map((row): Equipment => {
    const type = typesById.get(row.equipmenttypenodeid)!;
    const area = row.areanodeid ? areasById.get(row.areanodeid) : undefined;
    const pool = row.equipmentpoolnodeid ? poolsById.get(row.equipmentpoolnodeid) : undefined;
    const info = row.controllerinformation;
    return {
      nodeid: row.nodeid,
      name: row.name,
      equipmentid: row.equipmentid,
      inventoryid: row.inventoryid,
      manufacturerserialnumber: row.manufacturerserialnumber,
      constructiondate: row.constructiondate.getTime(),
      commissioningdate: row.commissioningdate?.getTime() ?? null,
      costcenter: localizedText(row.costcenter, lang),
      inspectionbooknumber: row.inspectionbooknumber,
      dimensions: row.dimensions,
      electricalpower: row.electricalpower,
      mediasupply: row.mediasupply.map((text) => localizedText(text, lang) ?? ''),
      controllerinformation: info ? [info.manufacturer ?? '', info.type ?? '', '', info.softwareversion ?? ''] : null,
      hourlyrate: row.hourlyrate === null ? null : [row.hourlyrate, { unitid: row.hourlyratecurrency, namespace: HOURLY_RATE_UNIT.namespace }],
      image: fileRef(row.imagefilenodeid),
      typenameplate: fileRef(row.typenameplatefilenodeid),
      memo: row.memo,
      hasequipmenttype: { nodeid: type.nodeid, model: type.model, brand: { nodeid: type.brandnodeid, name: type.brandname, isbrandof: { nodeid: type.manufacturernodeid, name: type.manufacturername } } },
      isequipmentof: [
        ...(area ? [{ type: 'area' as const, nodeid: area.nodeid, name: area.name, site: { nodeid: area.sitenodeid, name: area.sitename } }] : []),
        ...(pool ? [{ type: 'pool' as const, nodeid: pool.nodeid, name: localizedText(pool.name, lang) ?? '' }] : []),
      ],
      equipmentclassnodeid: row.equipmentclassnodeid,
      useareashiftmodel: row.useareashiftmodel,
      hasshiftmodel: row.shiftmodelnodeid ? { nodeid: row.shiftmodelnodeid, shifts: shiftRows.get(row.shiftmodelnodeid) ?? [] } : null,
      version: row.version,
    };
  });
}
