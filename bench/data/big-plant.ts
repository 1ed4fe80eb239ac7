/**
 * A big plant for the sync benchmarks: the demo plant (its users, logins, structure and history, seeded by
 * `seedDemo`) plus generated machines, operating-hours counters, notifications, counter readings and attachment
 * metadata (file rows marked complete, no bytes), all in the demo's organisation. Deterministic for a seed and a
 * clock. Every generated row gets its own change version above the demo's (structure first, then the history in
 * time order, as a plant that grew over the years would have them), and the tenant's version counter is set to
 * the last one, so the server serves it as is and pulls page through it.
 */
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../src/server/db/client';
import * as schema from '../../src/server/db/schema';
import { SEED_VERSION } from '../../src/server/db/seed/demo/context';
import { NOTIFICATION_TEXTS } from '../../src/server/db/seed/demo/notification-texts';
import { createRandom } from '../../src/server/db/seed/random';
import { insertAll, seedDemo, type SeedSummary } from '../../src/server/db/seed/seed-demo';
import { fileStorageKey } from '../../src/server/storage/local-storage';

export interface BigPlantOptions {
  /** Machines in the organisation in total (the demo's ~40 included). */
  machines: number;
  /** Generated notifications (on top of the demo's). */
  notifications: number;
  /** Generated counter readings (on top of the demo's). */
  readings: number;
  /** Generated attachments with their file rows; default one per ten notifications. */
  attachments?: number;
  seed?: number;
  /** The demo's "today". */
  now?: Date;
  /** Called after each inserted table or batch, for a CLI's progress line. */
  log?: (line: string) => void;
}

export interface BigPlantSummary {
  legalentitynodeid: string;
  demo: SeedSummary;
  /** Generated rows per table. */
  generated: Record<string, number>;
  /** The tenant's change version after the load. */
  version: number;
}

type Row = Record<string, unknown>;

const DAY_MS = 86_400_000;
const AREA_SIZE = 50;

