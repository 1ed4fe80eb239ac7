import type { Weekday } from '../../../../shared/domain/shift';

// Layout of the demo plant: two works of Muster Maschinenbau GmbH with their halls, shift plans, pools and
// the machines standing in them.

export interface SiteSpec {
  key: string;
  name: string;
  street: string;
  siteid: string | null;
  zipcode: string;
  city: string;
  code: string;
}

export const SITES: SiteSpec[] = [
  { key: 'stuttgart', name: 'Werk Stuttgart', street: 'Siemensstraße 42', siteid: 'Tor 3, Anlieferung über Wernerstraße', zipcode: '70469', city: 'Stuttgart', code: 'STR' },
  { key: 'chemnitz', name: 'Werk Chemnitz', street: 'Annaberger Straße 240', siteid: 'Gebäude B', zipcode: '09125', city: 'Chemnitz', code: 'CHE' },
];

export type ShiftModelKey = 'threeShiftUnmannedNight' | 'twoShift' | 'dayShift' | 'continuous' | 'twoShiftSaturday' | 'allDayUnmanned';

interface ShiftSpec {
  weekdays: Weekday[];
  start: string;
  end: string;
  unmanned?: boolean;
}

const MO_FR: Weekday[] = [1, 2, 3, 4, 5];
const ALL_DAYS: Weekday[] = [1, 2, 3, 4, 5, 6, 7];

/** Früh / Spät / Nacht as the halls run them. */
export const SHIFT_MODELS: Record<ShiftModelKey, { name: string; shifts: ShiftSpec[] }> = {
  threeShiftUnmannedNight: {
    name: 'Dreischicht Mo–Fr, Nacht mannlos',
    shifts: [
      { weekdays: MO_FR, start: '06:00', end: '13:59' },
      { weekdays: MO_FR, start: '14:00', end: '21:59' },
      { weekdays: MO_FR, start: '22:00', end: '05:59', unmanned: true },
    ],
  },
  twoShift: {
    name: 'Zweischicht Mo–Fr',
    shifts: [
      { weekdays: MO_FR, start: '06:00', end: '13:59' },
      { weekdays: MO_FR, start: '14:00', end: '21:59' },
    ],
  },
  dayShift: { name: 'Normalschicht', shifts: [{ weekdays: MO_FR, start: '07:00', end: '15:59' }] },
  continuous: {
    name: 'Vollkonti (Früh/Spät/Nacht, 7 Tage)',
    shifts: [
      { weekdays: ALL_DAYS, start: '06:00', end: '13:59' },
      { weekdays: ALL_DAYS, start: '14:00', end: '21:59' },
      { weekdays: ALL_DAYS, start: '22:00', end: '05:59' },
    ],
  },
  twoShiftSaturday: {
    name: 'Zweischicht Mo–Fr, Samstag Frühschicht',
    shifts: [
      { weekdays: MO_FR, start: '05:30', end: '13:29' },
      { weekdays: MO_FR, start: '13:30', end: '21:29' },
      { weekdays: [6], start: '06:00', end: '11:59' },
    ],
  },
  allDayUnmanned: { name: 'Dauerbetrieb mannlos', shifts: [{ weekdays: ALL_DAYS, start: '00:00', end: '23:59', unmanned: true }] },
};

export interface AreaSpec {
  key: string;
  site: string;
  name: string;
  areaid: string;
  costcenter: string;
  shiftModel: ShiftModelKey;
}

