import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { COMMISSIONED_BEFORE_BUILT_DETAIL, commissionedBeforeBuiltMs, EQUIPMENT_ID_TAKEN_DETAIL, type CreateEquipment, type Equipment } from '../../shared/api/equipment';
import type { EquipmentLinks } from '../../shared/domain/assignment';
import { catalogSelectionIssues, HOURLY_RATE_UNIT, type CatalogSelection } from '../../shared/domain/equipment';
import { matchKey } from '../../shared/domain/text';
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
import { badRequest, conflict, HttpError, NODEID_TAKEN, notFound } from '../http-errors';
import type { FileUrlSigner } from '../storage/file-storage';
import { planAssignments, type AssignmentPlan, type Mover } from './assign-service';
import { insertManufacturer } from './catalog-service';
import { nextVersion } from './change-feed';
import { downloadUrl, FILE_NOT_YOURS, fileVersionKey, lockNamedFiles } from './file-service';
import { deleteWithOwned } from './ownership';
import { appendHistory, writeChangedFields } from './record-history';
import { applyContext, toColumnValues, toRowShape } from './rows';
import { writeTransaction, type Actor, type ServiceContext } from './service-context';
import { lockShiftModels, shiftsOfModels } from './shiftmodel-service';
import { classifyTargets, existingForCreate, localizedText, lockOwnRow, lockParent, notFoundError, ofTenant } from './structure-common';

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
 * existing record of another tenant (or none) is 404, a brand/type that does not fit is 400 naming the field, an
 * Equipment-ID another machine of the tenant has is 409 (lockEquipmentIds). What the machine hangs on, its
 * Equipment-ID and the machines it moves are locked first, the version is taken after them (lockReferences,
 * lockEquipmentIds, planAssignments).
 */
export async function createEquipment(ctx: ServiceContext, actor: Mover, input: CreateEquipment): Promise<EquipmentRowShape> {
  return writeTransaction(ctx, 'equipment.create', async (tx) => {
    const plan = await planEquipment(tx, actor, input, await directLookups(tx, actor, input));
    if (plan.write) {
      const version = await nextVersion(tx, actor.legalentitynodeid);
      await plan.write(version);
      await plan.assignment?.write(version);
    }
    return equipmentRow(tx, actor, plan.nodeid);
  });
}

/**
 * POST /api/equipments/bulk (CSV import): many creates in one transaction and one change version, so an import
 * is one outbox entry and one round trip. All or nothing: the first failing item rolls everything back and its
 * error names `items.N.<field>`. Every item is checked, and what they all hang on or move locked, before the
 * version: from the version to the commit every other write of the tenant waits. Two new machines of the import
 * with one Equipment-ID are refused like one another machine of the tenant has (409 naming the later item).
 */
export async function createEquipmentBulk(ctx: ServiceContext, actor: Mover, items: readonly CreateEquipment[]): Promise<{ version: number; nodeids: string[] }> {
  return writeTransaction(ctx, 'equipment.bulk', async (tx) => {
    const lookups = await bulkLookups(tx, actor, items);
    const plans: EquipmentPlan[] = [];
    for (const [index, item] of items.entries()) plans.push(await forItem(index, () => planEquipment(tx, actor, item, lookups, index)));
    const version = await nextVersion(tx, actor.legalentitynodeid);
    for (const [index, plan] of plans.entries()) await forItem(index, async () => plan.write?.(version));
    await lookups.flush();
    for (const [index, plan] of plans.entries()) await forItem(index, async () => plan.assignment?.write(version));
    return { version, nodeids: plans.map((plan) => plan.nodeid) };
  });
}

/** `work` for the import's item `index`: an error it answers names `items.N.<field>`. */
async function forItem<T>(index: number, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw error instanceof HttpError ? withItemIndex(error, index) : error;
  }
}

/**
 * How planEquipment reads and writes. Both kinds lock what the items refer to up front (lockReferences); a single
 * create asks the database whether its machine exists and inserts it at once, a bulk create reads that for all
 * items once, remembers catalogue entries it creates, and inserts the machines in batches — an import of 500 rows
 * with one area and one type then costs a handful of statements instead of thousands.
 */
