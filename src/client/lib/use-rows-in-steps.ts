/**
 * Long lists (a plant's 5,000 machines) rendered in steps: the first screenful at once, then `step` more rows in
 * each following task, as a transition (typing, a tap come first), until all `total` rows are there.
 *
 * why: React splits a deferred render into short tasks but commits it in one; the dashboard's 5,000 rows committed
 * at once were a main-thread task of 100–275 ms (W1 at the plant size, docs/decisions.md "Long lists grow
 * in steps"). Each step commits only its new rows (rows are memoised by their record).
 */
import { startTransition, useEffect, useState } from 'react';

/** Rows of the first render: more than a tablet shows in portrait. */
export const FIRST_RENDER_ROWS = 40;
/** Rows added per step after that: one step's commit stays a short task on a throttled tablet. */
export const ROWS_PER_STEP = 100;

export function useRowsInSteps(total: number, first = FIRST_RENDER_ROWS, step = ROWS_PER_STEP): number {
  const [rows, setRows] = useState(first);
  useEffect(() => {
    if (rows >= total) return;
    const next = setTimeout(() => startTransition(() => setRows((current) => current + step)), 0);
    return () => clearTimeout(next);
  }, [rows, total, step]);
  return rows;
}

/** Cuts consecutive lists to `rows` items in all: `take` gives each list's share in the order it is called. */
export function rowBudget(rows: number): <T>(items: T[]) => T[] {
  let left = rows;
  return (items) => {
    if (left >= items.length) {
      left -= items.length;
      return items;
    }
    const taken = items.slice(0, Math.max(0, left));
    left -= taken.length;
    return taken;
  };
}
