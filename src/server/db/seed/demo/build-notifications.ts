import type { NotificationStatus, NotificationType } from '../../../../shared/domain/notification';
import { damagePhotoSvg, signatureSvg, simplePdf } from '../demo-files';
import { KINDS } from './catalog';
import { DAY_MS, type DemoContext, HOUR_MS } from './context';
import { type Organisation, type Person, personByKey } from './build-organisation';
import { type Maintenance, type PlannedTask, techniciansAt } from './build-maintenance';
import type { Machine, Structure } from './build-structure';
import { CHAT_LINES, NOTIFICATION_TEXTS, type NotificationText } from './notification-texts';

const MINUTE_MS = 60_000;

/** How many notifications of each type the year holds besides planned maintenance (type 6). */
const YEARLY_COUNTS: Record<NotificationText['type'], number> = { 0: 22, 1: 18, 2: 14, 3: 16, 7: 14, 8: 16, 9: 10, 10: 12, 11: 10, 12: 18 };

const REPORT_COMMENTS = [
  'Arbeiten nach Wartungsplan ausgeführt, keine Auffälligkeiten.',
  'Wartung durchgeführt. Leichte Undichtigkeit an Verschraubung festgestellt und nachgezogen.',
  'Alle Punkte i. O. Verschleißteile für nächste Wartung vormerken.',
  'Durchgeführt. Maschine im Anschluss 30 min Probelauf.',
  'Erledigt, Prüfplakette erneuert.',
  'Ohne Befund. Arbeitsraum gereinigt übergeben.',
];

interface NotificationInput {
  machine: Machine;
  type: NotificationType;
  title: string;
  description: string;
  created: Date;
  author: Person;
  status: NotificationStatus;
  progressstarted: Date | null;
  closed: Date | null;
  dueuntil?: Date | null;
  errorcode?: string | null;
  maintenancetasknodeid?: string | null;
}

export function buildNotifications(ctx: DemoContext, organisation: Organisation, structure: Structure, maintenance: Maintenance): void {
  const builder = new NotificationBuilder(ctx, organisation, maintenance);
  for (const task of maintenance.tasks) builder.plannedMaintenance(task);
  for (const [type, count] of Object.entries(YEARLY_COUNTS)) {
    const texts = NOTIFICATION_TEXTS.filter((t) => t.type === Number(type));
    for (let i = 0; i < count; i++) {
      const text = ctx.random.pick(texts);
      const eligible = structure.machines.filter((m) => text.kinds === 'any' || text.kinds.includes(m.kind));
      builder.reported(ctx.random.pick(eligible), text);
    }
  }
  builder.chats();
}

class NotificationBuilder {
  private readonly admin: Person;
  /** Notifications a chat makes sense on, with the people involved. */
  private readonly discussable: { nodeid: string; title: string; created: Date; people: Person[] }[] = [];

  constructor(
    private readonly ctx: DemoContext,
    private readonly organisation: Organisation,
    private readonly maintenance: Maintenance,
  ) {
    this.admin = personByKey(organisation.people, 'admin');
  }

  private add(input: NotificationInput): string {
    const base = this.ctx.row(input.created);
    base.updatedAt = input.closed ?? input.progressstarted ?? input.created;
    this.ctx.tables.notifications.push({
      ...base,
      type: input.type,
      status: input.status,
      title: input.title,
      description: input.description,
      created: input.created,
      progressstarted: input.progressstarted,
      closed: input.closed,
      dueuntil: input.dueuntil ?? null,
      errorcode: input.errorcode ?? null,
      equipmentnodeid: input.machine.nodeid,
      authornodeid: input.author.nodeid,
      maintenancetasknodeid: input.maintenancetasknodeid ?? null,
    });
    return base.nodeid;
  }

  private assign(notificationnodeid: string, user: Person, at: Date): void {
    this.ctx.tables.notificationAssignments.push({ ...this.ctx.row(at), notificationnodeid, usernodeid: user.nodeid, assignedbynodeid: this.admin.nodeid });
  }

  private cost(source: { notificationnodeid?: string; reportnodeid?: string }, key: keyof Maintenance['costTypeIds'], name: string, value: number, at: Date, author: Person): void {
    this.ctx.tables.costs.push({ ...this.ctx.row(at), ...source, name, value: Math.round(value * 100) / 100, costtypenodeid: this.maintenance.costTypeIds[key], specifier: 'actualcost', authornodeid: author.nodeid });
  }