interface EquipmentLookups extends References {
  /** The Equipment-IDs the items name, locked, with the machines of the tenant that have them (lockEquipmentIds). */
  equipmentIds: EquipmentIds;
  /** The existing row with this nodeid, or undefined; `deleted` when the tenant has a tombstone for it. */
  existing(nodeid: string): Promise<{ row: EquipmentRow | undefined; deleted: boolean | undefined }>;
  insert(values: typeof equipment.$inferInsert): Promise<void>;
  flush(): Promise<void>;
}

async function directLookups(tx: Tx, actor: Mover, input: CreateEquipment): Promise<EquipmentLookups> {
  const references = await lockReferences(tx, actor, [input]);
  return {
    ...references,
    // why here: after what the machine hangs on, before the machines planAssignments locks (lockEquipmentIds).
    equipmentIds: await lockEquipmentIds(tx, actor.legalentitynodeid, [input.equipmentid]),
    existing: async (nodeid) => ({ row: (await tx.select().from(equipment).where(eq(equipment.nodeid, nodeid)))[0], deleted: undefined }),
    insert: async (values) => {
      await tx.insert(equipment).values(values);
    },
    flush: async () => undefined,
  };
}

const BULK_INSERT_CHUNK = 200;

async function bulkLookups(tx: Tx, actor: Mover, items: readonly CreateEquipment[]): Promise<EquipmentLookups> {
  const references = await lockReferences(tx, actor, items);
  // why here: after what the items hang on, before the machines they move (lockEquipmentIds).
  const equipmentIds = await lockEquipmentIds(tx, actor.legalentitynodeid, items.map((item) => item.equipmentid));
  // why all at once: each item's planAssignments locks the machines it moves, and items one after another would
  // lock them out of id order.
  const moved = [...new Set(items.flatMap((item) => item.assign?.payload.map((entry) => entry.equipmentnodeid) ?? []))];
  if (moved.length > 0) {
    await tx
      .select({ nodeid: equipment.nodeid })
      .from(equipment)
      .where(and(eq(equipment.legalentitynodeid, actor.legalentitynodeid), inArray(equipment.nodeid, moved)))
      .orderBy(asc(equipment.nodeid))
      .for('no key update');
  }
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
  const pending: (typeof equipment.$inferInsert)[] = [];
  const pendingIds = new Set<string>();
  const flush = async () => {
    for (let i = 0; i < pending.length; i += BULK_INSERT_CHUNK) await tx.insert(equipment).values(pending.slice(i, i + BULK_INSERT_CHUNK));
    pending.length = 0;
  };
  return {
    ...references,
    equipmentIds,
    existing: async (nodeid) => ({ row: existing.get(nodeid), deleted: deleted.has(nodeid) }),
    insert: async (values) => {
      if (existing.has(values.nodeid) || pendingIds.has(values.nodeid)) throw conflict(NODEID_TAKEN);
      pendingIds.add(values.nodeid);
      pending.push(values);
    },
    flush,
  };
}

/** What the machines of a create hang on or move, locked before its version (lockReferences). */
interface References {
  /** The areas and pools the items are placed in or move machines to. */
  targets: Awaited<ReturnType<typeof classifyTargets>>;
  typeRow(nodeid: string): Promise<typeof equipmentTypes.$inferSelect | undefined>;
  brandRow(nodeid: string): Promise<typeof brands.$inferSelect | undefined>;
  manufacturerRow(nodeid: string): Promise<typeof legalEntities.$inferSelect | undefined>;
  /** After a catalogue entry is planned, so later items see the new entry. */
  remember(kind: 'type' | 'brand' | 'manufacturer', row: Record<string, unknown> & { nodeid: string }): void;
  /** The tenant's classes among those the items name. */
  classes: Set<string>;
  /** The tenant's file rows the items' photos name, by `fileid/fileversion`, and whether the caller may name each. */
  files: Map<string, { nodeid: string; readable: boolean }>;
  /** The links of the machines the write has settled: those it creates and those it moved (planAssignments). */
  decided: Map<string, EquipmentLinks>;
}

