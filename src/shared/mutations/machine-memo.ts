import { updateMemoSchema } from '../api/equipment';
import { defineUpdate, idParams } from './mutation';

/** The machine memo (Notiz), spec part 1 §2.1 overview tab, §5, §7; feature key `equipment`. */

/**
 * The memo card's save: the part-1 memo update {lang, equipmentnodeid, memo}. The route belongs to the
 * equipment update (PUT /equipments/{id} changes only the fields sent); this is a narrower use of it that sends
 * the memo alone, so a stale copy of the machine on the device never overwrites its other fields.
 */
export const updateEquipmentMemo = defineUpdate({
  name: 'updateEquipmentMemo',
  route: '/equipments/:id',
  params: idParams,
  body: updateMemoSchema,
  permission: { feature: 'equipment', flag: 'update' },
  kind: 'equipment',
  // The body's schema already trims and turns an empty memo into null, as the server stores it.
  apply: (_current, { body }) => ({ memo: body.memo ?? null }),
});

export const memoMutations = [updateEquipmentMemo] as const;