  private attach(target: { nodeid: string; kind: 'notification' | 'workflowstep' | 'report' }, file: { bytes: Uint8Array; mimetype: string; extension: string }, title: string, at: Date, author: Person): void {
    const filenodeid = this.ctx.addFile({ ...file, createdAt: at, createdBy: author.nodeid });
    this.ctx.tables.attachments.push({ ...this.ctx.row(at), title, description: null, specifier: null, filenodeid, isattachmentof: target.nodeid, targetkind: target.kind, authornodeid: author.nodeid });
  }

  /** Status, start and close times for something reported `ageDays` ago that takes `durationHours` to fix. */
  private lifecycle(created: Date, ageDays: number, durationHours: number, stillOpenBias = 0): Pick<NotificationInput, 'status' | 'progressstarted' | 'closed'> {
    const { random } = this.ctx;
    const closedShare = ageDays > 30 ? 0.92 - stillOpenBias : ageDays > 7 ? 0.55 : 0.25;
    const roll = random.next();
    if (roll >= closedShare && roll < closedShare + (1 - closedShare) / 2) return { status: 0, progressstarted: null, closed: null };
    const progressstarted = this.ctx.clampToPast(this.ctx.plus(created, random.int(10, 6 * 60) * MINUTE_MS), created);
    if (roll >= closedShare) return { status: 1, progressstarted, closed: null };
    const closed = new Date(progressstarted.getTime() + durationHours * HOUR_MS);
    if (closed.getTime() > this.ctx.now.getTime()) return { status: 1, progressstarted, closed: null };
    return { status: 2, progressstarted, closed };
  }

  /** One occurrence per due date of a task: done and signed, or still open when recent; plus the next one when close. */
  plannedMaintenance(task: PlannedTask): void {
    const { ctx } = this;
    const { random, now } = ctx;
    const description = `Geplante Wartung ${task.maintenancetaskid} laut Wartungsplan.\n${task.text.steps.map((s) => `• ${s}`).join('\n')}`;
    const occurrences = [...task.pastOccurrences];
    if (task.text.counter) occurrences.push(...this.counterCrossings(task));

    for (const due of occurrences) {
      const created = new Date(due.getTime() - random.int(2, 7) * DAY_MS);
      const ageDays = (now.getTime() - due.getTime()) / DAY_MS;
      const worker = random.pick(techniciansAt(this.organisation, task.machine.site, due, now));
      // Recent occurrences are sometimes not done yet: untouched (overdue) or started.
      const pending = ageDays < 10 && random.chance(0.4);
      const started = !pending || random.chance(0.5);
      const hours = Math.max(0.25, (task.text.plannedHours ?? 1) * random.float(0.8, 1.4));
      const progressstarted = started ? ctx.clampToPast(new Date(due.getTime() + random.int(-20, 40) * HOUR_MS), created) : null;
      const closed = progressstarted && !pending ? ctx.clampToPast(new Date(progressstarted.getTime() + hours * HOUR_MS), progressstarted) : null;
      const nodeid = this.add({
        machine: task.machine,
        type: 6,
        title: task.text.title,
        description,
        created,
        author: this.admin,
        status: closed ? 2 : progressstarted ? 1 : 0,
        progressstarted,
        closed,
        dueuntil: due,
        maintenancetasknodeid: task.nodeid,
      });
      if (closed) this.report(nodeid, task, worker, closed, hours);
      else this.assign(nodeid, worker, created);
    }

    if (task.nextdueat && task.nextdueat.getTime() - now.getTime() < 21 * DAY_MS) {
      // Generated when its reminder window opened, which for an occurrence this close may have been days ago.
      const planned = task.nextdueat.getTime() - random.int(7, 14) * DAY_MS;
      const created = new Date(Math.min(planned, now.getTime() - random.int(1, 72) * HOUR_MS));
      const nodeid = this.add({ machine: task.machine, type: 6, title: task.text.title, description, created, author: this.admin, status: 0, progressstarted: null, closed: null, dueuntil: task.nextdueat, maintenancetasknodeid: task.nodeid });
      if (random.chance(0.7)) this.assign(nodeid, random.pick(techniciansAt(this.organisation, task.machine.site, now, now)), created);
    }
  }

  /** Counter-triggered tasks fell due where operating hours passed a multiple of the trigger value. */
  private counterCrossings(task: PlannedTask): Date[] {
    const every = task.text.counter!.every;
    const readings = this.maintenance.hoursReadings.get(task.machine.nodeid) ?? [];
    const crossings: Date[] = [];
    for (let i = 1; i < readings.length; i++) {
      if (Math.floor(readings[i]!.value / every) > Math.floor(readings[i - 1]!.value / every)) crossings.push(new Date(readings[i]!.takenat.getTime() + DAY_MS));
    }
    return crossings.filter((d) => d.getTime() < this.ctx.now.getTime() - 2 * DAY_MS);
  }

