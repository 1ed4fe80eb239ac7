import { subscriptionRecord, type SubscriptionTarget } from '../../../../shared/domain/subscription';
import { machinePictogram, nameplateSvg, simplePdf } from '../demo-files';
import { BRANDS, EQUIPMENT_CLASSES, type EquipmentClassKey, KINDS, type MachineKind, TYPES, type TypeSpec, brandByKey, manufacturerOf, typeByKey } from './catalog';
import { DAY_MS, type DemoContext } from './context';
import type { Organisation } from './build-organisation';
import { personByKey } from './build-organisation';
import { AREAS, MACHINES, type MachineSpec, POOLS, SHIFT_MODELS, SITES, type ShiftModelKey } from './plant';

export interface Machine {
  nodeid: string;
  spec: MachineSpec;
  type: TypeSpec;
  kind: MachineKind;
  typeNodeid: string;
  /** The site the machine stands in; pool-only machines count to the site of their name or Stuttgart. */
  site: string;
  constructionYear: number;
  /** Operating hours a week in its shifts. */
  hoursPerWeek: number;
}

export interface Structure {
  machines: Machine[];
  typeIds: Map<string, string>;
}

function minutes(time: string): number {
  const [hours, mins] = time.split(':').map(Number);
  return (hours ?? 0) * 60 + (mins ?? 0);
}

function addShiftModel(ctx: DemoContext, key: ShiftModelKey): string {
  const model = SHIFT_MODELS[key];
  const base = ctx.row();
  ctx.tables.shiftModels.push({ ...base, name: model.name });
  model.shifts.forEach((shift, position) => {
    ctx.tables.shifts.push({ ...ctx.row(), shiftmodelnodeid: base.nodeid, position, weekdays: shift.weekdays, startminute: minutes(shift.start), endminute: minutes(shift.end), unmanned: shift.unmanned ?? false });
  });
  return base.nodeid;
}

