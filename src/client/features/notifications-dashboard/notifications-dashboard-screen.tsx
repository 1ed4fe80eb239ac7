/**
 * /notifications-dashboard (issue #13): the notifications of the machines the user follows (part 1 §6, part 2 §1),
 * open ones by default, with filters (type, status, plant/area/pool, machine, date range), search on title and
 * error code, and sort. Read page by page from the local mirror by index (sync/notifications-dashboard.ts), shown
 * in a window-virtualized list, so it works offline and over 100,000 rows. Filters and sort are kept across visits
 * (stores/notifications-dashboard-store.ts). Landscape: filters beside the list; portrait: in a drawer.
 */
import { Badge, Box, Button, CloseButton, Drawer, Field, Flex, Grid, HStack, IconButton, Input, Link, NativeSelect, Portal, Skeleton, Stack, Text } from '@chakra-ui/react';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { ArrowDownWideNarrow, ArrowUpNarrowWide, RotateCcw, Search, SlidersHorizontal } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import type { StructureTree } from '../../../shared/api/structure';
import { elapsedDisplay, NOTIFICATION_STATUSES, notificationElapsed, type NotificationStatus } from '../../../shared/domain/notification';
import {
  DASHBOARD_FILTER_TYPES,
  DASHBOARD_SORT_KEYS,
  hasActiveFilters,
  machinesInFilter,
  type DashboardFilters,
  type DashboardMachine,
  type DashboardRow,
  type DashboardScope,
  type DashboardSortKey,
} from '../../../shared/domain/notifications-dashboard';
import { DayField } from '../../components/day-field';
import { NotificationTypeBadge } from '../../components/notification-type-badge';
import { formatDateTime } from '../../lib/dates';
import { currentLanguage } from '../../lib/i18n';
import { elapsedText, openForText } from '../../lib/use-elapsed-text';
import { useListOffset } from '../../lib/use-list-offset';
import { useSessionStore } from '../../stores/session-store';
import { useNotificationsDashboardView } from '../../stores/notifications-dashboard-store';
import { useDashboardList, useFollowedMachines } from '../../sync/notifications-dashboard';

const PAGE_SIZE = 50;
const ROW_HEIGHT = 96;
const STATUS_PALETTE = { 0: 'gray', 1: 'blue', 2: 'green' } as const;

type SetFilters = (change: Partial<DashboardFilters>) => void;

/** "offen seit …" for an open one, "Dauer: …" for a closed one; re-rendered every minute by the screen. */
function ElapsedLabel({ row, now }: { row: DashboardRow; now: number }) {
  const { t } = useTranslation();
  const n = row as DashboardRow & { progressstarted?: number | null; closed?: number | null };
  if (row.status === 2) {
    const elapsed = notificationElapsed({ status: 2, created: row.created, progressstarted: n.progressstarted ?? null, closed: n.closed ?? null }, now);
    return elapsed ? <>{t('notificationsDashboard.duration', { duration: elapsedText(t, elapsed) })}</> : null;
  }
  return <>{openForText(t, elapsedDisplay(now - row.created))}</>;
}

function NotificationRow({ row, machine, now, colorcode }: { row: DashboardRow; machine: DashboardMachine | undefined; now: number; colorcode: string | undefined }) {
  const { t } = useTranslation();
  const status = (NOTIFICATION_STATUSES as readonly number[]).includes(row.status) ? (row.status as NotificationStatus) : 0;
  return (
    <Link asChild display="block" h="full" color="fg" textDecoration="none" borderBottomWidth="1px" px={{ base: '3', md: '4' }} py="3" _hover={{ bg: 'bg.subtle', textDecoration: 'none' }}>
      <RouterLink to={`/notification-details?nodeid=${row.nodeid}`} state={{ from: 'notifications-dashboard' }} data-testid="dashboard-notification" data-type={row.type} data-status={status} data-created={row.created}>
        <Grid templateColumns="minmax(0, 1fr) auto" columnGap="4" rowGap="1" alignItems="center">
          <HStack gap="2" minW="0">
            <NotificationTypeBadge type={row.type} colorcode={colorcode} />
            <Badge size="md" variant="subtle" colorPalette={STATUS_PALETTE[status]}>
              {t(`notification.status.${status}`)}
            </Badge>
          </HStack>
          <Text textStyle="sm" color="fg.muted" textAlign="end" whiteSpace="nowrap" fontVariantNumeric="tabular-nums">
            {formatDateTime(row.created)}
          </Text>
          <Text fontWeight="semibold" truncate data-testid="dashboard-notification-title">
            {row.title}
          </Text>
          <Text textStyle="sm" textAlign="end" whiteSpace="nowrap">
            <ElapsedLabel row={row} now={now} />
          </Text>
          <Text textStyle="sm" color="fg.muted" truncate gridColumn="1 / -1" data-testid="dashboard-notification-machine">
            {machine ? `${machine.name} · ${machine.place}` : ''}
            {row.errorcode ? ` · ${row.errorcode}` : ''}
          </Text>
        </Grid>
      </RouterLink>
    </Link>
  );
}

