import type { NotificationType } from '../../../../shared/domain/notification';
import { createRandom } from '../random';
import { type Organisation, type Person } from './build-organisation';
import type { Machine, Structure } from './build-structure';
import { DAY_MS, type DemoContext, HOUR_MS } from './context';
import { TASKS_BY_KIND } from './maintenance-texts';
import { NOTIFICATION_TEXTS } from './notification-texts';
import { EXAMPLE_MACHINE } from './build-notifications';

// The years before the plant used Anlagenbuch: when it started (`setupAt`, about 13 months ago) the maintenance
// team carried the paper logbook of its older machines over, so those machines' history reaches back several
// years (the history tab's timeline and its report show more than one year). Only closed notifications: what was
// open then is in the year the generator of build-notifications.ts writes.

/** Machines whose paper logbook was carried over, besides the ones the e2e tests and screenshots open. */
const CARRIED_OVER = 5;
/** Always carried over: the machine the tests and the documentation use as their example. */
const ALWAYS = [EXAMPLE_MACHINE];
/** How far back the paper logbook goes. */
const YEARS_BACK = 4;
const CARRIED_OVER_NOTE = 'Übernommen aus dem Papier-Anlagenbuch.';

// why its own stream: drawing from the shared content stream would change every row built after this one; this
// builder runs last and takes ids last, so the rest of the demo plant stays what it was.
const HISTORY_SEED = 0x4157_0e1;

export function buildHistory(ctx: DemoContext, organisation: Organisation, structure: Structure): void {
  const random = createRandom(HISTORY_SEED);
  const setupYear = ctx.setupAt.getUTCFullYear();
  const old = structure.machines.filter((m) => m.constructionYear < setupYear - 1);
  const chosen = [...old.filter((m) => ALWAYS.includes(m.spec.name)), ...random.sample(old.filter((m) => !ALWAYS.includes(m.spec.name)), CARRIED_OVER)];
  const admin = organisation.people.find((p) => p.key === 'admin')!;

  for (const machine of chosen) {
    const people = organisation.people.filter((p) => p.sites.includes(machine.site) && p.profileid !== 'reader');
    const technicians = people.filter((p) => p.profileid === 'technician');
    const texts = NOTIFICATION_TEXTS.filter((t) => t.kinds === 'any' || t.kinds.includes(machine.kind));
    const yearly = TASKS_BY_KIND[machine.kind].filter((task) => task.interval === '12m' || task.interval === '24m' || task.category === 'statutory');
    const firstYear = Math.max(machine.constructionYear, setupYear - YEARS_BACK);

    for (let year = firstYear; year <= setupYear; year++) {
      const yearStart = Date.UTC(year, 0, 1);
      const yearEnd = Math.min(Date.UTC(year + 1, 0, 1), ctx.setupAt.getTime() - 2 * DAY_MS);
      if (yearEnd <= yearStart + 30 * DAY_MS) continue;
      const day = () => Math.floor(yearStart / DAY_MS) + random.int(0, Math.floor((yearEnd - yearStart) / DAY_MS) - 1);
      const workTime = (dayIndex: number) => new Date(dayIndex * DAY_MS + random.int(6 * 60, 15 * 60) * 60_000);

      for (const task of yearly) {
        if (task.interval === '24m' && (year - firstYear) % 2 === 1) continue;
        const due = workTime(day());
        const hours = Math.max(0.5, (task.plannedHours ?? 1) * random.float(0.8, 1.3));
        const progressstarted = new Date(due.getTime() + random.int(0, 3) * HOUR_MS);
        add(ctx, machine, {
          type: 6,
          title: task.title,
          description: `${task.steps.map((s) => `• ${s}`).join('\n')}\n${CARRIED_OVER_NOTE}`,
          created: new Date(Math.max(yearStart, due.getTime() - random.int(3, 10) * DAY_MS)),
          progressstarted,
          closed: new Date(progressstarted.getTime() + hours * HOUR_MS),
          dueuntil: due,
          errorcode: null,
          author: admin,
        });
      }

      const count = random.int(2, 4);
      for (let i = 0; i < count && texts.length > 0; i++) {
        const text = random.pick(texts);
        const created = workTime(day());
        const author = pick(random, people, admin);
        const worker = pick(random, technicians, admin);
        const progressstarted = new Date(created.getTime() + random.int(10, 240) * 60_000);
        const duration = text.downtimeHours ? random.float(...text.downtimeHours) : random.float(0.5, 48);
        const closed = new Date(progressstarted.getTime() + duration * HOUR_MS);
        const nodeid = add(ctx, machine, {
          type: text.type,
          title: text.title,
          description: `${text.description}\n${CARRIED_OVER_NOTE}`,
          created,
          progressstarted,
          closed,
          dueuntil: null,
          errorcode: text.errorcode ?? null,
          author,
        });
        if (text.solution && random.chance(0.5)) {
          const workflow = ctx.row(closed);
          ctx.tables.workflows.push({ ...workflow, title: text.solution.title, notificationnodeid: nodeid, authornodeid: worker.nodeid, created: closed });
          text.solution.steps.forEach((step, position) => {
            ctx.tables.workflowSteps.push({ ...ctx.row(closed), workflownodeid: workflow.nodeid, position, title: position === 0 ? text.solution!.title : null, description: step, created: closed, authornodeid: worker.nodeid });
          });
        }
      }
    }
  }
}

function pick(random: ReturnType<typeof createRandom>, people: Person[], fallback: Person): Person {
  return people.length > 0 ? random.pick(people) : fallback;
}

interface CarriedOver {
  type: NotificationType;
  title: string;
  description: string;
  created: Date;
  progressstarted: Date;
  closed: Date;
  dueuntil: Date | null;
  errorcode: string | null;
  author: Person;
}

function add(ctx: DemoContext, machine: Machine, input: CarriedOver): string {
  // Entered when the plant started using the product: that is when the row was made.
  const base = ctx.row(ctx.setupAt);
  ctx.tables.notifications.push({
    ...base,
    type: input.type,
    status: 2,
    title: input.title,
    description: input.description,
    created: input.created,
    progressstarted: input.progressstarted,
    closed: input.closed,
    dueuntil: input.dueuntil,
    errorcode: input.errorcode,
    equipmentnodeid: machine.nodeid,
    authornodeid: input.author.nodeid,
    maintenancetasknodeid: null,
  });
  return base.nodeid;
}