  private report(notificationnodeid: string, task: PlannedTask, worker: Person, executed: Date, hours: number): void {
    const { ctx } = this;
    const { random } = ctx;
    const created = ctx.clampToPast(new Date(executed.getTime() + random.int(5, 90) * MINUTE_MS), executed);
    const signatureImage = random.chance(0.5)
      ? ctx.addFile({ bytes: signatureSvg(worker.fullname, random), mimetype: 'image/svg+xml', extension: 'svg', createdAt: created, createdBy: worker.nodeid })
      : null;
    const report = ctx.row(created);
    ctx.tables.reports.push({ ...report, notificationnodeid, executed, comment: random.pick(REPORT_COMMENTS), authorsignature: worker.fullname, authorsignatureimagefilenodeid: signatureImage, created, authornodeid: worker.nodeid });

    const source = { reportnodeid: report.nodeid };
    this.cost(source, 'internalhours', 'Eigenleistung Instandhaltung', Math.round(hours * 4) / 4, created, worker);
    if (task.text.parts && random.chance(0.85)) this.cost(source, 'parts', task.text.parts.name, random.float(...task.text.parts.price), created, worker);
    if (task.text.external) this.cost(source, 'externalservices', task.text.external.name, random.float(...task.text.external.price), created, worker);
    if (random.chance(0.3)) this.cost(source, 'operatingmaterials', 'Reinigungsmittel, Putztücher', random.float(8, 45), created, worker);
    if (task.text.external && task.text.category === 'statutory') {
      this.attach({ nodeid: report.nodeid, kind: 'report' }, {
        bytes: simplePdf(`Prüfprotokoll ${task.text.title}`, [
          `Anlage: ${task.machine.spec.name} (${task.machine.type.model})`,
          `Prüfdatum: ${executed.toISOString().slice(0, 10)}`,
          `Prüfer: ${task.text.external.name}`,
          'Ergebnis: Keine Mängel festgestellt. Nächste Prüfung laut Intervall.',
        ]),
        mimetype: 'application/pdf',
        extension: 'pdf',
      }, 'Prüfprotokoll', created, worker);
    }
  }

  /** A notification somebody wrote about a machine, with what followed. */
  reported(machine: Machine, text: NotificationText): void {
    const { ctx } = this;
    const { random, now } = ctx;
    const ageDays = random.int(0, 364);
    const created = ctx.workTime(ageDays);
    const reporters = this.organisation.people.filter((p) => p.sites.includes(machine.site) && (p.active || ageDays > 200));
    const author = random.pick(reporters);
    const duration = text.downtimeHours ? random.float(...text.downtimeHours) : random.float(0.5, 72);
    // Improvements and notes are often left open for a while; that is how such lists look.
    const life = this.lifecycle(created, ageDays, duration, text.type === 9 ? 0.4 : 0);
    const worker = random.pick(techniciansAt(this.organisation, machine.site, created, now));
    const dueuntil = text.type === 3 || text.type === 9 ? new Date(created.getTime() + random.int(7, 30) * DAY_MS) : null;
    const nodeid = this.add({ machine, type: text.type, title: text.title, description: text.description, created, author, ...life, dueuntil, errorcode: text.errorcode ?? null });

    if (text.photo) {
      this.attach({ nodeid, kind: 'notification' }, { bytes: damagePhotoSvg(`${machine.spec.name}: ${text.title}`, random), mimetype: 'image/svg+xml', extension: 'svg' }, 'Foto vor Ort', created, author);
    }
    if (life.status < 2 ? random.chance(0.7) : random.chance(0.5)) this.assign(nodeid, worker, created);

    if (text.solution && life.progressstarted) {
      const steps = life.status === 2 ? text.solution.steps : text.solution.steps.slice(0, 1);
      const documented = ctx.clampToPast(life.closed ?? new Date(life.progressstarted.getTime() + HOUR_MS), life.progressstarted);
      const workflow = ctx.row(documented);
      ctx.tables.workflows.push({ ...workflow, title: text.solution.title, notificationnodeid: nodeid, authornodeid: worker.nodeid, created: documented });
      steps.forEach((step, position) => {
        const stepRow = ctx.row(documented);
        ctx.tables.workflowSteps.push({ ...stepRow, workflownodeid: workflow.nodeid, position, title: position === 0 ? text.solution!.title : null, description: step, created: documented, authornodeid: worker.nodeid });
        if (position === steps.length - 1 && random.chance(0.2)) {
          this.attach({ nodeid: stepRow.nodeid, kind: 'workflowstep' }, { bytes: damagePhotoSvg(`Nach Reparatur: ${machine.spec.name}`, random), mimetype: 'image/svg+xml', extension: 'svg' }, 'Foto nach Reparatur', documented, worker);
        }
      });
    }

    if (life.closed) {
      const source = { notificationnodeid: nodeid };
      const at = life.closed;
      if ([0, 7, 8, 10, 11, 12].includes(text.type)) this.cost(source, 'internalhours', 'Eigenleistung Instandhaltung', Math.round(random.float(0.5, Math.min(duration, 10)) * 4) / 4, at, worker);
      if (text.part) this.cost(source, 'parts', text.part.name, random.float(...text.part.price), at, worker);
      if (text.external) this.cost(source, 'externalservices', text.external.name, random.float(...text.external.price), at, worker);
      if (text.downtimeHours) this.cost(source, 'downtime', `Stillstand ${machine.spec.name.split(' ').slice(0, 2).join(' ')}`, Math.round(duration * 4) / 4, at, worker);
      if (KINDS[machine.kind].media.length > 2 && random.chance(0.15)) this.cost(source, 'operatingmaterials', 'Hydrauliköl / Schmierstoff', random.float(20, 180), at, worker);
    }

    if ([0, 1, 3, 8, 10, 11, 12].includes(text.type) && (life.status === 1 || ageDays < 60)) {
      const people = [author, worker, this.admin].filter((p, i, all) => all.findIndex((q) => q.nodeid === p.nodeid) === i);
      this.discussable.push({ nodeid, title: text.title, created, people });
    }
  }

