import { describe, expect, it } from 'vitest';
import { logSerializers, maskUrl } from '../../src/server/logging';

describe('maskUrl', () => {
  it.each([
    ['/set-password/abc123secret', '/set-password/[redacted]'],
    ['/api/users/set-password/abc123secret?x=1', '/api/users/set-password/[redacted]?x=1'],
    ['/api/files/upload/0192?exp=1700000000&sig=deadbeef', '/api/files/upload/0192?exp=1700000000&sig=[redacted]'],
    ['/api/health?token=SECRETQ&lang=de', '/api/health?token=[redacted]&lang=de'],
    ['/api/sites?lang=de', '/api/sites?lang=de'],
    ['/dashboard', '/dashboard'],
  ])('%s → %s', (url, masked) => {
    expect(maskUrl(url)).toBe(masked);
  });
});

describe('error serializer', () => {
  it('drops the bound values of a failed query from message, stack, params and cause', () => {
    const secret = 'f0e1d2c3b4a5-token-hash';
    const cause = Object.assign(new Error(`Failed query: select 1\nparams: ${secret}`), { params: [secret] });
    const error = Object.assign(new Error(`Failed query: select * from refresh_tokens where token_hash = $1\nparams: ${secret}`), { params: [secret], cause });
    const serialized = JSON.stringify(logSerializers.err(error));
    expect(serialized).not.toContain(secret);
    expect(serialized).toContain('Failed query: select * from refresh_tokens');
  });
});
