import type { FeedbackSubject } from '../../../../shared/domain/feedback';
import { DEMO_CLIENT_ID, DEMO_ORGANISATION } from '../demo-users';
import { PLAN_IDS, PLAN_ROWS } from '../reference-data';
import { DAY_MS, type DemoContext } from './context';
import { type Organisation, personByKey } from './build-organisation';

/**
 * The organisation tried the product for 30 days, then ordered the Professional plan (30 users) for 12 months;
 * billing data and the order are on file. Plus a few messages from the feedback form.
 */
export function buildBilling(ctx: DemoContext, organisation: Organisation): void {
  const { tables } = ctx;
  const admin = personByKey(organisation.people, 'admin');
  const trialStart = new Date(ctx.setupAt.getTime() - 30 * DAY_MS);
  const professional = PLAN_ROWS.find((p) => p.nodeid === PLAN_IDS.professional)!;
  const free = PLAN_ROWS.find((p) => p.nodeid === PLAN_IDS.free)!;

  tables.subscriptions.push({ ...ctx.row(trialStart), plannodeid: PLAN_IDS.free, subscriptionid: 'ABO-2025-00417-T', term: free.term, quotas: free.quotas, packages: 1, startingfrom: trialStart, noticeperiod: '0d', status: 'expired', autorenew: false });
  tables.subscriptions.push({ ...ctx.row(ctx.setupAt), plannodeid: PLAN_IDS.professional, subscriptionid: 'ABO-2025-00417', term: professional.term, quotas: professional.quotas, packages: 1, startingfrom: ctx.setupAt, noticeperiod: '1m', status: 'active', autorenew: true });

  tables.billingInfos.push({
    ...ctx.row(ctx.setupAt),
    billingname: DEMO_ORGANISATION,
    billingstreet: 'Siemensstraße',
    billingstreetnumber: '42',
    billingaddressaddon: 'Kreditorenbuchhaltung',
    billingzipcode: '70469',
    billingcity: 'Stuttgart',
    billingcountry: 'DE',
    billingbillingemail: 'rechnungseingang@muster-maschinenbau.de',
    invoicebyemail: true,
  });

  const orderedAt = new Date(ctx.setupAt.getTime() - 2 * DAY_MS);
  tables.orders.push({
    ...ctx.row(orderedAt),
    ordernumber: 48213,
    plannodeid: PLAN_IDS.professional,
    packages: 1,
    sumpermonth: professional.pricepermonth,
    status: 'confirmed',
    documentsdueat: new Date(orderedAt.getTime() + 30 * DAY_MS),
    orderedbynodeid: admin.nodeid,
    payload: {
      companyName: DEMO_ORGANISATION,
      address: 'Kreditorenbuchhaltung',
      streetHouseNumber: 'Siemensstraße 42',
      country: { label: 'Deutschland', value: 'DE' },
      zipCode: '70469',
      city: 'Stuttgart',
      invoiceEmail: 'rechnungseingang@muster-maschinenbau.de',
      billEmail: 'rechnungseingang@muster-maschinenbau.de',
      firstName: admin.givenname,
      lastName: admin.surname,
      department: 'Leitung Instandhaltung',
      telephoneNumber: '+49 711 5550 170',
      email: 'admin@anlagenbuch.demo',
      userEmail: 'admin@anlagenbuch.demo',
      clientid: DEMO_CLIENT_ID,
      planTitle: professional.name,
      cost: professional.pricepermonth,
      userNumber: professional.maxusers,
      sumPerMonth: professional.pricepermonth,
    },
  });

  const feedback: { person: string; subject: FeedbackSubject; body: string; daysAgo: number }[] = [
    { person: 'technician', subject: 'features', body: 'Schön wäre ein Filter „nur meine Meldungen“ auf dem Planungsboard.', daysAgo: 95 },
    { person: 'nowak', subject: 'operation', body: 'Der QR-Scan klappt in der Spritzgießerei bei schlechtem Licht nur mit Taschenlampe. Geht das mit höherem Kontrast auf dem Sticker?', daysAgo: 41 },
    { person: 'admin', subject: 'general', body: 'Die Offline-Funktion hat sich in Halle 2 bewährt, danke!', daysAgo: 12 },
  ];
  for (const entry of feedback) {
    tables.feedback.push({ ...ctx.row(ctx.workTime(entry.daysAgo)), subject: entry.subject, body: entry.body, usernodeid: personByKey(organisation.people, entry.person).nodeid });
  }
}