  /** Chat rooms on some of the notifications that needed discussion. */
  chats(): void {
    const { ctx } = this;
    const { random } = ctx;
    for (const topic of random.sample(this.discussable, 16)) {
      const room = ctx.row(topic.created);
      ctx.tables.chatRooms.push({ ...room, name: topic.title, notificationnodeid: topic.nodeid });
      let sent = topic.created;
      for (const person of topic.people) {
        ctx.tables.chatRoomMembers.push({ ...ctx.row(topic.created), chatroomnodeid: room.nodeid, usernodeid: person.nodeid, lastreadat: null });
      }
      const first = random.int(0, CHAT_LINES.length - 1);
      const count = random.int(3, 6);
      for (let i = 0; i < count; i++) {
        sent = ctx.clampToPast(new Date(sent.getTime() + random.int(15, 300) * MINUTE_MS), sent);
        const author = topic.people[i % topic.people.length]!;
        ctx.tables.chatMessages.push({ ...ctx.row(sent), chatroomnodeid: room.nodeid, authornodeid: author.nodeid, body: CHAT_LINES[(first + i) % CHAT_LINES.length]!, sent });
      }
      const members = ctx.tables.chatRoomMembers.filter((m) => m.chatroomnodeid === room.nodeid);
      for (const member of members) member.lastreadat = sent;
    }
  }
}

/** The machine the e2e tests and the documentation open as their example. */
export const EXAMPLE_MACHINE = 'BAZ 02 Fräszentrum';

/**
 * The example machine always has a fault in progress. Which generated reports are still open depends on the hour
 * the plant is built (a short repair reported this morning is closed by the afternoon), and on some hours none of
 * BAZ 02's was: the screens and tests that open "a fault on BAZ 02" found only planned maintenance. Runs after every
 * other builder and draws nothing from the random generator except ids, so the rest of the plant stays as it was.
 */
export function buildExampleFault(ctx: DemoContext, organisation: Organisation, structure: Structure): void {
  const machine = structure.machines.find((m) => m.spec.name === EXAMPLE_MACHINE);
  const author = organisation.people.find((p) => p.profileid === 'technician' && p.active && p.sites.includes(machine?.site ?? ''));
  if (!machine || !author) throw new Error(`demo plant: ${EXAMPLE_MACHINE} with a technician of its site is missing`);
  const created = ctx.clampToPast(new Date(ctx.now.getTime() - 26 * HOUR_MS));
  const progressstarted = ctx.clampToPast(new Date(created.getTime() + 45 * MINUTE_MS), created);
  const base = ctx.row(created);
  ctx.tables.notifications.push({
    ...base,
    updatedAt: progressstarted,
    type: 1,
    status: 1,
    title: 'Kühlmitteldruck der Innenkühlung schwankt',
    description: 'Die Druckanzeige der Innenkühlung pendelt zwischen 20 und 45 bar, die Bearbeitung läuft noch. Filter geprüft, sauber.',
    created,
    progressstarted,
    closed: null,
    dueuntil: null,
    errorcode: null,
    equipmentnodeid: machine.nodeid,
    authornodeid: author.nodeid,
    maintenancetasknodeid: null,
  });
}
