import { sql } from 'drizzle-orm';
import { bigint, boolean, foreignKey, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { ProfileFeatures } from '../../../shared/permissions';
import { tenantColumns, timestamps } from './columns';

/** Localised text: one value per language code (spec: "name (per language)"). */
export type LocalizedText = Record<string, string>;

/** A stored file reference as the spec's payloads carry it (image, typenameplate, attachment file). */
export interface FileRef {
  fileid: string;
  url?: string;
  mimetype?: string;
  bucketid?: string;
  fileversion?: number;
}

// ---------------------------------------------------------------- tenancy

/** Legal entity = tenant (manufacturer or company). `clientid` is the spec's organisation client id. */
export const legalEntities = pgTable('legal_entities', {
  nodeid: uuid('nodeid').primaryKey(),
  name: text('name').notNull(),
  clientid: text('clientid').notNull(),
  clienttype: text('clienttype', { enum: ['company', 'machinebuilder'] }).notNull().default('company'),
  /** Set for legal entities that are only manufacturers recorded by a tenant (brand owners). */
  ownerlegalentitynodeid: uuid('ownerlegalentitynodeid'),
  ...timestamps,
  version: bigint('version', { mode: 'number' }).notNull().default(0),
}, (t) => [
  uniqueIndex('legal_entities_clientid_uq').on(t.clientid),
  // why: manufacturers belong to the tenant that recorded them and travel in its change feed.
  index('legal_entities_owner_version_idx').on(t.ownerlegalentitynodeid, t.version),
  foreignKey({ name: 'legal_entities_owner_fk', columns: [t.ownerlegalentitynodeid], foreignColumns: [t.nodeid] }).onDelete('cascade'),
]);

// ---------------------------------------------------------------- people and permissions

export const profiles = pgTable('profiles', {
  ...tenantColumns(),
  /** Stable key referenced by users and by the session payload (`userinfo.profileid`). */
  profileid: text('profileid').notNull(),
  name: jsonb('name').$type<LocalizedText>().notNull(),
  features: jsonb('features').$type<ProfileFeatures>().notNull(),
}, (t) => [
  uniqueIndex('profiles_le_profileid_uq').on(t.legalentitynodeid, t.profileid),
  index('profiles_le_version_idx').on(t.legalentitynodeid, t.version),
  foreignKey({ name: 'profiles_le_fk', columns: [t.legalentitynodeid], foreignColumns: [legalEntities.nodeid] }).onDelete('cascade'),
]);

export const users = pgTable('users', {
  ...tenantColumns(),
  userid: text('userid').notNull(),
  email: text('email').notNull(),
  passwordHash: text('password_hash'),
  /** Hashes of earlier passwords: "Sie können kein zuvor genutztes Passwort nochmal verwenden." */
  passwordHistory: jsonb('password_history').$type<string[]>().notNull().default([]),
  givenname: text('givenname').notNull(),
  surname: text('surname').notNull(),
  mobilephone: text('mobilephone'),
  landlinephone: text('landlinephone'),
  department: text('department'),
  costcenter: text('costcenter'),
  personnelnumber: text('personnelnumber'),
  professionaltraining: jsonb('professionaltraining').$type<LocalizedText>(),
  qualification: text('qualification'),
  image: jsonb('image').$type<FileRef>(),
  profileid: text('profileid').notNull(),
  admin: boolean('admin').notNull().default(false),
  superuser: boolean('superuser').notNull().default(false),
  active: boolean('active').notNull().default(true),
  lang: text('lang').notNull().default('de'),
  autologoutweb: boolean('autologoutweb').notNull().default(false),
  twofaSecret: text('twofa_secret'),
  twofaEnabled: boolean('twofa_enabled').notNull().default(false),
  /** Equipment selected on the profile: only these reach the dashboard, reminders and notifications. */
  assignedequipment: jsonb('assignedequipment').$type<string[]>().notNull().default([]),
  deletedAt: timestamp('deleted_at', { withTimezone: true }),
}, (t) => [
  uniqueIndex('users_email_uq').on(sql`lower(${t.email})`),
  uniqueIndex('users_userid_uq').on(t.userid),
  index('users_le_idx').on(t.legalentitynodeid, t.version),
  // Offboarding an organisation removes its people's personal data with it.
  foreignKey({ name: 'users_le_fk', columns: [t.legalentitynodeid], foreignColumns: [legalEntities.nodeid] }).onDelete('cascade'),
]);

/**
 * Refresh tokens are stored hashed and rotate on every use. All tokens issued from one login share a family;
 * presenting a token that was already rotated revokes the whole family (token theft detection). A family is
 * bound to the device that logged in (its client id and the SHA-256 of its device secret, copied onto every
 * token of the family); only that device may refresh, and only it gets the one grace retry (`retriedAt`).
 */
export const refreshTokens = pgTable('refresh_tokens', {
  id: uuid('id').primaryKey(),
  familyId: uuid('family_id').notNull(),
  usernodeid: uuid('usernodeid').notNull().references(() => users.nodeid, { onDelete: 'cascade' }),
  tokenHash: text('token_hash').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  rotatedAt: timestamp('rotated_at', { withTimezone: true }),
  revokedAt: timestamp('revoked_at', { withTimezone: true }),
  /** Set when this rotated token was presented once more by its device within the grace window. */
  retriedAt: timestamp('retried_at', { withTimezone: true }),
  /** The device's client id; null for a family from a login that sent none (bound on its first refresh). */
  deviceClientId: uuid('device_client_id'),
  deviceSecretHash: text('device_secret_hash'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  uniqueIndex('refresh_tokens_hash_uq').on(t.tokenHash),
  index('refresh_tokens_family_idx').on(t.familyId),
  // The login lockout asks whether a device has signed this user in before.
  index('refresh_tokens_user_idx').on(t.usernodeid, t.deviceClientId),
  index('refresh_tokens_expires_idx').on(t.expiresAt),
]);

// ---------------------------------------------------------------- offline sync (docs/sync.md)

/** A device (browser profile) identified by X-Client-Id, bound to one user on first use. */
export const syncClients = pgTable('sync_clients', {
  clientid: uuid('clientid').primaryKey(),
  usernodeid: uuid('usernodeid').notNull().references(() => users.nodeid, { onDelete: 'cascade' }),
  legalentitynodeid: uuid('legalentitynodeid').notNull(),
  lastMutationId: bigint('last_mutation_id', { mode: 'number' }).notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [index('sync_clients_user_idx').on(t.usernodeid)]);

/** The stored outcome of every applied mutation, so a resend answers the same status and body. */
export const syncMutations = pgTable('sync_mutations', {
  clientid: uuid('clientid').notNull().references(() => syncClients.clientid, { onDelete: 'cascade' }),
  mutationId: bigint('mutation_id', { mode: 'number' }).notNull(),
  requestHash: text('request_hash').notNull(),
  method: text('method').notNull(),
  path: text('path').notNull(),
  status: integer('status').notNull(),
  body: jsonb('body'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [primaryKey({ columns: [t.clientid, t.mutationId] })]);

/** Per-tenant change version, taken under a row lock by every write so commit order equals version order. */
export const tenantVersions = pgTable('tenant_versions', {
  legalentitynodeid: uuid('legalentitynodeid').primaryKey(),
  version: bigint('version', { mode: 'number' }).notNull().default(0),
  /** Versions at or below this have had their tombstones purged: older cursors must reset. */
  purgedThrough: bigint('purged_through', { mode: 'number' }).notNull().default(0),
});

/** Deletes leave tombstones so a pulling device learns about them. */
export const tombstones = pgTable('tombstones', {
  legalentitynodeid: uuid('legalentitynodeid').notNull(),
  kind: text('kind').notNull(),
  nodeid: uuid('nodeid').notNull(),
  version: bigint('version', { mode: 'number' }).notNull(),
  deletedAt: timestamp('deleted_at', { withTimezone: true }).notNull().defaultNow(),
  /**
   * The user a deleted row was private to (a subscription's follower; PRIVATE_KINDS in change-feed.ts), whose
   * devices alone get the tombstone; null: a row of the whole tenant. Ids of private rows can be derived (a
   * subscription's from user and target), so even the bare id would tell others whom a user stopped following.
   */
  usernodeid: uuid('usernodeid'),
}, (t) => [
  // why the tenant in the key: clients choose nodeids, so another tenant deleting "the same" id must not move
  // this tenant's tombstone out of its feed.
  primaryKey({ columns: [t.legalentitynodeid, t.kind, t.nodeid] }),
  index('tombstones_le_version_idx').on(t.legalentitynodeid, t.version),
]);

/**
 * Every record's nodeid, once, with the table that holds it. Clients choose nodeids, and several routes take "any
 * record" (an attachment's target, a cost's source, a shift plan's owner): an id held by two kinds of record would
 * let a technician's notification made under a FAQ's id take the FAQ's documents with it. A trigger on each record
 * table claims the id on insert (migration 0006_node_id_registry); another table's id is a unique violation on
 * `node_ids_pkey`, answered 409 "This nodeid is already used by another record". Ids stay claimed after a delete.
 */
export const nodeIds = pgTable('node_ids', {
  nodeid: uuid('nodeid').primaryKey(),
  kind: text('kind').notNull(),
});
