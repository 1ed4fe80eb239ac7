/**
 * Permission model of the spec (part 1 §6, part 2 §6): a profile grants, per feature key, four flags in the
 * order create, read, update, delete. The server enforces these; the client only mirrors them to hide controls.
 */
export const FEATURE_KEYS = [
  'equipment',
  'equipment.attachment',
  'equipment.faq',
  'equipment.maintenancetask',
  'equipment.counter',
  'notification',
  'notification.workflow',
  'notification.report',
  'notification.cost',
  'site',
  'equipmentpool',
  'export',
  'user',
  'subscription',
] as const;
export type FeatureKey = (typeof FEATURE_KEYS)[number];

export const PERMISSION_FLAGS = ['create', 'read', 'update', 'delete'] as const;
export type PermissionFlag = (typeof PERMISSION_FLAGS)[number];

/** Flags in spec order: [create, read, update, delete]. */
export type FlagTuple = readonly [boolean, boolean, boolean, boolean];
export type ProfileFeatures = Partial<Record<FeatureKey, FlagTuple>>;

const FLAG_INDEX: Record<PermissionFlag, 0 | 1 | 2 | 3> = { create: 0, read: 1, update: 2, delete: 3 };

export interface PermissionSubject {
  admin: boolean;
  features: ProfileFeatures;
}

/** One flag of one feature: what a route or an action needs. */
export interface FeatureFlag {
  feature: FeatureKey;
  flag: PermissionFlag;
}

/**
 * What a route needs: one flag, or any one of several (`anyOf`: a file registration serves every write that takes a
 * file, so any one of those lets the caller upload).
 */
export type Permission = FeatureFlag | { anyOf: readonly FeatureFlag[] };

/** Whether `subject` holds `permission` (`can` for one flag, any one for `anyOf`). */
export function permits(subject: PermissionSubject, permission: Permission): boolean {
  if ('anyOf' in permission) return permission.anyOf.some(({ feature, flag }) => can(subject, feature, flag));
  return can(subject, permission.feature, permission.flag);
}

/** Admins hold every permission of their own legal entity; everyone else only what the profile grants. */
export function can(subject: PermissionSubject, feature: FeatureKey, flag: PermissionFlag): boolean {
  if (subject.admin) return true;
  const flags = subject.features[feature];
  return flags ? flags[FLAG_INDEX[flag]] : false;
}

export const ALL: FlagTuple = [true, true, true, true];
export const READ_ONLY: FlagTuple = [false, true, false, false];
export const NONE: FlagTuple = [false, false, false, false];

export function isFeatureKey(value: string): value is FeatureKey {
  return (FEATURE_KEYS as readonly string[]).includes(value);
}
