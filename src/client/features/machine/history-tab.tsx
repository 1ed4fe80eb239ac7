/**
 * History tab (spec part 1 §2.1): the machine's notifications from the local mirror as a timeline grouped by year,
 * a start marker "today" on top and the build year at the bottom; a filter panel (type without 3/4/5, status, date
 * range typed as YYYY-MM-DD — each acting only when set, reset restores everything) and the "Equipment Report" PDF
 * of what the filters show (`export` create). The timeline is virtualized against the window's scroll, so a
 * machine with hundreds of notifications renders only the rows on screen.
 */
import { Badge, Box, Button, Card, Field, Grid, Heading, HStack, Input, Link, NativeSelect, Skeleton, Stack, Text } from '@chakra-ui/react';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { CalendarCheck, Factory, FileDown, RotateCcw } from 'lucide-react';
import { useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import {
  EMPTY_HISTORY_FILTER,
  filterHistory,
  groupHistoryByYear,
  HISTORY_DATE_PLACEHOLDER,
  HISTORY_FILTER_STATUSES,
  HISTORY_FILTER_TYPES,
  historyFilterErrors,
  isHistoryFiltered,
  type HistoryFilter,
  type HistoryFilterError,
} from '../../../shared/domain/history';
import { isNotificationStatus, isNotificationType, notificationTypeStyle } from '../../../shared/domain/notification';
import { FormError } from '../../components/form-actions';
import { NotSyncedBadge } from '../../components/not-synced-badge';
import { NotificationTypeBadge } from '../../components/notification-type-badge';
import { formatDate } from '../../lib/dates';
import { usePermission } from '../../lib/use-permission';
import { downloadBlob } from '../../lib/download';
import { currentLanguage } from '../../lib/i18n';
import { useListOffset } from '../../lib/use-list-offset';
import { useMachineNames, type MachineNames, type MachineRecord } from '../../sync/machine-mirror';
import { useMachineHistory, type HistoryEntry } from '../../sync/machine-history';
import { historyFilterSummary, type HistoryReportLabels } from './history-report';

type TimelineItem = { kind: 'year'; year: number | null; count: number } | { kind: 'entry'; entry: HistoryEntry };

const RAIL = '2.25rem';

/**
 * The left column of the timeline: the line through every row and a dot (or an icon) on it. The line starts at the
 * "today" marker and ends at the build year's.
 */
function Rail({ children, line = 'through' }: { children?: ReactNode; line?: 'through' | 'from' | 'to' }) {
  return (
    <Box position="relative" w={RAIL} flexShrink={0} alignSelf="stretch">
      <Box position="absolute" left="calc(50% - 1px)" top={line === 'from' ? '6' : '0'} bottom="0" h={line === 'to' ? '6' : undefined} w="2px" bg="border.emphasized" aria-hidden />
      <Box position="relative" display="flex" justifyContent="center" pt="3">
        {children}
      </Box>
    </Box>
  );
}

function Marker({ icon, text, testId, line }: { icon: ReactNode; text: string; testId: string; line: 'from' | 'to' }) {
  return (
    <HStack gap="0" align="stretch" data-testid={testId}>
      <Rail line={line}>
        <Box bg="brand.700" color="white" borderRadius="full" p="1.5" display="flex" aria-hidden>
          {icon}
        </Box>
      </Rail>
      <Text py="3" ps="2" fontWeight="semibold" color="fg">
        {text}
      </Text>
    </HStack>
  );
}

/** A sentence in place of entries (no history, nothing matches), on the line between the markers. */
function RailText({ children, testId }: { children: ReactNode; testId: string }) {
  return (
    <HStack gap="0" align="stretch">
      <Rail />
      <Text py="4" ps="2" color="fg.muted" data-testid={testId}>
        {children}
      </Text>
    </HStack>
  );
}

function EntryRow({ entry, machineNodeid }: { entry: HistoryEntry; machineNodeid: string }) {
  const { t } = useTranslation();
  const style = notificationTypeStyle(entry.type, entry.colorcode);
  const status = isNotificationStatus(entry.status) ? entry.status : 0;
  const metaId = `history-${entry.nodeid}-meta`;
  return (
    <HStack gap="0" align="stretch" data-testid="history-entry" data-type={String(entry.type)} data-status={status}>
      <Rail>
        <Box w="3" h="3" mt="1.5" borderRadius="full" borderWidth="2px" borderColor="bg" bg={style.colorcode ?? (style.colour === 'black' ? 'black' : `${PALETTE[style.colour]}.500`)} aria-hidden />
      </Rail>
      <Link asChild display="block" flex="1" minW="0" py="2.5" px="2" color="fg" textDecoration="none" borderRadius="l2" _hover={{ bg: 'bg.subtle', textDecoration: 'none' }}>
        <RouterLink
          to={`/notification-details?nodeid=${entry.nodeid}`}
          state={{ from: 'history', nodeid: entry.nodeid, equipmentNodeId: machineNodeid }}
          aria-label={entry.title || t('machineHistory.undated')}
          aria-describedby={metaId}
        >
          <Stack gap="1.5">
            <HStack gap="2" flexWrap="wrap" id={metaId}>
              <Text as="span" fontWeight="semibold" fontVariantNumeric="tabular-nums" minW="5.5rem">
                {formatDate(entry.created) || t('machineHistory.undated')}
              </Text>
              <NotificationTypeBadge type={entry.type} colorcode={entry.colorcode} />
              <Badge size="md" variant="subtle" colorPalette={status === 2 ? 'green' : status === 1 ? 'blue' : 'gray'}>
                {t(`notification.status.${status}`)}
              </Badge>
              {status === 2 && entry.closed && (
                <Text as="span" textStyle="sm" color="fg.muted">
                  {t('machineHistory.closedOn', { date: formatDate(entry.closed) })}
                </Text>
              )}
              {entry.pending && <NotSyncedBadge />}
            </HStack>
            <Text lineClamp={2}>{entry.title}</Text>
          </Stack>
        </RouterLink>
      </Link>
    </HStack>
  );
}

const PALETTE = { red: 'red', amber: 'yellow', grey: 'gray', blue: 'blue', purple: 'purple', green: 'green', orange: 'orange' } as const;

function YearRow({ year, count }: { year: number | null; count: number }) {
  const { t } = useTranslation();
  return (
    <HStack gap="0" align="stretch" data-testid="history-year">
      <Rail>
        <Box w="4" h="4" mt="2" borderRadius="full" bg="brand.700" borderWidth="3px" borderColor="bg" aria-hidden />
      </Rail>
      <HStack gap="3" pt="3" pb="1" ps="2">
        <Heading as="h3" size="lg">
          {year ?? t('machineHistory.undated')}
        </Heading>
        <Text textStyle="sm" color="fg.muted">
          {t('machineHistory.yearCount', { count })}
        </Text>
      </HStack>
    </HStack>
  );
}

/** The year headers and entries, only those near the screen rendered (rows measure themselves). */
function Timeline({ items, machineNodeid }: { items: TimelineItem[]; machineNodeid: string }) {
  const { t } = useTranslation();
  const { listRef, offset: scrollMargin } = useListOffset<HTMLDivElement>();
  const virtualizer = useWindowVirtualizer({
    count: items.length,
    estimateSize: (index) => (items[index]?.kind === 'year' ? 52 : 76),
    overscan: 8,
    scrollMargin,
    getItemKey: (index) => {
      const item = items[index]!;
      return item.kind === 'year' ? `year-${item.year}` : item.entry.nodeid;
    },
  });
  const virtualItems = virtualizer.getVirtualItems();
  return (
    <div ref={listRef} role="list" aria-label={t('machineHistory.listLabel')} style={{ position: 'relative', height: virtualizer.getTotalSize() }}>
      {virtualItems.map((row) => {
        const item = items[row.index]!;
        return (
          <div
            key={row.key}
            role="listitem"
            data-index={row.index}
            ref={virtualizer.measureElement}
            style={{ position: 'absolute', top: 0, left: 0, width: '100%', transform: `translateY(${row.start - virtualizer.options.scrollMargin}px)` }}
          >
            {item.kind === 'year' ? <YearRow year={item.year} count={item.count} /> : <EntryRow entry={item.entry} machineNodeid={machineNodeid} />}
          </div>
        );
      })}
    </div>
  );
}

function DateField({ label, value, error, onChange }: { label: string; value: string; error: string | null; onChange: (value: string) => void }) {
  const { t } = useTranslation();
  return (
    <Field.Root invalid={error !== null}>
      <Field.Label>{label}</Field.Label>
      <Input value={value} placeholder={HISTORY_DATE_PLACEHOLDER} autoComplete="off" maxLength={10} onChange={(event) => onChange(event.target.value)} />
      {error ? <Field.ErrorText>{error}</Field.ErrorText> : <Field.HelperText>{t('machineHistory.filter.dateHelp')}</Field.HelperText>}
    </Field.Root>
  );
}

function useReportLabels(): HistoryReportLabels {
  const { t } = useTranslation();
  return {
    // why the casts: the i18n key is built from the type/status number, which the typed t() cannot check statically.
    type: (type) => (isNotificationType(type) ? t(`notification.type.${type}` as 'notification.type.0') : t('notification.type.unknown')),
    status: (status) => t(`notification.status.${isNotificationStatus(status) ? status : 0}` as 'notification.status.0'),
    fields: {
      name: t('machineHistory.report.fields.name'),
      brand: t('machineHistory.report.fields.brand'),
      model: t('machineHistory.report.fields.model'),
      site: t('machineHistory.report.fields.site'),
      areaOrPool: t('machineHistory.report.fields.areaOrPool'),
      equipmentid: t('machineHistory.report.fields.equipmentid'),
      inventoryid: t('machineHistory.report.fields.inventoryid'),
      buildYear: t('machineHistory.report.fields.buildYear'),
    },
    filter: {
      type: t('machineHistory.report.filterWords.type'),
      status: t('machineHistory.report.filterWords.status'),
      period: t('machineHistory.report.filterWords.period'),
      from: t('machineHistory.report.filterWords.from'),
      until: t('machineHistory.report.filterWords.until'),
      none: t('machineHistory.report.filterWords.none'),
    },
  };
}

/** A machine whose row is gone meanwhile: the report says "—" for what it referenced. */
const NO_NAMES: MachineNames = { brand: null, model: null, pool: null, area: null, site: null };

function ExportButton({ machine, buildYear, entries, filter }: { machine: MachineRecord; buildYear: number | null; entries: HistoryEntry[]; filter: HistoryFilter }) {
  const { t } = useTranslation();
  // The report's header names what the machine references; the screen itself only read the machine's own row.
  const names = useMachineNames(machine.nodeid, currentLanguage());
  const labels = useReportLabels();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const exportPdf = async () => {
    setBusy(true);
    setError(null);
    try {
      // why lazy: jsPDF and its table plugin are ~400 KB; the service worker precaches the chunk, so offline works.
      const { buildHistoryPdf } = await import('./history-pdf');
      const { doc, fileName } = buildHistoryPdf({
        machine: { ...machine, ...(names ?? NO_NAMES), buildYear },
        entries,
        filterSummary: historyFilterSummary(filter, labels),
        now: Date.now(),
        texts: {
          ...labels,
          subtitle: t('machineHistory.report.subtitle'),
          filterHeading: t('machineHistory.report.filterHeading'),
          count: (count) => t('machineHistory.report.count', { count }),
          createdAt: (date) => t('machineHistory.report.createdAt', { date }),
          page: (page, pages) => t('machineHistory.report.page', { page, pages }),
          empty: t('machineHistory.report.empty'),
          columns: {
            date: t('machineHistory.report.columns.date'),
            type: t('machineHistory.report.columns.type'),
            title: t('machineHistory.report.columns.title'),
            status: t('machineHistory.report.columns.status'),
            closed: t('machineHistory.report.columns.closed'),
            author: t('machineHistory.report.columns.author'),
          },
        },
      });
      downloadBlob(doc.output('blob'), fileName);
    } catch (cause) {
      console.error(cause);
      setError(t('machineHistory.export.failed'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack gap="2">
      <Button colorPalette="brand" onClick={() => void exportPdf()} disabled={names === undefined} loading={busy} loadingText={t('machineHistory.export.busy')} data-testid="history-export">
        <FileDown aria-hidden />
        {t('machineHistory.export.button')}
      </Button>
      <FormError error={error} />
    </Stack>
  );
}

export function HistoryTab({ machine }: { machine: MachineRecord }) {
  const { t } = useTranslation();
  const history = useMachineHistory(machine.nodeid);
  const canExport = usePermission('export', 'create');
  const [filter, setFilter] = useState<HistoryFilter>(EMPTY_HISTORY_FILTER);
  const errors = historyFilterErrors(filter);
  const filtered = useMemo(() => (history ? filterHistory(history.entries, filter) : []), [history, filter]);
  const items = useMemo<TimelineItem[]>(
    () =>
      groupHistoryByYear(filtered).flatMap((group) => [
        { kind: 'year' as const, year: group.year, count: group.entries.length },
        ...group.entries.map((entry) => ({ kind: 'entry' as const, entry })),
      ]),
    [filtered],
  );
  const errorTexts: Record<HistoryFilterError, string> = {
    invalidDate: t('machineHistory.filter.invalidDate'),
    noSuchDate: t('machineHistory.filter.noSuchDate'),
    fromAfterTo: t('machineHistory.filter.fromAfterTo'),
  };
  const errorText = (error: HistoryFilterError | undefined) => (error === undefined ? null : errorTexts[error]);
  const set = (patch: Partial<HistoryFilter>) => setFilter((current) => ({ ...current, ...patch }));
  const total = history?.entries.length ?? 0;
  const filtering = isHistoryFiltered(filter) || filter.from !== '' || filter.to !== '';

  return (
    <Grid templateColumns={{ base: '1fr', lg: '18rem minmax(0, 1fr)' }} gap="4" alignItems="start" pt="2">
      <Card.Root variant="outline" bg="bg.panel" position={{ lg: 'sticky' }} top={{ lg: '20' }} as="section" aria-labelledby="history-filter-title">
        <Card.Body gap="4">
          <Heading as="h3" size="md" id="history-filter-title">
            {t('machineHistory.filter.title')}
          </Heading>
          <Grid templateColumns={{ base: 'repeat(2, minmax(0, 1fr))', lg: '1fr' }} gap="3">
            <Field.Root>
              <Field.Label>{t('machineHistory.filter.type')}</Field.Label>
              <NativeSelect.Root size="lg">
                <NativeSelect.Field value={filter.type ?? ''} onChange={(event) => set({ type: event.target.value === '' ? null : (Number(event.target.value) as HistoryFilter['type']) })}>
                  <option value="">{t('machineHistory.filter.allTypes')}</option>
                  {HISTORY_FILTER_TYPES.map((type) => (
                    <option key={type} value={type}>
                      {t(`notification.type.${type}` as 'notification.type.0')}
                    </option>
                  ))}
                </NativeSelect.Field>
                <NativeSelect.Indicator />
              </NativeSelect.Root>
            </Field.Root>
            <Field.Root>
              <Field.Label>{t('machineHistory.filter.status')}</Field.Label>
              <NativeSelect.Root size="lg">
                <NativeSelect.Field value={filter.status ?? ''} onChange={(event) => set({ status: event.target.value === '' ? null : (Number(event.target.value) as HistoryFilter['status']) })}>
                  <option value="">{t('machineHistory.filter.allStatuses')}</option>
                  {HISTORY_FILTER_STATUSES.map((status) => (
                    <option key={status} value={status}>
                      {t(`notification.status.${status}`)}
                    </option>
                  ))}
                </NativeSelect.Field>
                <NativeSelect.Indicator />
              </NativeSelect.Root>
            </Field.Root>
            <DateField label={t('machineHistory.filter.from')} value={filter.from} error={errorText(errors.from)} onChange={(from) => set({ from })} />
            <DateField label={t('machineHistory.filter.to')} value={filter.to} error={errorText(errors.to)} onChange={(to) => set({ to })} />
          </Grid>
          <Text textStyle="sm" color="fg.muted" aria-live="polite" data-testid="history-count">
            {t('machineHistory.filter.shown', { shown: filtered.length, total })}
          </Text>
          <Grid templateColumns={{ base: canExport ? 'repeat(2, minmax(0, 1fr))' : '1fr', lg: '1fr' }} gap="3">
            <Button variant="outline" onClick={() => setFilter(EMPTY_HISTORY_FILTER)} disabled={!filtering}>
              <RotateCcw aria-hidden />
              {t('machineHistory.filter.reset')}
            </Button>
            {canExport && history && <ExportButton machine={machine} buildYear={history.buildYear} entries={filtered} filter={filter} />}
          </Grid>
        </Card.Body>
      </Card.Root>

      <Card.Root variant="outline" bg="bg.panel" as="section" aria-label={t('machine.tabs.history')}>
        <Card.Body py="3">
          <Marker icon={<CalendarCheck size={16} />} text={t('machineHistory.today', { date: formatDate(Date.now()) })} testId="history-start" line="from" />
          {history === undefined && <Skeleton h="40" ms={RAIL} />}
          {history && total === 0 && <RailText testId="history-empty">{t('machineHistory.empty')}</RailText>}
          {history && total > 0 && filtered.length === 0 && <RailText testId="history-no-match">{t('machineHistory.noMatch')}</RailText>}
          {history && filtered.length > 0 && <Timeline items={items} machineNodeid={machine.nodeid} />}
          <Marker
            icon={<Factory size={16} />}
            text={history?.buildYear ? t('machineHistory.buildYear', { year: history.buildYear }) : t('machineHistory.buildYearUnknown')}
            testId="history-end"
            line="to"
          />
        </Card.Body>
      </Card.Root>
    </Grid>
  );
}
