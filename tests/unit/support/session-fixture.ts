/** A login answer (sessionSchema) for client unit tests; override what a test cares about. */
import type { Session } from '../../../src/shared/api/auth';

const PROFILE_ID = 'technician';

export function sessionFixture(overrides: Partial<Session> = {}): Session {
  return {
    accesstoken: 'access-token-1',
    refreshtoken: 'refresh-token-1',
    legalentitynodeid: '0190f5a0-0000-7000-8000-000000000001',
    usernodeid: '0190f5a0-0000-7000-8000-000000000002',
    userid: 'u-1001',
    clientid: 'client-1',
    clientinfo: { name: 'Muster Metallbau GmbH', clienttype: 'company' },
    appid: 'anlagenbuch',
    superuser: false,
    userType: 'user',
    autologoutweb: false,
    twoFa: false,
    twoFaGenerated: false,
    userinfo: { admin: false, profileid: PROFILE_ID, givenname: 'Jonas', surname: 'Becker', email: 'jonas.becker@muster-metallbau.de' },
    profiles: [
      {
        id: PROFILE_ID,
        nodeid: '0190f5a0-0000-7000-8000-000000000003',
        name: { de: 'Techniker', en: 'Technician' },
        features: { equipment: [false, true, true, false], user: [false, true, false, false] },
      },
      {
        id: 'admin',
        nodeid: '0190f5a0-0000-7000-8000-000000000004',
        name: { de: 'Administrator', en: 'Administrator' },
        features: { user: [true, true, true, true] },
      },
    ],
    plans: [],
    baseinfo: { organisation: 'Muster Metallbau GmbH', lang: 'de' },
    billinginfo: null,
    ...overrides,
  };
}
