import type { FeatureKey, FlagTuple } from '../../../src/shared/permissions';
import { seedReferenceData } from '../../../src/server/db/seed/reference-data';
import type { Db } from '../../../src/server/db/client';
import { insertCounter, insertNotification } from '../../factories/notifications';
import { insertEquipment } from '../../factories/structure';
import { allFeatures, insertProfile, insertTenant, insertUser, type TestTenant, type TestUser } from '../../factories/tenant';

/** The small plant the client-against-server sync tests work on: one tenant, technicians, two machines, a counter. */
export interface SyncPlant {
  tenant: TestTenant;
  /** Technicians with every feature. */
  technicians: TestUser[];
  machines: string[];
  counter: string;
  /** A notification that exists before any device syncs. */
  notification: string;
}

export async function insertSyncPlant(db: Db, technicians = 2): Promise<SyncPlant> {
  await seedReferenceData(db);
  const tenant = await insertTenant(db, { name: 'Sync Werk' });
  const le = tenant.legalEntity.nodeid;
  const profile = await insertProfile(db, { legalentitynodeid: le, profileid: 'technician', features: allFeatures() });
  const users: TestUser[] = [];
  for (let i = 0; i < technicians; i++) users.push(await insertUser(db, { legalentitynodeid: le, profileid: profile.profileid }));
  const machines = [(await insertEquipment(db, { legalentitynodeid: le })).nodeid, (await insertEquipment(db, { legalentitynodeid: le })).nodeid];
  const counter = (await insertCounter(db, { legalentitynodeid: le, equipmentnodeid: machines[0]! })).nodeid;
  const notification = (await insertNotification(db, { legalentitynodeid: le, equipmentnodeid: machines[0]! })).nodeid;
  return { tenant, technicians: users, machines, counter, notification };
}

/** A user of the plant's tenant whose profile has every feature except `feature`, which gets `flags`. */
export async function insertUserWithFlags(db: Db, plant: SyncPlant, feature: FeatureKey, flags: FlagTuple): Promise<TestUser> {
  const le = plant.tenant.legalEntity.nodeid;
  const profile = await insertProfile(db, { legalentitynodeid: le, features: allFeatures({ [feature]: flags }) });
  return insertUser(db, { legalentitynodeid: le, profileid: profile.profileid });
}
