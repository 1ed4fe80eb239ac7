import type { ProfileFeatures } from '../../shared/permissions';
import type { MadeOnDevice } from '../services/service-context';

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
  /**
   * The tenant's change state when the caller was loaded: its committed change version and the version row's
   * transaction id (`version:xmin`), read in the same statement as the caller. Every write of the tenant's rows
   * takes the next version (services/change-feed.ts), so an answer built from rows read after this is at least
   * as new as this state, and another state means something may have changed (routes/versioned-answer.ts).
   */
  tenantstate: string;
  /**
   * The session of the request's access token: its `sid` claim, the refresh-token family of the login (null for a
   * token from before tokens carried it). The auth query found that family alive and the caller's; logout ends it.
   */
  sid: string | null;
  /** A queued write's X-Made-At (see `Actor.madeAt`), set by plugins/mutation-log.ts. */
  madeAt?: MadeOnDevice | undefined;
}
