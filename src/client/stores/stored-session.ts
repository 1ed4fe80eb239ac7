/**
 * The persisted shape of the session and how it is built from the login answer. Its own module because it needs
 * zod and the shared auth schemas: the session store loads it only when a stored session exists or a login
 * succeeds, so the first route (/login for a guest) loads neither (docs/client.md § What loads when).
 */
// why first: zod runs jitless under the CSP (src/client/lib/zod-config.ts); this import keeps that module in the
// bundle, and vite.config.ts puts it into zod's own chunk, so it runs whenever zod is loaded, from any chunk.
import '../lib/zod-config';
import { z } from 'zod';
import { planSchema, profileSchema, sessionSchema, type Session } from '../../shared/api/auth';
import { computeTrialState } from '../../shared/domain/trial';

/** What is persisted. `v` changes when the shape does; an older blob is then discarded (log in again). */
export const storedSessionSchema = sessionSchema
  .pick({
    accesstoken: true,
    refreshtoken: true,
    usernodeid: true,
    userid: true,
    legalentitynodeid: true,
    clientid: true,
    clientinfo: true,
    superuser: true,
    autologoutweb: true,
    userinfo: true,
    baseinfo: true,
  })
  .extend({
    v: z.literal(1),
    plans: z.array(planSchema),
    /** Trial days left (shared/domain/trial.ts); null without a free plan. */
    daysLeft: z.number().int().nullable(),
    /** The user's general chat room (GET /api/chatrooms), loaded after login; null until known. */
    chatroomnodeid: z.string().nullable(),
    /** The profile chosen from the login's `profiles` by `userinfo.profileid`; null if it was missing. */
    profile: profileSchema.nullable(),
  });
export type StoredSession = z.infer<typeof storedSessionSchema>;

/** Builds the stored session from the login answer. */
export function toStoredSession(session: Session, now: number = Date.now()): StoredSession {
  const { daysLeft } = computeTrialState(session.plans, now);
  return {
    v: 1,
    accesstoken: session.accesstoken,
    refreshtoken: session.refreshtoken,
    usernodeid: session.usernodeid,
    userid: session.userid,
    legalentitynodeid: session.legalentitynodeid,
    clientid: session.clientid,
    clientinfo: session.clientinfo,
    superuser: session.superuser,
    autologoutweb: session.autologoutweb,
    userinfo: session.userinfo,
    baseinfo: session.baseinfo,
    plans: session.plans,
    daysLeft,
    chatroomnodeid: null,
    profile: session.profiles.find((profile) => profile.id === session.userinfo.profileid) ?? null,
  };
}

/** The stored value when it has the current shape, else null. */
export function parseStoredSession(raw: unknown): StoredSession | null {
  const parsed = storedSessionSchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
}
