/**
 * /notification-details?nodeid=… (part 1 §2.2). The nodeid comes from the query, else the navigation state, else
 * the notification this screen last showed (stores/notification-details-store.ts, forgotten when the user leaves
 * for anything but a report, details, edit or solution screen). The back link and the after-delete target follow
 * the navigation state's `from` (notificationOriginPath). Header card, status selector, description with the
 * safety notice, error code, attachments, the tabs (overview; report for type 6 or effort recording otherwise;
 * measures except type 6), share, and the more-menu with edit and delete by permission. Everything is read from
 * the local mirror and every write is queued, so the screen works offline.
 */
import { Alert, Badge, Box, Button, Card, DataList, Field, Flex, Heading, HStack, IconButton, Menu, NativeSelect, Portal, Skeleton, SkeletonText, Stack, Tabs, Text } from '@chakra-ui/react';
import { CalendarClock, CalendarDays, CheckCircle2, Clock, EllipsisVertical, Pencil, Share2, ShieldAlert, Trash2 } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import {
  keepsNotificationState,
  NOTIFICATION_DELETE_REDIRECT_MS,
  NOTIFICATION_HEADER_TITLE_MAX,
  NOTIFICATION_STATUSES,
  NOTIFICATION_TYPE,
  notificationElapsed,
  notificationOriginPath,
  notificationStatusLine,
  showsDueDate,
  type NotificationStatus,
} from '../../../shared/domain/notification';
import { truncateText } from '../../../shared/domain/text';
import { BackLink } from '../../components/back-link';
import { ConfirmDeleteDialog } from '../../components/confirm-delete-dialog';
import { FormError } from '../../components/form-actions';
import { MissingRecord } from '../../components/missing-record';
import { NotSyncedBadge } from '../../components/not-synced-badge';
import { NotificationTypeBadge } from '../../components/notification-type-badge';
import { useMenuFocusReturn } from '../../components/use-menu-focus-return';
import { formatDate, formatDateTime } from '../../lib/dates';
import { originOfState, withOrigin, type NotificationOrigin } from '../../lib/notification-origin';
import { currentLanguage } from '../../lib/i18n';
import { toaster } from '../../lib/toaster';
import { useElapsedText } from '../../lib/use-elapsed-text';
import { usePermission } from '../../lib/use-permission';
import { useSessionStore } from '../../stores/session-store';
import { forgetNotification, rememberNotification, useRememberedNotification, useRememberedOrigin } from '../../stores/notification-details-store';
import { useNotificationDetail, type NotificationDetail } from '../../sync/machine-mirror';
import { useNotificationDetailsExtras, type NotificationDetailsExtras } from '../../sync/notification-details';
import { removeNotification, updateNotificationStatus } from '../../sync/repositories/notifications';
import { useLocalWrite } from '../../sync/use-local-write';
import { useRefusalOfRecord } from '../../sync/use-sync-lists';
import { useWriteContext } from '../../sync/use-write-context';
import { ChangeHistory } from './change-history';
import { EffortTab } from './effort-tab';
import { MeasuresList } from './measures-list';
import { NotificationAttachments } from './notification-attachments';
import { ShareDialog } from './share-dialog';

/** The navigation state callers may pass (§2.2): the nodeid, the machine and where the user came from. */
interface DetailsState {
  nodeid?: unknown;
  equipmentNodeId?: unknown;
  from?: unknown;
}

const str = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/**
 * Query parameter, else navigation state, else the remembered notification (§2.2). Where it was opened from: the
 * navigation state, else what was remembered for the same notification (back from editing it, or from a report or
 * solution screen, which navigate without that state).
 */
function useDetailsTarget() {
  const [params] = useSearchParams();
  const state = (useLocation().state ?? {}) as DetailsState;
  const remembered = useRememberedNotification();
  const nodeid = params.get('nodeid') || str(state.nodeid) || remembered;
  const origin = originOfState(state);
  const rememberedOrigin = useRememberedOrigin(nodeid);
  const usernodeid = useSessionStore((session) => session.session?.usernodeid) ?? null;
  const refused = useRefusalOfRecord(usernodeid, nodeid || null);
  const shownFrom = origin ?? rememberedOrigin;
  return { nodeid, from: shownFrom?.from, equipmentNodeId: shownFrom?.equipmentNodeId ?? null, origin, shownOrigin: shownFrom, refused };
}

