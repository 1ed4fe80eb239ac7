/**
 * Overview tab (part 1 §2.1): the QR code dialog with the sticker PDF and the nameplate image viewer; the machine's open notifications (status below 2), newest first, each with its type
 * badge, title, status and how long it has been open (hours under 48 h, else days), linking to the notification;
 * and "Neue Meldung" (notification create permission) opening the quick fault report, next to it the full form
 * (/create-notification with the machine preset); beside it (below in
 * portrait) the machine's memo.
 */
import { Badge, Box, Button, Card, Grid, Heading, HStack, Link, Skeleton, Stack, Text } from '@chakra-ui/react';
import { FilePlus, IdCard, Plus, QrCode } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import { notificationElapsed } from '../../../shared/domain/notification';
import { NotSyncedBadge } from '../../components/not-synced-badge';
import { ImageViewer } from '../../components/image-viewer';
import { NotificationTypeBadge } from '../../components/notification-type-badge';
import { currentLanguage } from '../../lib/i18n';
import { openForText } from '../../lib/use-elapsed-text';
import { useOnlineStatus } from '../../lib/use-online-status';
import { usePermission } from '../../lib/use-permission';
import { usePhotoUrl } from '../../lib/use-photo-url';
import { useMachineSticker, type MachineSticker } from '../../sync/machine-frame';
import { useOpenNotifications, type NotificationItem } from '../../sync/machine-mirror';
import { MachineQrDialog } from './machine-qr-dialog';
import { MemoCard } from './memo-card';
import { QuickFaultDialog } from './quick-fault-dialog';

/** The whole row is the link; its name is the notification's title, type, status and open time describe it. */
function NotificationRow({ item, now }: { item: NotificationItem; now: number }) {
  const { t } = useTranslation();
  const elapsed = notificationElapsed(item, now);
  const metaId = `notification-${item.nodeid}-meta`;
  return (
    <Box as="li" borderBottomWidth="1px" borderColor="border.muted" data-testid="open-notification">
      <Link asChild display="block" py="3" px="2" color="fg" textDecoration="none" _hover={{ bg: 'bg.subtle', textDecoration: 'none' }}>
        <RouterLink to={`/notification-details?nodeid=${item.nodeid}`} state={{ from: 'overview', nodeid: item.nodeid, equipmentNodeId: item.equipmentnodeid }} aria-label={item.title} aria-describedby={metaId}>
          <Stack gap="2">
            <HStack gap="2" flexWrap="wrap" id={metaId}>
              <NotificationTypeBadge type={item.type} colorcode={item.colorcode} />
              <Badge size="md" variant="subtle" colorPalette={item.status === 1 ? 'blue' : 'gray'}>
                {t(`notification.status.${item.status === 1 ? 1 : 0}`)}
              </Badge>
              {item.pending && <NotSyncedBadge />}
              {elapsed && (
                <Text textStyle="sm" color="fg.muted" ms="auto">
                  {openForText(t, elapsed)}
                </Text>
              )}
            </HStack>
            <Text fontWeight="semibold" lineClamp={2}>
              {item.title}
            </Text>
          </Stack>
        </RouterLink>
      </Link>
    </Box>
  );
}

/**
 * The nameplate photo (equipment `typenameplatefilenodeid`) in the zoom viewer. Read like the machine photo: kept on
 * the device once seen, so it opens offline; the button says when there is none, or none on this device offline.
 * While the photo is read it is only disabled (busy), not Chakra's loading state: that fades its label, and an axe
 * run at 800×1280 caught the faded label as a contrast failure.
 */
