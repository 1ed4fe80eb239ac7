/** Login field rules (spec part 2 §5 "Login texts"). Results are keys under `login.errors` in the i18n files. */
import { isValidEmail, PASSWORD_MIN_LENGTH } from '../../../shared/validation';

export type LoginField = 'email' | 'password';
export type LoginFieldError = 'emailRequired' | 'emailInvalid' | 'passwordRequired' | 'passwordTooShort';
export type LoginErrors = Partial<Record<LoginField, LoginFieldError>>;

export function validateLoginField(field: LoginField, value: string): LoginFieldError | undefined {
  if (field === 'email') {
    if (value.trim() === '') return 'emailRequired';
    return isValidEmail(value) ? undefined : 'emailInvalid';
  }
  if (value === '') return 'passwordRequired';
  return value.length < PASSWORD_MIN_LENGTH ? 'passwordTooShort' : undefined;
}

export function validateLogin(values: Record<LoginField, string>): LoginErrors {
  const errors: LoginErrors = {};
  for (const field of ['email', 'password'] as const) {
    const error = validateLoginField(field, values[field]);
    if (error) errors[field] = error;
  }
  return errors;
}
