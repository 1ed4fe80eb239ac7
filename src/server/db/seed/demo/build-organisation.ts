import { ALL, FEATURE_KEYS, NONE, READ_ONLY, type FeatureKey, type FlagTuple, type ProfileFeatures } from '../../../../shared/permissions';
import { DEMO_CLIENT_ID, DEMO_ORGANISATION, DEMO_USERS } from '../demo-users';
import { MANUFACTURERS } from './catalog';
import { type DemoContext, SEED_VERSION } from './context';
import { COLLEAGUES, type PersonSpec } from './plant';

export interface Person {
  nodeid: string;
  key: string;
  givenname: string;
  surname: string;
  fullname: string;
  profileid: PersonSpec['profileid'];
  active: boolean;
  sites: string[];
}

export interface Organisation {
  people: Person[];
  manufacturerIds: Map<string, string>;
}

const CREATE_READ_UPDATE: FlagTuple = [true, true, true, false];
const CREATE_READ: FlagTuple = [true, true, false, false];

function features(defaults: FlagTuple, overrides: Partial<Record<FeatureKey, FlagTuple>> = {}): ProfileFeatures {
  return Object.fromEntries(FEATURE_KEYS.map((key) => [key, overrides[key] ?? defaults])) as ProfileFeatures;
}

/**
 * The three profiles. Technicians report and fix: they create and update notifications, solutions, reports,
 * effort and counters and may add documents, read everything else, delete nothing and see no user admin.
 * Readers read everything except the user administration.
 */
export const DEMO_PROFILES: { profileid: PersonSpec['profileid']; name: Record<string, string>; features: ProfileFeatures }[] = [
  { profileid: 'admin', name: { de: 'Administrator', en: 'Administrator' }, features: features(ALL) },
  {
    profileid: 'technician',
    name: { de: 'Techniker', en: 'Technician' },
    features: features(READ_ONLY, {
      notification: CREATE_READ_UPDATE,
      'notification.workflow': CREATE_READ_UPDATE,
      'notification.report': CREATE_READ_UPDATE,
      // why: effort capture is part of documenting a repair and of every maintenance report.
      'notification.cost': CREATE_READ_UPDATE,
      'equipment.counter': CREATE_READ_UPDATE,
      'equipment.attachment': CREATE_READ,
      user: NONE,
    }),
  },
  { profileid: 'reader', name: { de: 'Leser', en: 'Reader' }, features: features(READ_ONLY, { user: NONE }) },
];

export function buildOrganisation(ctx: DemoContext, passwordHash: string): Organisation {
  const { tables, setupAt } = ctx;
  tables.legalEntities.push({ nodeid: ctx.tenantId, name: DEMO_ORGANISATION, clientid: DEMO_CLIENT_ID, clienttype: 'company', version: SEED_VERSION, createdAt: setupAt, updatedAt: setupAt });
  tables.tenantVersions.push({ legalentitynodeid: ctx.tenantId, version: SEED_VERSION, purgedThrough: 0 });

  const manufacturerIds = new Map<string, string>();
  for (const manufacturer of MANUFACTURERS) {
    const nodeid = ctx.newId();
    manufacturerIds.set(manufacturer.key, nodeid);
    tables.legalEntities.push({
      nodeid,
      name: manufacturer.name,
      clientid: `${DEMO_CLIENT_ID}.${manufacturer.slug}`,
      clienttype: 'machinebuilder',
      ownerlegalentitynodeid: ctx.tenantId,
      version: SEED_VERSION,
      createdAt: setupAt,
      updatedAt: setupAt,
    });
  }

  for (const profile of DEMO_PROFILES) tables.profiles.push({ ...ctx.row(), ...profile });

  const demoPeople: PersonSpec[] = [
    { key: 'admin', ...DEMO_USERS.admin, admin: true, department: 'Leitung Instandhaltung', personnelnumber: '100007', qualification: 'Dipl.-Ing. Maschinenbau', professionaltraining: { de: 'Maschinenbauingenieurin', en: 'Mechanical engineer' }, landlinephone: '711 5550 170', sites: ['stuttgart', 'chemnitz'] },
    { key: 'technician', ...DEMO_USERS.technician, department: 'Instandhaltung Stuttgart', personnelnumber: '100415', qualification: 'Mechatroniker', professionaltraining: { de: 'Techniker Mechatronik', en: 'Mechatronics technician' }, mobilephone: '1761122334', sites: ['stuttgart'] },
    { key: 'reader', ...DEMO_USERS.reader, department: 'Produktionsleitung', personnelnumber: '100052', qualification: 'Wirtschaftsingenieurin', professionaltraining: { de: 'Wirtschaftsingenieurin', en: 'Industrial engineer' }, sites: ['stuttgart'] },
  ];

  const people: Person[] = [];
  for (const person of [...demoPeople, ...COLLEAGUES]) {
    const base = ctx.row();
    const active = person.active ?? true;
    tables.users.push({
      ...base,
      userid: `${DEMO_CLIENT_ID}.${person.personnelnumber}`,
      email: person.email,
      passwordHash,
      givenname: person.givenname,
      surname: person.surname,
      mobilephone: person.mobilephone ?? null,
      landlinephone: person.landlinephone ?? null,
      department: person.department,
      costcenter: person.sites[0] === 'chemnitz' ? '5900' : '4900',
      personnelnumber: person.personnelnumber,
      professionaltraining: person.professionaltraining,
      qualification: person.qualification,
      profileid: person.profileid,
      admin: person.admin ?? false,
      active,
      lang: 'de',
    });
    people.push({ nodeid: base.nodeid, key: person.key, givenname: person.givenname, surname: person.surname, fullname: `${person.givenname} ${person.surname}`, profileid: person.profileid, active, sites: person.sites });
  }
  return { people, manufacturerIds };
}

export function personByKey(people: Person[], key: string): Person {
  const person = people.find((p) => p.key === key);
  if (!person) throw new Error(`unknown demo person ${key}`);
  return person;
}
