import type { AttachmentCategory } from '../../../../shared/domain/attachment';
import type { ReminderOption, RepetitionInterval } from '../../../../shared/domain/maintenance';
import type { MachineKind } from './catalog';

// Routine maintenance, FAQs and machine documents of the demo plant.

/** Index into the tenant's default maintenance categories (tenant-defaults.ts order). */
export const CATEGORY = { inspection: 0, servicing: 1, statutory: 2, lubrication: 3, cleaning: 4, calibration: 5 } as const;
export type CategoryKey = keyof typeof CATEGORY;

export interface TaskText {
  title: string;
  interval: RepetitionInterval;
  reminder: ReminderOption | null;
  category: CategoryKey;
  safetynotice?: string;
  steps: string[];
  /** Counter-triggered: every `every` operating hours. */
  counter?: { every: number };
  /** Planned hours of own staff and planned external cost, booked as planned costs. */
  plannedHours?: number;
  external?: { name: string; price: [number, number] };
  parts?: { name: string; price: [number, number] };
}

const LOTO = 'Maschine ausschalten und am Hauptschalter mit persönlichem Schloss sichern (LOTO). Restenergie (Hydraulik, Druckluft) abbauen.';

const ECHECK: TaskText = { title: 'Elektroprüfung nach DGUV Vorschrift 3', interval: '24m', reminder: '1m', category: 'statutory', safetynotice: 'Prüfung nur durch Elektrofachkraft.', steps: ['Sichtprüfung Schaltschrank und Leitungen.', 'Schutzleiter- und Isolationsmessung.', 'Prüfprotokoll ablegen, Plakette erneuern.'], plannedHours: 2, external: { name: 'Prüfdienst Elektro', price: [180, 320] } };

