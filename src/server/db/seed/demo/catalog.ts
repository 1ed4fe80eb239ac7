import type { PictogramShape } from '../demo-files';

// Machine catalogue of the demo plant: real manufacturers, their brands and models, with the technical data
// the equipment form and the nameplate show. Figures are plausible, not manufacturer data sheets.

export type MachineKind =
  | 'millingCenter'
  | 'lathe'
  | 'laserCutter'
  | 'pressBrake'
  | 'punchPress'
  | 'robot'
  | 'compressor'
  | 'dryer'
  | 'hydraulicUnit'
  | 'forklift'
  | 'reachTruck'
  | 'palletTruck'
  | 'injectionMolding'
  | 'servoPress'
  | 'cmm';

export type EquipmentClassKey = 'machineTool' | 'sheetMetal' | 'automation' | 'intralogistics' | 'fluidPower' | 'plastics' | 'forming' | 'metrology';

export const EQUIPMENT_CLASSES: Record<EquipmentClassKey, { de: string; en: string }> = {
  machineTool: { de: 'Werkzeugmaschine', en: 'Machine tool' },
  sheetMetal: { de: 'Blechbearbeitung', en: 'Sheet metal processing' },
  automation: { de: 'Robotik & Automation', en: 'Robotics & automation' },
  intralogistics: { de: 'Flurförderzeug', en: 'Industrial truck' },
  fluidPower: { de: 'Druckluft & Hydraulik', en: 'Compressed air & hydraulics' },
  plastics: { de: 'Kunststofftechnik', en: 'Plastics processing' },
  forming: { de: 'Umformtechnik', en: 'Forming' },
  metrology: { de: 'Messtechnik', en: 'Metrology' },
};

/** The counters a kind of machine carries besides operating hours. */
export type ExtraCounter = 'strokes' | 'shots' | 'beamHours' | 'energy';

export interface KindSpec {
  shape: PictogramShape;
  classKey: EquipmentClassKey;
  /** Generic German name, used in texts. */
  label: string;
  media: { de: string; en: string }[];
  extraCounters: ExtraCounter[];
  /** Machines that need an inspection book (Prüfbuch): presses, pressure vessels, industrial trucks. */
  inspectionBook: boolean;
  /** Hourly machine rate in EUR. */
  hourlyRate: [number, number];
  /** Operating hours per week when running in the area's shifts. */
  hoursPerWeek: [number, number];
}

const AIR = { de: 'Druckluft 6 bar', en: 'Compressed air 6 bar' };
const COOLANT = { de: 'Kühlschmierstoff (Emulsion)', en: 'Cutting fluid (emulsion)' };
const POWER = { de: 'Drehstrom 400 V / 63 A', en: 'Three-phase 400 V / 63 A' };
const WATER = { de: 'Kühlwasser 18 °C', en: 'Cooling water 18 °C' };
const NITROGEN = { de: 'Stickstoff 25 bar (Schneidgas)', en: 'Nitrogen 25 bar (cutting gas)' };
const EXHAUST = { de: 'Absaugung', en: 'Extraction' };