/** Loads the demo plant and the generated rows into an empty, migrated database. */
export async function seedBigPlant(db: Db, options: BigPlantOptions): Promise<BigPlantSummary> {
  const now = options.now ?? new Date();
  const log = options.log ?? (() => undefined);
  const demo = await seedDemo(db, { now });
  const le = demo.legalentitynodeid;
  const ids = createRandom(options.seed ?? 1);
  const random = createRandom((options.seed ?? 1) * 7919 + 17);
  let version = SEED_VERSION;
  const base = (createdAt: Date): Row => ({ nodeid: ids.uuid(), legalentitynodeid: le, version: ++version, createdAt, updatedAt: createdAt });

  const sites = await db.select({ nodeid: schema.sites.nodeid }).from(schema.sites).where(eq(schema.sites.legalentitynodeid, le)).orderBy(asc(schema.sites.nodeid));
  const types = await db.select({ nodeid: schema.equipmentTypes.nodeid, model: schema.equipmentTypes.model }).from(schema.equipmentTypes).where(eq(schema.equipmentTypes.legalentitynodeid, le)).orderBy(asc(schema.equipmentTypes.nodeid));
  const [hoursType] = await db.select({ nodeid: schema.counterTypes.nodeid }).from(schema.counterTypes).where(eq(schema.counterTypes.legalentitynodeid, le)).orderBy(asc(schema.counterTypes.nodeid)).limit(1);
  const people = await db.select({ nodeid: schema.users.nodeid }).from(schema.users).where(eq(schema.users.legalentitynodeid, le)).orderBy(asc(schema.users.nodeid));
  const existing = await db.$count(schema.equipment, eq(schema.equipment.legalentitynodeid, le));
  if (sites.length === 0 || types.length === 0 || !hoursType || people.length === 0) throw new Error('the demo plant lacks sites, types, counter types or users');
  const author = () => people[random.int(0, people.length - 1)]!.nodeid;

  // Structure: areas of 50 machines over the demo's sites, the machines, one operating-hours counter each.
  const setupAt = new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS - 900 * DAY_MS);
  const newMachines = Math.max(0, options.machines - existing);
  const areas: Row[] = [];
  const machines: Row[] = [];
  const counters: Row[] = [];
  for (let index = 0; index < newMachines; index++) {
    if (index % AREA_SIZE === 0) {
      const number = areas.length + 1;
      areas.push({ ...base(setupAt), name: `Halle ${String(number).padStart(3, '0')}`, areaid: `H${String(number).padStart(3, '0')}`, sitenodeid: sites[number % sites.length]!.nodeid, shiftmodelnodeid: null });
    }
    const type = types[random.int(0, types.length - 1)]!;
    const year = random.int(2005, 2024);
    const number = String(index + 1).padStart(5, '0');
    machines.push({
      ...base(new Date(setupAt.getTime() + index * 60_000)),
      name: `${type.model} M${number}`,
      equipmentid: `BIG-${number}`,
      inventoryid: `AV-${200000 + index}`,
      manufacturerserialnumber: `SN${random.int(100000, 999999)}`,
      constructiondate: new Date(Date.UTC(year, 0, 1)),
      commissioningdate: new Date(Date.UTC(year, random.int(1, 11), random.int(1, 28))),
      equipmenttypenodeid: type.nodeid,
      areanodeid: areas[areas.length - 1]!.nodeid,
      useareashiftmodel: true,
    });
  }
  for (const machine of machines) counters.push({ ...base(machine.createdAt as Date), name: 'Betriebsstunden', equipmentnodeid: machine.nodeid, countertypenodeid: hoursType.nodeid });
  // Machines without a generated counter (none generated: the demo's) get no readings; history spreads over all new ones.
  const allMachines = machines.length > 0 ? machines : await db.select({ nodeid: schema.equipment.nodeid }).from(schema.equipment).where(eq(schema.equipment.legalentitynodeid, le));
  const allCounters = counters.length > 0 ? counters : await db.select({ nodeid: schema.counters.nodeid }).from(schema.counters).where(eq(schema.counters.legalentitynodeid, le));

  // History: notifications, readings and attachments interleaved in time order over the last two years.
  const attachments = options.attachments ?? Math.floor(options.notifications / 10);
  const totals = { notifications: options.notifications, readings: options.readings, attachments };
  const emitted = { notifications: 0, readings: 0, attachments: 0 };
  const total = totals.notifications + totals.readings + totals.attachments;
  const rows = { notifications: [] as Row[], counterReadings: [] as Row[], files: [] as Row[], attachments: [] as Row[] };
  const start = now.getTime() - 730 * DAY_MS;
  const step = total > 0 ? (725 * DAY_MS) / total : 0;
  for (let index = 0; index < total; index++) {
    const at = new Date(start + Math.floor(index * step));
    // The kind furthest behind its share goes next.
    const kind = (Object.keys(totals) as (keyof typeof totals)[]).filter((key) => emitted[key] < totals[key]).sort((a, b) => emitted[a] / totals[a] - emitted[b] / totals[b])[0]!;
    emitted[kind] += 1;
    if (kind === 'notifications') {
      const text = NOTIFICATION_TEXTS[random.int(0, NOTIFICATION_TEXTS.length - 1)]!;
      const old = now.getTime() - at.getTime() > 30 * DAY_MS;
      const status = old ? 2 : random.int(0, 2);
      rows.notifications.push({
        ...base(at),
        type: text.type,
        status,
        title: text.title,
        description: text.description,
        created: at,
        progressstarted: status > 0 ? new Date(at.getTime() + 3_600_000) : null,
        closed: status === 2 ? new Date(at.getTime() + 7_200_000) : null,
        errorcode: text.errorcode ?? null,
        equipmentnodeid: allMachines[random.int(0, allMachines.length - 1)]!.nodeid,
        authornodeid: author(),
      });
    } else if (kind === 'readings') {
      rows.counterReadings.push({ ...base(at), counternodeid: allCounters[random.int(0, allCounters.length - 1)]!.nodeid, value: emitted.readings * 3, takenat: at, createdbynodeid: author() });
    } else {
      const file = base(at);
      const fileid = ids.uuid();
      rows.files.push({ ...file, fileid, fileversion: 1, bucketid: 'local', storagekey: fileStorageKey({ legalentitynodeid: le, fileid, fileversion: 1, extension: 'jpg' }), mimetype: 'image/jpeg', extension: 'jpg', size: random.int(40_000, 900_000), status: 'complete', completedAt: at, createdbynodeid: author() });
      const target = rows.notifications[rows.notifications.length - 1];
      rows.attachments.push({
        ...base(at),
        title: `Foto ${emitted.attachments}`,
        description: null,
        specifier: null,
        filenodeid: file.nodeid,
        isattachmentof: target ? target.nodeid : allMachines[0]!.nodeid,
        targetkind: target ? 'notification' : 'equipment',
        authornodeid: author(),
      });
    }
  }

  const generated: Record<string, number> = {};
  const insert = async (name: string, table: Parameters<typeof insertAll>[1], list: Row[]) => {
    const started = Date.now();
    // One transaction per table: a failure leaves a database to reset, never half a table per batch.
    await db.transaction(async (tx) => insertAll(tx, table, list));
    generated[name] = list.length;
    log(`${name.padEnd(16)} ${String(list.length).padStart(7)} rows in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  };
  await insert('areas', schema.areas, areas);
  await insert('equipment', schema.equipment, machines);
  await insert('counters', schema.counters, counters);
  await insert('files', schema.files, rows.files);
  await insert('notifications', schema.notifications, rows.notifications);
  await insert('counter_readings', schema.counterReadings, rows.counterReadings);
  await insert('attachments', schema.attachments, rows.attachments);
  await db.update(schema.tenantVersions).set({ version }).where(and(eq(schema.tenantVersions.legalentitynodeid, le)));
  return { legalentitynodeid: le, demo, generated, version };
}
