/** Field rules shared by forms and routes. Error texts are i18n keys, resolved by the client. */

export const PASSWORD_MIN_LENGTH = 8;

// why this shape: the spec only says "invalid e-mail format"; this is the WHATWG input[type=email] rule,
// which is what a browser form would accept, so client and server agree with the platform.
const EMAIL_PATTERN = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/;

/** RFC 5321's longest forward path: no real address is longer, and a login's e-mail is a key the server keeps. */
export const EMAIL_MAX_LENGTH = 254;

export function isValidEmail(value: string): boolean {
  const address = value.trim();
  return address.length <= EMAIL_MAX_LENGTH && EMAIL_PATTERN.test(address);
}

export function normalizeEmail(value: string): string {
  return value.trim().toLowerCase();
}

/** Profile password rule (part 2 §5): ≥ 8, one upper, one lower, only letters, digits and @#$%^&+!=. */
export function isStrongPassword(value: string): boolean {
  return value.length >= PASSWORD_MIN_LENGTH && /[A-Z]/.test(value) && /[a-z]/.test(value) && /^[A-Za-z0-9@#$%^&+!=]+$/.test(value);
}
