/**
 * The demo logins, shared by the seed, the server's start banner, the README and the e2e tests.
 * Only for the demo plant: never create these accounts outside it.
 */
export const DEMO_PASSWORD = 'Demo!2026';

export const DEMO_CLIENT_ID = 'muster-maschinenbau';
export const DEMO_ORGANISATION = 'Muster Maschinenbau GmbH';

export const DEMO_USERS = {
  admin: { email: 'admin@anlagenbuch.demo', profileid: 'admin', givenname: 'Katrin', surname: 'Bauer' },
  technician: { email: 'techniker@anlagenbuch.demo', profileid: 'technician', givenname: 'Jonas', surname: 'Weber' },
  reader: { email: 'leser@anlagenbuch.demo', profileid: 'reader', givenname: 'Sabine', surname: 'Krüger' },
} as const;

export type DemoRole = keyof typeof DEMO_USERS;

/** In the order the start banner lists them. */
export const DEMO_LOGINS: readonly { role: DemoRole; email: string; password: string }[] = (Object.keys(DEMO_USERS) as DemoRole[]).map((role) => ({
  role,
  email: DEMO_USERS[role].email,
  password: DEMO_PASSWORD,
}));