/**
 * What `items` hang on, locked (key share) before the tenant's version, each kind in id order and parents first
 * (docs/decisions.md "Write: the version late"): the areas and pools they are placed in or move machines to, the
 * manufacturers, brands and models they name, their classes and their photos' files. A delete of any of these and
 * the create wait for each other instead of deadlocking (or meeting the foreign key), and one that came first
 * leaves the create a 404. Catalogue entries the items do not name (a model's brand) are read when asked for.
 */
async function lockReferences(tx: Tx, actor: Mover, items: readonly CreateEquipment[]): Promise<References> {
  const le = actor.legalentitynodeid;
  const unique = (ids: (string | null | undefined)[]) => [...new Set(ids.filter((id): id is string => typeof id === 'string'))];
  const targets = await classifyTargets(tx, actor, unique(items.flatMap((item) => [...item.isequipmentof.filter((id) => id !== le), ...(item.assign?.payload.map((entry) => entry.isequipmentof) ?? [])])));
  const manufacturers = await catalogueRows(
    unique(items.map((item) => item.legalentity?.nodeid)),
    (ids) => tx.select().from(legalEntities).where(and(eq(legalEntities.ownerlegalentitynodeid, le), inArray(legalEntities.nodeid, ids))).orderBy(asc(legalEntities.nodeid)).for('key share'),
    (ids) => tx.select().from(legalEntities).where(inArray(legalEntities.nodeid, ids)),
  );
  const brandRows = await catalogueRows(
    unique(items.map((item) => item.brand?.nodeid)),
    (ids) => tx.select().from(brands).where(and(eq(brands.legalentitynodeid, le), inArray(brands.nodeid, ids))).orderBy(asc(brands.nodeid)).for('key share'),
    (ids) => tx.select().from(brands).where(inArray(brands.nodeid, ids)),
  );
  const typeRows = await catalogueRows(
    unique(items.map((item) => item.equipmenttype?.nodeid)),
    (ids) => tx.select().from(equipmentTypes).where(and(eq(equipmentTypes.legalentitynodeid, le), inArray(equipmentTypes.nodeid, ids))).orderBy(asc(equipmentTypes.nodeid)).for('key share'),
    (ids) => tx.select().from(equipmentTypes).where(inArray(equipmentTypes.nodeid, ids)),
  );
  const classIds = unique(items.map((item) => item.equipmentclassnodeid));
  const classRows = classIds.length
    ? await tx
        .select({ nodeid: equipmentClasses.nodeid })
        .from(equipmentClasses)
        .where(and(eq(equipmentClasses.legalentitynodeid, le), inArray(equipmentClasses.nodeid, classIds)))
        .orderBy(asc(equipmentClasses.nodeid))
        .for('key share')
    : [];
  const cached = <Row>(rows: Map<string, Row | undefined>, load: (nodeid: string) => Promise<Row | undefined>) => async (nodeid: string) => {
    if (!rows.has(nodeid)) rows.set(nodeid, await load(nodeid));
    return rows.get(nodeid);
  };
  return {
    targets,
    typeRow: cached(typeRows, async (nodeid) => (await tx.select().from(equipmentTypes).where(eq(equipmentTypes.nodeid, nodeid)))[0]),
    brandRow: cached(brandRows, async (nodeid) => (await tx.select().from(brands).where(eq(brands.nodeid, nodeid)))[0]),
    manufacturerRow: cached(manufacturers, async (nodeid) => (await tx.select().from(legalEntities).where(eq(legalEntities.nodeid, nodeid)))[0]),
    remember: (kind, row) => {
      const rows = kind === 'type' ? typeRows : kind === 'brand' ? brandRows : manufacturers;
      (rows as Map<string, unknown>).set(row.nodeid, row);
    },
    classes: new Set(classRows.map((row) => row.nodeid)),
    files: await lockFiles(tx, actor, items.flatMap((item) => [item.image, item.typenameplate])),
    decided: new Map(),
  };
}

/**
 * Catalogue rows by id: the tenant's locked (key share, in id order: `own`), the others read without a lock
 * (`any`), so that a new entry's id another tenant uses is told from one no one uses.
 */
