/**
 * The effort tab's "Kosten speichern" (spec part 1 §4.3: "save updates each changed cost"; declarations:
 * src/shared/mutations/costs.ts). Every changed value is a step — a new cost, or the update of a booked one — and
 * all steps of one save go into ONE transaction, so the save is on the device whole or not at all and is sent in
 * order once there is a connection.
 */
import type { CostSpecifier } from '../../../shared/domain/cost';
import { createCost, updateCost } from '../../../shared/mutations/costs';
import { mutateAll, mutationStep } from '../mutate';
import { newNodeId, type MutationRequest, type WriteContext } from '../outbox';
import type { EffortCell } from '../notification-costs';

/** A value the user typed for one cell (a cost type's planned or actual value); null: left empty. */
export interface EffortEdit {
  costtypenodeid: string;
  /** The cost's name: the type's German name (every save is in German). */
  name: string;
  specifier: CostSpecifier;
  /** The cell as the tab showed it. */
  before: EffortCell;
  value: number | null;
}

/** Whether the typed value differs from what the cell shows. */
export function effortEditChanges(edit: Pick<EffortEdit, 'before' | 'value'>): boolean {
  return edit.value !== edit.before.value;
}

/**
 * The steps of one edit. An empty cell gets a new cost (nothing for an empty value). A booked cell's first row
 * takes the value (an emptied cell: 0 — costs are not deleted here); further rows, which two devices can book on
 * the same type offline, go to 0, so the cell shows exactly what was typed.
 */
function stepsOf(notificationnodeid: string, edit: EffortEdit): MutationRequest[] {
  if (!effortEditChanges(edit)) return [];
  const [first, ...others] = edit.before.rows;
  if (!first) {
    if (edit.value === null) return [];
    return [
      mutationStep(
        createCost,
        {
          params: {},
          body: { lang: 'de', nodeid: newNodeId(), name: edit.name, value: edit.value, costTypeNodeId: edit.costtypenodeid, hasCostSourceNodeId: notificationnodeid, specifier: edit.specifier },
        },
        // why: the request names the source by id only; the device knows it is this notification (the mirror's index).
        { values: { notificationnodeid, reportnodeid: null, maintenancetasknodeid: null } },
      ),
    ];
  }
  const update = (nodeid: string, value: number) => mutationStep(updateCost, { params: { id: nodeid }, body: { lang: 'de', nodeid, value } });
  const target = edit.value ?? 0;
  return [...(first.value !== target ? [update(first.nodeid, target)] : []), ...others.filter((row) => row.value !== 0).map((row) => update(row.nodeid, 0))];
}

/**
 * Saves the changed cells of a notification's effort in one transaction. Throws MutationInputError (with the
 * field) for a value the server would refuse; nothing is queued then. Returns how many steps were queued.
 */
export async function saveEffort(context: WriteContext, notificationnodeid: string, edits: readonly EffortEdit[]): Promise<number> {
  const steps = edits.flatMap((edit) => stepsOf(notificationnodeid, edit));
  if (steps.length > 0) await mutateAll(context, steps);
  return steps.length;
}