/** The rows near the screen, against the window's scroll; asks for the next page when the end comes near. */
function VirtualList({
  rows,
  machines,
  colorcodes,
  hasMore,
  onMore,
}: {
  rows: DashboardRow[];
  machines: ReadonlyMap<string, DashboardMachine>;
  colorcodes: ReadonlyMap<string, string>;
  hasMore: boolean;
  onMore: () => void;
}) {
  const { t } = useTranslation();
  const { listRef, offset: scrollMargin } = useListOffset<HTMLDivElement>();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 60_000);
    return () => window.clearInterval(timer);
  }, []);
  const virtualizer = useWindowVirtualizer({ count: rows.length, estimateSize: () => ROW_HEIGHT, overscan: 8, scrollMargin, getItemKey: (index) => rows[index]!.nodeid });
  const items = virtualizer.getVirtualItems();
  const lastShown = items[items.length - 1]?.index ?? 0;
  useEffect(() => {
    if (hasMore && lastShown >= rows.length - 15) onMore();
  }, [hasMore, lastShown, rows.length, onMore]);
  return (
    <>
      <div ref={listRef} role="list" aria-label={t('notificationsDashboard.listLabel')} style={{ position: 'relative', height: virtualizer.getTotalSize() }}>
        {items.map((item) => {
          const row = rows[item.index]!;
          return (
            <div key={item.key} role="listitem" style={{ position: 'absolute', top: 0, left: 0, width: '100%', height: item.size, transform: `translateY(${item.start - virtualizer.options.scrollMargin}px)` }}>
              <NotificationRow row={row} machine={machines.get(row.equipmentnodeid)} now={now} colorcode={colorcodes.get(row.nodeid)} />
            </div>
          );
        })}
      </div>
      {hasMore && (
        <Text textStyle="sm" color="fg.muted" p="4">
          {t('notificationsDashboard.loadingMore')}
        </Text>
      )}
    </>
  );
}

function toggled<T>(values: readonly T[], value: T): T[] {
  return values.includes(value) ? values.filter((v) => v !== value) : [...values, value];
}

const scopeValue = (scope: DashboardScope | null) => (scope ? `${scope.type}:${scope.nodeid}` : '');

function parseScope(value: string): DashboardScope | null {
  const [type, nodeid] = value.split(':');
  return (type === 'site' || type === 'area' || type === 'equipmentpool') && nodeid ? { type, nodeid } : null;
}

