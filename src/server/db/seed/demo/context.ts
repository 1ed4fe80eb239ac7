import { fileStorageKey } from '../../../storage/local-storage';
import type * as schema from '../../schema';
import { createRandom, type Random } from '../random';

// The state the demo builders share: the seeded generators, the clock, the tenant, and the rows collected per
// table. Builders only append rows; seed-demo.ts inserts them in foreign-key order.

type Insert<T extends { $inferInsert: unknown }> = T['$inferInsert'];

export interface DemoTables {
  legalEntities: Insert<typeof schema.legalEntities>[];
  tenantVersions: Insert<typeof schema.tenantVersions>[];
  profiles: Insert<typeof schema.profiles>[];
  users: Insert<typeof schema.users>[];
  files: Insert<typeof schema.files>[];
  brands: Insert<typeof schema.brands>[];
  equipmentTypes: Insert<typeof schema.equipmentTypes>[];
  equipmentClasses: Insert<typeof schema.equipmentClasses>[];
  shiftModels: Insert<typeof schema.shiftModels>[];
  shifts: Insert<typeof schema.shifts>[];
  sites: Insert<typeof schema.sites>[];
  areas: Insert<typeof schema.areas>[];
  equipmentPools: Insert<typeof schema.equipmentPools>[];
  equipment: Insert<typeof schema.equipment>[];
  structureSubscriptions: Insert<typeof schema.structureSubscriptions>[];
  maintenanceCategories: Insert<typeof schema.maintenanceCategories>[];
  counterTypes: Insert<typeof schema.counterTypes>[];
  counters: Insert<typeof schema.counters>[];
  counterReadings: Insert<typeof schema.counterReadings>[];
  maintenanceTasks: Insert<typeof schema.maintenanceTasks>[];
  maintenanceTaskTemplates: Insert<typeof schema.maintenanceTaskTemplates>[];
  notifications: Insert<typeof schema.notifications>[];
  notificationAssignments: Insert<typeof schema.notificationAssignments>[];
  reports: Insert<typeof schema.reports>[];
  workflows: Insert<typeof schema.workflows>[];
  workflowSteps: Insert<typeof schema.workflowSteps>[];
  faqs: Insert<typeof schema.faqs>[];
  chatRooms: Insert<typeof schema.chatRooms>[];
  chatRoomMembers: Insert<typeof schema.chatRoomMembers>[];
  chatMessages: Insert<typeof schema.chatMessages>[];
  costTypes: Insert<typeof schema.costTypes>[];
  costs: Insert<typeof schema.costs>[];
  attachments: Insert<typeof schema.attachments>[];
  subscriptions: Insert<typeof schema.subscriptions>[];
  billingInfos: Insert<typeof schema.billingInfos>[];
  orders: Insert<typeof schema.orders>[];
  feedback: Insert<typeof schema.feedback>[];
}

export interface DemoBlob {
  key: string;
  bytes: Uint8Array;
  mimetype: string;
}

/** The version every seeded row carries; the tenant's change version starts here too. */
export const SEED_VERSION = 1;

export const DAY_MS = 86_400_000;
export const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

// why two streams: ids and content draw from separate generators, so adding a sentence to the texts does not
// shift every id after it.
const ID_SEED = 0x5eed_1d5;
const CONTENT_SEED = 0xa11a_9e;

export class DemoContext {
  readonly ids: Random = createRandom(ID_SEED);
  readonly random: Random = createRandom(CONTENT_SEED);
  readonly tables: DemoTables = emptyTables();
  readonly blobs: DemoBlob[] = [];
  readonly tenantId: string;
  /** UTC midnight of `now`'s day. */
  readonly today: number;
  /** The organisation started using the product about 13 months before `now`. */
  readonly setupAt: Date;

  constructor(readonly now: Date) {
    this.tenantId = this.newId();
    this.today = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
    this.setupAt = new Date(this.today - 400 * DAY_MS + 9 * HOUR_MS);
  }

  newId(): string {
    return this.ids.uuid();
  }

  /** The columns every tenant row shares. */
  row(createdAt: Date = this.setupAt) {
    return { nodeid: this.newId(), legalentitynodeid: this.tenantId, version: SEED_VERSION, createdAt, updatedAt: createdAt };
  }

  /** A time on the day `daysAgo` days before today, at a random minute of a working day (05:30–20:30 UTC). */
  workTime(daysAgo: number): Date {
    const minute = this.random.int(5 * 60 + 30, 20 * 60 + 30);
    return this.clampToPast(new Date(this.today - daysAgo * DAY_MS + minute * MINUTE_MS));
  }

  /**
   * History never lies in the future: anything after `now` is moved to shortly before it, but never before
   * `notBefore` (the event it follows), so a close never precedes its start.
   */
  clampToPast(date: Date, notBefore?: Date): Date {
    const latest = this.now.getTime() - 5 * MINUTE_MS;
    if (date.getTime() <= latest) return date;
    const moved = latest - this.random.int(0, 60) * MINUTE_MS;
    return new Date(Math.min(latest, Math.max(moved, notBefore?.getTime() ?? moved)));
  }

  plus(date: Date, ms: number): Date {
    return new Date(date.getTime() + ms);
  }

  /** Registers a complete file with its bytes; returns the file row's nodeid. */
  addFile(input: { bytes: Uint8Array; mimetype: string; extension: string; createdAt: Date; createdBy?: string | null }): string {
    const base = this.row(input.createdAt);
    const fileid = this.newId();
    const storagekey = fileStorageKey({ legalentitynodeid: this.tenantId, fileid, fileversion: 1, extension: input.extension });
    this.tables.files.push({
      ...base,
      fileid,
      fileversion: 1,
      bucketid: 'local',
      storagekey,
      mimetype: input.mimetype,
      extension: input.extension,
      size: input.bytes.byteLength,
      status: 'complete',
      completedAt: input.createdAt,
      createdbynodeid: input.createdBy ?? null,
    });
    this.blobs.push({ key: storagekey, bytes: input.bytes, mimetype: input.mimetype });
    return base.nodeid;
  }
}

function emptyTables(): DemoTables {
  return {
    legalEntities: [], tenantVersions: [], profiles: [], users: [], files: [], brands: [], equipmentTypes: [], equipmentClasses: [],
    shiftModels: [], shifts: [], sites: [], areas: [], equipmentPools: [], equipment: [], structureSubscriptions: [],
    maintenanceCategories: [], counterTypes: [], counters: [], counterReadings: [], maintenanceTasks: [], maintenanceTaskTemplates: [],
    notifications: [], notificationAssignments: [], reports: [], workflows: [], workflowSteps: [], faqs: [], chatRooms: [],
    chatRoomMembers: [], chatMessages: [], costTypes: [], costs: [], attachments: [], subscriptions: [], billingInfos: [], orders: [], feedback: [],
  };
}
