import type { CostTypeKey } from '../../../../shared/domain/cost';
import type { RepetitionInterval } from '../../../../shared/domain/maintenance';
import { UNIT_IDS } from '../reference-data';
import { buildTenantDefaults } from '../tenant-defaults';
import { type ExtraCounter, KINDS } from './catalog';
import { DAY_MS, type DemoContext, HOUR_MS, SEED_VERSION } from './context';
import { type Organisation, type Person } from './build-organisation';
import type { Machine, Structure } from './build-structure';
import { CATEGORY, TASKS_BY_KIND, type TaskText } from './maintenance-texts';

export interface Reading {
  takenat: Date;
  value: number;
}

export interface PlannedTask {
  nodeid: string;
  maintenancetaskid: string;
  text: TaskText;
  machine: Machine;
  /** Due dates that fell into the seeded year, oldest first. */
  pastOccurrences: Date[];
  nextdueat: Date | null;
}

export interface Maintenance {
  costTypeIds: Record<CostTypeKey, string>;
  tasks: PlannedTask[];
  hoursReadings: Map<string, Reading[]>;
}

/** The due date after `date` for a repeating interval; months by calendar (spec §9). */
export function nextOccurrence(date: Date, interval: Exclude<RepetitionInterval, 'onetime'>): Date {
  const amount = Number.parseInt(interval, 10);
  if (interval.endsWith('w')) return new Date(date.getTime() + amount * 7 * DAY_MS);
  const next = new Date(date);
  next.setUTCMonth(next.getUTCMonth() + amount);
  return next;
}

const EXTRA_COUNTERS: Record<ExtraCounter, { name: string; unit: string; perHour: [number, number] }> = {
  strokes: { name: 'Hubzähler', unit: UNIT_IDS.piece, perHour: [180, 900] },
  shots: { name: 'Schusszähler', unit: UNIT_IDS.piece, perHour: [90, 180] },
  beamHours: { name: 'Strahlzeit Laser', unit: UNIT_IDS.hour, perHour: [0.45, 0.7] },
  energy: { name: 'Energieverbrauch', unit: UNIT_IDS.kilowattHour, perHour: [22, 38] },
};

/** The people who carry out work on a site's machines at a given time (inactive ones only in the past). */
export function techniciansAt(organisation: Organisation, site: string, at: Date, now: Date): Person[] {
  const ageDays = (now.getTime() - at.getTime()) / DAY_MS;
  const candidates = organisation.people.filter((p) => p.profileid === 'technician' && p.sites.includes(site) && (p.active || ageDays > 200));
  return candidates.length > 0 ? candidates : organisation.people.filter((p) => p.key === 'admin');
}