/** Every filter; beside the list in landscape, in the drawer in portrait. */
function FilterPanel({ filters, setFilters, tree, machines, onReset }: { filters: DashboardFilters; setFilters: SetFilters; tree: StructureTree; machines: readonly DashboardMachine[]; onReset: () => void }) {
  const { t } = useTranslation();
  const machineChoices = machinesInFilter(machines, { scope: filters.scope, machine: null });
  const dateError = filters.from !== null && filters.to !== null && filters.from > filters.to;
  // why: the day fields are mounted anew on a reset, so a wrong text (a bound that no longer acts) goes too.
  const [resets, setResets] = useState(0);
  return (
    <Stack gap="5" data-testid="dashboard-filters">
      <Field.Root>
        <Field.Label>{t('notificationsDashboard.status')}</Field.Label>
        <Flex gap="2" wrap="wrap">
          {NOTIFICATION_STATUSES.map((status) => {
            const on = filters.statuses.includes(status);
            return (
              <Button
                key={status}
                size="sm"
                minH="11"
                variant={on ? 'solid' : 'outline'}
                aria-pressed={on}
                // At least one status stays chosen: an empty choice would only ever show nothing.
                onClick={() => (!on || filters.statuses.length > 1) && setFilters({ statuses: toggled(filters.statuses, status) })}
              >
                {t(`notification.status.${status}`)}
              </Button>
            );
          })}
        </Flex>
      </Field.Root>
      <Field.Root>
        <Field.Label>{t('notificationsDashboard.type')}</Field.Label>
        <Flex gap="2" wrap="wrap">
          {DASHBOARD_FILTER_TYPES.map((type) => {
            const on = filters.types.includes(type);
            return (
              <Button key={type} size="sm" minH="11" variant={on ? 'solid' : 'outline'} aria-pressed={on} onClick={() => setFilters({ types: toggled(filters.types, type) })} whiteSpace="normal" textAlign="start" h="auto" py="1.5">
                {t(`notification.type.${type}` as 'notification.type.0')}
              </Button>
            );
          })}
        </Flex>
      </Field.Root>
      <Field.Root>
        <Field.Label>{t('notificationsDashboard.scope')}</Field.Label>
        <NativeSelect.Root size="lg">
          <NativeSelect.Field value={scopeValue(filters.scope)} onChange={(event) => setFilters({ scope: parseScope(event.target.value), machine: null })}>
            <option value="">{t('notificationsDashboard.allScopes')}</option>
            <optgroup label={t('notificationsDashboard.sites')}>
              {tree.sites.map((site) => (
                <option key={site.nodeid} value={`site:${site.nodeid}`}>
                  {site.name}
                </option>
              ))}
            </optgroup>
            <optgroup label={t('notificationsDashboard.areas')}>
              {tree.sites.flatMap((site) =>
                site.areas.map((area) => (
                  <option key={area.nodeid} value={`area:${area.nodeid}`}>
                    {`${site.name} / ${area.name}`}
                  </option>
                )),
              )}
            </optgroup>
            <optgroup label={t('notificationsDashboard.pools')}>
              {tree.equipmentpools.map((pool) => (
                <option key={pool.nodeid} value={`equipmentpool:${pool.nodeid}`}>
                  {pool.name}
                </option>
              ))}
            </optgroup>
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </Field.Root>
      <Field.Root>
        <Field.Label>{t('notificationsDashboard.machine')}</Field.Label>
        <NativeSelect.Root size="lg">
          <NativeSelect.Field value={filters.machine ?? ''} onChange={(event) => setFilters({ machine: event.target.value || null })}>
            <option value="">{t('notificationsDashboard.allMachines')}</option>
            {machineChoices.map((machine) => (
              <option key={machine.nodeid} value={machine.nodeid}>
                {machine.name}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </Field.Root>
      <Grid templateColumns="repeat(auto-fit, minmax(11rem, 1fr))" gap="3">
        <DayField key={`from-${resets}`} label={t('notificationsDashboard.from')} value={filters.from} bound="start" invalid={dateError} onChange={(from) => setFilters({ from })} />
        <DayField key={`to-${resets}`} label={t('notificationsDashboard.to')} value={filters.to} bound="end" invalid={dateError} onChange={(to) => setFilters({ to })} />
      </Grid>
      {dateError && (
        <Text color="fg.error" textStyle="sm" role="alert">
          {t('notificationsDashboard.dateError')}
        </Text>
      )}
      <Button
        variant="outline"
        size="lg"
        onClick={() => {
          setResets((count) => count + 1);
          onReset();
        }}
        disabled={!hasActiveFilters(filters)}
      >
        <RotateCcw aria-hidden />
        {t('notificationsDashboard.reset')}
      </Button>
    </Stack>
  );
}

function EmptyState({ text, action }: { text: string; action?: React.ReactNode }) {
  return (
    <Stack gap="4" align="flex-start" p="6" borderWidth="1px" borderRadius="l3" bg="bg.subtle" data-testid="dashboard-empty">
      <Text>{text}</Text>
      {action}
    </Stack>
  );
}

export function NotificationsDashboardScreen() {
  const { t } = useTranslation();
  const usernodeid = useSessionStore((state) => state.session?.usernodeid) ?? '';
  const language = currentLanguage();
  const followed = useFollowedMachines(usernodeid || undefined, language);
  const { view, setFilters, setSort, reset } = useNotificationsDashboardView(usernodeid);
  const { filters, sort } = view;
  const [limit, setLimit] = useState(PAGE_SIZE);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const machines = followed.status === 'ready' ? followed.machines : undefined;
  const list = useDashboardList(machines, filters, sort, limit);
  const byId = useMemo(() => new Map((machines ?? []).map((m) => [m.nodeid, m])), [machines]);
  // A new filter or sort starts again at the first page.
  useEffect(() => setLimit(PAGE_SIZE), [filters, sort]);
  const more = useMemo(() => () => setLimit((current) => current + PAGE_SIZE), []);
  const changeFilters: SetFilters = (change) => setFilters(change);

  const filterPanel = followed.status === 'ready' && <FilterPanel filters={filters} setFilters={changeFilters} tree={followed.tree} machines={followed.machines} onReset={reset} />;
  const filtered = hasActiveFilters(filters);

  let body: React.ReactNode;
  if (followed.status === 'loading' || !list) {
    body = (
      <Stack gap="2" data-testid="dashboard-loading">
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} h="20" />
        ))}
      </Stack>
    );
  } else if (followed.machines.length === 0) {
    body = (
      <EmptyState
        text={t('notificationsDashboard.emptyFollow')}
        action={
          <Button asChild variant="outline">
            <RouterLink to="/dashboard">{t('notificationsDashboard.toDashboard')}</RouterLink>
          </Button>
        }
      />
    );
  } else if (list.rows.length === 0) {
    body = filtered ? (
      <EmptyState
        text={t('notificationsDashboard.emptyFiltered')}
        action={
          <Button variant="outline" onClick={reset}>
            <RotateCcw aria-hidden />
            {t('notificationsDashboard.reset')}
          </Button>
        }
      />
    ) : (
      <EmptyState text={t('notificationsDashboard.emptyOpen')} />
    );
  } else {
    body = (
      <Box borderWidth="1px" borderRadius="l3" bg="bg" opacity={list.stale ? 0.6 : 1}>
        <VirtualList rows={list.rows} machines={byId} colorcodes={list.colorcodes} hasMore={list.hasMore} onMore={more} />
      </Box>
    );
  }

  return (
    <Stack gap="4" p={{ base: '3', md: '6' }} maxW="7xl" mx="auto" w="full">
      <Flex gap="3" wrap="wrap" align="flex-end">
        <Field.Root flex="1 1 16rem">
          <Field.Label>{t('notificationsDashboard.search')}</Field.Label>
          <HStack w="full" gap="0" position="relative">
            <Box position="absolute" left="3" color="fg.muted" pointerEvents="none" display="flex">
              <Search size={18} aria-hidden />
            </Box>
            <Input size="lg" ps="10" type="search" value={filters.search} placeholder={t('notificationsDashboard.searchPlaceholder')} onChange={(event) => setFilters({ search: event.target.value })} />
          </HStack>
        </Field.Root>
        <Field.Root w="auto">
          <Field.Label>{t('notificationsDashboard.sort')}</Field.Label>
          <HStack gap="1">
            <NativeSelect.Root size="lg" w="12rem">
              <NativeSelect.Field value={sort.key} onChange={(event) => setSort({ ...sort, key: event.target.value as DashboardSortKey })}>
                {DASHBOARD_SORT_KEYS.map((key) => (
                  <option key={key} value={key}>
                    {t(`notificationsDashboard.sortKey.${key}`)}
                  </option>
                ))}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
            <IconButton
              size="lg"
              variant="outline"
              aria-label={`${t('notificationsDashboard.toggleDirection')}: ${t(sort.direction === 'asc' ? 'notificationsDashboard.ascending' : 'notificationsDashboard.descending')}`}
              data-direction={sort.direction}
              onClick={() => setSort({ ...sort, direction: sort.direction === 'asc' ? 'desc' : 'asc' })}
            >
              {sort.direction === 'asc' ? <ArrowUpNarrowWide /> : <ArrowDownWideNarrow />}
            </IconButton>
          </HStack>
        </Field.Root>
        <Button size="lg" variant="outline" display={{ base: 'inline-flex', lg: 'none' }} onClick={() => setDrawerOpen(true)} aria-label={t('notificationsDashboard.openFilters')}>
          <SlidersHorizontal aria-hidden />
          {t('notificationsDashboard.filters')}
          {filtered && <Badge colorPalette="brand">!</Badge>}
        </Button>
      </Flex>
      <Text textStyle="sm" color="fg.muted" aria-live="polite" data-testid="dashboard-count">
        {list && list.total !== null ? t('notificationsDashboard.count', { count: list.total }) : t('notificationsDashboard.counting')}
      </Text>
      <Grid templateColumns={{ base: 'minmax(0, 1fr)', lg: '20rem minmax(0, 1fr)' }} gap="6" alignItems="start">
        <Box display={{ base: 'none', lg: 'block' }} position="sticky" top="4" maxH="calc(100dvh - 6rem)" overflowY="auto" borderWidth="1px" borderRadius="l3" p="4" bg="bg">
          {filterPanel}
        </Box>
        <Box minW="0">{body}</Box>
      </Grid>
      <Drawer.Root lazyMount unmountOnExit open={drawerOpen} onOpenChange={(details) => setDrawerOpen(details.open)} placement="end" size="md">
        <Portal>
          <Drawer.Backdrop />
          <Drawer.Positioner>
            <Drawer.Content>
              <Drawer.Header>
                <Drawer.Title>{t('notificationsDashboard.filters')}</Drawer.Title>
              </Drawer.Header>
              <Drawer.Body>{filterPanel}</Drawer.Body>
              <Drawer.CloseTrigger asChild>
                <CloseButton size="lg" aria-label={t('notificationsDashboard.closeFilters')} />
              </Drawer.CloseTrigger>
            </Drawer.Content>
          </Drawer.Positioner>
        </Portal>
      </Drawer.Root>
    </Stack>
  );
}
