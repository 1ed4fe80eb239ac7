import type { ATTACHMENT_CATEGORIES } from '../../../shared/domain/attachment';
import { FREE_PLAN_ID } from '../../../shared/domain/billing';
import type { Db, Tx } from '../client';
import { attachmentCategories, plans, supportDocumentCategories, supportDocuments, supportFaqs, units } from '../schema';
import { simplePdf } from './demo-files';

// Global reference data every installation needs, demo or not: units, documentation categories, the plan
// catalogue and the help content. Ids are fixed so the rows are the same everywhere and inserting them again
// changes nothing.

/** A readable fixed id in UUID v4 layout: group and number show in the last block. */
function fixedId(group: number, n: number): string {
  return `00000000-0000-4000-8000-${group.toString(16).padStart(4, '0')}${n.toString(16).padStart(8, '0')}`;
}

export const UNIT_IDS = {
  eur: fixedId(1, 1),
  hour: fixedId(1, 2),
  piece: fixedId(1, 3),
  kilowattHour: fixedId(1, 4),
  kilometre: fixedId(1, 5),
  cubicMetre: fixedId(1, 6),
} as const;

export const UNIT_ROWS: (typeof units.$inferInsert)[] = [
  { nodeid: UNIT_IDS.eur, unitid: 'EUR', namespace: 'ISO 4217', symbol: '€', displayName: { singular: { de: 'Euro', en: 'euro' }, plural: { de: 'Euro', en: 'euros' } } },
  { nodeid: UNIT_IDS.hour, unitid: 'HUR', namespace: 'UNECE Rec 20', symbol: 'h', displayName: { singular: { de: 'Stunde', en: 'hour' }, plural: { de: 'Stunden', en: 'hours' } } },
  { nodeid: UNIT_IDS.piece, unitid: 'C62', namespace: 'UNECE Rec 20', symbol: 'Stk.', displayName: { singular: { de: 'Stück', en: 'piece' }, plural: { de: 'Stück', en: 'pieces' } } },
  { nodeid: UNIT_IDS.kilowattHour, unitid: 'KWH', namespace: 'UNECE Rec 20', symbol: 'kWh', displayName: { singular: { de: 'Kilowattstunde', en: 'kilowatt hour' }, plural: { de: 'Kilowattstunden', en: 'kilowatt hours' } } },
  { nodeid: UNIT_IDS.kilometre, unitid: 'KMT', namespace: 'UNECE Rec 20', symbol: 'km', displayName: { singular: { de: 'Kilometer', en: 'kilometre' }, plural: { de: 'Kilometer', en: 'kilometres' } } },
  { nodeid: UNIT_IDS.cubicMetre, unitid: 'MTQ', namespace: 'UNECE Rec 20', symbol: 'm³', displayName: { singular: { de: 'Kubikmeter', en: 'cubic metre' }, plural: { de: 'Kubikmeter', en: 'cubic metres' } } },
];

export const ATTACHMENT_CATEGORY_ROWS: (typeof attachmentCategories.$inferInsert & { categoryid: (typeof ATTACHMENT_CATEGORIES)[number] })[] = [
  { categoryid: 'operation', position: 1, name: { de: 'Bedienung', en: 'Operation' } },
  { categoryid: 'setup', position: 2, name: { de: 'Einrichtung', en: 'Setup' } },
  { categoryid: 'maintenance', position: 3, name: { de: 'Wartung', en: 'Maintenance' } },
  { categoryid: 'safety', position: 4, name: { de: 'Sicherheit', en: 'Safety' } },
  { categoryid: 'internalinstructions', position: 5, name: { de: 'Interne Anweisungen', en: 'Internal instructions' } },
];

export const PLAN_IDS = {
  free: fixedId(2, 1),
  starter: fixedId(2, 2),
  professional: fixedId(2, 3),
  enterprise: fixedId(2, 4),
} as const;

