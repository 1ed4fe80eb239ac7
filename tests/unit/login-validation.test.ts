import { describe, expect, it } from 'vitest';
import { validateLogin, validateLoginField } from '../../src/client/features/auth/login-validation';

describe('login validation (spec part 2 §5)', () => {
  it.each([
    ['', 'emailRequired'],
    ['   ', 'emailRequired'],
    ['techniker', 'emailInvalid'],
    ['techniker@', 'emailInvalid'],
    ['techniker@anlagenbuch', 'emailInvalid'],
    ['techniker@anlagenbuch.demo', undefined],
    ['  Techniker@Anlagenbuch.demo ', undefined],
  ])('e-mail %j → %s', (value, expected) => {
    expect(validateLoginField('email', value)).toBe(expected);
  });

  it.each([
    ['', 'passwordRequired'],
    ['1234567', 'passwordTooShort'],
    ['12345678', undefined],
    ['Demo!2026', undefined],
  ])('password %j → %s', (value, expected) => {
    expect(validateLoginField('password', value)).toBe(expected);
  });

  it('reports both fields at once', () => {
    expect(validateLogin({ email: '', password: '' })).toEqual({ email: 'emailRequired', password: 'passwordRequired' });
    expect(validateLogin({ email: 'a@b.de', password: 'longenough' })).toEqual({});
  });
});
