import { z } from 'zod';

/** Every API error has this body (docs/api.md § Errors). */
export const apiErrorSchema = z.object({
  statusCode: z.number().int(),
  error: z.string(),
  message: z.string(),
  details: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
});
export type ApiError = z.infer<typeof apiErrorSchema>;

/** Fixed texts the spec names. */
export const ACCESS_DENIED_MESSAGE = 'Zugriff verwehrt!';

/** Login with a wrong e-mail or password (part 2 §5 "Login texts"). */
export const LOGIN_FAILED_MESSAGE = 'E-Mail und Passwort stimmen nicht überein.';
/** Login of a deactivated account (part 2 §4: "403 sets 'Access Denied'"). */
export const ACCOUNT_INACTIVE_MESSAGE = 'Access Denied';
