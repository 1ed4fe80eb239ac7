/**
 * Loads the plant structure for the dashboard. Online only for now; issue #3 moves this onto the local mirror so
 * it works offline.
 */
import { useEffect, useState } from 'react';
import { structureTreeSchema, type StructureTree } from '../../../shared/api/structure';
import { api } from '../../lib/api';

export type StructureTreeState = { status: 'loading' } | { status: 'ready'; tree: StructureTree } | { status: 'error' };

export function useStructureTree(): StructureTreeState {
  const [state, setState] = useState<StructureTreeState>({ status: 'loading' });
  useEffect(() => {
    const controller = new AbortController();
    api
      .get('allsitesareasequipments', { schema: structureTreeSchema, signal: controller.signal })
      .then((tree) => setState({ status: 'ready', tree }))
      .catch(() => {
        if (!controller.signal.aborted) setState({ status: 'error' });
      });
    return () => controller.abort();
  }, []);
  return state;
}
