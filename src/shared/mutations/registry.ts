import { attachmentMutations } from './attachments';
import { catalogMutations } from './catalog';
import { costMutations } from './costs';
import { counterMutations } from './counters';
import { equipmentMutations } from './equipment';
import { faqMutations } from './faqs';
import { fileMutations } from './files';
import { memoMutations } from './machine-memo';
import type { AnyMutation } from './mutation';
import { notificationMutations } from './notifications';
import { shareMutations } from './share';
import { structureMutations } from './structure';
import { subscriptionMutations } from './subscriptions';
import { workflowMutations } from './workflows';

/** Every declared user action that writes (src/shared/mutations/<area>.ts). */
export const MUTATIONS: readonly AnyMutation[] = [
  ...structureMutations,
  ...subscriptionMutations,
  ...catalogMutations,
  ...equipmentMutations,
  ...memoMutations,
  ...fileMutations,
  ...attachmentMutations,
  ...notificationMutations,
  ...counterMutations,
  ...faqMutations,
  ...workflowMutations,
  ...costMutations,
  ...shareMutations,
];

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
