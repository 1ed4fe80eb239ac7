/**
 * Maintenance tab (part 1 §2.1 tab 4): the machine's routine tasks as a sortable, paged table — task (id and title
 * truncated to 28), next due (DD.MM.YYYY by the shared §4.5 rule, or the counter-trigger flag), repetition,
 * reminder, category badge in its colour. 5/10/25/50 rows a page, 5 by default, first page 0. Read from the
 * mirror (works offline). Creating and editing tasks is a later issue: the links lead to its pending routes with
 * the spec's navigation state. Controls follow `equipment.maintenancetask` (§6).
 */
import { Badge, Box, Button, Card, HStack, IconButton, Link, NativeSelect, Skeleton, Stack, Table, Text } from '@chakra-ui/react';
import { ArrowDown, ArrowUp, ArrowUpDown, CalendarClock, ChevronLeft, ChevronRight, Gauge, Plus, TriangleAlert } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import { NotSyncedBadge } from '../../components/not-synced-badge';
import { formatDate } from '../../lib/dates';
import { currentLanguage } from '../../lib/i18n';
import { DEFAULT_TASK_PAGE_SIZE, DEFAULT_TASK_SORT, pageOf, sortTasks, TASK_PAGE_SIZES, toggleSort, truncateTitle, type TaskSort, type TaskSortColumn, type TaskTableRow } from '../../lib/task-table';
import { usePermission } from '../../lib/use-permission';
import type { MachineRecord } from '../../sync/machine-mirror';
import { useMaintenanceTasks, type MaintenanceTaskItem } from '../../sync/machine-frame';

type Row = TaskTableRow<MaintenanceTaskItem>;

const COLUMNS: TaskSortColumn[] = ['task', 'nextDue', 'repetition', 'reminder', 'category'];

/** The state /edit-maintenance-task receives (§2.1: from fo, the task's fields, pageType edit). */
function editState(row: Row) {
  return {
    from: 'fo',
    pageType: 'edit',
    nodeid: row.nodeid,
    maintenancetaskid: row.maintenancetaskid,
    title: row.title,
    startingfrom: row.startingfrom,
    repetitioninterval: row.repetitioninterval,
    nextdueat: row.nextdueat ?? -1,
    triggertype: row.triggertype,
    reminder: row.reminder,
    categorynodeid: row.category?.nodeid ?? null,
  };
}

