import type { ProfileFeatures } from '../../shared/permissions';

/**
 * The authenticated caller, loaded from the database on every request (plugins/auth.ts) and decorated on the
 * request as `request.auth`. `features` is the caller's profile as it is now, not as it was at login.
 */
export interface AuthContext {
  usernodeid: string;
  legalentitynodeid: string;
  userid: string;
  /** The organisation's client id (legal_entities.clientid). */
  clientid: string;
  admin: boolean;
  superuser: boolean;
  profileid: string;
  features: ProfileFeatures;
}
