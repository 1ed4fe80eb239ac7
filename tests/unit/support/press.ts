import type { MirrorRow } from '../../../src/client/db/local-db';

// One machine and its catalogue as the equipment unit tests see them on the device: the press "Presse 3" of
// type MSD 400 (brand Schuler of Schuler AG) in area "Halle 1".

export const USER = '0190f5a0-0000-7000-8000-0000000000aa';
export const AREA = '0190f5a0-0000-7000-8000-0000000000a1';
export const MANUFACTURER = '0190f5a0-0000-7000-8000-0000000000e1';
export const BRAND = '0190f5a0-0000-7000-8000-0000000000b1';
export const TYPE = '0190f5a0-0000-7000-8000-0000000000c1';
export const MACHINE = '0190f5a0-0000-7000-8000-0000000000f1';
export const NOW = Date.UTC(2026, 5, 1);

/** The press as the device's mirror holds it (stored text per language, years as epoch ms). */
export function pressRow(overrides: Record<string, unknown> = {}): MirrorRow {
  return {
    nodeid: MACHINE,
    name: 'Presse 3',
    equipmentid: 'PR-003',
    inventoryid: null,
    manufacturerserialnumber: 'SN-42',
    constructiondate: Date.UTC(2019, 0, 1),
    commissioningdate: Date.UTC(2020, 0, 1),
    costcenter: { de: 'KST 4711' },
    inspectionbooknumber: null,
    dimensions: [1200, 2000, null],
    electricalpower: 7.5,
    mediasupply: [{ de: 'Druckluft 6 bar' }, { de: 'Kühlwasser' }],
    controllerinformation: { manufacturer: 'Siemens', type: 'S7-1500' },
    hourlyrate: 85,
    equipmentclassnodeid: null,
    useareashiftmodel: true,
    equipmenttypenodeid: TYPE,
    areanodeid: AREA,
    equipmentpoolnodeid: null,
    ...overrides,
  };
}