function SortHeader({ column, sort, onSort }: { column: TaskSortColumn; sort: TaskSort; onSort(column: TaskSortColumn): void }) {
  const { t } = useTranslation();
  const active = sort.column === column;
  const Icon = !active ? ArrowUpDown : sort.direction === 'asc' ? ArrowUp : ArrowDown;
  return (
    <Table.ColumnHeader aria-sort={active ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none'} px={{ base: '1', lg: '2' }}>
      <Button variant="ghost" size="sm" fontWeight="semibold" px="2" minH="11" h="auto" py="1" whiteSpace="normal" textAlign="start" onClick={() => onSort(column)} data-testid={`maintenance-sort-${column}`}>
        {t(`machine.maintenance.columns.${column}`)}
        <Box as="span" color={active ? 'fg' : 'fg.subtle'}>
          <Icon size={14} aria-hidden />
        </Box>
      </Button>
    </Table.ColumnHeader>
  );
}

/** A task's id (with "not synced" while its write is queued) above its title. */
function TaskLabel({ row }: { row: Row }) {
  return (
    <>
      <Text as="span" textStyle="xs" color="fg.muted" fontVariantNumeric="tabular-nums">
        {row.maintenancetaskid}
        {row.pending && <NotSyncedBadge />}
      </Text>
      <Text as="span" fontWeight="semibold">
        {truncateTitle(row.title)}
      </Text>
    </>
  );
}

function DueCell({ row }: { row: Row }) {
  const { t } = useTranslation();
  if (row.due.kind === 'counter') {
    return (
      <Badge size="md" variant="subtle" colorPalette="purple" data-testid="maintenance-counter-trigger">
        <Gauge size={14} aria-hidden />
        {t('machine.maintenance.counterTrigger')}
      </Badge>
    );
  }
  return (
    <HStack gap="1.5" color={row.due.overdue ? 'fg.error' : undefined} fontWeight={row.due.overdue ? 'semibold' : undefined}>
      {row.due.overdue && <TriangleAlert size={16} aria-hidden />}
      <Text as="span" fontVariantNumeric="tabular-nums">
        {formatDate(row.due.at)}
      </Text>
      {row.due.overdue && <Text as="span">{t('machine.maintenance.overdue')}</Text>}
    </HStack>
  );
}

function CategoryBadge({ category }: { category: MaintenanceTaskItem['category'] }) {
  if (!category) return <Text color="fg.muted">—</Text>;
  const colour = category.colorcode;
  // The category's own colour as the badge's background, with a text colour that stays readable on it.
  const light = colour ? luminance(colour) > 0.55 : true;
  return (
    <Badge size="md" maxW="40" truncate style={colour ? { backgroundColor: colour, color: light ? '#1a202c' : '#ffffff' } : undefined} variant={colour ? 'solid' : 'subtle'}>
      {category.name}
    </Badge>
  );
}

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((at) => Number.parseInt(hex.slice(at, at + 2), 16) / 255);
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

function EmptyState({ nodeid, canCreate }: { nodeid: string; canCreate: boolean }) {
  const { t } = useTranslation();
  return (
    <Card.Root variant="outline" bg="bg.panel" data-testid="maintenance-empty">
      <Card.Body>
        <Stack gap="4" align="center" textAlign="center" py="6">
          <Box color="fg.muted">
            <CalendarClock size={40} aria-hidden />
          </Box>
          <Stack gap="1">
            <Text fontWeight="semibold" textStyle="lg">
              {t('machine.maintenance.empty')}
            </Text>
            <Text color="fg.muted">{t('machine.maintenance.emptyHint')}</Text>
          </Stack>
          {canCreate && <CreateButton nodeid={nodeid} />}
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}

function CreateButton({ nodeid }: { nodeid: string }) {
  const { t } = useTranslation();
  return (
    <Button asChild colorPalette="brand" data-testid="maintenance-create">
      <RouterLink to="/create-maintenance-task" state={{ pageType: 'add', from: 'fo', nodeid }}>
        <Plus aria-hidden />
        {t('machine.maintenance.create')}
      </RouterLink>
    </Button>
  );
}

export function MaintenanceTab({ machine }: { machine: MachineRecord }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const tasks = useMaintenanceTasks(machine.nodeid, language);
  const canRead = usePermission('equipment.maintenancetask', 'read');
  const canCreate = usePermission('equipment.maintenancetask', 'create');
  const canUpdate = usePermission('equipment.maintenancetask', 'update');
  const [sort, setSort] = useState<TaskSort>(DEFAULT_TASK_SORT);
  const [size, setSize] = useState<number>(DEFAULT_TASK_PAGE_SIZE);
  const [page, setPage] = useState(0);
  // The day changes at midnight on a tablet left open: the due dates are re-read every minute.
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 60_000);
    return () => clearInterval(timer);
  }, []);
  const today = now.toDateString();
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `today`: re-sorted once a day, not every minute.
  const sorted = useMemo(() => (tasks ? sortTasks(tasks, sort, now) : undefined), [tasks, sort, today]);

  if (!canRead) return <Text color="fg.muted">{t('machine.maintenance.noPermission')}</Text>;
  if (!sorted) return <Skeleton h="40" />;
  if (sorted.length === 0) return <EmptyState nodeid={machine.nodeid} canCreate={canCreate} />;

  const current = pageOf(sorted, page, size);
  const onSort = (column: TaskSortColumn) => {
    setSort(toggleSort(sort, column));
    setPage(0);
  };

  return (
    <Card.Root variant="outline" bg="bg.panel" data-testid="maintenance-table">
      <Card.Header>
        <HStack justify="space-between" gap="4" flexWrap="wrap">
          <Text as="h3" fontWeight="semibold" textStyle="lg">
            {t('machine.maintenance.title')}
            <Badge ms="2" size="md" variant="subtle">
              {sorted.length}
            </Badge>
          </Text>
          {canCreate && <CreateButton nodeid={machine.nodeid} />}
        </HStack>
      </Card.Header>
      <Card.Body pt="2" px="0">
        <Table.ScrollArea>
          <Table.Root size={{ base: 'sm', lg: 'md' }} interactive>
            <Table.Header>
              <Table.Row>
                {COLUMNS.map((column) => (
                  <SortHeader key={column} column={column} sort={sort} onSort={onSort} />
                ))}
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {current.rows.map((row) => (
                <Table.Row key={row.nodeid} data-testid="maintenance-row">
                  <Table.Cell>
                    {canUpdate ? (
                      // why the whole cell: the title alone is a 20 px target on a tablet; id and title together reach 44 px.
                      <Link asChild display="flex" flexDirection="column" alignItems="start" justifyContent="center" gap="0.5" minH="11" color="fg" title={row.title}>
                        <RouterLink to="/edit-maintenance-task" state={editState(row)}>
                          <TaskLabel row={row} />
                        </RouterLink>
                      </Link>
                    ) : (
                      <Stack gap="0.5" title={row.title}>
                        <TaskLabel row={row} />
                      </Stack>
                    )}
                  </Table.Cell>
                  <Table.Cell>
                    <DueCell row={row} />
                  </Table.Cell>
                  <Table.Cell>{t(`machine.maintenance.interval.${row.repetitioninterval}`)}</Table.Cell>
                  <Table.Cell>{row.reminder ? t(`machine.maintenance.reminder.${row.reminder}`) : <Text as="span" color="fg.muted">{t('machine.maintenance.noReminder')}</Text>}</Table.Cell>
                  <Table.Cell>
                    <CategoryBadge category={row.category} />
                  </Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        </Table.ScrollArea>
      </Card.Body>
      <Card.Footer justifyContent="flex-end" gap="4" flexWrap="wrap" borderTopWidth="1px" borderColor="border.muted" pt="3">
        <HStack gap="2">
          <Text asChild textStyle="sm" color="fg.muted">
            <label htmlFor="maintenance-page-size">{t('machine.maintenance.rowsPerPage')}</label>
          </Text>
          <NativeSelect.Root size="lg" w="20">
            <NativeSelect.Field
              id="maintenance-page-size"
              value={String(size)}
              onChange={(event) => {
                setSize(Number(event.currentTarget.value));
                setPage(0);
              }}
              data-testid="maintenance-page-size"
            >
              {TASK_PAGE_SIZES.map((option) => (
                <option key={option} value={option}>
                  {option}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </HStack>
        <Text textStyle="sm" fontVariantNumeric="tabular-nums" data-testid="maintenance-range" aria-live="polite">
          {t('machine.maintenance.range', { from: current.from, to: current.to, total: current.total })}
        </Text>
        <HStack gap="1">
          <IconButton variant="ghost" size="lg" aria-label={t('machine.maintenance.previousPage')} disabled={current.page === 0} onClick={() => setPage(current.page - 1)} data-testid="maintenance-previous">
            <ChevronLeft />
          </IconButton>
          <IconButton variant="ghost" size="lg" aria-label={t('machine.maintenance.nextPage')} disabled={current.page >= current.pageCount - 1} onClick={() => setPage(current.page + 1)} data-testid="maintenance-next">
            <ChevronRight />
          </IconButton>
        </HStack>
      </Card.Footer>
    </Card.Root>
  );
}