export function buildStructure(ctx: DemoContext, organisation: Organisation): Structure {
  const { tables, random } = ctx;

  const classIds = new Map<EquipmentClassKey, string>();
  for (const [key, name] of Object.entries(EQUIPMENT_CLASSES) as [EquipmentClassKey, { de: string; en: string }][]) {
    const base = ctx.row();
    classIds.set(key, base.nodeid);
    tables.equipmentClasses.push({ ...base, name });
  }

  const brandIds = new Map<string, string>();
  for (const brand of BRANDS) {
    const base = ctx.row();
    brandIds.set(brand.key, base.nodeid);
    tables.brands.push({ ...base, name: brand.name, manufacturernodeid: organisation.manufacturerIds.get(brand.manufacturer)! });
  }

  const typeIds = new Map<string, string>();
  for (const type of TYPES) {
    const base = ctx.row();
    typeIds.set(type.key, base.nodeid);
    tables.equipmentTypes.push({ ...base, model: type.model, brandnodeid: brandIds.get(type.brand)! });
    // The machine builder's data sheet on the type (equipment type overview, documentation).
    const brand = brandByKey(type.brand);
    const sheet = ctx.addFile({
      bytes: simplePdf(`Datenblatt ${brand.name} ${type.model}`, [
        `Hersteller: ${brand.name}`,
        `Bauart: ${KINDS[type.kind].label}`,
        `Anschlussleistung: ${type.powerKw != null ? `${type.powerKw.toLocaleString('de-DE')} kW` : '–'}`,
        `Abmessungen (B x H x T): ${type.dimensions.map((d) => d.toLocaleString('de-DE')).join(' x ')} mm`,
        `Gewicht: ${type.weightKg.toLocaleString('de-DE')} kg`,
        ...(type.controller ? [`Steuerung: ${type.controller.manufacturer} ${type.controller.type}`] : []),
      ]),
      mimetype: 'application/pdf',
      extension: 'pdf',
      createdAt: ctx.setupAt,
    });
    tables.attachments.push({ ...ctx.row(), title: `Datenblatt ${type.model}`, description: 'Technische Daten des Herstellers', specifier: 'operation', filenodeid: sheet, isattachmentof: base.nodeid, targetkind: 'equipmenttype' });
  }

  const siteIds = new Map<string, string>();
  for (const site of SITES) {
    const base = ctx.row();
    siteIds.set(site.key, base.nodeid);
    tables.sites.push({ ...base, name: site.name, street: site.street, siteid: site.siteid, zipcode: site.zipcode, city: site.city, country: 'DE' });
  }

  const areaIds = new Map<string, string>();
  for (const area of AREAS) {
    const shiftmodelnodeid = addShiftModel(ctx, area.shiftModel);
    const base = ctx.row();
    areaIds.set(area.key, base.nodeid);
    tables.areas.push({ ...base, name: area.name, areaid: area.areaid, sitenodeid: siteIds.get(area.site)!, shiftmodelnodeid });
  }

  const poolIds = new Map<string, string>();
  for (const pool of POOLS) {
    const base = ctx.row();
    poolIds.set(pool.key, base.nodeid);
    tables.equipmentPools.push({ ...base, name: pool.name });
  }

  const admin = personByKey(organisation.people, 'admin');
  const machines: Machine[] = [];
  MACHINES.forEach((spec, index) => {
    const type = typeByKey(spec.type);
    const kind = KINDS[type.kind];
    const brand = brandByKey(type.brand);
    const area = AREAS.find((a) => a.key === spec.area);
    const pool = POOLS.find((p) => p.key === spec.pool);
    const site = area?.site ?? (spec.name.includes('Chemnitz') || spec.name.includes('HUB 02') ? 'chemnitz' : 'stuttgart');
    const siteCode = SITES.find((s) => s.key === site)!.code;
    const [prefix = 'ANL', number = '00'] = spec.name.split(' ');

    const constructionYear = random.int(2009, 2023);
    const commissioning = Date.UTC(constructionYear, random.int(2, 10), random.int(1, 28), 8);
    const createdAt = new Date(ctx.setupAt.getTime() + index * 3_600_000);
    const serial = type.serialPrefix ? `${type.serialPrefix}${random.int(10000, 99999)}` : `${random.int(100, 999)}.${random.int(100, 999)}.${random.int(100, 999)}`;

    const image = ctx.addFile({ bytes: machinePictogram(kind.shape, `${brand.name} ${type.model}`), mimetype: 'image/svg+xml', extension: 'svg', createdAt, createdBy: admin.nodeid });
    const nameplate = ctx.addFile({
      bytes: nameplateSvg({ manufacturer: manufacturerOf(brand).mark, model: type.model, serialnumber: serial, year: constructionYear, powerKw: type.powerKw, weightKg: type.weightKg }),
      mimetype: 'image/svg+xml',
      extension: 'svg',
      createdAt,
      createdBy: admin.nodeid,
    });

    const ownShiftModel = spec.ownShiftModel ? addShiftModel(ctx, spec.ownShiftModel) : null;
    const base = ctx.row(createdAt);
    const costcenter = area?.costcenter ?? pool?.costcenter ?? '4900 Allgemein';
    tables.equipment.push({
      ...base,
      name: spec.name,
      equipmentid: `${siteCode}-${prefix}-${number}`,
      inventoryid: `AV-${100200 + index * 37}`,
      manufacturerserialnumber: serial,
      constructiondate: new Date(Date.UTC(constructionYear, 0, 1)),
      commissioningdate: new Date(commissioning),
      costcenter: { de: costcenter, en: costcenter },
      inspectionbooknumber: kind.inspectionBook ? `PB-${constructionYear}-${String(random.int(1, 999)).padStart(4, '0')}` : null,
      dimensions: type.dimensions,
      electricalpower: type.powerKw,
      mediasupply: kind.media,
      controllerinformation: type.controller,
      hourlyrate: random.int(kind.hourlyRate[0], kind.hourlyRate[1]),
      hourlyratecurrency: 'EUR',
      imagefilenodeid: image,
      typenameplatefilenodeid: nameplate,
      memo: spec.memo ?? null,
      equipmenttypenodeid: typeIds.get(type.key)!,
      equipmentclassnodeid: classIds.get(kind.classKey)!,
      areanodeid: area ? areaIds.get(area.key)! : null,
      equipmentpoolnodeid: pool ? poolIds.get(pool.key)! : null,
      shiftmodelnodeid: ownShiftModel,
      useareashiftmodel: Boolean(area) && !ownShiftModel,
    });
    machines.push({ nodeid: base.nodeid, spec, type, kind: type.kind, typeNodeid: typeIds.get(type.key)!, site, constructionYear, hoursPerWeek: random.int(kind.hoursPerWeek[0], kind.hoursPerWeek[1]) });
  });

  subscribeAndAssign(ctx, organisation, machines, { siteIds, areaIds, poolIds });
  return { machines, typeIds };
}

