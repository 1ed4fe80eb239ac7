/**
 * "Changed elsewhere" of the edit forms (notification, machine): the form keeps what it showed, and a field that
 * another device's or tab's save changed in the mirror since the form was filled is said, with its other value to
 * take over (docs/decisions.md). Pure: each form brings its fields as comparable values (texts as the save reads
 * them, numbers parsed, chosen records by id).
 */

/** Equal as values: lists by their items, objects by content whatever the order of their keys; undefined is null. */
export function sameFieldValue(a: unknown, b: unknown): boolean {
  const canonical = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(canonical);
    if (value && typeof value === 'object') return Object.fromEntries(Object.keys(value).sort().map((key) => [key, canonical((value as Record<string, unknown>)[key])]));
    return value ?? null;
  };
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

/**
 * The fields whose value differs between what the form was filled from and the record now, where the form does not
 * hold the new value already (typed the same, or taken over): in the order of `fields`.
 */
export function changedElsewhere<F extends string>(
  fields: readonly F[],
  filledFrom: Readonly<Record<F, unknown>>,
  now: Readonly<Record<F, unknown>>,
  form: Readonly<Record<F, unknown>>,
): F[] {
  return fields.filter((field) => !sameFieldValue(filledFrom[field], now[field]) && !sameFieldValue(form[field], now[field]));
}
