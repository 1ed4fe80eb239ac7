import { v7 as uuidv7 } from 'uuid';
import type { Session } from '../../src/shared/api/auth';
import { ALL, FEATURE_KEYS, type ProfileFeatures } from '../../src/shared/permissions';
import { hashPassword } from '../../src/server/auth/password';
import type { Db } from '../../src/server/db/client';
import { legalEntities, profiles, users } from '../../src/server/db/schema';
import { insertRow } from './insert';

// Test data builders for the tenancy core (legal entity, profile, user), shared by API and e2e tests.

type LegalEntityRow = typeof legalEntities.$inferSelect;
type LegalEntityInsert = typeof legalEntities.$inferInsert;
type ProfileRow = typeof profiles.$inferSelect;
type UserRow = typeof users.$inferSelect;
type UserInsert = typeof users.$inferInsert;

export const DEFAULT_TEST_PASSWORD = 'Passwort!123';

let sequence = 0;
const next = () => `${Date.now().toString(36)}${(++sequence).toString(36)}`;

export function buildLegalEntity(overrides: Partial<LegalEntityInsert> = {}): LegalEntityInsert {
  const n = next();
  return { nodeid: uuidv7(), name: `Testfirma ${n} GmbH`, clientid: `client-${n}`, clienttype: 'company', ...overrides };
}

export async function insertLegalEntity(db: Db, overrides: Partial<LegalEntityInsert> = {}): Promise<LegalEntityRow> {
  return insertRow(db, legalEntities, buildLegalEntity(overrides));
}

/** Every feature with every flag, overridden per feature: `{ site: [false, true, false, false] }`. */
export function allFeatures(overrides: ProfileFeatures = {}): ProfileFeatures {
  return { ...Object.fromEntries(FEATURE_KEYS.map((key) => [key, ALL])), ...overrides };
}

export interface ProfileOverrides {
  legalentitynodeid: string;
  profileid?: string;
  name?: Record<string, string>;
  /** Default: no feature at all. */
  features?: ProfileFeatures;
}

export async function insertProfile(db: Db, overrides: ProfileOverrides): Promise<ProfileRow> {
  const profileid = overrides.profileid ?? `profile-${next()}`;
  const [row] = await db
    .insert(profiles)
    .values({
      nodeid: uuidv7(),
      legalentitynodeid: overrides.legalentitynodeid,
      profileid,
      name: overrides.name ?? { de: `Profil ${profileid}`, en: `Profile ${profileid}` },
      features: overrides.features ?? {},
    })
    .returning();
  return row!;
}

export type UserOverrides = Partial<Omit<UserInsert, 'passwordHash'>> & {
  legalentitynodeid: string;
  profileid: string;
  /** Plain password; hashed with the real argon2id. */
  password?: string;
};

export type TestUser = UserRow & { password: string };

// why cached: argon2id costs ~50 ms of CPU per hash and most test users share a password.
const hashes = new Map<string, Promise<string>>();
const hashOnce = (password: string) => {
  let hash = hashes.get(password);
  if (!hash) hashes.set(password, (hash = hashPassword(password)));
  return hash;
};

export async function insertUser(db: Db, overrides: UserOverrides): Promise<TestUser> {
  const { password = DEFAULT_TEST_PASSWORD, ...fields } = overrides;
  const n = next();
  const [row] = await db
    .insert(users)
    .values({
      nodeid: uuidv7(),
      userid: `user-${n}`,
      email: `user-${n}@example.test`,
      givenname: 'Erika',
      surname: `Muster ${n}`,
      ...fields,
      passwordHash: await hashOnce(password),
    })
    .returning();
  return { ...row!, password };
}

export interface TestTenant {
  legalEntity: LegalEntityRow;
  adminProfile: ProfileRow;
  admin: TestUser;
}

/** A legal entity with an all-features profile and an admin user: the smallest tenant a test can log into. */
export async function insertTenant(db: Db, overrides: Partial<LegalEntityInsert> = {}): Promise<TestTenant> {
  const legalEntity = await insertLegalEntity(db, overrides);
  const adminProfile = await insertProfile(db, { legalentitynodeid: legalEntity.nodeid, profileid: 'admin', features: allFeatures() });
  const admin = await insertUser(db, { legalentitynodeid: legalEntity.nodeid, profileid: adminProfile.profileid, admin: true });
  return { legalEntity, adminProfile, admin };
}

interface Injector {
  inject(options: { method: 'POST'; url: string; payload: unknown }): PromiseLike<{ statusCode: number; json(): unknown; body: string }>;
}

/** Logs in through the real route and returns the session; fails loudly when the login does not succeed. */
export async function loginAs(app: Injector, user: { email: string; password: string }): Promise<Session & { authorization: string }> {
  const response = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: user.password } });
  if (response.statusCode !== 200) throw new Error(`login of ${user.email} failed: ${response.statusCode} ${response.body}`);
  const session = response.json() as Session;
  return { ...session, authorization: `Bearer ${session.accesstoken}` };
}
