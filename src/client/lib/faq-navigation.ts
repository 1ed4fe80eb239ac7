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
 * The spec's state (from, pageType, specifier, equipmentnodeid), plus the type for `faqMB` and, in edit mode,
 * the FAQ. Add versus edit: a FAQ named in the state is edited, none means add.
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
  /** The machine (origin `faq`) or type (origin `faqMB`) the form returns to. */
  returnTo: { kind: 'equipment' | 'equipmenttypes'; nodeid: string };
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
    returnTo: { kind: from === 'faq' ? 'equipment' : 'equipmenttypes', nodeid: returnNodeid },
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

/** "FAQ hinzufügen" on a machine's FAQ tab (spec: state from faq, pageType add, specifier internalfaq, equipmentnodeid). */
export function addMachineFaqState(equipmentnodeid: string): FaqFormState {
  return { from: 'faq', pageType: 'add', specifier: 'internalfaq', equipmentnodeid };
}

/** "FAQ hinzufügen" on an equipment type's FAQ tab. */
export function addTypeFaqState(equipmenttypenodeid: string): FaqFormState {
  return { from: 'faqMB', pageType: 'add', specifier: 'equipmenttypefaq', equipmenttypenodeid };
}

/** Editing a FAQ in the form, returning to the screen it was opened from. */
export function editFaqState(faq: { nodeid: string; specifier: FaqFormState['specifier'] }, from: { equipmentnodeid: string } | { equipmenttypenodeid: string }): FaqFormState {
  return 'equipmentnodeid' in from
    ? { from: 'faq', pageType: 'edit', specifier: faq.specifier, equipmentnodeid: from.equipmentnodeid, faqnodeid: faq.nodeid }
    : { from: 'faqMB', pageType: 'edit', specifier: faq.specifier, equipmenttypenodeid: from.equipmenttypenodeid, faqnodeid: faq.nodeid };
}
