/** The current screen's title from the route table (route `handle`), translated. */
import { useMatches } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { PageTitleKey } from '../lib/i18n';

export interface RouteHandle {
  titleKey: PageTitleKey;
}

function hasTitle(handle: unknown): handle is RouteHandle {
  return typeof handle === 'object' && handle !== null && typeof (handle as RouteHandle).titleKey === 'string';
}

export function usePageTitle(): string | undefined {
  const { t } = useTranslation();
  const match = [...useMatches()].reverse().find((m) => hasTitle(m.handle));
  return match && hasTitle(match.handle) ? t(`pages.${match.handle.titleKey}`) : undefined;
}