/** Who follows which part of the plant (`issubscriberof`) and which machines are on whose profile. */
function subscribeAndAssign(
  ctx: DemoContext,
  organisation: Organisation,
  machines: Machine[],
  ids: { siteIds: Map<string, string>; areaIds: Map<string, string>; poolIds: Map<string, string> },
): void {
  const subscribe = (personKey: string, target: { site?: string; area?: string; pool?: string }) => {
    const usernodeid = personByKey(organisation.people, personKey).nodeid;
    const followed: SubscriptionTarget = target.site
      ? { type: 'site', nodeid: ids.siteIds.get(target.site)! }
      : target.area
        ? { type: 'area', nodeid: ids.areaIds.get(target.area)! }
        : { type: 'equipmentpool', nodeid: ids.poolIds.get(target.pool!)! };
    // The derived id (subscriptionNodeId), as the app and the API store it.
    ctx.tables.structureSubscriptions.push({ ...ctx.row(new Date(ctx.setupAt.getTime() + DAY_MS)), ...subscriptionRecord(usernodeid, followed) });
  };
  subscribe('admin', { site: 'stuttgart' });
  subscribe('admin', { site: 'chemnitz' });
  subscribe('admin', { pool: 'air' });
  subscribe('admin', { pool: 'trucks' });
  subscribe('technician', { area: 'stg-zsp' });
  subscribe('technician', { area: 'stg-blech' });
  subscribe('technician', { pool: 'air' });
  subscribe('technician', { pool: 'trucks' });
  subscribe('reader', { site: 'stuttgart' });
  subscribe('reader', { pool: 'metrology' });
  subscribe('yilmaz', { site: 'stuttgart' });
  subscribe('hoffmann', { area: 'stg-zsp' });
  subscribe('nowak', { site: 'chemnitz' });
  subscribe('fischer', { area: 'che-sg' });
  subscribe('wagner', { site: 'chemnitz' });
  subscribe('schmidt', { area: 'stg-zsp' });

  const machinesWhere = (predicate: (m: Machine) => boolean) => machines.filter(predicate).map((m) => m.nodeid);
  const assigned: Record<string, string[]> = {
    admin: machines.map((m) => m.nodeid),
    technician: machinesWhere((m) => m.spec.area === 'stg-zsp' || m.spec.area === 'stg-blech' || m.spec.pool === 'trucks' || m.spec.pool === 'air'),
    reader: machinesWhere((m) => m.spec.area === 'stg-mqs'),
    yilmaz: machinesWhere((m) => m.site === 'stuttgart'),
    hoffmann: machinesWhere((m) => m.spec.area === 'stg-zsp'),
    nowak: machinesWhere((m) => m.site === 'chemnitz'),
    fischer: machinesWhere((m) => m.spec.area === 'che-sg'),
    wagner: machinesWhere((m) => m.site === 'chemnitz'),
    schmidt: machinesWhere((m) => m.spec.area === 'stg-zsp'),
  };
  for (const user of ctx.tables.users) {
    const person = organisation.people.find((p) => p.nodeid === user.nodeid);
    if (person && assigned[person.key]) user.assignedequipment = assigned[person.key];
  }
}