export const AREAS: AreaSpec[] = [
  { key: 'stg-zsp', site: 'stuttgart', name: 'Halle 1 – Zerspanung', areaid: 'H1', costcenter: '4110 Zerspanung', shiftModel: 'threeShiftUnmannedNight' },
  { key: 'stg-blech', site: 'stuttgart', name: 'Halle 2 – Blechbearbeitung', areaid: 'H2', costcenter: '4120 Blechbearbeitung', shiftModel: 'twoShift' },
  { key: 'stg-mqs', site: 'stuttgart', name: 'Montage & Qualitätssicherung', areaid: 'H3', costcenter: '4310 Qualitätssicherung', shiftModel: 'dayShift' },
  { key: 'che-sg', site: 'chemnitz', name: 'Spritzgießerei', areaid: 'B1', costcenter: '5210 Kunststofftechnik', shiftModel: 'continuous' },
  { key: 'che-uf', site: 'chemnitz', name: 'Umformtechnik', areaid: 'B2', costcenter: '5220 Umformtechnik', shiftModel: 'twoShiftSaturday' },
  { key: 'che-ih', site: 'chemnitz', name: 'Instandhaltungswerkstatt', areaid: 'B3', costcenter: '5900 Instandhaltung', shiftModel: 'dayShift' },
];

export interface PoolSpec {
  key: string;
  name: { de: string; en: string };
  costcenter: string;
}

export const POOLS: PoolSpec[] = [
  { key: 'air', name: { de: 'Druckluftversorgung', en: 'Compressed air supply' }, costcenter: '4900 Energie & Medien' },
  { key: 'trucks', name: { de: 'Flurförderzeuge', en: 'Industrial trucks' }, costcenter: '4800 Logistik' },
  { key: 'metrology', name: { de: 'Messmittel & Prüfgeräte', en: 'Measuring & test equipment' }, costcenter: '4310 Qualitätssicherung' },
];

export interface MachineSpec {
  /** Internal name on the card and the sticker. */
  name: string;
  type: string;
  area?: string;
  pool?: string;
  /** A shift model of its own instead of the area's. */
  ownShiftModel?: ShiftModelKey;
  memo?: string;
}

