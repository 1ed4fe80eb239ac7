import { EMAIL_MAX_LENGTH, isValidEmail } from '../validation';

/**
 * Sharing a notification by e-mail (spec part 1 §2.2, §5, §8): the recipient rule the dialog and the server share.
 *
 * §5 asks for a non-empty address holding both `@` and `.`. The rule here is that, narrowed to ONE address as a
 * browser's e-mail field accepts it (validation.ts): the server puts it into a mail header, so a comma, a
 * semicolon, a space or a line break (a second recipient, a header injection) must never pass.
 */
export const SHARE_EMAIL_ERROR = 'Please enter valid email address';
/** RFC 5321's longest forward path (the app's one e-mail rule, validation.ts). */
export const SHARE_EMAIL_MAX = EMAIL_MAX_LENGTH;
/** "Email sent!" hides after 4 s (§2.2, §9). */
export const SHARE_TOAST_MS = 4_000;

/** Whether `value` is a recipient the share accepts (surrounding spaces are ignored). */
export function isShareEmail(value: string): boolean {
  const address = value.trim();
  return address.length > 0 && address.length <= SHARE_EMAIL_MAX && address.includes('@') && address.includes('.') && isValidEmail(address);
}