export const TASKS_BY_KIND: Record<MachineKind, TaskText[]> = {
  millingCenter: [
    { title: 'Zentralschmierung auffüllen und prüfen', interval: '1m', reminder: '1w', category: 'lubrication', steps: ['Füllstand prüfen, Öl CGLP 68 nachfüllen.', 'Schmierimpuls manuell auslösen, Austritt an allen Stellen prüfen.'], plannedHours: 0.5, parts: { name: 'Schmieröl CGLP 68, 5 l', price: [35, 55] } },
    { title: 'KSS wechseln und Tank reinigen', interval: '6m', reminder: '2w', category: 'cleaning', safetynotice: 'Schutzhandschuhe und Schutzbrille tragen. KSS-Altemulsion nur über Entsorgungsfirma.', steps: ['Emulsion absaugen lassen.', 'Tank und Späneförderer reinigen, System mit Reiniger spülen.', 'Neu ansetzen auf 7 %, Konzentration dokumentieren.'], plannedHours: 6, parts: { name: 'KSS-Konzentrat 60 l', price: [380, 520] } },
    { title: 'Spindel-Rundlauf und Geometrie prüfen', interval: '12m', reminder: '1m', category: 'calibration', steps: ['Rundlauf Spindel mit Prüfdorn messen.', 'Kreisformtest mit Ballbar.', 'Ergebnisse mit Abnahmeprotokoll vergleichen.'], plannedHours: 4 },
    { title: 'Herstellerwartung nach Betriebsstunden', interval: 'onetime', reminder: null, category: 'servicing', counter: { every: 2000 }, steps: ['Wartung nach Herstellerplan Stufe 2000 h.'], plannedHours: 8 },
    ECHECK,
  ],
  lathe: [
    { title: 'Hydraulik Spannfutter prüfen', interval: '3m', reminder: '1w', category: 'inspection', safetynotice: LOTO, steps: ['Spanndruck messen.', 'Futter reinigen und abschmieren.'], plannedHours: 1 },
    { title: 'KSS wechseln und Tank reinigen', interval: '6m', reminder: '2w', category: 'cleaning', steps: ['Emulsion absaugen lassen.', 'Tank reinigen, neu ansetzen auf 6 %.'], plannedHours: 4 },
    ECHECK,
  ],
  laserCutter: [
    { title: 'Schutzglas und Düse prüfen', interval: '2w', reminder: '2d', category: 'inspection', steps: ['Schutzglas ausbauen und gegen Licht prüfen.', 'Düse zentrieren.'], plannedHours: 0.25 },
    { title: 'Absaugfilter wechseln', interval: '3m', reminder: '1w', category: 'servicing', safetynotice: 'Staubmaske FFP3 tragen. Filterstaub ist gesundheitsschädlich.', steps: ['Filterpatronen wechseln.', 'Staubsammelbehälter leeren.'], plannedHours: 1.5, parts: { name: 'Filterpatronen Satz', price: [420, 690] } },
    { title: 'Jahreswartung Laseranlage', interval: '12m', reminder: '1m', category: 'servicing', steps: ['Wartung durch TRUMPF Service.', 'Strahlführung und Kühlkreis prüfen.'], plannedHours: 4, external: { name: 'TRUMPF Service Jahreswartung', price: [2400, 3600] } },
  ],
  pressBrake: [
    { title: 'Sicherheitsprüfung Lichtvorhang und Nachlauf', interval: '12m', reminder: '1m', category: 'statutory', safetynotice: 'Prüfung nur durch befähigte Person nach BetrSichV.', steps: ['Nachlaufmessung.', 'Prüfung Lichtvorhang mit Prüfstab.', 'Eintrag ins Prüfbuch.'], plannedHours: 2, external: { name: 'Sachverständiger Pressenprüfung', price: [380, 560] } },
    { title: 'Hydrauliköl-Analyse', interval: '12m', reminder: '2w', category: 'inspection', steps: ['Ölprobe ziehen und ans Labor senden.'], plannedHours: 0.5, external: { name: 'Öllabor Analyse', price: [60, 95] } },
  ],
  punchPress: [
    { title: 'Werkzeugaufnahme reinigen und schmieren', interval: '1m', reminder: '1w', category: 'lubrication', steps: ['Revolverstationen reinigen.', 'Führungen schmieren.'], plannedHours: 1 },
    { title: 'Sicherheitsprüfung Stanzmaschine', interval: '12m', reminder: '1m', category: 'statutory', steps: ['Schutzeinrichtungen prüfen.', 'Eintrag ins Prüfbuch.'], plannedHours: 2, external: { name: 'Sachverständiger', price: [320, 480] } },
  ],
  robot: [
    { title: 'Sicherheitsprüfung Schutzzaun und Türschalter', interval: '6m', reminder: '2w', category: 'statutory', steps: ['Türschalter und Not-Halt auslösen.', 'Sichere Geschwindigkeit T1 prüfen.'], plannedHours: 1 },
    { title: 'Getriebeöl wechseln', interval: '48m', reminder: '1m', category: 'servicing', safetynotice: LOTO, steps: ['Öl der Achsen 1–3 wechseln.', 'Füllmengen nach KUKA-Dokumentation.'], plannedHours: 5, parts: { name: 'Getriebeöl Optigear 150, 10 l', price: [210, 320] } },
  ],
  compressor: [
    { title: 'Kondensatableiter prüfen', interval: '1m', reminder: '1w', category: 'inspection', steps: ['Testtaste drücken, Ablauf prüfen.'], plannedHours: 0.25 },
    { title: 'Öl, Ölfilter und Abscheider wechseln', interval: 'onetime', reminder: null, category: 'servicing', counter: { every: 4000 }, steps: ['Öl Roto-Inject wechseln.', 'Ölfilter und Abscheider ersetzen.'], plannedHours: 3, parts: { name: 'Servicekit 4000 h', price: [480, 760] } },
    { title: 'Innere Prüfung Druckbehälter', interval: '48m', reminder: '1m', category: 'statutory', safetynotice: 'Behälter drucklos machen und gegen Wiedereinschalten sichern.', steps: ['Prüfung durch ZÜS.'], plannedHours: 3, external: { name: 'ZÜS Druckbehälterprüfung', price: [420, 650] } },
  ],
  dryer: [{ title: 'Verflüssiger reinigen', interval: '6m', reminder: '2w', category: 'cleaning', steps: ['Lamellen ausblasen.', 'Taupunkt kontrollieren.'], plannedHours: 0.5 }],
  hydraulicUnit: [
    { title: 'Hydraulikfilter wechseln', interval: '6m', reminder: '2w', category: 'servicing', safetynotice: LOTO, steps: ['Filterelement wechseln.', 'Verschmutzungsanzeige zurücksetzen.'], plannedHours: 1, parts: { name: 'Filterelement 10 µm', price: [65, 140] } },
    { title: 'Hydraulikschläuche prüfen', interval: '12m', reminder: '1m', category: 'inspection', steps: ['Schläuche auf Risse, Alter (Herstelldatum) prüfen.'], plannedHours: 1 },
  ],
  forklift: [
    { title: 'Sichtprüfung vor Schichtbeginn (Wochenprotokoll)', interval: '1w', reminder: '2d', category: 'inspection', steps: ['Gabeln, Ketten, Bremsen, Hupe, Beleuchtung prüfen.'], plannedHours: 0.25 },
    { title: 'UVV-Prüfung nach DGUV Vorschrift 68', interval: '12m', reminder: '1m', category: 'statutory', steps: ['Prüfung durch Sachkundigen.', 'Prüfplakette erneuern.'], plannedHours: 1, external: { name: 'Jungheinrich Kundendienst UVV', price: [140, 220] } },
    { title: 'Batteriepflege', interval: '1m', reminder: '1w', category: 'servicing', safetynotice: 'Säureschutzbrille und Handschuhe tragen. Laden nur im belüfteten Ladebereich.', steps: ['Säurestand prüfen, destilliertes Wasser nachfüllen.', 'Pole reinigen.'], plannedHours: 0.5 },
  ],
  reachTruck: [{ title: 'UVV-Prüfung nach DGUV Vorschrift 68', interval: '12m', reminder: '1m', category: 'statutory', steps: ['Prüfung durch Sachkundigen.'], plannedHours: 1, external: { name: 'Jungheinrich Kundendienst UVV', price: [140, 220] } }],
  palletTruck: [{ title: 'UVV-Prüfung nach DGUV Vorschrift 68', interval: '12m', reminder: '1m', category: 'statutory', steps: ['Prüfung durch Sachkundigen.'], plannedHours: 0.5 }],
  injectionMolding: [
    { title: 'Werkzeugtemperiergerät entkalken', interval: '3m', reminder: '1w', category: 'cleaning', steps: ['Entkalker einfüllen, 2 h zirkulieren.', 'Spülen, Wasser neu füllen.'], plannedHours: 2 },
    { title: 'Schnecke und Zylinder vermessen', interval: '18m', reminder: '1m', category: 'inspection', steps: ['Schnecke ziehen, Verschleiß messen.', 'Zylinder mit Messbrücke prüfen.'], plannedHours: 6 },
    { title: 'Hydrauliköl und Filter wechseln', interval: '24m', reminder: '1m', category: 'servicing', steps: ['Öl absaugen, Tank reinigen.', 'Filter tauschen, Öl HLP 46 füllen.'], plannedHours: 5, parts: { name: 'Hydrauliköl HLP 46, 200 l', price: [650, 880] } },
  ],
  servoPress: [
    { title: 'Kupplung-Bremse und Sicherheitssteuerung prüfen', interval: '3m', reminder: '1w', category: 'inspection', steps: ['Bremsweg messen.', 'Zweihandbedienung prüfen.'], plannedHours: 1.5 },
    { title: 'Wiederkehrende Prüfung Presse (BetrSichV)', interval: '12m', reminder: '1m', category: 'statutory', safetynotice: 'Arbeiten im Werkzeugraum nur mit eingelegter Sicherheitsstütze.', steps: ['Prüfung durch befähigte Person.', 'Eintrag ins Prüfbuch.'], plannedHours: 4, external: { name: 'Schuler Service Sicherheitsprüfung', price: [1200, 1900] } },
    { title: 'Stößelführung schmieren und Spiel messen', interval: '2m', reminder: '1w', category: 'lubrication', steps: ['Spiel mit Messuhr an vier Ecken messen.', 'Führungen schmieren.'], plannedHours: 1 },
  ],
  cmm: [
    { title: 'Kalibrierung nach DIN EN ISO 10360', interval: '12m', reminder: '1m', category: 'calibration', steps: ['Kalibrierung durch ZEISS Service.', 'Zertifikat ablegen.'], plannedHours: 2, external: { name: 'ZEISS Kalibrierservice', price: [1400, 2100] } },
    { title: 'Führungen und Granittisch reinigen', interval: '1m', reminder: '1w', category: 'cleaning', steps: ['Führungen mit fusselfreiem Tuch und Reinigungsbenzin reinigen.'], plannedHours: 0.5 },
  ],
};