export const MACHINES: MachineSpec[] = [
  // Werk Stuttgart, Halle 1
  { name: 'BAZ 01 Fräszentrum', type: 'dmu65', area: 'stg-zsp', memo: 'Palettenwechsler nur im Einrichtbetrieb verfahren. Spannmittel-Satz 3 liegt im Schrank neben BAZ 02.' },
  { name: 'BAZ 02 Fräszentrum', type: 'dmu65', area: 'stg-zsp' },
  { name: 'BAZ 03 5-Achs-Zentrum', type: 'c42u', area: 'stg-zsp', memo: 'Rundtisch: nach Crash immer Referenzfahrt und Messzyklus 3D-Taster ausführen.' },
  { name: 'BAZ 04 5-Achs-Zentrum', type: 'c32u', area: 'stg-zsp' },
  { name: 'BAZ 05 Horizontal-BAZ', type: 'h5000', area: 'stg-zsp', memo: 'Beladung über ROB 01. Bei Störung der Zelle zuerst Roboter in Grundstellung fahren.' },
  { name: 'BAZ 06 Horizontal-BAZ', type: 'h5000', area: 'stg-zsp' },
  { name: 'DRE 01 Drehmaschine', type: 'ctx800', area: 'stg-zsp' },
  { name: 'DRE 02 Drehmaschine', type: 'nlx2500', area: 'stg-zsp' },
  { name: 'ROB 01 Beladezelle BAZ 05', type: 'kr16', area: 'stg-zsp' },
  { name: 'HYD 01 Spannhydraulik', type: 'cytropac', area: 'stg-zsp' },
  { name: 'KOM 02 Kompressor Halle 1', type: 'ga37', area: 'stg-zsp', pool: 'air', ownShiftModel: 'allDayUnmanned' },
  // Werk Stuttgart, Halle 2
  { name: 'LAS 01 Faserlaser 3 kW', type: 'trulaser3030', area: 'stg-blech', memo: 'Schneidgas-Bündel wird dienstags getauscht (Linde, Lieferschein im Ordner Medien).' },
  { name: 'LAS 02 Faserlaser 6 kW', type: 'trulaser5030', area: 'stg-blech' },
  { name: 'KAP 01 Abkantpresse', type: 'trubend5130', area: 'stg-blech' },
  { name: 'KAP 02 Abkantpresse', type: 'trubend5130', area: 'stg-blech' },
  { name: 'STA 01 Stanzmaschine', type: 'trupunch3000', area: 'stg-blech' },
  { name: 'ROB 02 Biegezelle', type: 'kr210', area: 'stg-blech' },
  { name: 'KOM 01 Kompressor Halle 2', type: 'ga37', area: 'stg-blech', pool: 'air', ownShiftModel: 'allDayUnmanned' },
  // Werk Stuttgart, Montage & QS
  { name: 'KMG 01 Messraum', type: 'contura', area: 'stg-mqs', pool: 'metrology', memo: 'Messraum 20 °C ± 1 K. Tür geschlossen halten, Teile 2 h temperieren.' },
  { name: 'KMG 02 Großteilmessung', type: 'prismo', area: 'stg-mqs', pool: 'metrology' },
  { name: 'ROB 03 Schraubzelle', type: 'kr16', area: 'stg-mqs' },
  { name: 'HYD 02 Prüfstand', type: 'abpac', area: 'stg-mqs' },
  // Pools only (mobile)
  { name: 'TRO 01 Kältetrockner', type: 'fd100', pool: 'air', ownShiftModel: 'allDayUnmanned' },
  { name: 'STP 01 Gabelstapler', type: 'efg216k', pool: 'trucks' },
  { name: 'STP 02 Gabelstapler', type: 'efg216k', pool: 'trucks' },
  { name: 'SCH 01 Schubmaststapler', type: 'etv216', pool: 'trucks' },
  { name: 'HUB 01 Elektro-Hubwagen', type: 'ere225', pool: 'trucks' },
  { name: 'STP 03 Gabelstapler Chemnitz', type: 'efg216k', pool: 'trucks' },
  // Werk Chemnitz, Spritzgießerei
  { name: 'SGM 01 Spritzgießmaschine', type: 'allrounder470', area: 'che-sg' },
  { name: 'SGM 02 Spritzgießmaschine', type: 'allrounder470', area: 'che-sg' },
  { name: 'SGM 03 Spritzgießmaschine', type: 'allrounder570', area: 'che-sg', memo: 'Werkzeug 4711 (Gehäusedeckel) nur mit Heißkanalregler 2 betreiben.' },
  { name: 'SGM 04 Spritzgießmaschine', type: 'allrounder570', area: 'che-sg' },
  { name: 'ROB 04 Entnahme SGM 03', type: 'kr16', area: 'che-sg' },
  // Werk Chemnitz, Umformtechnik
  { name: 'PRE 01 Servopresse 400 t', type: 'msd400', area: 'che-uf', memo: 'Werkzeugwechsel nur mit zwei Personen. Schlüssel Lichtvorhang-Überbrückung beim Meister.' },
  { name: 'PRE 02 Servopresse 250 t', type: 'msd250', area: 'che-uf' },
  { name: 'KAP 03 Abkantpresse', type: 'trubend5130', area: 'che-uf' },
  { name: 'HYD 03 Hydraulik Pressenlinie', type: 'abpac', area: 'che-uf' },
  { name: 'KMG 03 Messplatz Umformung', type: 'contura', area: 'che-uf', pool: 'metrology' },
  // Werk Chemnitz, Instandhaltung
  { name: 'DRE 03 Werkstattdrehmaschine', type: 'ctx800', area: 'che-ih' },
  { name: 'KOM 03 Kompressor Chemnitz', type: 'ga55', area: 'che-ih', pool: 'air', ownShiftModel: 'allDayUnmanned' },
  // Neither area nor pool: shows up under 'Nicht verknüpfte Geräte'
  { name: 'HUB 02 Ersatz-Hubwagen', type: 'ere225', memo: 'Ersatzgerät, steht im Lager Chemnitz. Noch keinem Bereich zugeordnet.' },
];

export interface PersonSpec {
  key: string;
  givenname: string;
  surname: string;
  email: string;
  profileid: 'admin' | 'technician' | 'reader';
  admin?: boolean;
  active?: boolean;
  department: string;
  personnelnumber: string;
  qualification: string;
  professionaltraining: { de: string; en: string };
  mobilephone?: string;
  landlinephone?: string;
  /** The sites whose machines the person works on. */
  sites: string[];
}