/** Spec part 2 §3 "Plans offered": 5 / 30 / 150 users at 250 / 450 / 960 EUR a month, 12 months, the second default. */
export const PLAN_ROWS: (typeof plans.$inferInsert)[] = [
  { nodeid: PLAN_IDS.free, planid: FREE_PLAN_ID, name: 'Testversion', pricepermonth: 0, maxusers: 5, term: '30d', position: 0, orderable: false, quotas: [{ type: 'USERS', quota: '5' }, { type: 'TERM', quota: '30d' }] },
  { nodeid: PLAN_IDS.starter, planid: 'starter', name: 'Starter', pricepermonth: 250, maxusers: 5, term: '12m', position: 1, quotas: [{ type: 'USERS', quota: '5' }, { type: 'TERM', quota: '12m' }] },
  { nodeid: PLAN_IDS.professional, planid: 'professional', name: 'Professional', pricepermonth: 450, maxusers: 30, term: '12m', position: 2, quotas: [{ type: 'USERS', quota: '30' }, { type: 'TERM', quota: '12m' }] },
  { nodeid: PLAN_IDS.enterprise, planid: 'enterprise', name: 'Enterprise', pricepermonth: 960, maxusers: 150, term: '12m', position: 3, quotas: [{ type: 'USERS', quota: '150' }, { type: 'TERM', quota: '12m' }] },
];

const SUPPORT_FAQS: { question: Record<string, string>; answer: Record<string, string> }[] = [
  {
    question: { de: 'Wie bekomme ich mehr Benutzer?', en: 'How do I get more users?' },
    answer: { de: 'Buchen Sie im Abo weitere Pakete oder wechseln Sie in einen größeren Tarif. Schreiben Sie uns dazu an den Kundenservice; die Änderung gilt ab dem nächsten Monat.', en: 'Book more packages or move to a larger plan. Write to customer service; the change applies from the next month.' },
  },
  {
    question: { de: 'Wie lege ich weitere Administratoren an?', en: 'How do I add more administrators?' },
    answer: { de: 'Legen Sie unter Benutzer einen neuen Benutzer mit der Rolle Admin an. Bestehende Benutzer können Sie über Bearbeiten auf die Rolle Admin umstellen.', en: 'Create a new user with the role Admin under Users. Existing users can be switched to Admin via Edit.' },
  },
  {
    question: { de: 'An wen wende ich mich bei technischen Fragen?', en: 'Whom do I contact with technical questions?' },
    answer: { de: 'Unser Kundenservice ist Montag bis Freitag von 09:00 bis 18:00 Uhr erreichbar, per E-Mail an support@anlagenbuch.demo oder über das Feedback-Formular.', en: 'Customer service is available Monday to Friday, 09:00 to 18:00, by e-mail to support@anlagenbuch.demo or via the feedback form.' },
  },
  {
    question: { de: 'Wie ändere ich die Daten meines eigenen Kontos?', en: 'How do I change my own account details?' },
    answer: { de: 'Öffnen Sie oben rechts Ihr Profil. Dort ändern Sie persönliche Daten, Passwort, Zwei-Faktor-Anmeldung und die Ihnen zugeordneten Anlagen.', en: 'Open your profile at the top right to change personal data, password, two-factor login and your assigned equipment.' },
  },
  {
    question: { de: 'Wie kündige ich mein Abo?', en: 'How do I cancel my subscription?' },
    answer: { de: 'Die Kündigung ist mit einem Monat Frist zum Ende der Laufzeit möglich. Eine formlose E-Mail an den Kundenservice genügt.', en: 'You can cancel with one month notice to the end of the term. An informal e-mail to customer service is enough.' },
  },
  {
    question: { de: 'Funktioniert Anlagenbuch ohne WLAN in der Halle?', en: 'Does Anlagenbuch work without Wi-Fi in the hall?' },
    answer: { de: 'Ja. Meldungen, Zählerstände und Berichte werden auf dem Tablet gespeichert und automatisch übertragen, sobald wieder eine Verbindung besteht. Die Zahl der noch nicht übertragenen Änderungen sehen Sie in der Kopfzeile.', en: 'Yes. Notifications, counter readings and reports are stored on the tablet and sent automatically once a connection is back. The header shows how many changes are still pending.' },
  },
];

const SUPPORT_CATEGORY_IDS = { start: fixedId(3, 1), manuals: fixedId(3, 2) } as const;

interface SupportDocument {
  nodeid: string;
  categorynodeid: string;
  title: Record<string, string>;
  storagekey: string;
  lines: string[];
}

