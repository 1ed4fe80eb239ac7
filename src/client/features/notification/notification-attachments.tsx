/**
 * Photo thumbnails of a notification. While the server does not have a photo yet its bytes are on this device and
 * shown from there (offline too), and a copy goes into the device's file cache; once synced the device frees the
 * upload's bytes and the photo comes from the cache, or, the first time on this device, from its signed download
 * (then kept). So a photo seen once also shows offline; one never seen here needs a connection once
 * ("Foto nur online verfügbar" otherwise).
 */
import { Box, Flex, Heading, Image, Link, SimpleGrid, Skeleton, Stack, Text } from '@chakra-ui/react';
import { ImageOff } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fileDownloadSchema } from '../../../shared/api/files';
import { NotSyncedBadge } from '../../components/not-synced-badge';
import { api } from '../../lib/api';
import { keepLocalFile } from '../../lib/file-cache';
import { cachedPhoto, downloadPhoto } from '../../lib/photo-cache';
import { useOnlineStatus } from '../../lib/use-online-status';
import { useAttachmentsWithFiles, type AttachmentWithFile } from '../../sync/offline-files';

type Source = { state: 'loading' } | { state: 'ready'; url: string } | { state: 'unavailable' };

function useAttachmentSource(item: AttachmentWithFile, online: boolean): Source {
  const [source, setSource] = useState<{ key: string; value: Source } | null>(null);
  const { local, filenodeid, pending } = item;
  const key = `${filenodeid ?? item.nodeid}:${local ? 'local' : 'server'}:${online}`;

  useEffect(() => {
    let objectUrl: string | null = null;
    const controller = new AbortController();
    const show = (blob: Blob | null) => {
      if (controller.signal.aborted) return;
      objectUrl = blob ? URL.createObjectURL(blob) : null;
      setSource({ key, value: objectUrl ? { state: 'ready', url: objectUrl } : { state: 'unavailable' } });
    };
    const load = async (): Promise<Blob | null> => {
      if (local) {
        // The upload frees these bytes once the server has them: a copy in the cache keeps the photo offline.
        if (filenodeid) void keepLocalFile(filenodeid, local.bytes, local.mimetype);
        return new Blob([local.bytes], { type: local.mimetype });
      }
      if (!filenodeid) return null;
      const kept = await cachedPhoto(filenodeid);
      if (kept || !online || pending) return kept;
      try {
        const file = await api.get(`files/${filenodeid}/download`, { schema: fileDownloadSchema, signal: controller.signal });
        return await downloadPhoto(filenodeid, file.url, controller.signal);
      } catch {
        return null;
      }
    };
    void load().then(show);
    return () => {
      controller.abort();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [key, local, filenodeid, online, pending]);

  return source && source.key === key ? source.value : { state: 'loading' };
}

function Thumbnail({ item, online }: { item: AttachmentWithFile; online: boolean }) {
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
      {/* The caption wraps (up to three lines) instead of being cut beside the badge: "Hydraulikle…" said nothing. */}
      <Flex gap="2" align="start" minW="0" wrap="wrap">
        <Text textStyle="sm" lineClamp={3} flex="1 1 8rem" minW="0" overflowWrap="anywhere" title={item.title} data-testid="attachment-caption">
          {item.title}
        </Text>
        {item.pending && <NotSyncedBadge />}
      </Flex>
    </Stack>
  );
}

export function NotificationAttachments({ notificationnodeid }: { notificationnodeid: string }) {
  const { t } = useTranslation();
  const items = useAttachmentsWithFiles(notificationnodeid);
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
