/**
 * Where the FAQ form (/create-faq, /edit-faq, spec part 1 §2.3) is opened from and where it leads back to. The
 * machine's FAQ tab (origin `faq`) and the equipment type overview (origin `faqMB`) open it with this navigation
 * state; the form reads it back. Pure, so the rules are unit-tested.
 */
import { z } from 'zod';
import { FAQ_SPECIFIERS } from '../../shared/domain/faq';

export const FAQ_ORIGINS = ['faq', 'faqMB'] as const;
export type FaqOrigin = (typeof FAQ_ORIGINS)[number];

/**
 * The equipment type overview's navigation state: the machine whose FAQ tab opened it ("Zum Equipment-Typ"), which
 * its back link returns to. Kept through the FAQ form opened there, so a save or cancel still leads back to it.
 */
export const typeScreenStateSchema = z.object({ equipmentnodeid: z.uuid() });
export type TypeScreenState = z.infer<typeof typeScreenStateSchema>;

/** "Zum Equipment-Typ" on a machine's FAQ tab: the type overview leads back to that machine. */
export function typeScreenState(equipmentnodeid: string): TypeScreenState {
  return { equipmentnodeid };
}

/** The machine the equipment type overview was opened from, or null (a link, a typed URL). */
export function typeScreenMachine(state: unknown): string | null {
  const parsed = typeScreenStateSchema.safeParse(state);
  return parsed.success ? parsed.data.equipmentnodeid : null;
}

/**
 * The spec's state (from, pageType, specifier, equipmentnodeid), plus the type for `faqMB` and, in edit mode,
 * the FAQ. Add versus edit: a FAQ named in the state is edited, none means add. For `faqMB`, `equipmentnodeid` is
 * the machine the type overview was opened from (`TypeScreenState`), if any.
 */
export const faqFormStateSchema = z.object({
  from: z.enum(FAQ_ORIGINS),
  pageType: z.enum(['add', 'edit']).optional(),
  specifier: z.enum(FAQ_SPECIFIERS),
  equipmentnodeid: z.uuid().optional(),
  equipmenttypenodeid: z.uuid().optional(),
  faqnodeid: z.uuid().optional(),
});
export type FaqFormState = z.infer<typeof faqFormStateSchema>;

export interface FaqFormTarget {
  mode: 'add' | 'edit';
  origin: FaqOrigin;
  specifier: FaqFormState['specifier'];
  /**
   * The machine (origin `faq`) or type (origin `faqMB`) the form returns to; for a type, the machine its overview
   * was opened from (`machine`), so that screen still leads back to it.
   */
  returnTo: { kind: 'equipment'; nodeid: string } | { kind: 'equipmenttypes'; nodeid: string; machine: string | null };
  /** For add: the record the new FAQ belongs to (`isfaqof`). */
  isfaqof: string | null;
  faqnodeid: string | null;
}

/** The state a screen passes to open the form; null when it names nothing usable (a typed URL, an old link). */
export function resolveFaqForm(state: unknown): FaqFormTarget | null {
  const parsed = faqFormStateSchema.safeParse(state);
  if (!parsed.success) return null;
  const { from, specifier, equipmentnodeid, equipmenttypenodeid, faqnodeid } = parsed.data;
  const returnNodeid = from === 'faq' ? equipmentnodeid : equipmenttypenodeid;
  if (!returnNodeid) return null;
  const mode = faqnodeid ? 'edit' : 'add';
  const isfaqof = mode === 'add' ? (specifier === 'internalfaq' ? equipmentnodeid : equipmenttypenodeid) : undefined;
  if (mode === 'add' && !isfaqof) return null;
  return {
    mode,
    origin: from,
    specifier,
    returnTo: from === 'faq' ? { kind: 'equipment', nodeid: returnNodeid } : { kind: 'equipmenttypes', nodeid: returnNodeid, machine: equipmentnodeid ?? null },
    isfaqof: isfaqof ?? null,
    faqnodeid: faqnodeid ?? null,
  };
}

/**
 * Back link and the target after save or delete: origin `faq` → the machine's FAQ tab, `faqMB` → the type's
 * (spec: `/equipmenttype-overview?nodeid={type}&tab=2`, otherwise `/machine-overview?nodeid={machine}&tab=3`).
 * The spec goes through `tab=-1` to force a reload of the machine; the screens here read the live mirror, which
 * already shows the save, so the form goes straight to tab 3 (docs/decisions.md § Machine detail: FAQ).
 */
export function faqReturnPath(target: Pick<FaqFormTarget, 'returnTo'>): string {
  const id = encodeURIComponent(target.returnTo.nodeid);
  return target.returnTo.kind === 'equipment' ? `/machine-overview?nodeid=${id}&tab=3` : `/equipmenttype-overview?nodeid=${id}&tab=2`;
}

/** The navigation state that goes with `faqReturnPath`: the type overview's machine to lead back to, if any. */
export function faqReturnState(target: Pick<FaqFormTarget, 'returnTo'>): TypeScreenState | undefined {
  return target.returnTo.kind === 'equipmenttypes' && target.returnTo.machine ? { equipmentnodeid: target.returnTo.machine } : undefined;
}

/** "FAQ hinzufügen" on a machine's FAQ tab (spec: state from faq, pageType add, specifier internalfaq, equipmentnodeid). */
export function addMachineFaqState(equipmentnodeid: string): FaqFormState {
  return { from: 'faq', pageType: 'add', specifier: 'internalfaq', equipmentnodeid };
}

/** "FAQ hinzufügen" on an equipment type's FAQ tab; `machine`: the machine the type overview was opened from. */
export function addTypeFaqState(equipmenttypenodeid: string, machine: string | null = null): FaqFormState {
  return { from: 'faqMB', pageType: 'add', specifier: 'equipmenttypefaq', equipmenttypenodeid, ...(machine && { equipmentnodeid: machine }) };
}

/**
 * Editing a FAQ in the form, returning to the screen it was opened from: a machine's FAQ tab, or a type's (with the
 * machine that type overview was opened from, if any).
 */
export function editFaqState(faq: { nodeid: string; specifier: FaqFormState['specifier'] }, from: { equipmentnodeid: string } | { equipmenttypenodeid: string; machine?: string | null }): FaqFormState {
  return 'equipmenttypenodeid' in from
    ? { from: 'faqMB', pageType: 'edit', specifier: faq.specifier, equipmenttypenodeid: from.equipmenttypenodeid, ...(from.machine && { equipmentnodeid: from.machine }), faqnodeid: faq.nodeid }
    : { from: 'faq', pageType: 'edit', specifier: faq.specifier, equipmentnodeid: from.equipmentnodeid, faqnodeid: faq.nodeid };
}
