/**
 * The area and pool forms' kept input (stores/kept-form.ts): a name, the machines checked in the selection dialog,
 * and for an area its plant and weekly shift plan. An admin who spent minutes picking forty machines for a hall
 * loses none of it to a reload, a tab the browser killed, or a tap on the navigation.
 */
import { isWeekday, sameShiftPlan } from '../../../shared/domain/shift';
import { toEditorRows, type ShiftEditorRow } from '../../components/shift-editor';
import { recordDraftKey, type FormModel } from '../../stores/kept-form';

export interface GroupFormValues {
  /** The area's plant (chosen in the form when none was given); '' for a pool. */
  sitenodeid: string;
  name: string;
  /** The machines checked in the selection dialog. */
  selected: string[];
  /** The area's weekly shifts (edited in edit mode only); [] for a pool. */
  shifts: ShiftEditorRow[];
}

export const AREA_DRAFT_KIND = 'area-form-draft';
export const POOL_DRAFT_KIND = 'pool-form-draft';

/** The draft's key: the record's id when editing; when adding, "new" (an area: per plant it is added to). */
export const groupDraftKey = (nodeid: string | null, addTo = ''): string => (nodeid === null && addTo ? `new:${addTo}` : recordDraftKey(nodeid));

export const emptyGroupForm = (sitenodeid = ''): GroupFormValues => ({ sitenodeid, name: '', selected: [], shifts: [] });

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function isShiftEditorRow(value: unknown): value is ShiftEditorRow {
  if (!isObject(value)) return false;
  const { key, start, end, weekdays, unmanned } = value;
  return typeof key === 'string' && typeof start === 'string' && typeof end === 'string' && typeof unmanned === 'boolean' && Array.isArray(weekdays) && weekdays.every(isWeekday);
}

const sameMembers = (a: readonly string[], b: readonly string[]): boolean => {
  const one = new Set(a);
  const other = new Set(b);
  return one.size === other.size && [...one].every((id) => other.has(id));
};

export const GROUP_FORM_MODEL: FormModel<GroupFormValues> = {
  accept: (value): value is GroupFormValues =>
    isObject(value) &&
    typeof value.sitenodeid === 'string' &&
    typeof value.name === 'string' &&
    Array.isArray(value.selected) &&
    value.selected.every((id) => typeof id === 'string') &&
    Array.isArray(value.shifts) &&
    value.shifts.every(isShiftEditorRow),
  // Shift rows get fresh keys: the editor's key counter starts again after a reload, and keys must not collide.
  pick: ({ sitenodeid, name, selected, shifts }) => ({ sitenodeid, name, selected: [...selected], shifts: toEditorRows(shifts) }),
  // Choosing only a plant for a new area is nothing worth keeping.
  unchanged: (values, initial) =>
    initial
      ? values.sitenodeid === initial.sitenodeid && values.name === initial.name && sameMembers(values.selected, initial.selected) && sameShiftPlan(values.shifts, initial.shifts)
      : values.name.trim() === '' && values.selected.length === 0 && values.shifts.length === 0,
};

