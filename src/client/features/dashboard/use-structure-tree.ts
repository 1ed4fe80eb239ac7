/**
 * The plant structure for the dashboard and the part of it the user follows: from the local mirror once the
 * first sync has filled it (so it works offline and follows local changes live), from the API until then.
 */
import { startTransition, useEffect, useState } from 'react';
import { z } from 'zod';
import { structureTreeSchema, type StructureTree } from '../../../shared/api/structure';
import { subscriptionSchema } from '../../../shared/api/subscriptions';
import { selectionOf, subscribedTree, type SubscriptionRecord, type SubscriptionSelection } from '../../../shared/domain/subscription';
import { api } from '../../lib/api';
import { currentLanguage } from '../../lib/i18n';
import { useSessionStore } from '../../stores/session-store';
import { watchDeviceStructure } from '../../sync/structure-mirror';

export interface DashboardStructure {
  /** The whole organisation (onboarding, search beyond the own selection). */
  all: StructureTree;
  /** What the user follows (spec part 2 §1: only equipment selected on the profile). */
  mine: StructureTree;
  selection: SubscriptionSelection;
}

export type StructureTreeState = { status: 'loading' } | ({ status: 'ready' } & DashboardStructure) | { status: 'error' };

const ready = (all: StructureTree, subscriptions: readonly SubscriptionRecord[]): StructureTreeState => {
  const selection = selectionOf(subscriptions);
  return { status: 'ready', all, mine: subscribedTree(all, selection), selection };
};

export function useStructureTree(): StructureTreeState {
  const usernodeid = useSessionStore((state) => state.session?.usernodeid);
  const [state, setState] = useState<StructureTreeState>({ status: 'loading' });
  useEffect(() => {
    if (!usernodeid) return undefined;
    const controller = new AbortController();
    let fromMirror = false;
    // why a transition to replace a tree: the tree comes again with every page the first sync writes, and each is
    // a render of the whole list; as a transition React renders it in short slices (W1's longest task,
    // docs/benchmarks.md) and drops a render a newer tree overtook. The first tree (after the skeleton, or after
    // the error an offline start's API request gave) is shown at once: as a transition it waited behind the start's
    // other updates (names ~170 ms later in a cold start at 4× CPU).
    let showing: StructureTreeState['status'] = 'loading';
    const show = (next: StructureTreeState) => {
      if (showing === 'ready' && next.status === 'ready') startTransition(() => setState(next));
      else setState(next);
      showing = next.status;
    };
    const stopWatching = watchDeviceStructure(currentLanguage(), usernodeid, (structure) => {
      if (!structure) return;
      fromMirror = true;
      show(ready(structure.tree, structure.subscriptions));
    });
    Promise.all([
      api.get('allsitesareasequipments', { schema: structureTreeSchema, signal: controller.signal }),
      api.get('subscriptions', { schema: z.array(subscriptionSchema), signal: controller.signal }),
    ])
      .then(([tree, subscriptions]) => {
        if (!fromMirror) show(ready(tree, subscriptions));
      })
      .catch(() => {
        if (!controller.signal.aborted && !fromMirror) show({ status: 'error' });
      });
    return () => {
      controller.abort();
      stopWatching();
    };
  }, [usernodeid]);
  return state;
}