function NameplateButton({ sticker }: { sticker: MachineSticker }) {
  const { t } = useTranslation();
  const online = useOnlineStatus();
  const url = usePhotoUrl(sticker.typenameplatefilenodeid);
  const [viewing, setViewing] = useState(false);
  const hint = !sticker.typenameplatefilenodeid ? t('machine.qr.noNameplate') : url === null && !online ? t('machine.qr.nameplateOffline') : null;
  return (
    <>
      <Button variant="outline" onClick={() => setViewing(true)} disabled={!url} aria-busy={url === undefined} title={hint ?? undefined} data-testid="machine-nameplate">
        <IdCard aria-hidden />
        {t('machine.qr.nameplate')}
      </Button>
      {hint && (
        <Text textStyle="sm" color="fg.muted">
          {hint}
        </Text>
      )}
      {viewing && url && (
        <ImageViewer title={t('machine.qr.nameplateTitle', { name: sticker.name })} src={url} alt={t('machine.qr.nameplateTitle', { name: sticker.name })} onClose={() => setViewing(false)} testId="machine-nameplate-viewer" />
      )}
    </>
  );
}

function MachineTools({ equipmentnodeid }: { equipmentnodeid: string }) {
  const { t } = useTranslation();
  const sticker = useMachineSticker(equipmentnodeid, currentLanguage());
  const [showQr, setShowQr] = useState(false);
  if (!sticker) return <Skeleton h="10" w="72" />;
  return (
    <HStack gap="3" flexWrap="wrap">
      <Button variant="outline" onClick={() => setShowQr(true)} data-testid="machine-qr">
        <QrCode aria-hidden />
        {t('machine.qr.button')}
      </Button>
      <NameplateButton sticker={sticker} />
      {showQr && <MachineQrDialog sticker={sticker} onClose={() => setShowQr(false)} />}
    </HStack>
  );
}

export function OverviewTab({ equipmentnodeid }: { equipmentnodeid: string }) {
  const { t } = useTranslation();
  const canCreate = usePermission('notification', 'create');
  const notifications = useOpenNotifications(equipmentnodeid);
  const [reporting, setReporting] = useState(false);
  // Elapsed times count in minutes in the first hour: the list re-reads the clock every minute, besides every
  // mirror change.
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);

  return (
    <Stack gap="4">
      <MachineTools equipmentnodeid={equipmentnodeid} />
      <Grid templateColumns={{ base: '1fr', lg: 'minmax(0, 3fr) minmax(0, 2fr)' }} gap="4" alignItems="start">
        <Card.Root variant="outline" bg="bg.panel">
          <Card.Header>
            <HStack justify="space-between" gap="4" flexWrap="wrap">
              <Heading as="h3" size="lg">
                {t('machine.openNotifications')}
                {notifications && notifications.length > 0 && (
                  <Badge ms="2" size="md" variant="solid" colorPalette="orange">
                    {notifications.length}
                  </Badge>
                )}
              </Heading>
              {canCreate && (
                <HStack gap="2" flexWrap="wrap">
                  <Button variant="outline" asChild data-testid="machine-notification-form">
                    <RouterLink to={`/create-notification?equipmentnodeid=${equipmentnodeid}`} state={{ pageType: 'add', from: 'machine', equip: equipmentnodeid }}>
                      <FilePlus aria-hidden />
                      {t('notificationForm.entry')}
                    </RouterLink>
                  </Button>
                  <Button colorPalette="brand" onClick={() => setReporting(true)}>
                    <Plus aria-hidden />
                    {t('machine.newNotification')}
                  </Button>
                </HStack>
              )}
            </HStack>
          </Card.Header>
          <Card.Body pt="2">
            {!notifications && <Skeleton h="20" />}
            {notifications?.length === 0 && <Text color="fg.muted">{t('machine.noOpenNotifications')}</Text>}
            {notifications && notifications.length > 0 && (
              <Box as="ul" listStyleType="none" m="0" p="0" aria-label={t('machine.openNotifications')}>
                {notifications.map((item) => (
                  <NotificationRow key={item.nodeid} item={item} now={now} />
                ))}
              </Box>
            )}
          </Card.Body>
          {reporting && <QuickFaultDialog equipmentnodeid={equipmentnodeid} onClose={() => setReporting(false)} />}
        </Card.Root>
        <MemoCard equipmentnodeid={equipmentnodeid} />
      </Grid>
    </Stack>
  );
}
