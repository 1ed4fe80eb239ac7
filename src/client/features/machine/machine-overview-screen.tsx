/**
 * /machine-overview?nodeid=…&tab=… (part 1 §2.1), read from the local mirror so it works offline. The spec's tab
 * indexes are kept in `tab` (0 overview … 5 counters); only the tabs that exist are shown, and an index of a tab
 * that is not built yet opens the overview (docs/decisions.md).
 */
import { Box, Skeleton, SkeletonText, Stack, Tabs } from '@chakra-ui/react';
import { Gauge, LayoutList } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { BackLink } from '../../components/back-link';
import { FormError } from '../../components/form-actions';
import { MissingRecord } from '../../components/missing-record';
import { currentLanguage } from '../../lib/i18n';
import { useMachineDetail } from '../../sync/machine-mirror';
import { CountersTab } from './counters-tab';
import { MachineHeader } from './machine-header';
import { MachineOptionsMenu } from './machine-options-menu';
import { OverviewTab } from './overview-tab';

/** The built tabs with their spec index. */
export const MACHINE_TABS = [
  { index: '0', key: 'overview', icon: LayoutList },
  { index: '5', key: 'counters', icon: Gauge },
] as const;
type TabIndex = (typeof MACHINE_TABS)[number]['index'];

function tabFrom(value: string | null): TabIndex {
  return MACHINE_TABS.find((tab) => tab.index === value)?.index ?? '0';
}

function MachineSkeleton() {
  const { t } = useTranslation();
  return (
    <Stack gap="4" role="status" aria-busy="true" aria-label={t('machine.loading')}>
      <Box borderWidth="1px" borderRadius="l3" p="5" display="flex" gap="6">
        <Skeleton w="36" h="36" borderRadius="l3" flexShrink={0} />
        <Stack flex="1" gap="4">
          <Skeleton h="8" w="60%" />
          <SkeletonText noOfLines={3} />
        </Stack>
      </Box>
      <Skeleton h="11" w="64" />
      <Skeleton h="40" />
    </Stack>
  );
}

export function MachineOverviewScreen() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const nodeid = params.get('nodeid');
  const tab = tabFrom(params.get('tab'));
  const machine = useMachineDetail(nodeid, currentLanguage());
  const [error, setError] = useState<string | null>(null);

  const selectTab = (index: string) => {
    const next = new URLSearchParams(params);
    next.set('tab', index);
    setParams(next, { replace: true });
  };

  return (
    <Stack gap="4" p={{ base: '4', md: '6' }} maxW="7xl">
      <BackLink to="/dashboard" label={t('machine.breadcrumb')} />
      {machine.status === 'loading' && <MachineSkeleton />}
      {machine.status === 'missing' && <MissingRecord title={t('machine.notFound')} text={t('machine.notFoundText')} testId="machine-not-found" />}
      {machine.status === 'ready' && (
        <>
          <MachineHeader machine={machine.value} actions={<MachineOptionsMenu nodeid={machine.value.nodeid} name={machine.value.name} onError={setError} />} />
          <FormError error={error} />
          <Tabs.Root value={tab} onValueChange={(details) => selectTab(details.value)} variant="line" size="lg" lazyMount unmountOnExit>
            <Tabs.List aria-label={t('machine.tabs.label')}>
              {MACHINE_TABS.map(({ index, key, icon: Icon }) => (
                <Tabs.Trigger key={index} value={index} minH="11">
                  <Icon size={18} aria-hidden />
                  {t(`machine.tabs.${key}`)}
                </Tabs.Trigger>
              ))}
            </Tabs.List>
            <Tabs.Content value="0">
              <OverviewTab equipmentnodeid={machine.value.nodeid} />
            </Tabs.Content>
            <Tabs.Content value="5">
              <CountersTab equipmentnodeid={machine.value.nodeid} />
            </Tabs.Content>
          </Tabs.Root>
        </>
      )}
    </Stack>
  );
}