export const KINDS: Record<MachineKind, KindSpec> = {
  millingCenter: { shape: 'mill', classKey: 'machineTool', label: 'Bearbeitungszentrum', media: [POWER, AIR, COOLANT], extraCounters: [], inspectionBook: false, hourlyRate: [85, 140], hoursPerWeek: [95, 118] },
  lathe: { shape: 'lathe', classKey: 'machineTool', label: 'CNC-Drehmaschine', media: [POWER, AIR, COOLANT], extraCounters: [], inspectionBook: false, hourlyRate: [70, 110], hoursPerWeek: [70, 105] },
  laserCutter: { shape: 'laser', classKey: 'sheetMetal', label: 'Laserschneidanlage', media: [POWER, AIR, NITROGEN, EXHAUST, WATER], extraCounters: ['beamHours'], inspectionBook: false, hourlyRate: [120, 180], hoursPerWeek: [60, 78] },
  pressBrake: { shape: 'press', classKey: 'sheetMetal', label: 'Abkantpresse', media: [POWER, AIR], extraCounters: ['strokes'], inspectionBook: true, hourlyRate: [65, 95], hoursPerWeek: [55, 75] },
  punchPress: { shape: 'press', classKey: 'sheetMetal', label: 'Stanzmaschine', media: [POWER, AIR], extraCounters: ['strokes'], inspectionBook: true, hourlyRate: [75, 100], hoursPerWeek: [55, 75] },
  robot: { shape: 'robot', classKey: 'automation', label: 'Industrieroboter', media: [POWER, AIR], extraCounters: [], inspectionBook: false, hourlyRate: [35, 55], hoursPerWeek: [90, 118] },
  compressor: { shape: 'compressor', classKey: 'fluidPower', label: 'Schraubenkompressor', media: [POWER], extraCounters: ['energy'], inspectionBook: true, hourlyRate: [12, 20], hoursPerWeek: [110, 140] },
  dryer: { shape: 'tank', classKey: 'fluidPower', label: 'Kältetrockner', media: [POWER, AIR], extraCounters: [], inspectionBook: false, hourlyRate: [5, 9], hoursPerWeek: [110, 140] },
  hydraulicUnit: { shape: 'tank', classKey: 'fluidPower', label: 'Hydraulikaggregat', media: [POWER, WATER], extraCounters: [], inspectionBook: false, hourlyRate: [10, 18], hoursPerWeek: [70, 110] },
  forklift: { shape: 'forklift', classKey: 'intralogistics', label: 'Elektro-Gabelstapler', media: [{ de: 'Ladestation 48 V', en: 'Charging station 48 V' }], extraCounters: [], inspectionBook: true, hourlyRate: [25, 35], hoursPerWeek: [30, 55] },
  reachTruck: { shape: 'forklift', classKey: 'intralogistics', label: 'Schubmaststapler', media: [{ de: 'Ladestation 48 V', en: 'Charging station 48 V' }], extraCounters: [], inspectionBook: true, hourlyRate: [25, 35], hoursPerWeek: [30, 50] },
  palletTruck: { shape: 'forklift', classKey: 'intralogistics', label: 'Elektro-Hubwagen', media: [{ de: 'Ladestation 24 V', en: 'Charging station 24 V' }], extraCounters: [], inspectionBook: true, hourlyRate: [12, 18], hoursPerWeek: [15, 35] },
  injectionMolding: { shape: 'molding', classKey: 'plastics', label: 'Spritzgießmaschine', media: [POWER, AIR, WATER], extraCounters: ['shots'], inspectionBook: false, hourlyRate: [55, 90], hoursPerWeek: [120, 160] },
  servoPress: { shape: 'press', classKey: 'forming', label: 'Servopresse', media: [POWER, AIR], extraCounters: ['strokes'], inspectionBook: true, hourlyRate: [110, 160], hoursPerWeek: [60, 80] },
  cmm: { shape: 'measuring', classKey: 'metrology', label: 'Koordinatenmessgerät', media: [POWER, AIR], extraCounters: [], inspectionBook: false, hourlyRate: [60, 90], hoursPerWeek: [35, 60] },
};

export interface ManufacturerSpec {
  key: string;
  name: string;
  /** The maker's mark as printed on nameplates. */
  mark: string;
  /** Suffix of the manufacturer's clientid inside the demo tenant. */
  slug: string;
}