async function catalogueRows<Row extends { nodeid: string }>(ids: string[], own: (ids: string[]) => Promise<Row[]>, any: (ids: string[]) => Promise<Row[]>): Promise<Map<string, Row | undefined>> {
  const rows = new Map<string, Row | undefined>();
  if (ids.length === 0) return rows;
  for (const row of await own(ids)) rows.set(row.nodeid, row);
  const others = ids.filter((id) => !rows.has(id));
  for (const row of others.length > 0 ? await any(others) : []) rows.set(row.nodeid, row);
  for (const id of others) if (!rows.has(id)) rows.set(id, undefined);
  return rows;
}

function withItemIndex(error: HttpError, index: number): HttpError {
  const details = (error.details ?? [{ field: '', message: error.message }]).map((d) => ({ field: d.field ? `items.${index}.${d.field}` : `items.${index}`, message: d.message }));
  return new HttpError(error.statusCode, `items.${index}: ${error.message}`, details);
}

/** One create, checked against what `lookups` locked: its machine's nodeid, and what it writes once the version is taken. */
interface EquipmentPlan {
  nodeid: string;
  /** Inserts the new catalogue entries and the machine; none when the machine exists (the same create sent again). */
  write?(version: number): Promise<void>;
  /** The moves of `assign.payload`, written after the machines are inserted. */
  assignment?: AssignmentPlan;
}

/**
 * One machine with its new catalogue entries and links, checked inside the caller's transaction; writes nothing yet.
 * `item`: its index in a bulk create, which an Equipment-ID an earlier item has names.
 */
async function planEquipment(tx: Tx, actor: Mover, input: CreateEquipment, lookups: EquipmentLookups, item?: number): Promise<EquipmentPlan> {
  const le = actor.legalentitynodeid;
  const nodeid = input.equipmentnodeid ?? uuidv7();
  const { row: existing, deleted } = await lookups.existing(nodeid);
  const sameContent = (row: EquipmentRow) => row.name === input.name && row.equipmenttypenodeid === input.equipmenttype?.nodeid;
  if (existing || deleted !== false) {
    const same = await existingForCreate(tx, actor, KIND, nodeid, existing, sameContent);
    if (same) return { nodeid };
  }
  lookups.equipmentIds.claim(nodeid, input.equipmentid, item);

  const links = resolveMembership(lookups.targets, actor, input.isequipmentof);
  const catalogue = await resolveCatalog(tx, actor, input, lookups);
  const imagefilenodeid = fileOf(lookups.files, 'image', input.image);
  const typenameplatefilenodeid = fileOf(lookups.files, 'typenameplate', input.typenameplate);
  if (input.equipmentclassnodeid && !lookups.classes.has(input.equipmentclassnodeid)) throw notFoundError('Equipment class');
  // why before planning the moves: the payload may name the machine this create makes.
  lookups.decided.set(nodeid, links);
  const assignment = input.assign ? await planAssignments(tx, actor, input.assign.payload, undefined, lookups.decided) : undefined;

  // The row is the declaration's; the server adds what only it knows: the area and pool `isequipmentof` names,
  // the file rows the photo references name, the type the catalogue resolved.
  const fields = createMutation.apply!(undefined, { params: {}, body: input }, applyContext(actor));
  const write = async (version: number) => {
    await catalogue.write(version);
    await lookups.insert({
      ...(toColumnValues(equipment, fields) as Omit<typeof equipment.$inferInsert, 'nodeid' | 'legalentitynodeid'>),
      nodeid,
      legalentitynodeid: le,
      imagefilenodeid,
      typenameplatefilenodeid,
      equipmenttypenodeid: catalogue.equipmenttypenodeid,
      ...links,
      version,
    });
  };
  return { nodeid, write, assignment };
}

