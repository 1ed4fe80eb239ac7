import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, numeric, pgTable, smallint, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { Weekday } from '../../../shared/domain/shift';
import { tenantColumns } from './columns';
import { tenantConstraints } from './constraints';
import { legalEntities, users, type LocalizedText } from './core';
import { files } from './files';

// Plant structure of spec part 2: manufacturers (legal entities), brands, equipment types and classes, sites
// with areas, equipment pools, shift models, the equipment itself and the users' subscriptions to all of it.

/** A brand of a manufacturer. The manufacturer is a legal entity the tenant recorded (its ownerlegalentitynodeid). */
export const brands = pgTable('brands', {
  ...tenantColumns(),
  name: text('name').notNull(),
  /** The spec's `isbrandof`. Restrict: a manufacturer with brands is not silently emptied. */
  manufacturernodeid: uuid('manufacturernodeid').notNull().references(() => legalEntities.nodeid, { onDelete: 'restrict' }),
}, (t) => [...tenantConstraints('brands', t), index('brands_manufacturer_idx').on(t.manufacturernodeid)]);

/** A machine model of a brand (`hasequipmenttype`: model plus brand). */
export const equipmentTypes = pgTable('equipment_types', {
  ...tenantColumns(),
  model: text('model').notNull(),
  // why cascade: a type has no meaning without its brand; equipment using the type still blocks the delete.
  brandnodeid: uuid('brandnodeid').notNull().references(() => brands.nodeid, { onDelete: 'cascade' }),
}, (t) => [...tenantConstraints('equipment_types', t), index('equipment_types_brand_idx').on(t.brandnodeid)]);

/** Free classification of machines (/create-equipment-class); the spec shows no fields beyond a name. */
export const equipmentClasses = pgTable('equipment_classes', {
  ...tenantColumns(),
  name: jsonb('name').$type<LocalizedText>().notNull(),
}, (t) => [...tenantConstraints('equipment_classes', t)]);

/** A plant (Werk). `siteid` is the form's optional address addon, named as the spec's payload names it. */
export const sites = pgTable('sites', {
  ...tenantColumns(),
  name: text('name').notNull(),
  street: text('street').notNull(),
  siteid: text('siteid'),
  zipcode: text('zipcode').notNull(),
  city: text('city').notNull(),
  /** ISO 3166-1 alpha-2 code; the form shows the country list in German and English. */
  country: text('country').notNull(),
}, (t) => [...tenantConstraints('sites', t), check('sites_country_ck', sql`${t.country} ~ '^[A-Z]{2}$'`)]);

/**
 * A weekly shift plan, held by an area or by a single machine (`hasshiftmodel`). The owner points at the
 * model, so a model can be copied or replaced without touching the owner's other fields.
 */
export const shiftModels = pgTable('shift_models', {
  ...tenantColumns(),
  name: text('name'),
}, (t) => [...tenantConstraints('shift_models', t)]);

/**
 * One row of the weekly shift editor. Times are minutes after midnight; an end earlier than the start ends the
 * next day ('Endzeit (+1)'). `position` keeps the editor's order.
 */
export const shifts = pgTable('shifts', {
  ...tenantColumns(),
  shiftmodelnodeid: uuid('shiftmodelnodeid').notNull().references(() => shiftModels.nodeid, { onDelete: 'cascade' }),
  position: integer('position').notNull(),
  weekdays: smallint('weekdays').array().$type<Weekday[]>().notNull(),
  startminute: integer('startminute').notNull(),
  endminute: integer('endminute').notNull(),
  unmanned: boolean('unmanned').notNull().default(false),
}, (t) => [
  ...tenantConstraints('shifts', t),
  index('shifts_model_idx').on(t.shiftmodelnodeid, t.position),
  // why: "submit disabled when any shift row has no weekdays" — the server keeps the same rule.
  check('shifts_weekdays_ck', sql`cardinality(${t.weekdays}) > 0 and ${t.weekdays} <@ array[1,2,3,4,5,6,7]::smallint[]`),
  check('shifts_minutes_ck', sql`${t.startminute} between 0 and 1439 and ${t.endminute} between 0 and 1439`),
]);

/** A hall or department of a plant (Bereich). */
export const areas = pgTable('areas', {
  ...tenantColumns(),
  name: text('name').notNull(),
  /** The spec's create payload carries an `areaid`; optional short code. */
  areaid: text('areaid'),
  sitenodeid: uuid('sitenodeid').notNull().references(() => sites.nodeid, { onDelete: 'cascade' }),
  shiftmodelnodeid: uuid('shiftmodelnodeid').references(() => shiftModels.nodeid, { onDelete: 'set null' }),
}, (t) => [...tenantConstraints('areas', t), index('areas_site_idx').on(t.sitenodeid), index('areas_shiftmodel_idx').on(t.shiftmodelnodeid)]);

/** A group of machines independent of location (e.g. mobile equipment). */
export const equipmentPools = pgTable('equipment_pools', {
  ...tenantColumns(),
  name: jsonb('name').$type<LocalizedText>().notNull(),
}, (t) => [...tenantConstraints('equipment_pools', t)]);

/** Width, height, depth in mm; a slot the form left empty is null. */
export type EquipmentDimensions = [number | null, number | null, number | null];

/** The form's controller section; the API's list form [manufacturer, type, '', softwareversion] maps onto it. */
export interface ControllerInformation {
  manufacturer?: string;
  type?: string;
  softwareversion?: string;
}