export const MANUFACTURERS: ManufacturerSpec[] = [
  { key: 'dmg', name: 'DMG MORI Aktiengesellschaft', mark: 'DMG MORI', slug: 'dmg-mori' },
  { key: 'trumpf', name: 'TRUMPF SE + Co. KG', mark: 'TRUMPF', slug: 'trumpf' },
  { key: 'kuka', name: 'KUKA Deutschland GmbH', mark: 'KUKA', slug: 'kuka' },
  { key: 'heller', name: 'Gebr. Heller Maschinenfabrik GmbH', mark: 'HELLER', slug: 'heller' },
  { key: 'hermle', name: 'Maschinenfabrik Berthold Hermle AG', mark: 'HERMLE', slug: 'hermle' },
  { key: 'rexroth', name: 'Bosch Rexroth AG', mark: 'Bosch Rexroth', slug: 'bosch-rexroth' },
  { key: 'atlas', name: 'Atlas Copco Kompressoren und Drucklufttechnik GmbH', mark: 'Atlas Copco', slug: 'atlas-copco' },
  { key: 'jungheinrich', name: 'Jungheinrich AG', mark: 'Jungheinrich', slug: 'jungheinrich' },
  { key: 'arburg', name: 'ARBURG GmbH + Co KG', mark: 'ARBURG', slug: 'arburg' },
  { key: 'schuler', name: 'Schuler Pressen GmbH', mark: 'Schuler', slug: 'schuler' },
  { key: 'zeiss', name: 'Carl Zeiss Industrielle Messtechnik GmbH', mark: 'ZEISS', slug: 'zeiss-imt' },
];

export interface BrandSpec {
  key: string;
  manufacturer: string;
  name: string;
}

export const BRANDS: BrandSpec[] = [
  { key: 'dmg', manufacturer: 'dmg', name: 'DMG MORI' },
  { key: 'trulaser', manufacturer: 'trumpf', name: 'TruLaser' },
  { key: 'trubend', manufacturer: 'trumpf', name: 'TruBend' },
  { key: 'trupunch', manufacturer: 'trumpf', name: 'TruPunch' },
  { key: 'kuka', manufacturer: 'kuka', name: 'KUKA' },
  { key: 'heller', manufacturer: 'heller', name: 'HELLER' },
  { key: 'hermle', manufacturer: 'hermle', name: 'HERMLE' },
  { key: 'rexroth', manufacturer: 'rexroth', name: 'Rexroth' },
  { key: 'atlas', manufacturer: 'atlas', name: 'Atlas Copco' },
  { key: 'jungheinrich', manufacturer: 'jungheinrich', name: 'Jungheinrich' },
  { key: 'allrounder', manufacturer: 'arburg', name: 'ALLROUNDER' },
  { key: 'schuler', manufacturer: 'schuler', name: 'Schuler' },
  { key: 'zeiss', manufacturer: 'zeiss', name: 'ZEISS' },
];

export interface TypeSpec {
  key: string;
  brand: string;
  model: string;
  kind: MachineKind;
  powerKw: number | null;
  /** Width, height, depth in mm. */
  dimensions: [number, number, number];
  weightKg: number;
  controller: { manufacturer: string; type: string; softwareversion: string } | null;
  /** Serial numbers look like the maker's: prefix plus digits. */
  serialPrefix: string;
}

