/**
 * /notification-details?nodeid=… (part 1 §2.2), first slice: back link to the machine, the header card (title cut
 * to 50 characters, brand, model, machine, pool or area, type badge, status line, processing time), the status
 * selector (notification update permission) writing through `updateNotificationStatus`, the description and the
 * photos. Read from the local mirror, so it works offline.
 */
import { Badge, Box, Button, Card, DataList, Field, Flex, Heading, HStack, NativeSelect, Skeleton, SkeletonText, Stack, Tabs, Text } from '@chakra-ui/react';
import { Clock, Share2 } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearchParams } from 'react-router-dom';
import {
  NOTIFICATION_HEADER_TITLE_MAX,
  NOTIFICATION_STATUSES,
  notificationElapsed,
  notificationStatusLine,
  type NotificationStatus,
} from '../../../shared/domain/notification';
import { truncateText } from '../../../shared/domain/text';
import { BackLink } from '../../components/back-link';
import { FormError } from '../../components/form-actions';
import { MissingRecord } from '../../components/missing-record';
import { NotSyncedBadge } from '../../components/not-synced-badge';
import { NotificationTypeBadge } from '../../components/notification-type-badge';
import { formatDateTime } from '../../lib/dates';
import { currentLanguage } from '../../lib/i18n';
import { useElapsedText } from '../../lib/use-elapsed-text';
import { usePermission } from '../../lib/use-permission';
import { useNotificationDetail, type NotificationDetail } from '../../sync/machine-mirror';
import { updateNotificationStatus } from '../../sync/repositories/notifications';
import { useLocalWrite } from '../../sync/use-local-write';
import { useWriteContext } from '../../sync/use-write-context';
import { EffortTab } from './effort-tab';
import { MeasuresList } from './measures-list';
import { NotificationAttachments } from './notification-attachments';
import { ShareDialog } from './share-dialog';

function BackToMachine({ equipmentnodeid }: { equipmentnodeid: string | null }) {
  const { t } = useTranslation();
  // Opened from the machine's history tab (state from 'history', spec §2.2), the way back is that tab.
  const from: unknown = (useLocation().state as { from?: unknown } | null)?.from;
  const tab = from === 'history' ? 1 : 0;
  if (from === 'notifications-dashboard') return <BackLink to="/notifications-dashboard" label={t('notificationsDashboard.back')} />;
  return equipmentnodeid ? <BackLink to={`/machine-overview?nodeid=${equipmentnodeid}&tab=${tab}`} label={t('notificationSlice.back')} /> : <BackLink to="/dashboard" label={t('notificationSlice.backToDashboard')} />;
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

function HeaderCard({ detail }: { detail: NotificationDetail }) {
  const { t } = useTranslation();
  const elapsedText = useElapsedText();
  const canUpdate = usePermission('notification', 'update');
  const { notification, machine } = detail;
  const statusLine = notificationStatusLine(notification);
  const processing = notification.status === 2 ? notificationElapsed(notification, Date.now()) : null;
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
          <NotificationTypeBadge type={notification.type} />
          {notification.pending && <NotSyncedBadge />}
        </HStack>
        <Heading as="h2" size="2xl" title={notification.title} wordBreak="break-word">
          {truncateText(notification.title, NOTIFICATION_HEADER_TITLE_MAX)}
        </Heading>
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
            {processing && (
              <Text fontWeight="semibold" data-testid="processing-time">
                {t('notificationSlice.processingTime', { elapsed: elapsedText(processing) })}
              </Text>
            )}
          </Stack>
          {canUpdate ? (
            <StatusSelector detail={detail} />
          ) : (
            <Badge size="lg" variant="subtle">
              {t(`notification.status.${notification.status === 1 || notification.status === 2 ? notification.status : 0}`)}
            </Badge>
          )}
        </Flex>
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

export function NotificationDetailsScreen() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const nodeid = params.get('nodeid');
  const detail = useNotificationDetail(nodeid, currentLanguage());

  return (
    <Stack gap="4" p={{ base: '4', md: '6' }} maxW="5xl">
      <BackToMachine equipmentnodeid={detail.status === 'ready' ? detail.value.notification.equipmentnodeid || null : null} />
      {detail.status === 'loading' && (
        <Stack gap="4" role="status" aria-busy="true" aria-label={t('notificationSlice.loading')}>
          <Skeleton h="48" borderRadius="l3" />
          <SkeletonText noOfLines={4} />
        </Stack>
      )}
      {detail.status === 'missing' && <MissingRecord title={t('notificationSlice.notFound')} text={t('notificationSlice.notFoundText')} testId="notification-not-found" />}
      {detail.status === 'ready' && (
        <>
          <HStack justify="end">
            <ShareButton nodeid={detail.value.notification.nodeid} title={detail.value.notification.title} />
          </HStack>
          <HeaderCard detail={detail.value} />
          <Tabs.Root defaultValue="overview" variant="line" size="lg" lazyMount unmountOnExit>
            <Tabs.List aria-label={t('notificationSlice.tabs.label')}>
              <Tabs.Trigger value="overview">{t('notificationSlice.tabs.overview')}</Tabs.Trigger>
              <Tabs.Trigger value="effort">{t('notificationSlice.tabs.effort')}</Tabs.Trigger>
              <Tabs.Trigger value="measures">{t('notificationSlice.tabs.measures')}</Tabs.Trigger>
            </Tabs.List>
            <Tabs.Content value="overview">
          <Card.Root variant="outline" bg="bg.panel">
            <Card.Body gap="6">
              <Box as="section" aria-labelledby="notification-description">
                <Heading id="notification-description" as="h3" size="md" mb="2">
                  {t('notificationSlice.description')}
                </Heading>
                <Text whiteSpace="pre-wrap" color={detail.value.notification.description ? undefined : 'fg.muted'}>
                  {detail.value.notification.description ?? t('notificationSlice.noDescription')}
                </Text>
              </Box>
              <NotificationAttachments notificationnodeid={detail.value.notification.nodeid} />
            </Card.Body>
          </Card.Root>
            </Tabs.Content>
            <Tabs.Content value="effort">
              <EffortTab notificationnodeid={detail.value.notification.nodeid} equipmentnodeid={detail.value.notification.equipmentnodeid || null} />
            </Tabs.Content>
            <Tabs.Content value="measures">
              <MeasuresList notificationnodeid={detail.value.notification.nodeid} equipmentnodeid={detail.value.notification.equipmentnodeid || null} />
            </Tabs.Content>
          </Tabs.Root>
        </>
      )}
    </Stack>
  );
}
