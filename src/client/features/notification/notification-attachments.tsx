/**
 * Photo thumbnails of a notification. While the server does not have a photo yet its bytes are on this device and
 * shown from there (offline too); once synced the device frees them and the photo comes from its signed URL,
 * which needs a connection ("Foto nur online verfügbar" otherwise).
 */
import { Box, Flex, Heading, Image, Link, SimpleGrid, Skeleton, Stack, Text } from '@chakra-ui/react';
import { ImageOff } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { attachmentSchema } from '../../../shared/api/attachments';
import { NotSyncedBadge } from '../../components/not-synced-badge';
import { api } from '../../lib/api';
import { useOnlineStatus } from '../../lib/use-online-status';
import { useAttachments, type AttachmentItem } from '../../sync/machine-mirror';

type Source = { state: 'loading' } | { state: 'ready'; url: string } | { state: 'unavailable' };

function useAttachmentSource(item: AttachmentItem, online: boolean): Source {
  const [remote, setRemote] = useState<Source>({ state: 'loading' });
  const [localUrl, setLocalUrl] = useState<string | null>(null);
  const { local, nodeid, pending } = item;

  useEffect(() => {
    if (!local) return undefined;
    const url = URL.createObjectURL(new Blob([local.bytes], { type: local.mimetype }));
    setLocalUrl(url);
    return () => URL.revokeObjectURL(url);
  }, [local]);

  useEffect(() => {
    if (local || pending || !online) return undefined;
    const controller = new AbortController();
    api
      .get(`attachments/${nodeid}`, { schema: attachmentSchema, signal: controller.signal })
      .then((attachment) => setRemote({ state: 'ready', url: attachment.url }))
      .catch(() => !controller.signal.aborted && setRemote({ state: 'unavailable' }));
    return () => controller.abort();
  }, [local, pending, online, nodeid]);

  if (local) return localUrl ? { state: 'ready', url: localUrl } : { state: 'loading' };
  if (!online || pending) return { state: 'unavailable' };
  return remote;
}

function Thumbnail({ item, online }: { item: AttachmentItem; online: boolean }) {
  const { t } = useTranslation();
  const source = useAttachmentSource(item, online);
  const isImage = (item.mimetype ?? '').startsWith('image/');
  return (
    <Stack as="li" gap="1" data-testid="attachment">
      {source.state === 'loading' && <Skeleton aspectRatio={4 / 3} borderRadius="l2" />}
      {source.state === 'ready' && (
        <Link href={source.url} target="_blank" rel="noreferrer" aria-label={t('notificationSlice.openPhoto', { title: item.title })} display="block" borderRadius="l2" overflow="hidden" borderWidth="1px">
          {isImage ? <Image src={source.url} alt={item.title} aspectRatio={4 / 3} objectFit="cover" w="full" bg="bg.muted" /> : <Text p="3">{item.title}</Text>}
        </Link>
      )}
      {source.state === 'unavailable' && (
        <Flex aspectRatio={4 / 3} align="center" justify="center" direction="column" gap="1" bg="bg.muted" color="fg.muted" borderRadius="l2" textAlign="center" p="2">
          <ImageOff size={24} aria-hidden />
          <Text textStyle="xs">{t('notificationSlice.onlineOnly')}</Text>
        </Flex>
      )}
      <Flex gap="2" align="center" minW="0">
        <Text textStyle="sm" truncate flex="1">
          {item.title}
        </Text>
        {item.pending && <NotSyncedBadge />}
      </Flex>
    </Stack>
  );
}

export function NotificationAttachments({ notificationnodeid }: { notificationnodeid: string }) {
  const { t } = useTranslation();
  const items = useAttachments(notificationnodeid);
  const online = useOnlineStatus();
  return (
    <Box as="section" aria-labelledby="notification-attachments">
      <Heading id="notification-attachments" as="h3" size="md" mb="3">
        {t('notificationSlice.attachments')}
      </Heading>
      {!items && <Skeleton h="24" />}
      {items?.length === 0 && <Text color="fg.muted">{t('notificationSlice.noAttachments')}</Text>}
      {items && items.length > 0 && (
        <SimpleGrid as="ul" columns={{ base: 2, md: 3, lg: 4 }} gap="3" listStyleType="none" m="0" p="0">
          {items.map((item) => (
            <Thumbnail key={item.nodeid} item={item} online={online} />
          ))}
        </SimpleGrid>
      )}
    </Box>
  );
}
