import { describe, expect, it } from 'vitest';
import {
  DOCUMENTATION_UPLOAD_GROUPS,
  UPLOAD_GROUPS,
  UPLOAD_TYPES,
  isAllowedUploadExtension,
  isAllowedUploadMimetype,
  isGenericMimetype,
  normalizeExtension,
} from '../../src/shared/domain/upload-types';

describe('upload types (§5)', () => {
  it.each(UPLOAD_GROUPS.map((group) => [group]))('group %s has at least one extension', (group) => {
    expect(Object.values(UPLOAD_TYPES).some((t) => t.group === group)).toBe(true);
  });

  it.each(Object.entries(UPLOAD_TYPES))('%s is allowed with its type %j', (extension, { mimetype, group }) => {
    expect(isAllowedUploadExtension(extension)).toBe(true);
    expect(isAllowedUploadExtension(`.${extension.toUpperCase()}`)).toBe(true);
    expect(isAllowedUploadMimetype(`${mimetype}; charset=utf-8`)).toBe(true);
    expect(isAllowedUploadExtension(extension, DOCUMENTATION_UPLOAD_GROUPS)).toBe(DOCUMENTATION_UPLOAD_GROUPS.includes(group));
  });

  it.each(['exe', 'js', 'html', 'zip', '', 'constructor', '__proto__'])('%j is refused', (extension) => {
    expect(isAllowedUploadExtension(extension)).toBe(false);
  });

  it('treats octet-stream and a missing type as generic', () => {
    expect(isGenericMimetype(undefined)).toBe(true);
    expect(isGenericMimetype('application/octet-stream')).toBe(true);
    expect(isGenericMimetype('application/pdf')).toBe(false);
    expect(isAllowedUploadMimetype('application/x-msdownload')).toBe(false);
    expect(normalizeExtension(' .PDF ')).toBe('pdf');
  });
});