export const TYPES: TypeSpec[] = [
  { key: 'dmu65', brand: 'dmg', model: 'DMU 65 monoBLOCK', kind: 'millingCenter', powerKw: 42, dimensions: [3530, 3020, 3960], weightKg: 10500, controller: { manufacturer: 'Siemens', type: 'SINUMERIK ONE', softwareversion: '6.20' }, serialPrefix: '1120' },
  { key: 'ctx800', brand: 'dmg', model: 'CTX beta 800', kind: 'lathe', powerKw: 30, dimensions: [3620, 2030, 1990], weightKg: 6700, controller: { manufacturer: 'Siemens', type: 'SINUMERIK 840D sl', softwareversion: '4.95' }, serialPrefix: '2241' },
  { key: 'nlx2500', brand: 'dmg', model: 'NLX 2500 | 700', kind: 'lathe', powerKw: 26, dimensions: [3120, 2060, 2230], weightKg: 6000, controller: { manufacturer: 'DMG MORI', type: 'CELOS MAPPS', softwareversion: 'V5' }, serialPrefix: 'NL25' },
  { key: 'trulaser3030', brand: 'trulaser', model: 'TruLaser 3030 fiber', kind: 'laserCutter', powerKw: 38, dimensions: [9800, 2300, 4600], weightKg: 11000, controller: { manufacturer: 'Siemens', type: 'SINUMERIK 840D sl', softwareversion: 'TruTops Boost 17' }, serialPrefix: 'A0190' },
  { key: 'trulaser5030', brand: 'trulaser', model: 'TruLaser 5030 fiber', kind: 'laserCutter', powerKw: 62, dimensions: [10500, 2400, 4900], weightKg: 14500, controller: { manufacturer: 'Siemens', type: 'SINUMERIK 840D sl', softwareversion: 'TruTops Boost 18' }, serialPrefix: 'A0210' },
  { key: 'trubend5130', brand: 'trubend', model: 'TruBend 5130', kind: 'pressBrake', powerKw: 22, dimensions: [4260, 2700, 2500], weightKg: 11800, controller: { manufacturer: 'TRUMPF', type: 'TASC 6000', softwareversion: '06.03' }, serialPrefix: 'B0133' },
  { key: 'trupunch3000', brand: 'trupunch', model: 'TruPunch 3000', kind: 'punchPress', powerKw: 30, dimensions: [5900, 2300, 5100], weightKg: 15500, controller: { manufacturer: 'Siemens', type: 'SINUMERIK 840D sl', softwareversion: '4.7' }, serialPrefix: 'C0311' },
  { key: 'kr16', brand: 'kuka', model: 'KR 16 R1610-2', kind: 'robot', powerKw: 2.5, dimensions: [1610, 1900, 1200], weightKg: 250, controller: { manufacturer: 'KUKA', type: 'KR C5', softwareversion: 'KSS 8.7' }, serialPrefix: '5108' },
  { key: 'kr210', brand: 'kuka', model: 'KR 210 R2700-2', kind: 'robot', powerKw: 8.5, dimensions: [2700, 3000, 1800], weightKg: 1068, controller: { manufacturer: 'KUKA', type: 'KR C5', softwareversion: 'KSS 8.7' }, serialPrefix: '5110' },
  { key: 'h5000', brand: 'heller', model: 'H 5000', kind: 'millingCenter', powerKw: 56, dimensions: [4300, 3200, 6800], weightKg: 21000, controller: { manufacturer: 'Siemens', type: 'SINUMERIK 840D sl', softwareversion: '4.94' }, serialPrefix: 'H5-' },
  { key: 'c42u', brand: 'hermle', model: 'C 42 U', kind: 'millingCenter', powerKw: 40, dimensions: [2890, 3170, 3150], weightKg: 12500, controller: { manufacturer: 'Heidenhain', type: 'TNC 640', softwareversion: '34059x-17' }, serialPrefix: '42-' },
  { key: 'c32u', brand: 'hermle', model: 'C 32 U', kind: 'millingCenter', powerKw: 35, dimensions: [2600, 2990, 2900], weightKg: 10000, controller: { manufacturer: 'Heidenhain', type: 'TNC 640', softwareversion: '34059x-16' }, serialPrefix: '32-' },
  { key: 'cytropac', brand: 'rexroth', model: 'CytroPac', kind: 'hydraulicUnit', powerKw: 4, dimensions: [600, 1000, 650], weightKg: 220, controller: { manufacturer: 'Bosch Rexroth', type: 'Frequenzumrichter EFC', softwareversion: '03V10' }, serialPrefix: 'R9' },
  { key: 'abpac', brand: 'rexroth', model: 'ABPAC Hydraulikaggregat 250 l', kind: 'hydraulicUnit', powerKw: 18.5, dimensions: [1400, 1250, 900], weightKg: 780, controller: null, serialPrefix: 'R90' },
  { key: 'ga37', brand: 'atlas', model: 'GA 37 VSD+', kind: 'compressor', powerKw: 37, dimensions: [1670, 1640, 860], weightKg: 760, controller: { manufacturer: 'Atlas Copco', type: 'Elektronikon Touch', softwareversion: '2.4' }, serialPrefix: 'API' },
  { key: 'ga55', brand: 'atlas', model: 'GA 55+', kind: 'compressor', powerKw: 55, dimensions: [1950, 1800, 1000], weightKg: 1310, controller: { manufacturer: 'Atlas Copco', type: 'Elektronikon MkV', softwareversion: '1.9' }, serialPrefix: 'AII' },
  { key: 'fd100', brand: 'atlas', model: 'FD 100 VSD', kind: 'dryer', powerKw: 1.6, dimensions: [850, 1250, 1000], weightKg: 210, controller: null, serialPrefix: 'ITJ' },
  { key: 'efg216k', brand: 'jungheinrich', model: 'EFG 216k', kind: 'forklift', powerKw: 9.5, dimensions: [1100, 2150, 2850], weightKg: 3100, controller: null, serialPrefix: 'FN' },
  { key: 'etv216', brand: 'jungheinrich', model: 'ETV 216', kind: 'reachTruck', powerKw: 8, dimensions: [1270, 2250, 2600], weightKg: 3400, controller: null, serialPrefix: 'FN' },
  { key: 'ere225', brand: 'jungheinrich', model: 'ERE 225', kind: 'palletTruck', powerKw: 2.2, dimensions: [790, 1360, 2050], weightKg: 640, controller: null, serialPrefix: 'FN' },
  { key: 'allrounder470', brand: 'allrounder', model: 'ALLROUNDER 470 H', kind: 'injectionMolding', powerKw: 33, dimensions: [5300, 2200, 1900], weightKg: 6300, controller: { manufacturer: 'ARBURG', type: 'GESTICA', softwareversion: '3.2' }, serialPrefix: '' },
  { key: 'allrounder570', brand: 'allrounder', model: 'ALLROUNDER 570 A', kind: 'injectionMolding', powerKw: 45, dimensions: [6200, 2300, 2000], weightKg: 8900, controller: { manufacturer: 'ARBURG', type: 'SELOGICA', softwareversion: '2.8' }, serialPrefix: '' },
  { key: 'msd400', brand: 'schuler', model: 'MSD 400 ServoDirect', kind: 'servoPress', powerKw: 160, dimensions: [3600, 6100, 2800], weightKg: 65000, controller: { manufacturer: 'Schuler', type: 'Smart Press Control', softwareversion: '2.3' }, serialPrefix: 'S-' },
  { key: 'msd250', brand: 'schuler', model: 'MSD 250 ServoDirect', kind: 'servoPress', powerKw: 110, dimensions: [3100, 5400, 2500], weightKg: 42000, controller: { manufacturer: 'Schuler', type: 'Smart Press Control', softwareversion: '2.3' }, serialPrefix: 'S-' },
  { key: 'contura', brand: 'zeiss', model: 'CONTURA 10/12/6', kind: 'cmm', powerKw: 1.2, dimensions: [1850, 2700, 2300], weightKg: 1500, controller: { manufacturer: 'ZEISS', type: 'CALYPSO', softwareversion: '2023' }, serialPrefix: '' },
  { key: 'prismo', brand: 'zeiss', model: 'PRISMO 12/18/10', kind: 'cmm', powerKw: 1.8, dimensions: [2300, 3300, 3400], weightKg: 3600, controller: { manufacturer: 'ZEISS', type: 'CALYPSO', softwareversion: '2024' }, serialPrefix: '' },
];

export function typeByKey(key: string): TypeSpec {
  const type = TYPES.find((t) => t.key === key);
  if (!type) throw new Error(`unknown demo equipment type ${key}`);
  return type;
}

export function manufacturerOf(brand: BrandSpec): ManufacturerSpec {
  const manufacturer = MANUFACTURERS.find((m) => m.key === brand.manufacturer);
  if (!manufacturer) throw new Error(`unknown demo manufacturer ${brand.manufacturer}`);
  return manufacturer;
}

export function brandByKey(key: string): BrandSpec {
  const brand = BRANDS.find((b) => b.key === key);
  if (!brand) throw new Error(`unknown demo brand ${key}`);
  return brand;
}
