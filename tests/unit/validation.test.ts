import { describe, expect, it } from 'vitest';
import { emailSchema } from '../../src/shared/api/auth';
import { isStrongPassword, isValidEmail, normalizeEmail } from '../../src/shared/validation';

describe('isValidEmail', () => {
  it.each(['max@firma.de', 'a.b-c+d@werk.muster-maschinenbau.de', '  admin@anlagenbuch.demo  '])('accepts %s', (email) => {
    expect(isValidEmail(email)).toBe(true);
  });
  it.each(['', 'max', 'max@', '@firma.de', 'max@firma', 'max @firma.de', 'max@firma..de', 'max@-firma.de'])('rejects %j', (email) => {
    expect(isValidEmail(email)).toBe(false);
  });
  // An attacker's probe: a login e-mail of a megabyte passed, and each failed login kept it as a rate-limit key.
  it('refuses an address longer than RFC 5321 allows (254)', () => {
    const at254 = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(58)}.de`;
    expect(at254).toHaveLength(254);
    expect(isValidEmail(at254)).toBe(true);
    expect(isValidEmail(`x${at254}`)).toBe(false);
    expect(isValidEmail(`${'a'.repeat(1_000_000)}@example.com`)).toBe(false);
  });
  it('is the rule the API applies too', () => {
    for (const email of ['max@firma.de', 'max@firma', 'max@firma..de', '', `${'a'.repeat(300)}@firma.de`]) {
      expect(emailSchema.safeParse(email).success, email).toBe(isValidEmail(email));
    }
  });
});

describe('normalizeEmail', () => {
  it('trims and lower-cases', () => {
    expect(normalizeEmail('  Admin@Anlagenbuch.DEMO ')).toBe('admin@anlagenbuch.demo');
  });
});

describe('isStrongPassword (spec part 2 §5)', () => {
  it.each(['Demo!2026', 'Abcdefgh', 'Passw0rd@#$%^&+!='])('accepts %s', (password) => {
    expect(isStrongPassword(password)).toBe(true);
  });
  it.each([
    ['Abc!234', 'shorter than 8'],
    ['abcdefgh1', 'no upper-case letter'],
    ['ABCDEFGH1', 'no lower-case letter'],
    ['Abcdefgh?', 'a character outside @#$%^&+!='],
    ['Abcd efgh', 'a space'],
  ])('rejects %s (%s)', (password) => {
    expect(isStrongPassword(password)).toBe(false);
  });
});