export interface FaqText {
  question: string;
  answer: string;
}

/** Internal FAQs per machine kind, written by the maintenance team. */
export const FAQS_BY_KIND: Partial<Record<MachineKind, FaqText[]>> = {
  millingCenter: [
    { question: 'Wie fahre ich die Maschine nach einem Not-Halt wieder frei?', answer: 'Not-Halt entriegeln, Reset drücken, Betriebsart JOG wählen und die Achsen langsam aus dem Kollisionsbereich fahren. Danach Referenzpunkt anfahren.' },
    { question: 'Welches Schmieröl gehört in die Zentralschmierung?', answer: 'Nur CGLP 68 (Kanister im Schrank Instandhaltung). Kein Hydrauliköl nachfüllen!' },
    { question: 'Wo finde ich die Nullpunkttabelle der Vorrichtungen?', answer: 'In der Steuerung unter Werkstück-Nullpunkte, Sicherung im Anlagenbuch unter Dokumentation → Einrichtung.' },
  ],
  lathe: [{ question: 'Welcher Spanndruck für dünnwandige Teile?', answer: 'Maximal 12 bar am Futter einstellen, Weichbacken verwenden.' }],
  laserCutter: [
    { question: 'Wann muss das Schutzglas gewechselt werden?', answer: 'Bei sichtbaren Einbränden oder Spritzern im Zentrum sofort. Randspritzer sind unkritisch, aber im Protokoll vermerken.' },
    { question: 'Welche Düse für 10 mm Baustahl?', answer: 'Einlochdüse 1,7 mm mit Sauerstoff, Fokuslage laut Technologietabelle.' },
  ],
  pressBrake: [{ question: 'Wie wird die Bombierung eingestellt?', answer: 'Automatisch über TASC aus Blechdicke und Werkzeug. Manuell korrigieren nur nach Rücksprache mit dem Meister.' }],
  robot: [{ question: 'Wie bringe ich den Roboter in Grundstellung?', answer: 'Betriebsart T1, Programm „Home“ anwählen und mit Zustimmtaster langsam abfahren.' }],
  compressor: [{ question: 'Was tun bei Druckabfall im Netz?', answer: 'Zuerst Leckagen und Kondensatableiter prüfen. Der zweite Kompressor schaltet automatisch zu.' }],
  forklift: [
    { question: 'Wo wird der Stapler geladen?', answer: 'Nur am Ladeplatz 1–4 neben Tor 3. Ladestecker nie unter Last ziehen.' },
    { question: 'Wer darf den Stapler fahren?', answer: 'Nur Mitarbeiter mit Fahrausweis und jährlicher Unterweisung.' },
  ],
  injectionMolding: [{ question: 'Wie lange braucht die Maschine zum Aufheizen?', answer: 'Etwa 35 Minuten bis zur Produktionsbereitschaft. Das Wochenprogramm startet montags um 5:15 Uhr automatisch.' }],
  servoPress: [{ question: 'Was ist beim Werkzeugwechsel zu beachten?', answer: 'Immer zu zweit, Sicherheitsstütze einlegen und Werkzeugdaten in der Steuerung prüfen.' }],
  cmm: [{ question: 'Wie lange müssen Teile temperieren?', answer: 'Mindestens 2 Stunden im Messraum, große Gussteile 4 Stunden.' }],
};