/** People besides the three demo logins, so lists, the planning board and chats look like a real company. */
export const COLLEAGUES: PersonSpec[] = [
  { key: 'yilmaz', givenname: 'Mehmet', surname: 'Yilmaz', email: 'mehmet.yilmaz@muster-maschinenbau.de', profileid: 'technician', department: 'Instandhaltung Stuttgart', personnelnumber: '100342', qualification: 'Elektroniker für Betriebstechnik', professionaltraining: { de: 'Industriemeister Elektrotechnik', en: 'Master craftsman electrical engineering' }, mobilephone: '1701234567', sites: ['stuttgart'] },
  { key: 'hoffmann', givenname: 'Lukas', surname: 'Hoffmann', email: 'lukas.hoffmann@muster-maschinenbau.de', profileid: 'technician', department: 'Instandhaltung Stuttgart', personnelnumber: '100517', qualification: 'Industriemechaniker', professionaltraining: { de: 'Industriemechaniker, Fachrichtung Instandhaltung', en: 'Industrial mechanic, maintenance' }, sites: ['stuttgart'] },
  { key: 'nowak', givenname: 'Dariusz', surname: 'Nowak', email: 'dariusz.nowak@muster-maschinenbau.de', profileid: 'technician', department: 'Instandhaltung Chemnitz', personnelnumber: '200118', qualification: 'Mechatroniker', professionaltraining: { de: 'Mechatroniker', en: 'Mechatronics technician' }, mobilephone: '1529876543', sites: ['chemnitz'] },
  { key: 'fischer', givenname: 'Marie', surname: 'Fischer', email: 'marie.fischer@muster-maschinenbau.de', profileid: 'technician', department: 'Fertigung Chemnitz', personnelnumber: '200204', qualification: 'Verfahrensmechanikerin Kunststofftechnik', professionaltraining: { de: 'Meisterin Kunststoff und Kautschuk', en: 'Master craftswoman plastics' }, landlinephone: '371 5550 214', sites: ['chemnitz'] },
  { key: 'schmidt', givenname: 'Elena', surname: 'Schmidt', email: 'elena.schmidt@muster-maschinenbau.de', profileid: 'reader', department: 'Schichtleitung Halle 1', personnelnumber: '100088', qualification: 'Zerspanungsmechanikerin', professionaltraining: { de: 'Technikerin Maschinenbau', en: 'Mechanical engineering technician' }, sites: ['stuttgart'] },
  { key: 'wagner', givenname: 'Tobias', surname: 'Wagner', email: 'tobias.wagner@muster-maschinenbau.de', profileid: 'admin', admin: true, department: 'Werkleitung Chemnitz', personnelnumber: '200001', qualification: 'Dipl.-Ing. (FH) Maschinenbau', professionaltraining: { de: 'Maschinenbau-Ingenieur', en: 'Mechanical engineer' }, landlinephone: '371 5550 100', sites: ['chemnitz'] },
  { key: 'schulz', givenname: 'Thomas', surname: 'Schulz', email: 'thomas.schulz@muster-maschinenbau.de', profileid: 'technician', active: false, department: 'Instandhaltung Stuttgart', personnelnumber: '100021', qualification: 'Industriemechaniker', professionaltraining: { de: 'Industriemechaniker', en: 'Industrial mechanic' }, sites: ['stuttgart'] },
  { key: 'neumann', givenname: 'Petra', surname: 'Neumann', email: 'petra.neumann@muster-maschinenbau.de', profileid: 'reader', active: false, department: 'Arbeitssicherheit', personnelnumber: '100230', qualification: 'Fachkraft für Arbeitssicherheit', professionaltraining: { de: 'Sicherheitsingenieurin', en: 'Safety engineer' }, sites: ['stuttgart', 'chemnitz'] },
];
