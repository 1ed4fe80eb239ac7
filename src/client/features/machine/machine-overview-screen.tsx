/**
 * /machine-overview?nodeid=…&tab=… (part 1 §2.1), read from the local mirror so it works offline. The query and
 * navigation state are read by lib/machine-navigation.ts: `tab` 0–5 in the spec's order (overview, history,
 * documentation, FAQ, maintenance, counters), `-1` reloads the machine's data and then opens the tab the state
 * names; the breadcrumb goes back to where the user came from. A tab change is a new history entry, so the
 * browser's back and forward move between tabs (docs/decisions.md "Machine detail: frame").
 */
import { Box, Skeleton, SkeletonText, Spinner, Stack, Tabs, Text } from '@chakra-ui/react';
import { BookOpen, CircleHelp, Gauge, History, LayoutList, Wrench } from 'lucide-react';
import { useDeferredValue, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearchParams } from 'react-router-dom';
import { BackLink } from '../../components/back-link';
import { FormError } from '../../components/form-actions';
import { MissingRecord } from '../../components/missing-record';
import { currentLanguage } from '../../lib/i18n';
import { backTarget, readNavigationState, REFRESH_DELAY_MS, REFRESHED_TABS, tabRequest, type MachineTabIndex } from '../../lib/machine-navigation';
import { useOnlineStatus } from '../../lib/use-online-status';
import { syncNow } from '../../sync/app-sync';
import { useMachineRecord, type MachineRecord } from '../../sync/machine-mirror';
import { CountersTab } from './counters-tab';
import { DocumentationTab } from './documentation-tab';
import { FaqTab } from './faq-tab';
import { HistoryTab } from './history-tab';
import { MachineHeader } from './machine-header';
import { MachineOptionsMenu } from './machine-options-menu';
import { MaintenanceTab } from './maintenance-tab';
import { OverviewTab } from './overview-tab';

/** The tabs with their spec index. */
export const MACHINE_TABS = [
  { index: '0', key: 'overview', icon: LayoutList },
  { index: '1', key: 'history', icon: History },
  { index: '2', key: 'documentation', icon: BookOpen },
  { index: '3', key: 'faq', icon: CircleHelp },
  { index: '4', key: 'maintenance', icon: Wrench },
  { index: '5', key: 'counters', icon: Gauge },
] as const satisfies readonly { index: MachineTabIndex; key: string; icon: unknown }[];

/** A reload waits at most this long for the server; offline or slow, the device's data is shown. */
const RELOAD_TIMEOUT_MS = 8000;

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

/** Pulls the server's changes (when online), never longer than RELOAD_TIMEOUT_MS; errors leave the local data. */
async function reloadMachineData(online: boolean): Promise<void> {
  if (!online) return;
  await Promise.race([syncNow().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, RELOAD_TIMEOUT_MS))]);
}

/**
 * The tabs under the header. They mount one render after it (a deferred value): the header with the machine's name
 * is committed, and painted, before the tab bar and the open tab's own reads are rendered.
 */
