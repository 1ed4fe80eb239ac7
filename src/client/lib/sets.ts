/** A copy of `set` with `item` in it (`on`) or not: a checkbox list's next state, never the state mutated. */
export function withToggled<T>(set: ReadonlySet<T>, item: T, on: boolean): Set<T> {
  const next = new Set(set);
  if (on) next.add(item);
  else next.delete(item);
  return next;
}