export function buildMaintenance(ctx: DemoContext, organisation: Organisation, structure: Structure): Maintenance {
  const { tables, random, now } = ctx;
  const defaults = buildTenantDefaults({ legalentitynodeid: ctx.tenantId, newId: () => ctx.newId(), version: SEED_VERSION, createdAt: ctx.setupAt });
  tables.costTypes.push(...defaults.costTypes);
  tables.counterTypes.push(...defaults.counterTypes);
  tables.maintenanceCategories.push(...defaults.maintenanceCategories);

  const extraTypeIds = new Map<ExtraCounter, string>();
  for (const [key, spec] of Object.entries(EXTRA_COUNTERS) as [ExtraCounter, (typeof EXTRA_COUNTERS)[ExtraCounter]][]) {
    const base = ctx.row();
    extraTypeIds.set(key, base.nodeid);
    tables.counterTypes.push({ ...base, name: spec.name, unitnodeid: spec.unit });
  }

  const yearStart = now.getTime() - 365 * DAY_MS;
  const hoursReadings = new Map<string, Reading[]>();
  const hoursCounterIds = new Map<string, string>();

  for (const machine of structure.machines) {
    // Operating hours at the start of the seeded year, from the machine's age.
    const ageWeeks = Math.max(4, (yearStart - Date.UTC(machine.constructionYear, 6, 1)) / (7 * DAY_MS));
    const hoursCounter = ctx.row(ctx.setupAt);
    hoursCounterIds.set(machine.nodeid, hoursCounter.nodeid);
    tables.counters.push({ ...hoursCounter, name: 'Betriebsstunden', equipmentnodeid: machine.nodeid, countertypenodeid: defaults.operatingHoursCounterTypeId });

    const readings: Reading[] = [];
    let hours = Math.round(ageWeeks * machine.hoursPerWeek * random.float(0.75, 0.95));
    let at = yearStart + random.int(1, 12) * DAY_MS;
    let previous = yearStart;
    while (at < now.getTime() - DAY_MS) {
      hours += Math.round(((at - previous) / (7 * DAY_MS)) * machine.hoursPerWeek * random.float(0.8, 1.05));
      readings.push({ takenat: ctx.workTime(Math.floor((ctx.today - at) / DAY_MS)), value: hours });
      previous = at;
      at += random.int(26, 35) * DAY_MS;
    }
    hoursReadings.set(machine.nodeid, readings);
    pushReadings(ctx, organisation, machine, hoursCounter.nodeid, readings);

    for (const extra of KINDS[machine.kind].extraCounters) {
      const spec = EXTRA_COUNTERS[extra];
      const counter = ctx.row(ctx.setupAt);
      tables.counters.push({ ...counter, name: spec.name, equipmentnodeid: machine.nodeid, countertypenodeid: extraTypeIds.get(extra)! });
      const factor = random.float(spec.perHour[0], spec.perHour[1], 3);
      pushReadings(ctx, organisation, machine, counter.nodeid, readings.map((r) => ({ takenat: r.takenat, value: Math.round(r.value * factor) })));
    }
  }

  const categoryIds = defaults.maintenanceCategories.map((c) => c.nodeid!);
  const tasks: PlannedTask[] = [];
  let sequence = 0;
  const addTask = (machine: Machine, text: TaskText, startingfrom: Date) => {
    sequence += 1;
    const base = ctx.row(new Date(Math.min(startingfrom.getTime(), now.getTime()) - 14 * DAY_MS));
    const maintenancetaskid = `WA-${String(sequence).padStart(4, '0')}`;
    const pastOccurrences: Date[] = [];
    let nextdueat: Date | null = null;
    if (text.interval !== 'onetime' && !text.counter) {
      let due = startingfrom;
      while (due.getTime() <= now.getTime()) {
        if (due.getTime() > yearStart) pastOccurrences.push(due);
        due = nextOccurrence(due, text.interval);
      }
      nextdueat = due;
    }
    tables.maintenanceTasks.push({
      ...base,
      maintenancetaskid,
      title: text.title,
      safetynotice: text.safetynotice ? { de: text.safetynotice } : null,
      startingfrom,
      repetitioninterval: text.interval,
      nextdueat,
      triggertype: text.counter ? 'counter' : 'time',
      triggeringcounternodeid: text.counter ? hoursCounterIds.get(machine.nodeid)! : null,
      triggeringvalue: text.counter?.every ?? null,
      reminder: text.reminder,
      categorynodeid: categoryIds[CATEGORY[text.category]]!,
      equipmentnodeid: machine.nodeid,
    });
    // The task's procedure (hasworkflow with its steps).
    const workflow = ctx.row(base.createdAt);
    tables.workflows.push({ ...workflow, title: text.title, maintenancetasknodeid: base.nodeid, created: base.createdAt });
    text.steps.forEach((step, position) => {
      tables.workflowSteps.push({ ...ctx.row(base.createdAt), workflownodeid: workflow.nodeid, position, title: `Schritt ${position + 1}`, description: step, created: base.createdAt });
    });
    if (text.plannedHours) {
      tables.costs.push({ ...ctx.row(base.createdAt), name: 'Geplante Eigenleistung', value: text.plannedHours, costtypenodeid: defaults.costTypeIds.internalhours, specifier: 'plannedcost', maintenancetasknodeid: base.nodeid });
    }
    if (text.external) {
      const [low, high] = text.external.price;
      tables.costs.push({ ...ctx.row(base.createdAt), name: text.external.name, value: Math.round((low + high) / 2), costtypenodeid: defaults.costTypeIds.externalservices, specifier: 'plannedcost', maintenancetasknodeid: base.nodeid });
    }
    tasks.push({ nodeid: base.nodeid, maintenancetaskid, text, machine, pastOccurrences, nextdueat });
  };

  for (const machine of structure.machines) {
    for (const text of TASKS_BY_KIND[machine.kind]) addTask(machine, text, startingFrom(ctx, text.interval, Boolean(text.counter)));
  }
  // A one-time task still ahead: the spare pallet truck is checked before it goes into service.
  const spare = structure.machines.find((m) => m.spec.name.startsWith('HUB 02'));
  if (spare) {
    addTask(spare, { title: 'Prüfung vor Inbetriebnahme (Ersatzgerät)', interval: 'onetime', reminder: '1w', category: 'statutory', steps: ['Sichtprüfung, Funktionsprüfung Heben/Senken/Fahren.', 'Prüfplakette anbringen, Gerät einem Pool zuordnen.'], plannedHours: 1 }, new Date(ctx.today + 10 * DAY_MS + 8 * HOUR_MS));
  }

  buildTemplates(ctx, structure, categoryIds);
  return { costTypeIds: defaults.costTypeIds, tasks, hoursReadings };
}