/** Remembers the shown notification (and its origin); forgets both when the screen is left for anything but a report/details/edit screen. */
function useRememberWhileShown(nodeid: string | null, origin: NotificationOrigin | null) {
  const from = origin?.from;
  const equipmentNodeId = origin?.equipmentNodeId ?? null;
  useEffect(() => {
    if (nodeid) rememberNotification(nodeid, from ? { from, equipmentNodeId } : null);
  }, [nodeid, from, equipmentNodeId]);
  useEffect(
    () => () => {
      // why window.location: by the time the screen unmounts the router has already moved to the destination.
      if (!keepsNotificationState(window.location.pathname)) forgetNotification();
    },
    [],
  );
}

function BackToOrigin({ path }: { path: string }) {
  const { t } = useTranslation();
  const label = path.startsWith('/machine-overview')
    ? t('notificationSlice.back')
    : path === '/aufgabeplanung'
      ? t('notificationDetails.back.planning')
      : path === '/maintenance-dashboard'
        ? t('notificationDetails.back.maintenanceDashboard')
        : t('notificationDetails.back.notifications');
  return <BackLink to={path} label={label} />;
}

function StatusSelector({ detail }: { detail: NotificationDetail }) {
  const { t } = useTranslation();
  const context = useWriteContext();
  const { error, run } = useLocalWrite(t('notificationSlice.statusFailed'));
  const current = detail.notification.status as NotificationStatus;
  const change = async (next: NotificationStatus) => {
    if (!context || next === current) return;
    await run(() => updateNotificationStatus(context, detail.notification.row, next));
  };
  return (
    <Stack gap="2" maxW={{ base: 'full', md: 'xs' }}>
      <Field.Root>
        <Field.Label>{t('notificationSlice.status')}</Field.Label>
        <NativeSelect.Root size="lg">
          <NativeSelect.Field value={String(current)} onChange={(event) => void change(Number(event.target.value) as NotificationStatus)}>
            {NOTIFICATION_STATUSES.map((status) => (
              <option key={status} value={status}>
                {t(`notification.status.${status}`)}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </Field.Root>
      <FormError error={error} size="sm" />
    </Stack>
  );
}

function HeaderCard({ detail, extras }: { detail: NotificationDetail; extras: NotificationDetailsExtras | null }) {
  const { t } = useTranslation();
  const elapsedText = useElapsedText();
  const canUpdate = usePermission('notification', 'update');
  const { notification, machine } = detail;
  const statusLine = notificationStatusLine(notification);
  const processing = notification.status === 2 ? notificationElapsed(notification, Date.now()) : null;
  const due = showsDueDate(notification.status, extras?.dueuntil) ? extras!.dueuntil : null;
  const nextAppointment = notification.type === NOTIFICATION_TYPE.plannedMaintenance ? (extras?.task?.nextAppointment ?? null) : null;
  // §4.2 cuts the title at 50 characters; a tablet has no hover for the tooltip, so a tap shows the rest.
  const [wholeTitle, setWholeTitle] = useState(false);
  const shortTitle = truncateText(notification.title, NOTIFICATION_HEADER_TITLE_MAX);
  const cut = shortTitle !== notification.title;
  const rows: [string, string | null | undefined][] = [
    [t('notificationSlice.machine'), machine?.name],
    [t('machine.brand'), machine?.brand],
    [t('machine.model'), machine?.model],
    [t('notificationSlice.pool'), machine?.pool ?? machine?.area],
  ];
  return (
    <Card.Root variant="outline" bg="bg.panel" data-testid="notification-header">
      <Card.Body gap="4">
        <HStack gap="2" flexWrap="wrap">
          <NotificationTypeBadge type={notification.type} colorcode={extras?.task?.colorcode} />
          {extras?.hasWorkflows && (
            <Badge size="md" variant="subtle" colorPalette="green" data-testid="has-measures">
              <CheckCircle2 size={14} aria-hidden />
              {t('notificationDetails.hasMeasures')}
            </Badge>
          )}
          {notification.pending && <NotSyncedBadge />}
        </HStack>
        <Heading as="h2" size="2xl" title={notification.title} wordBreak="break-word" data-testid="notification-title">
          {wholeTitle ? notification.title : shortTitle}
        </Heading>
        {cut && !wholeTitle && (
          <Button variant="ghost" size="lg" alignSelf="start" mt="-2" px="2" onClick={() => setWholeTitle(true)} data-testid="notification-whole-title">
            {t('notificationDetails.wholeTitle')}
          </Button>
        )}
        <DataList.Root orientation="horizontal" size="md" display="grid" gridTemplateColumns={{ base: '1fr', md: 'repeat(2, minmax(0, 1fr))' }} gap="2" columnGap="8">
          {rows.map(([label, value]) => (
            <DataList.Item key={label} minW="0">
              <DataList.ItemLabel minW="32">{label}</DataList.ItemLabel>
              <DataList.ItemValue>{value || '—'}</DataList.ItemValue>
            </DataList.Item>
          ))}
        </DataList.Root>
        <Flex gap="4" align={{ base: 'stretch', md: 'end' }} justify="space-between" direction={{ base: 'column', md: 'row' }}>
          <Stack gap="1">
            <HStack gap="2" color="fg.muted">
              <Clock size={16} aria-hidden />
              <Text data-testid="status-line">{t(`notificationSlice.statusLine.${statusLine.kind}`, { time: formatDateTime(statusLine.at) || '—' })}</Text>
            </HStack>
            {due !== null && (
              <HStack gap="2" color="fg.muted">
                <CalendarClock size={16} aria-hidden />
                <Text data-testid="due-date">{t('notificationDetails.dueUntil', { date: formatDate(due) })}</Text>
              </HStack>
            )}
            {nextAppointment !== null && (
              <HStack gap="2" color="fg.muted">
                <CalendarDays size={16} aria-hidden />
                <Text data-testid="next-appointment">{t('notificationDetails.nextAppointment', { date: formatDate(nextAppointment) })}</Text>
              </HStack>
            )}
            {processing && (
              <Text fontWeight="semibold" data-testid="processing-time">
                {t('notificationSlice.processingTime', { elapsed: elapsedText(processing) })}
              </Text>
            )}
          </Stack>
          {canUpdate ? (
            <StatusSelector detail={detail} />
          ) : (
            <Badge size="lg" variant="subtle" alignSelf={{ base: 'start', md: 'end' }} data-testid="status-badge">
              {t(`notification.status.${notification.status === 1 || notification.status === 2 ? notification.status : 0}`)}
            </Badge>
          )}
        </Flex>
      </Card.Body>
    </Card.Root>
  );
}

/**
 * The safety notice box (§2.2 "Sicherheitshinweise, text chosen by language"): planned maintenance shows its task's
 * safety notice in the user's language; everything else, and a task without one, the general hint of the i18n files.
 */
function SafetyNotice({ text }: { text: string | null }) {
  const { t } = useTranslation();
  return (
    <Alert.Root status="warning" variant="subtle" alignItems="start" data-testid="safety-notice">
      <Alert.Indicator>
        <ShieldAlert aria-hidden />
      </Alert.Indicator>
      <Alert.Content>
        <Alert.Title>{t('notificationDetails.safety.title')}</Alert.Title>
        <Alert.Description whiteSpace="pre-wrap">{text ?? t('notificationDetails.safety.general')}</Alert.Description>
      </Alert.Content>
    </Alert.Root>
  );
}

function OverviewTab({ detail, extras, origin }: { detail: NotificationDetail; extras: NotificationDetailsExtras | null; origin: NotificationOrigin | null }) {
  const { t } = useTranslation();
  const { notification } = detail;
  const planned = notification.type === NOTIFICATION_TYPE.plannedMaintenance;
  return (
    <Card.Root variant="outline" bg="bg.panel">
      <Card.Body gap="6">
        <Box as="section" aria-labelledby="notification-description">
          <Heading id="notification-description" as="h3" size="md" mb="2">
            {t('notificationSlice.description')}
          </Heading>
          <Stack gap="4">
            <Text whiteSpace="pre-wrap" color={notification.description ? undefined : 'fg.muted'}>
              {notification.description ?? t('notificationSlice.noDescription')}
            </Text>
            <SafetyNotice text={planned ? (extras?.task?.safetynotice ?? null) : null} />
            <HStack gap="2">
              <Text fontWeight="semibold">{t('notificationDetails.errorCode')}</Text>
              <Text data-testid="error-code">{extras?.errorcode ?? '---'}</Text>
            </HStack>
          </Stack>
        </Box>
        <NotificationAttachments notificationnodeid={notification.nodeid} />
        {/* Type 6 has no measures tab (§2.2): its measures show here, so every notification shows them once. */}
        {/* The list is its own section with its heading "Maßnahmen". */}
        {planned && <MeasuresList notificationnodeid={notification.nodeid} equipmentnodeid={notification.equipmentnodeid || null} origin={origin} />}
        <ChangeHistory notificationnodeid={notification.nodeid} />
      </Card.Body>
    </Card.Root>
  );
}

/**
 * The report of a planned maintenance (§2.2 "maintenance report section with signature confirmation"). The report
 * itself is a later issue; this section is its place in the screen.
 */
function ReportSection({ notificationnodeid }: { notificationnodeid: string }) {
  const { t } = useTranslation();
  return (
    <Card.Root variant="outline" bg="bg.panel" data-testid="report-section" data-notification={notificationnodeid}>
      <Card.Body gap="2">
        <Heading as="h3" size="md">
          {t('notificationDetails.report.title')}
        </Heading>
        <Text color="fg.muted">{t('notificationDetails.report.none')}</Text>
      </Card.Body>
    </Card.Root>
  );
}

function ShareButton({ nodeid, title }: { nodeid: string; title: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="outline" onClick={() => setOpen(true)}>
        <Share2 aria-hidden /> {t('notificationSlice.share')}
      </Button>
      <ShareDialog open={open} onClose={() => setOpen(false)} notificationnodeid={nodeid} title={title} />
    </>
  );
}

/**
 * "Meldung bearbeiten" (update) and "Meldung löschen" (delete), each only with its permission (§6). The edit form
 * gets where the details were opened from (`notificationOrigin`) and hands it back on save and cancel.
 */
function MoreMenu({ detail, origin, onDelete }: { detail: NotificationDetail; origin: NotificationOrigin | null; onDelete(): void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const canUpdate = usePermission('notification', 'update');
  const canDelete = usePermission('notification', 'delete');
  const focusReturn = useMenuFocusReturn();
  if (!canUpdate && !canDelete) return null;
  const { notification } = detail;
  const edit = () =>
    void navigate(`/edit-notification?nodeid=${notification.nodeid}`, {
      state: withOrigin({ pageType: 'edit', from: 'notification', nodeid: notification.nodeid, equipmentNodeId: notification.equipmentnodeid }, origin),
    });
  const item = { minH: '11', textStyle: 'md' } as const;
  return (
    <Menu.Root lazyMount unmountOnExit positioning={{ placement: 'bottom-end' }} onExitComplete={focusReturn.onExitComplete}>
      <Menu.Trigger asChild ref={focusReturn.triggerRef}>
        <IconButton variant="outline" aria-label={t('notificationDetails.menu.label')} data-testid="notification-menu">
          <EllipsisVertical aria-hidden />
        </IconButton>
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content ref={focusReturn.contentRef} minW="56">
            {canUpdate && (
              <Menu.Item value="edit" {...item} onSelect={edit}>
                <Pencil size={18} aria-hidden />
                {t('notificationDetails.menu.edit')}
              </Menu.Item>
            )}
            {canDelete && (
              <Menu.Item value="delete" {...item} color="fg.error" _hover={{ bg: 'bg.error', color: 'fg.error' }} onSelect={onDelete}>
                <Trash2 size={18} aria-hidden />
                {t('notificationDetails.menu.delete')}
              </Menu.Item>
            )}
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}

/**
 * Delete (§4.2): confirmed, queued (offline too), a toast, then after 3 s back to where the user came from. The
 * mirror drops the notification at once; the screen says it is gone while it waits.
 */
function useDeleteNotification(originPath: string) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const context = useWriteContext();
  const { busy, error, run } = useLocalWrite(t('notificationDetails.delete.failed'));
  /** Where the screen returns to, fixed when the delete went through (the machine is gone from the mirror then). */
  const [deleted, setDeleted] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  const remove = async (nodeid: string, title: string) => {
    if (!context) return;
    const target = originPath;
    if (!(await run(() => removeNotification(context, nodeid)))) return;
    setDeleted(target);
    forgetNotification();
    toaster.create({ type: 'success', title: t('notificationDetails.delete.done', { title: truncateText(title, NOTIFICATION_HEADER_TITLE_MAX) }) });
    timer.current = setTimeout(() => void navigate(target, { replace: true }), NOTIFICATION_DELETE_REDIRECT_MS);
  };
  return { remove, deleted, busy, error };
}

export function NotificationDetailsScreen() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const tabParam = params.get('tab');
  const target = useDetailsTarget();
  const language = currentLanguage();
  const detail = useNotificationDetail(target.nodeid, language);
  const extras = useNotificationDetailsExtras(target.nodeid, language) ?? null;
  const [confirming, setConfirming] = useState(false);
  useRememberWhileShown(target.nodeid, target.origin);
  const equipmentnodeid = (detail.status === 'ready' ? detail.value.notification.equipmentnodeid : null) || target.equipmentNodeId;
  const originPath = notificationOriginPath(target.from, equipmentnodeid);
  const deletion = useDeleteNotification(originPath);

  if (deletion.deleted !== null) {
    return (
      <Stack gap="4" p={{ base: '4', md: '6' }} maxW="5xl">
        <BackToOrigin path={deletion.deleted} />
        <Stack gap="2" py="8" role="status" data-testid="notification-deleted">
          <Heading as="h2" size="xl">
            {t('notificationDetails.delete.deletedTitle')}
          </Heading>
          <Text color="fg.muted">{t('notificationDetails.delete.returning')}</Text>
        </Stack>
      </Stack>
    );
  }

  const planned = detail.status === 'ready' && detail.value.notification.type === NOTIFICATION_TYPE.plannedMaintenance;
  // The open tab is in the address (`&tab=`): back from a measure's form, a reload or the browser's back button
  // shows the tab the user worked on, not the overview.
  const tabs = planned ? ['overview', 'report'] : ['overview', 'effort', 'measures'];
  const tab = tabs.includes(tabParam ?? '') ? tabParam! : 'overview';
  const showTab = (value: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value === 'overview') next.delete('tab');
        else next.set('tab', value);
        return next;
      },
      { replace: true, state: location.state as unknown },
    );
  return (
    <Stack gap="4" p={{ base: '4', md: '6' }} maxW="5xl">
      <BackToOrigin path={originPath} />
      {detail.status === 'loading' && (
        <Stack gap="4" role="status" aria-busy="true" aria-label={t('notificationSlice.loading')}>
          <Skeleton h="48" borderRadius="l3" />
          <SkeletonText noOfLines={4} />
        </Stack>
      )}
      {detail.status === 'missing' && (
        // Gone with a refused change of the user's about it: said why (deleted on the server, or refused) and that the
        // typed input waits among the sync panel's refused changes, not only "not found".
        <MissingRecord
          title={target.refused === 'deleted' ? t('notificationSlice.notFoundDeletedTitle') : t('notificationSlice.notFound')}
          text={target.refused === 'deleted' ? t('notificationSlice.notFoundDeleted') : target.refused === 'refused' ? t('notificationSlice.notFoundRefused') : t('notificationSlice.notFoundText')}
          testId="notification-not-found"
        />
      )}
      {detail.status === 'ready' && (
        <>
          <HStack justify="end" gap="2">
            <ShareButton nodeid={detail.value.notification.nodeid} title={detail.value.notification.title} />
            <MoreMenu detail={detail.value} origin={target.shownOrigin} onDelete={() => setConfirming(true)} />
          </HStack>
          <FormError error={deletion.error} size="sm" />
          <HeaderCard key={detail.value.notification.nodeid} detail={detail.value} extras={extras} />
          <Tabs.Root value={tab} onValueChange={(details) => showTab(details.value)} variant="line" size="lg" lazyMount unmountOnExit>
            <Tabs.List aria-label={t('notificationSlice.tabs.label')}>
              <Tabs.Trigger value="overview">{t('notificationSlice.tabs.overview')}</Tabs.Trigger>
              {planned ? <Tabs.Trigger value="report">{t('notificationDetails.tabs.report')}</Tabs.Trigger> : <Tabs.Trigger value="effort">{t('notificationSlice.tabs.effort')}</Tabs.Trigger>}
              {!planned && <Tabs.Trigger value="measures">{t('notificationSlice.tabs.measures')}</Tabs.Trigger>}
            </Tabs.List>
            <Tabs.Content value="overview">
              <OverviewTab detail={detail.value} extras={extras} origin={target.shownOrigin} />
            </Tabs.Content>
            {planned ? (
              <Tabs.Content value="report">
                <ReportSection notificationnodeid={detail.value.notification.nodeid} />
              </Tabs.Content>
            ) : (
              <Tabs.Content value="effort">
                <EffortTab notificationnodeid={detail.value.notification.nodeid} equipmentnodeid={detail.value.notification.equipmentnodeid || null} />
              </Tabs.Content>
            )}
            {!planned && (
              <Tabs.Content value="measures">
                <MeasuresList notificationnodeid={detail.value.notification.nodeid} equipmentnodeid={detail.value.notification.equipmentnodeid || null} origin={target.shownOrigin} />
              </Tabs.Content>
            )}
          </Tabs.Root>
          <ConfirmDeleteDialog
            open={confirming}
            title={t('notificationDetails.delete.confirmTitle')}
            text={t('notificationDetails.delete.confirmText', { title: truncateText(detail.value.notification.title, NOTIFICATION_HEADER_TITLE_MAX) })}
            busy={deletion.busy}
            onCancel={() => setConfirming(false)}
            onConfirm={() => {
              setConfirming(false);
              void deletion.remove(detail.value.notification.nodeid, detail.value.notification.title);
            }}
            confirmTestId="confirm-delete-notification"
          />
        </>
      )}
    </Stack>
  );
}
