/**
 * Every entity kind the client mirrors, in the order an initial sync applies them when versions tie (parents
 * before children). `data` of a change is the kind's row shape (`ROW_SCHEMAS` in src/shared/rows/registry.ts):
 * exactly its fields, times as epoch milliseconds, unset as null — what the device's mirror stores and what a
 * write route answers for that row. `units` and `attachmentcategories` are global reference data: sent only in a
 * pull from cursor 0, with version 0.
 *
 * Its own module without zod, so the pull page check (pull-page-check.ts), which runs in a Web Worker, does not
 * bring zod into the worker's bundle; sync.ts re-exports it.
 */
export const SYNC_KINDS = [
  'units',
  'attachmentcategories',
  'manufacturers',
  'users',
  'sites',
  'shiftmodels',
  'shifts',
  'areas',
  'equipmentpools',
  'subscriptions',
  'brands',
  'equipmenttypes',
  'equipmentclasses',
  'files',
  'equipment',
  'countertypes',
  'counters',
  'counterreadings',
  'maintenancecategories',
  'maintenancetasks',
  'notifications',
  'notificationassignments',
  'workflows',
  'workflowsteps',
  'faqs',
  'reports',
  'costtypes',
  'costs',
  'attachments',
  'chatrooms',
  'chatmessages',
] as const;
export type SyncKind = (typeof SYNC_KINDS)[number];