/** `isequipmentof`: at most one area and one pool of the tenant, at least one of them; the caller's legal entity is allowed and ignored. */
function resolveMembership(targets: References['targets'], actor: Actor, ids: readonly string[]): EquipmentLinks {
  const named = [...new Set(ids.filter((id) => id !== actor.legalentitynodeid))];
  if (named.some((id) => !targets.areas.has(id) && !targets.pools.has(id))) throw notFound('Area or equipment pool not found');
  const areaIds = named.filter((id) => targets.areas.has(id));
  const poolIds = named.filter((id) => targets.pools.has(id));
  if (areaIds.length > 1 || poolIds.length > 1) throw badRequest('Invalid body: isequipmentof: At most one area and one pool', [{ field: 'isequipmentof', message: 'At most one area and one pool' }]);
  if (areaIds.length + poolIds.length === 0) throw badRequest('Invalid body: isequipmentof: Choose an equipment pool or an area', [{ field: 'isequipmentof', message: 'Choose an equipment pool or an area' }]);
  return { areanodeid: areaIds[0] ?? null, equipmentpoolnodeid: poolIds[0] ?? null };
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
 * name (e.g. made by an earlier offline create that was sent first) counts as existing. Answers the type's nodeid
 * and the insert of the new entries, run with the version.
 */
async function resolveCatalog(tx: Tx, actor: Actor, input: CreateEquipment, lookups: EquipmentLookups): Promise<{ equipmenttypenodeid: string; write(version: number): Promise<void> }> {
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
  const manufacturerRow = legalentity?.isnew ? { nodeid: legalentity.nodeid, name: legalentity.name!.trim(), ownerlegalentitynodeid: le } : undefined;
  const brandRow = brand?.isnew ? { nodeid: brand.nodeid, legalentitynodeid: le, name: brand.name!.trim(), manufacturernodeid: brand.isbrandof ?? legalentity!.nodeid } : undefined;
  const typeRow = equipmenttype!.isnew ? { nodeid: equipmenttype!.nodeid, legalentitynodeid: le, model: equipmenttype!.model!.trim(), brandnodeid: equipmenttype!.brandnodeid ?? brand!.nodeid } : undefined;
  if (manufacturerRow) lookups.remember('manufacturer', manufacturerRow);
  if (brandRow) lookups.remember('brand', brandRow);
  if (typeRow) lookups.remember('type', typeRow);
  const write = async (version: number) => {
    if (manufacturerRow) await insertManufacturer(tx, actor, manufacturerRow.nodeid, manufacturerRow.name, version);
    if (brandRow) await tx.insert(brands).values({ ...brandRow, version });
    if (typeRow) await tx.insert(equipmentTypes).values({ ...typeRow, version });
  };
  return { equipmenttypenodeid: equipmenttype!.nodeid, write };
}

// ---------------------------------------------------------------- update

/**
 * updateEquipment: only the fields sent change (field-level last write wins in server commit order); the
 * overwritten values go to the record history. The change is the declaration's on the locked row (a localised
 * field changes only in `lang`); the photo references are mapped to the tenant's file rows here. A new Equipment-ID
 * another machine of the tenant has is 409 (lockEquipmentIds).
 */
export async function updateEquipment(ctx: ServiceContext, actor: Mover, args: MutationParsed<typeof updateMutation>): Promise<EquipmentRowShape> {
  const { params, body: input } = args;
  const nodeid = params.id;
  return writeTransaction(ctx, 'equipment.update', async (tx) => {
    // The type, class and photos the machine is to hang on, locked (key share) before the machine and the version: a
    // class's delete locks the class, then its machines; a file's upload its row, then the version (docs/decisions.md
    // "Write: the version late").
    if (input.equipmenttypenodeid !== undefined && !(await lockParent(tx, equipmentTypes, actor, input.equipmenttypenodeid))) throw notFoundError('Equipment type');
    if (input.equipmentclassnodeid) await assertClassOfTenant(tx, actor, input.equipmentclassnodeid);
    const photos = await lockFiles(tx, actor, [input.image, input.typenameplate]);
    // why before the machine's row and whether or not the ID changes (only the row tells): a create that moves this
    // machine locks the ID first, then the machine (lockEquipmentIds).
    const equipmentIds = input.equipmentid ? await lockEquipmentIds(tx, actor.legalentitynodeid, [input.equipmentid]) : undefined;
    const current = await lockOwnRow(tx, equipment, actor, nodeid, () => notFoundError('Equipment'), 'change');
    // An edit that keeps the ID the machine has (case and surrounding spaces aside) is not held up by a duplicate
    // older data may hold: as in the form, only an ID the machine is given anew must be free.
    const kept = current.equipmentid !== null && input.equipmentid && matchKey(current.equipmentid) === matchKey(input.equipmentid);
    if (!kept) equipmentIds?.claim(nodeid, input.equipmentid);
    const change = updateMutation.apply!(toRowShape(current), args, applyContext(actor));
    // One of the two years sent: the machine's other one (maybe changed by a colleague meanwhile) must still fit.
    const built = input.constructiondate ?? current.constructiondate.getTime();
    const commissioned = input.commissioningdate !== undefined ? input.commissioningdate : (current.commissioningdate?.getTime() ?? null);
    if (commissionedBeforeBuiltMs(built, commissioned)) throw commissionedBeforeBuilt();
    const patch: Partial<EquipmentRow> = {
      ...toColumnValues(equipment, change),
      ...(input.image !== undefined && { imagefilenodeid: fileOf(photos, 'image', input.image) }),
      ...(input.typenameplate !== undefined && { typenameplatefilenodeid: fileOf(photos, 'typenameplate', input.typenameplate) }),
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
    await appendHistory(tx, actor, {
      kind: KIND,
      nodeid,
      version,
      changes: {},
      context: { deleted: true, name: current.name, equipmentid: current.equipmentid, inventoryid: current.inventoryid, notifications: deleted.notifications.length },
    });
    return { nodeid, version };
  });
}

// ---------------------------------------------------------------- helpers

/** The Equipment-IDs a write gives machines, locked (lockEquipmentIds). */
interface EquipmentIds {
  /**
   * Gives machine `nodeid` the Equipment-ID `equipmentid` (one of those locked) for the rest of the transaction: 409
   * naming `equipmentid` when another machine of the tenant has it, or an earlier item of the same bulk create
   * (`item`: the index of this one). An empty or absent ID is nobody's.
   */
  claim(nodeid: string, equipmentid: string | null | undefined, item?: number): void;
}

/** The ASCII whitespace String.prototype.trim removes (`trimText` of a text that is ASCII only). */
const ASCII_WHITESPACE = ' \t\n\v\f\r';

/**
 * How many advisory locks an organisation's Equipment-IDs share (lockEquipmentIds): each ID has one of them, fixed by
 * its `matchKey`. why not one per ID: advisory locks take entries of PostgreSQL's shared lock table (about
 * max_locks_per_transaction × max_connections: 6,400 by default), and a bulk create of 1,000 IDs would take 1,000 —
 * a few imports at once and no one gets any lock. Two IDs sharing a lock only take turns earlier than they do anyway
 * (every write of the organisation waits for the one before it at its version).
 */
const EQUIPMENT_ID_LOCK_SLOTS = 64;

/** The lock an Equipment-ID's key takes: FNV-1a over its UTF-16 code units, the same on every instance. */
function equipmentIdLock(le: string, key: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return `equipment-id:${le}:${(hash >>> 0) % EQUIPMENT_ID_LOCK_SLOTS}`;
}

/**
 * One Equipment-ID, one machine (docs/decisions.md): the IDs `ids` name, as `matchKey` has them, locked for the
 * tenant until the transaction ends, and the machines of the tenant that have them. A deleted machine's row is
 * gone, so its ID is free again; another tenant's machines do not count.
 *
 * why an advisory lock and not a unique index: databases may hold duplicates from before the rule (an import, two
 * offline devices), which an index would refuse to be built over, and `matchKey` (trimText, German lower case) is no
 * expression PostgreSQL has. The lock (transaction-scoped, per tenant and ID: equipmentIdLock) makes two writes of
 * one ID take turns: the later reads the earlier's machine once that commits (read committed: each statement sees
 * what committed before it) and is refused — without it both would check before either inserts, and both pass.
 * Taken in one order (two imports cannot deadlock on each other's IDs) after what the write hangs on and before any
 * machine row and the version, in every write that takes it (docs/decisions.md "Write: the version late").
 *
 * The comparison is exactly `matchKey`'s, in JavaScript; the query only narrows the rows read: an ASCII-only ID
 * whose trimmed, ASCII-lower-cased form is one of the keys (what `matchKey` makes of an ASCII-only text: no
 * locale's `lower()` involved), and any ID with other characters (rare, and only `matchKey` knows how those fold).
 */
async function lockEquipmentIds(tx: Tx, le: string, ids: readonly (string | null | undefined)[]): Promise<EquipmentIds> {
  const keys = [...new Set(ids.flatMap((id) => (id ? [matchKey(id)] : [])).filter((key) => key !== ''))].sort();
  const wanted = new Set(keys);
  const owners = new Map<string, string[]>();
  if (keys.length > 0) {
    // why unnest of the sorted names: the locks are taken in the array's order, one statement however many IDs.
    const locks = [...new Set(keys.map((key) => equipmentIdLock(le, key)))].sort();
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(slot, 0)) from unnest(${sql.param(locks)}::text[]) as slot`);
    const column = equipment.equipmentid;
    const candidates = await tx
      .select({ nodeid: equipment.nodeid, equipmentid: column })
      .from(equipment)
      .where(
        and(
          eq(equipment.legalentitynodeid, le),
          sql`(translate(btrim(${column}, ${ASCII_WHITESPACE}), 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz') = any(${sql.param(keys)}::text[]) or octet_length(${column}) <> char_length(${column}))`,
        ),
      );
    for (const row of candidates) {
      const key = row.equipmentid === null ? '' : matchKey(row.equipmentid);
      if (wanted.has(key)) owners.set(key, [...(owners.get(key) ?? []), row.nodeid]);
    }
  }
  const claimed = new Map<string, { nodeid: string; item: number | undefined }>();
  return {
    claim(nodeid, equipmentid, item) {
      const key = equipmentid ? matchKey(equipmentid) : '';
      if (!key) return;
      // why: an ID checked without its lock could be taken by a concurrent write in between.
      if (!wanted.has(key)) throw new Error(`Equipment-ID not locked: ${key}`);
      if ((owners.get(key) ?? []).some((owner) => owner !== nodeid)) throw equipmentIdTaken(`Another machine of the organisation already has the Equipment-ID "${equipmentid}"`);
      const earlier = claimed.get(key);
      if (earlier && earlier.nodeid !== nodeid) throw equipmentIdTaken(`${earlier.item === undefined ? 'Another machine' : `items.${earlier.item}`} of this request has the Equipment-ID "${equipmentid}" too`);
      claimed.set(key, { nodeid, item });
    },
  };
}

/** The 409 of an Equipment-ID another machine has: its detail is what the device recognises (EQUIPMENT_ID_TAKEN_DETAIL). */
function commissionedBeforeBuilt(): HttpError {
  const { field, message } = COMMISSIONED_BEFORE_BUILT_DETAIL;
  return badRequest(`Invalid body: ${field}: ${message}`, [{ field, message }]);
}

function equipmentIdTaken(reason: string): HttpError {
  return new HttpError(409, `equipmentid: ${reason}`, [{ ...EQUIPMENT_ID_TAKEN_DETAIL }]);
}

/**
 * The file versions the photo references name (lockNamedFiles: any upload state, locked key share), by
 * `fileid/fileversion`.
 */
async function lockFiles(tx: Tx, actor: Mover, refs: readonly (FileInput | null | undefined)[]): Promise<Map<string, { nodeid: string; readable: boolean }>> {
  return lockNamedFiles(tx, actor, refs.filter((ref): ref is FileInput => !!ref));
}

/**
 * The file row `ref` names among those lockFiles found: 404 naming `field` when the tenant has none, 403 when the
 * caller may not download it (the machine's readers would get its bytes: FILE_NOT_YOURS).
 */
function fileOf(found: ReadonlyMap<string, { nodeid: string; readable: boolean }>, field: string, ref: FileInput | null | undefined): string | null {
  if (!ref) return null;
  const file = found.get(fileVersionKey(ref));
  if (!file) throw new HttpError(404, 'File not found', [{ field, message: 'File not found' }]);
  if (!file.readable) throw new HttpError(403, FILE_NOT_YOURS, [{ field, message: 'Not your file' }]);
  return file.nodeid;
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