/**
 * A machine or device. Membership (`isequipmentof`) is one area and/or one pool, held as two columns so "at
 * most one of each" is structural; deleting the area or pool leaves the machine unlinked ('Nicht verknüpfte
 * Geräte') instead of deleting it.
 */
export const equipment = pgTable('equipment', {
  ...tenantColumns(),
  name: text('name').notNull(),
  equipmentid: text('equipmentid'),
  inventoryid: text('inventoryid'),
  manufacturerserialnumber: text('manufacturerserialnumber'),
  /** Build year, stored as 1 January of that year. */
  constructiondate: timestamp('constructiondate', { withTimezone: true }).notNull(),
  commissioningdate: timestamp('commissioningdate', { withTimezone: true }),
  costcenter: jsonb('costcenter').$type<LocalizedText>(),
  inspectionbooknumber: text('inspectionbooknumber'),
  dimensions: jsonb('dimensions').$type<EquipmentDimensions>(),
  /** kW. */
  electricalpower: numeric('electricalpower', { precision: 12, scale: 3, mode: 'number' }),
  mediasupply: jsonb('mediasupply').$type<LocalizedText[]>().notNull().default([]),
  controllerinformation: jsonb('controllerinformation').$type<ControllerInformation>(),
  /** Hourly rate amount; the currency is the spec's unit object (unitid EUR, ISO 4217 namespace). */
  hourlyrate: numeric('hourlyrate', { precision: 12, scale: 2, mode: 'number' }),
  hourlyratecurrency: text('hourlyratecurrency').notNull().default('EUR'),
  imagefilenodeid: uuid('imagefilenodeid').references(() => files.nodeid, { onDelete: 'set null' }),
  typenameplatefilenodeid: uuid('typenameplatefilenodeid').references(() => files.nodeid, { onDelete: 'set null' }),
  memo: text('memo'),
  // why restrict: deleting a type must not delete machines; the form requires brand and type.
  equipmenttypenodeid: uuid('equipmenttypenodeid').notNull().references(() => equipmentTypes.nodeid, { onDelete: 'restrict' }),
  equipmentclassnodeid: uuid('equipmentclassnodeid').references(() => equipmentClasses.nodeid, { onDelete: 'set null' }),
  areanodeid: uuid('areanodeid').references(() => areas.nodeid, { onDelete: 'set null' }),
  equipmentpoolnodeid: uuid('equipmentpoolnodeid').references(() => equipmentPools.nodeid, { onDelete: 'set null' }),
  /** The machine's own shifts; ignored while `useareashiftmodel` is set. */
  shiftmodelnodeid: uuid('shiftmodelnodeid').references(() => shiftModels.nodeid, { onDelete: 'set null' }),
  /** The form's 'take settings from area' checkbox. */
  useareashiftmodel: boolean('useareashiftmodel').notNull().default(true),
}, (t) => [
  ...tenantConstraints('equipment', t),
  index('equipment_area_idx').on(t.areanodeid),
  index('equipment_pool_idx').on(t.equipmentpoolnodeid),
  index('equipment_shiftmodel_idx').on(t.shiftmodelnodeid),
  index('equipment_type_idx').on(t.equipmenttypenodeid),
  check('equipment_dimensions_ck', sql`${t.dimensions} is null or (jsonb_typeof(${t.dimensions}) = 'array' and jsonb_array_length(${t.dimensions}) = 3)`),
  check('equipment_electricalpower_ck', sql`${t.electricalpower} is null or ${t.electricalpower} >= 0`),
  check('equipment_hourlyrate_ck', sql`${t.hourlyrate} is null or ${t.hourlyrate} >= 0`),
]);

/**
 * A user's `issubscriberof` entries: a site (with all its areas), a single area, or an equipment pool. Exactly
 * one target per row, each a real foreign key so deleting the target ends the subscription.
 */
export const structureSubscriptions = pgTable('structure_subscriptions', {
  ...tenantColumns(),
  usernodeid: uuid('usernodeid').notNull().references(() => users.nodeid, { onDelete: 'cascade' }),
  sitenodeid: uuid('sitenodeid').references(() => sites.nodeid, { onDelete: 'cascade' }),
  areanodeid: uuid('areanodeid').references(() => areas.nodeid, { onDelete: 'cascade' }),
  equipmentpoolnodeid: uuid('equipmentpoolnodeid').references(() => equipmentPools.nodeid, { onDelete: 'cascade' }),
}, (t) => [
  ...tenantConstraints('structure_subscriptions', t),
  check('structure_subscriptions_target_ck', sql`num_nonnulls(${t.sitenodeid}, ${t.areanodeid}, ${t.equipmentpoolnodeid}) = 1`),
  uniqueIndex('structure_subscriptions_site_uq').on(t.usernodeid, t.sitenodeid).where(sql`${t.sitenodeid} is not null`),
  uniqueIndex('structure_subscriptions_area_uq').on(t.usernodeid, t.areanodeid).where(sql`${t.areanodeid} is not null`),
  uniqueIndex('structure_subscriptions_pool_uq').on(t.usernodeid, t.equipmentpoolnodeid).where(sql`${t.equipmentpoolnodeid} is not null`),
  // Deleting a site, area or pool removes its subscriptions: these lookups must not scan.
  index('structure_subscriptions_site_idx').on(t.sitenodeid).where(sql`${t.sitenodeid} is not null`),
  index('structure_subscriptions_area_idx').on(t.areanodeid).where(sql`${t.areanodeid} is not null`),
  index('structure_subscriptions_pool_idx').on(t.equipmentpoolnodeid).where(sql`${t.equipmentpoolnodeid} is not null`),
]);