/**
 * When a task's schedule began: frequent tasks were introduced a few weeks or months ago (so a year of history
 * stays readable), yearly ones early in the seeded year, multi-year ones before it.
 */
function startingFrom(ctx: DemoContext, interval: RepetitionInterval, counterTriggered: boolean): Date {
  const { random, today } = ctx;
  if (counterTriggered) return new Date(ctx.setupAt.getTime() + random.int(3, 20) * DAY_MS);
  const at = (ms: number) => new Date(Math.floor(ms / DAY_MS) * DAY_MS + random.int(6, 9) * HOUR_MS);
  switch (interval) {
    case '1w':
    case '2w':
      return at(today - random.int(4, 7) * 7 * DAY_MS);
    case '1m':
    case '2m': {
      const monthsAgo = random.int(2, 5);
      const d = new Date(today);
      return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - monthsAgo, random.int(1, 28), random.int(6, 9)));
    }
    case '3m':
    case '6m':
    case '12m':
      return at(today - random.int(300, 395) * DAY_MS);
    default: {
      const months = Number.parseInt(interval, 10);
      return at(today - random.int(200, months * 30) * DAY_MS);
    }
  }
}

function pushReadings(ctx: DemoContext, organisation: Organisation, machine: Machine, counternodeid: string, readings: Reading[]): void {
  for (const reading of readings) {
    const author = ctx.random.pick(techniciansAt(organisation, machine.site, reading.takenat, ctx.now));
    ctx.tables.counterReadings.push({ ...ctx.row(reading.takenat), counternodeid, value: reading.value, takenat: reading.takenat, createdbynodeid: author.nodeid });
  }
}

