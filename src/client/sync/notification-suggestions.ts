/**
 * The candidates of "what the machine already knows" (src/shared/domain/suggestions.ts), read from the mirror so
 * they work offline: the machine's FAQs, its equipment type's FAQs, and the closed notifications with a solution of
 * this machine and of the other machines of the same equipment type.
 *
 * Read once per chosen machine (and again when the mirror changes), never per keystroke: the form ranks this
 * prepared set in memory on the debounced title. Every read is an indexed one — machines by
 * `equipmenttypenodeid`, notifications by `[equipmentnodeid+status]`, solutions by `notificationnodeid`, steps by
 * `workflownodeid` — so a tenant with 100,000 notifications reads only the closed ones of one type's machines.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { NOTIFICATION_STATUS } from '../../shared/domain/notification';
import { prepareCandidate, type PreparedCandidate, type SuggestionCandidate } from '../../shared/domain/suggestions';
import { localized } from '../../shared/domain/text';
import { getLocalDb, type LocalDatabase, type MirrorRow } from '../db/local-db';
import { readMachineFaqs } from './faq-mirror';
import { isLive } from './mirror-fields';

/** At most this many solved notifications are candidates (the most recently closed): the set stays small to rank. */
export const SOLVED_CANDIDATE_LIMIT = 3000;
/** How much of a FAQ answer the panel shows under its question. */
const SUMMARY_LENGTH = 140;

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null);
const time = (value: unknown): number | null => (typeof value === 'number' && value > 0 ? value : null);
const shorten = (value: string | null): string | null => (value && value.length > SUMMARY_LENGTH ? `${value.slice(0, SUMMARY_LENGTH - 1)}…` : value);

async function solvedCandidates(db: LocalDatabase, equipmentnodeid: string, typenodeid: string | null, language: string, exclude: string | null): Promise<SuggestionCandidate[]> {
  const siblings = typenodeid ? (await db.mirror('equipment').where('equipmenttypenodeid').equals(typenodeid).toArray()).filter(isLive) : [];
  const machines = new Map<string, MirrorRow>(siblings.map((row) => [row.nodeid, row]));
  if (!machines.has(equipmentnodeid)) {
    const own = await db.mirror('equipment').get(equipmentnodeid);
    if (own) machines.set(equipmentnodeid, own);
  }
  const closed = (
    await db
      .mirror('notifications')
      .where('[equipmentnodeid+status]')
      .anyOf([...machines.keys()].map((nodeid) => [nodeid, NOTIFICATION_STATUS.closed]))
      .toArray()
  )
    .filter((row) => isLive(row) && row.nodeid !== exclude)
    .sort((a, b) => (time(b.closed) ?? time(b.created) ?? 0) - (time(a.closed) ?? time(a.created) ?? 0))
    .slice(0, SOLVED_CANDIDATE_LIMIT);
  if (closed.length === 0) return [];
  const workflows = (await db.mirror('workflows').where('notificationnodeid').anyOf(closed.map((row) => row.nodeid)).toArray()).filter(isLive);
  if (workflows.length === 0) return [];
  const steps = (await db.mirror('workflowsteps').where('workflownodeid').anyOf(workflows.map((row) => row.nodeid)).toArray()).filter(isLive);
  const stepsOf = new Map<string, MirrorRow[]>();
  for (const step of steps) stepsOf.set(String(step.workflownodeid), [...(stepsOf.get(String(step.workflownodeid)) ?? []), step]);
  const solutionsOf = new Map<string, MirrorRow[]>();
  for (const workflow of workflows) solutionsOf.set(String(workflow.notificationnodeid), [...(solutionsOf.get(String(workflow.notificationnodeid)) ?? []), workflow]);

  const candidates: SuggestionCandidate[] = [];
  for (const row of closed) {
    const solutions = solutionsOf.get(row.nodeid);
    if (!solutions) continue;
    const solutionTexts = solutions.flatMap((workflow) => [
      text(workflow.title),
      ...(stepsOf.get(workflow.nodeid) ?? []).sort((a, b) => Number(a.position ?? 0) - Number(b.position ?? 0)).flatMap((step) => [text(step.title), text(step.description)]),
    ]);
    const machine = machines.get(String(row.equipmentnodeid));
    candidates.push({
      kind: 'solution',
      scope: row.equipmentnodeid === equipmentnodeid ? 'machine' : 'type',
      nodeid: row.nodeid,
      title: text(row.title) ?? '',
      body: [text(row.description), ...solutionTexts].filter(Boolean).join(' '),
      errorcode: text(row.errorcode),
      at: time(row.closed) ?? time(row.created),
      summary: shorten(solutions.map((workflow) => text(workflow.title)).find(Boolean) ?? solutionTexts.find(Boolean) ?? null),
      ownerName: machine ? localized(machine.name, language) : null,
      ownernodeid: text(row.equipmentnodeid),
    });
  }
  return candidates;
}

/**
 * The prepared candidates for a machine (its notification `exclude` left out, when the form edits one); empty
 * when no machine is chosen or the mirror does not have it.
 */
export async function readSuggestionCandidates(db: LocalDatabase, equipmentnodeid: string | null, language: string, exclude: string | null = null): Promise<PreparedCandidate[]> {
  if (!equipmentnodeid) return [];
  const faqs = await readMachineFaqs(db, equipmentnodeid, language);
  if (!faqs) return [];
  const machineName = localized((await db.mirror('equipment').get(equipmentnodeid))?.name, language);
  const faqCandidates: SuggestionCandidate[] = [
    ...faqs.machine.map((faq): SuggestionCandidate => ({
      kind: 'faq',
      scope: 'machine',
      nodeid: faq.nodeid,
      title: faq.question,
      body: faq.answer,
      errorcode: null,
      at: null,
      summary: shorten(faq.answer),
      ownerName: machineName,
      ownernodeid: equipmentnodeid,
    })),
    ...faqs.type.map((faq): SuggestionCandidate => ({
      kind: 'faq',
      scope: 'type',
      nodeid: faq.nodeid,
      title: faq.question,
      body: faq.answer,
      errorcode: null,
      at: null,
      summary: shorten(faq.answer),
      ownerName: faqs.typeModel,
      ownernodeid: faqs.equipmenttypenodeid,
    })),
  ];
  const solved = await solvedCandidates(db, equipmentnodeid, faqs.equipmenttypenodeid, language, exclude);
  return [...faqCandidates, ...solved].map(prepareCandidate);
}

/** undefined while reading. */
export function useSuggestionCandidates(equipmentnodeid: string | null, language: string, exclude: string | null): PreparedCandidate[] | undefined {
  return useLiveQuery(() => readSuggestionCandidates(getLocalDb(), equipmentnodeid, language, exclude), [equipmentnodeid, language, exclude]);
}
