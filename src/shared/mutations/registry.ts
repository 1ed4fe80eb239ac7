import { counterMutations } from './counters';
import type { AnyMutation } from './mutation';
import { notificationMutations } from './notifications';

// merge: add structureMutations (structure.ts), subscriptionMutations (subscriptions.ts), equipmentMutations
// (equipment.ts), catalogMutations (catalog.ts), fileMutations (files.ts) and memoMutations (machine-memo.ts).
/** Every declared user action that writes (src/shared/mutations/<area>.ts). */
export const MUTATIONS: readonly AnyMutation[] = [...notificationMutations, ...counterMutations];

const byAction = new Map<string, AnyMutation>();
for (const definition of MUTATIONS) {
  for (const action of [definition.name, ...(definition.aliases ?? [])]) {
    // why at load: queued entries are matched by action name, so two declarations must never share one.
    if (byAction.has(action)) throw new Error(`action ${action} is declared twice`);
    byAction.set(action, definition);
  }
}

/** The declaration an outbox entry's `action` belongs to (its name or one of its aliases). */
export function mutationByAction(action: string): AnyMutation | undefined {
  return byAction.get(action);
}
