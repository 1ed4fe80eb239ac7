import { describe, expect, it } from 'vitest';
import { can, FEATURE_KEYS, isFeatureKey, PERMISSION_FLAGS, type FlagTuple, type PermissionFlag } from '../../src/shared/permissions';

const only = (flag: PermissionFlag): FlagTuple => PERMISSION_FLAGS.map((f) => f === flag) as unknown as FlagTuple;

describe('can()', () => {
  const cases = FEATURE_KEYS.flatMap((feature) => PERMISSION_FLAGS.map((flag) => [feature, flag] as const));

  it.each(cases)('%s:%s is granted by exactly its own flag, in the spec order create, read, update, delete', (feature, flag) => {
    for (const granted of PERMISSION_FLAGS) {
      const subject = { admin: false, features: { [feature]: only(granted) } };
      expect(can(subject, feature, flag)).toBe(granted === flag);
    }
  });

  it.each(cases)('%s:%s is denied when the profile lacks the feature', (feature, flag) => {
    expect(can({ admin: false, features: {} }, feature, flag)).toBe(false);
  });

  it.each(cases)('%s:%s is granted to an admin whatever the profile says', (feature, flag) => {
    expect(can({ admin: true, features: { [feature]: [false, false, false, false] } }, feature, flag)).toBe(true);
  });

  it('knows its feature keys', () => {
    expect(FEATURE_KEYS.every(isFeatureKey)).toBe(true);
    expect(isFeatureKey('equipment.unknown')).toBe(false);
  });
});