/** Machine builder FAQs per equipment type model. */
export const FAQS_BY_TYPE: Record<string, FaqText[]> = {
  dmu65: [{ question: 'Maximales Werkstückgewicht auf dem Tisch?', answer: '600 kg bei gleichmäßiger Verteilung.' }],
  trulaser3030: [{ question: 'Welche maximale Blechdicke bei Edelstahl?', answer: 'Bis 15 mm mit Stickstoff, Qualitätsschnitt bis 10 mm.' }],
  efg216k: [{ question: 'Welche Tragfähigkeit bei 5 m Hubhöhe?', answer: 'Laut Tragfähigkeitsschild 1.250 kg bei 500 mm Lastschwerpunkt.' }],
  ga37: [{ question: 'Wie oft muss der Ölabscheider gewechselt werden?', answer: 'Alle 4.000 Betriebsstunden oder spätestens jährlich.' }],
};

export interface DocumentText {
  category: AttachmentCategory;
  title: string;
  description: string;
  lines: string[];
}

/** Documents every machine gets; {model} and {name} are filled in. */
export const MACHINE_DOCUMENTS: DocumentText[] = [
  { category: 'operation', title: 'Betriebsanleitung {model}', description: 'Originalbetriebsanleitung des Herstellers (Auszug)', lines: ['Bestimmungsgemäße Verwendung', 'Bedienelemente und Anzeigen', 'Inbetriebnahme und Außerbetriebnahme', 'Störungsbehebung durch den Bediener'] },
  { category: 'maintenance', title: 'Wartungsplan {name}', description: 'Intervalle und Schmierstoffe', lines: ['Täglich: Sichtprüfung, Reinigung Arbeitsraum', 'Wöchentlich: Schmierung, Füllstände', 'Monatlich: Filter, Kondensat', 'Jährlich: Herstellerwartung, Prüfungen'] },
  { category: 'safety', title: 'Gefährdungsbeurteilung {name}', description: 'Stand nach letzter Begehung', lines: ['Mechanische Gefährdungen: Quetschen, Scheren', 'Elektrische Gefährdungen: Schaltschrank nur Elektrofachkraft', 'Persönliche Schutzausrüstung: Sicherheitsschuhe, Schutzbrille', 'Unterweisung jährlich, Nachweis in der Personalakte'] },
  { category: 'setup', title: 'Einrichteblatt {name}', description: 'Spannmittel, Nullpunkte, Standardwerkzeuge', lines: ['Spannmittel und Vorrichtungen', 'Nullpunkte und Referenzen', 'Standardwerkzeuge und Magazinplätze'] },
  { category: 'internalinstructions', title: 'Arbeitsanweisung Schichtübergabe', description: 'Interne Anweisung der Instandhaltung', lines: ['Offene Meldungen im Anlagenbuch prüfen', 'Zählerstände am Schichtende erfassen', 'Auffälligkeiten sofort als Meldung erfassen'] },
];