const SUPPORT_DOCUMENTS: SupportDocument[] = [
  {
    nodeid: fixedId(3, 101),
    categorynodeid: SUPPORT_CATEGORY_IDS.start,
    title: { de: 'Schnellstart: Die ersten zehn Minuten', en: 'Quick start: the first ten minutes' },
    storagekey: 'support/schnellstart.pdf',
    lines: ['1. Standort und Bereiche anlegen (Menü Standorte).', '2. Equipment Pools für mobile Geräte anlegen.', '3. Benutzer einladen und Rollen vergeben.', '4. Anlagen erfassen: Marke, Typ, Baujahr, Foto und Typenschild.', '5. Servicesticker mit QR-Code drucken und an der Anlage anbringen.', '6. Wartungsaufgaben und Zähler je Anlage einrichten.'],
  },
  {
    nodeid: fixedId(3, 102),
    categorynodeid: SUPPORT_CATEGORY_IDS.start,
    title: { de: 'Arbeiten ohne Netz', en: 'Working offline' },
    storagekey: 'support/offline.pdf',
    lines: ['Anlagenbuch speichert alle Eingaben zuerst auf dem Gerät.', 'Ohne Verbindung erscheint ein Hinweis mit der Zahl offener Änderungen.', 'Sobald das Gerät wieder online ist, werden die Änderungen in der', 'Reihenfolge ihrer Eingabe übertragen. Vor dem Abmelden warnt die App,', 'wenn noch Änderungen ausstehen.'],
  },
  {
    nodeid: fixedId(3, 201),
    categorynodeid: SUPPORT_CATEGORY_IDS.manuals,
    title: { de: 'Handbuch für Techniker', en: 'Technician manual' },
    storagekey: 'support/handbuch-techniker.pdf',
    lines: ['Meldung erfassen: QR-Code scannen, Typ wählen, Titel und Beschreibung.', 'Maßnahme dokumentieren: in der Meldung „Lösung hinzufügen“.', 'Wartung durchführen: „Jetzt durchführen“, Aufwand erfassen, unterschreiben.', 'Zählerstand erfassen: Reiter Zähler, Stift-Symbol, Wert eingeben.'],
  },
  {
    nodeid: fixedId(3, 202),
    categorynodeid: SUPPORT_CATEGORY_IDS.manuals,
    title: { de: 'Handbuch für Administratoren', en: 'Administrator manual' },
    storagekey: 'support/handbuch-administratoren.pdf',
    lines: ['Benutzerverwaltung: Benutzer anlegen, deaktivieren, Rollen zuweisen.', 'Rollen legen je Funktion fest, wer anlegen, lesen, ändern, löschen darf.', 'Abo: Tarif, Laufzeit, Kündigungsfrist und Rechnungsdaten im Reiter IHR ABO.'],
  },
];

export interface ReferenceDataOptions {
  /** When given, the help documents' bytes are written too. */
  storage?: { put(key: string, bytes: Uint8Array, mimetype: string): Promise<void> } | undefined;
}

/**
 * Inserts the global reference data; rows that exist are left as they are, so this runs safely at every
 * start and inside the demo seed.
 */
export async function seedReferenceData(db: Db | Tx, options: ReferenceDataOptions = {}): Promise<void> {
  await db.insert(units).values(UNIT_ROWS).onConflictDoNothing();
  await db.insert(attachmentCategories).values(ATTACHMENT_CATEGORY_ROWS).onConflictDoNothing();
  await db.insert(plans).values(PLAN_ROWS).onConflictDoNothing();
  await db.insert(supportFaqs).values(SUPPORT_FAQS.map((faq, i) => ({ nodeid: fixedId(4, i + 1), position: i + 1, ...faq }))).onConflictDoNothing();
  await db.insert(supportDocumentCategories).values([
    { nodeid: SUPPORT_CATEGORY_IDS.start, position: 1, name: { de: 'Erste Schritte', en: 'Getting started' } },
    { nodeid: SUPPORT_CATEGORY_IDS.manuals, position: 2, name: { de: 'Handbücher', en: 'Manuals' } },
  ]).onConflictDoNothing();
  await db.insert(supportDocuments).values(SUPPORT_DOCUMENTS.map((doc, i) => ({
    nodeid: doc.nodeid,
    categorynodeid: doc.categorynodeid,
    title: doc.title,
    mimetype: 'application/pdf',
    storagekey: doc.storagekey,
    position: i + 1,
  }))).onConflictDoNothing();
  if (options.storage) {
    for (const doc of SUPPORT_DOCUMENTS) {
      await options.storage.put(doc.storagekey, simplePdf(doc.title.de ?? '', doc.lines), 'application/pdf');
    }
  }
}
