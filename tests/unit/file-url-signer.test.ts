import { describe, expect, it } from 'vitest';
import { createFileUrlSigner } from '../../src/server/storage/file-storage';

describe('signed file URLs', () => {
  const signer = createFileUrlSigner('test-secret-test-secret-test-secret-0123456789');
  const file = { fileid: '0196d3a4-0000-7000-8000-000000000001', fileversion: 1 };
  const exp = Date.UTC(2026, 10, 22, 10);

  it('verifies its own signature', () => {
    expect(signer.verify(file, 'PUT', exp, signer.sign(file, 'PUT', exp))).toBe(true);
  });

  it.each([
    ['another method', { ...file }, 'GET' as const, exp],
    ['another version', { ...file, fileversion: 2 }, 'PUT' as const, exp],
    ['another file', { ...file, fileid: '0196d3a4-0000-7000-8000-000000000002' }, 'PUT' as const, exp],
    ['another expiry', { ...file }, 'PUT' as const, exp + 1],
  ])('refuses the signature for %s', (_name, other, method, otherExp) => {
    expect(signer.verify(other, method, otherExp, signer.sign(file, 'PUT', exp))).toBe(false);
  });

  it('refuses garbage and signatures made with another secret', () => {
    expect(signer.verify(file, 'PUT', exp, 'abc')).toBe(false);
    expect(signer.verify(file, 'PUT', exp, '')).toBe(false);
    const other = createFileUrlSigner('another-secret-another-secret-another-secret');
    expect(signer.verify(file, 'PUT', exp, other.sign(file, 'PUT', exp))).toBe(false);
  });

  it.each([
    ['a trailing character', (sig: string) => `${sig}A`],
    ['trailing padding', (sig: string) => `${sig}=`],
    ['trailing garbage after a dot', (sig: string) => `${sig}.x`],
    ['the standard base64 alphabet', (sig: string) => Buffer.from(sig, 'base64url').toString('base64')],
    ['an inner character base64url decoding skips', (sig: string) => `${sig.slice(0, 10)}!${sig.slice(10)}`],
  ])('refuses a signature with %s (only the canonical base64url of the MAC verifies)', (_name, alter) => {
    const sig = signer.sign(file, 'PUT', exp);
    const altered = alter(sig);
    expect(altered).not.toBe(sig);
    expect(signer.verify(file, 'PUT', exp, altered)).toBe(false);
  });
});
