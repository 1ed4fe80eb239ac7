/**
 * The plant structure for the dashboard: from the local mirror once the first sync has filled it (so it works
 * offline and follows local changes live), from the API until then.
 */
import { useEffect, useState } from 'react';
import { structureTreeSchema, type StructureTree } from '../../../shared/api/structure';
import { getLocalDb } from '../../db/local-db';
import { api } from '../../lib/api';
import { currentLanguage } from '../../lib/i18n';
import { watchMirrorStructure } from '../../sync/structure-mirror';

export type StructureTreeState = { status: 'loading' } | { status: 'ready'; tree: StructureTree } | { status: 'error' };

export function useStructureTree(): StructureTreeState {
  const [state, setState] = useState<StructureTreeState>({ status: 'loading' });
  useEffect(() => {
    const controller = new AbortController();
    let fromMirror = false;
    const stopWatching = watchMirrorStructure(getLocalDb(), currentLanguage(), (tree) => {
      if (!tree) return;
      fromMirror = true;
      setState({ status: 'ready', tree });
    });
    api
      .get('allsitesareasequipments', { schema: structureTreeSchema, signal: controller.signal })
      .then((tree) => {
        if (!fromMirror) setState({ status: 'ready', tree });
      })
      .catch(() => {
        if (!controller.signal.aborted && !fromMirror) setState({ status: 'error' });
      });
    return () => {
      controller.abort();
      stopWatching();
    };
  }, []);
  return state;
}