function MachineTabs({ machine, tab, onSelect }: { machine: MachineRecord; tab: MachineTabIndex; onSelect: (index: string) => void }) {
  const { t } = useTranslation();
  const mounted = useDeferredValue(true, false);
  if (!mounted) return <Skeleton h="11" w="64" />;
  return (
    <Tabs.Root value={tab} onValueChange={(details) => onSelect(details.value)} variant="line" size="lg" lazyMount unmountOnExit>
      <Box overflowX="auto" overflowY="hidden" mx={{ base: '-4', md: '0' }} px={{ base: '4', md: '0' }} css={{ scrollbarWidth: 'thin' }}>
        <Tabs.List aria-label={t('machine.tabs.label')} flexWrap="nowrap" minW="max-content" w="full">
          {MACHINE_TABS.map(({ index, key, icon: Icon }) => (
            <Tabs.Trigger key={index} value={index} minH="11" flexShrink={0} px={{ base: '3', md: '4' }} data-testid={`machine-tab-${key}`}>
              <Icon size={18} aria-hidden />
              {t(`machine.tabs.${key}`)}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
      </Box>
      <Tabs.Content value="0">
        <OverviewTab equipmentnodeid={machine.nodeid} />
      </Tabs.Content>
      <Tabs.Content value="1">
        <HistoryTab machine={machine} />
      </Tabs.Content>
      <Tabs.Content value="2">
        <DocumentationTab machine={machine} />
      </Tabs.Content>
      <Tabs.Content value="3">
        <FaqTab machine={machine} />
      </Tabs.Content>
      <Tabs.Content value="4">
        <MaintenanceTab machine={machine} />
      </Tabs.Content>
      <Tabs.Content value="5">
        <CountersTab equipmentnodeid={machine.nodeid} />
      </Tabs.Content>
    </Tabs.Root>
  );
}

export function MachineOverviewScreen() {
  const { t } = useTranslation();
  const location = useLocation();
  const [params, setParams] = useSearchParams();
  const navigation = readNavigationState(location.state);
  // why lower case: ids are stored as the server writes them (lower case); a scanner app may hand over the sticker's
  // URL in capitals, and a UUID means the same in either case.
  const nodeid = params.get('nodeid')?.toLowerCase() ?? navigation.nodeid ?? null;
  const request = tabRequest(params.get('tab'), navigation);
  const machine = useMachineRecord(nodeid, currentLanguage());
  const online = useOnlineStatus();
  const [error, setError] = useState<string | null>(null);
  const back = backTarget(navigation);

  // tab=-1: reload, then replace the URL by the tab to open (replace: back must not land on the reload again).
  const reloadThen = request.kind === 'reload' ? request.then : null;
  useEffect(() => {
    if (reloadThen === null) return undefined;
    let active = true;
    void reloadMachineData(online).then(() => {
      if (!active) return;
      const next = new URLSearchParams(params);
      next.set('tab', reloadThen);
      if (nodeid) next.set('nodeid', nodeid);
      setParams(next, { replace: true, state: location.state });
    });
    return () => {
      active = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per reload request, not on every render.
  }, [reloadThen, nodeid]);

  // §2.1: opening with tab 3 or 4 reloads the machine after 2 seconds (their content changes elsewhere often).
  const openedTab = useRef(request.kind === 'tab' ? request.tab : null);
  useEffect(() => {
    if (!openedTab.current || !REFRESHED_TABS.includes(openedTab.current) || !online) return undefined;
    const timer = setTimeout(() => void syncNow().catch(() => undefined), REFRESH_DELAY_MS);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only for the tab the screen was opened with.
  }, []);

  const selectTab = (index: string) => {
    const next = new URLSearchParams(params);
    next.set('tab', index);
    if (nodeid) next.set('nodeid', nodeid);
    // A new history entry per tab, keeping the navigation state (the breadcrumb's origin) on each.
    setParams(next, { state: location.state });
  };

  return (
    <Stack gap="4" p={{ base: '4', md: '6' }} maxW="7xl">
      <BackLink to={back.to} state={back.state} label={t(back.labelKey)} />
      {request.kind === 'reload' && (
        <Stack role="status" aria-busy="true" gap="3" align="center" py="10" data-testid="machine-reloading">
          <Spinner size="lg" color="brand.600" />
          <Text color="fg.muted">{t('machine.nav.reloading')}</Text>
        </Stack>
      )}
      {request.kind === 'tab' && machine.status === 'loading' && <MachineSkeleton />}
      {request.kind === 'tab' && machine.status === 'missing' && <MissingRecord title={t('machine.notFound')} text={t('machine.notFoundText')} testId="machine-not-found" />}
      {request.kind === 'tab' && machine.status === 'ready' && (
        <>
          <MachineHeader machine={machine.value} actions={<MachineOptionsMenu nodeid={machine.value.nodeid} name={machine.value.name} onError={setError} />} />
          <FormError error={error} />
          <MachineTabs machine={machine.value} tab={request.tab} onSelect={selectTab} />
        </>
      )}
    </Stack>
  );
}