function buildTemplates(ctx: DemoContext, structure: Structure, categoryIds: string[]): void {
  const category = (key: keyof typeof CATEGORY) => categoryIds[CATEGORY[key]]!;
  const templates: { type?: string; text: TaskText }[] = [
    { text: { title: 'Elektroprüfung nach DGUV Vorschrift 3', interval: '24m', reminder: '1m', category: 'statutory', steps: ['Sichtprüfung', 'Schutzleiter- und Isolationsmessung', 'Protokoll und Plakette'] } },
    { text: { title: 'KSS wechseln und Tank reinigen', interval: '6m', reminder: '2w', category: 'cleaning', steps: ['Emulsion absaugen lassen', 'Tank reinigen', 'Neu ansetzen, Konzentration dokumentieren'] } },
    { type: 'efg216k', text: { title: 'UVV-Prüfung Gabelstapler', interval: '12m', reminder: '1m', category: 'statutory', steps: ['Prüfung nach DGUV Vorschrift 68', 'Prüfplakette erneuern'] } },
    { type: 'trulaser3030', text: { title: 'Jahreswartung TruLaser', interval: '12m', reminder: '1m', category: 'servicing', steps: ['Strahlführung prüfen', 'Kühlkreis warten', 'Schneidkopf kalibrieren'] } },
    { type: 'msd400', text: { title: 'Wiederkehrende Prüfung Servopresse', interval: '12m', reminder: '1m', category: 'statutory', steps: ['Bremsweg messen', 'Sicherheitssteuerung prüfen', 'Prüfbuch'] } },
    { type: 'contura', text: { title: 'Kalibrierung Koordinatenmessgerät', interval: '12m', reminder: '1m', category: 'calibration', steps: ['Kalibrierung nach DIN EN ISO 10360', 'Zertifikat ablegen'] } },
  ];
  for (const { type, text } of templates) {
    ctx.tables.maintenanceTaskTemplates.push({
      ...ctx.row(),
      title: text.title,
      safetynotice: text.safetynotice ? { de: text.safetynotice } : null,
      repetitioninterval: text.interval,
      triggertype: 'time',
      reminder: text.reminder,
      categorynodeid: category(text.category),
      equipmenttypenodeid: type ? structure.typeIds.get(type)! : null,
      steps: text.steps.map((step, i) => ({ title: `Schritt ${i + 1}`, description: step })),
    });
  }
}

/**
 * Tasks a planner set up only recently, with no occurrence done yet: each machining centre gets two short-interval
 * checks on top of its routine, so its maintenance list runs over one page (the table shows 5 rows a page).
 * Runs after every other builder and draws nothing from the random generator except ids, so the rest of the
 * demo plant stays as it was.
 */
export function buildRecentTasks(ctx: DemoContext, structure: Structure): void {
  const { tables } = ctx;
  const categoryIds = tables.maintenanceCategories.map((c) => c.nodeid!);
  const recent: (TaskText & { inDays: number })[] = [
    { title: 'Späneförderer reinigen und Späne entsorgen', interval: '1w', reminder: '2d', category: 'cleaning', steps: ['Späneförderer leerfahren, Siebe reinigen.', 'Spänewagen zur Entsorgung bringen.'], inDays: 3 },
    { title: 'Schutzscheiben und Türdichtungen prüfen', interval: '1m', reminder: '1w', category: 'inspection', steps: ['Sichtschutzscheibe auf Risse und Trübung prüfen.', 'Türdichtungen auf KSS-Austritt prüfen.'], inDays: 12 },
  ];
  let sequence = tables.maintenanceTasks.length;
  for (const machine of structure.machines.filter((m) => m.kind === 'millingCenter')) {
    for (const text of recent) {
      sequence += 1;
      const startingfrom = new Date(ctx.today + text.inDays * DAY_MS + 6 * HOUR_MS);
      const base = ctx.row(new Date(ctx.today - 2 * DAY_MS + 9 * HOUR_MS));
      tables.maintenanceTasks.push({
        ...base,
        maintenancetaskid: `WA-${String(sequence).padStart(4, '0')}`,
        title: text.title,
        safetynotice: null,
        startingfrom,
        repetitioninterval: text.interval,
        nextdueat: startingfrom,
        triggertype: 'time',
        triggeringcounternodeid: null,
        triggeringvalue: null,
        reminder: text.reminder,
        categorynodeid: categoryIds[CATEGORY[text.category]]!,
        equipmentnodeid: machine.nodeid,
      });
      const workflow = ctx.row(base.createdAt);
      tables.workflows.push({ ...workflow, title: text.title, maintenancetasknodeid: base.nodeid, created: base.createdAt });
      text.steps.forEach((step, position) => {
        tables.workflowSteps.push({ ...ctx.row(base.createdAt), workflownodeid: workflow.nodeid, position, title: `Schritt ${position + 1}`, description: step, created: base.createdAt });
      });
    }
  }
}
