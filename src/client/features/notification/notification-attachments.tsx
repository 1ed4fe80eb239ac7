/**
 * Photo thumbnails of a notification. While the server does not have a photo yet its bytes are on this device and
 * shown from there (offline too), and a copy goes into the device's file cache; once synced the device frees the
 * upload's bytes and the photo comes from the cache, or, the first time on this device, from its signed download
 * (then kept). So a photo seen once also shows offline; one never seen here needs a connection once
 * ("Foto nur online verfügbar" otherwise).
 */
import { Box, Button, Flex, Heading, HStack, Image, Link, SimpleGrid, Skeleton, Stack, Text } from '@chakra-ui/react';
import { ChevronDown, ChevronUp, FileText, ImageOff } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ATTACHMENT_PREVIEW_COUNT } from '../../../shared/domain/notification';
import { truncateText } from '../../../shared/domain/text';
import { NotSyncedBadge } from '../../components/not-synced-badge';
import { useOnlineStatus } from '../../lib/use-online-status';
import { useAttachmentsWithFiles, type AttachmentWithFile } from '../../sync/offline-files';
import { fileLinkProps } from '../../lib/file-link';
import { useAttachmentSource } from './use-attachment-source';

/** §9: attachment titles in lists are cut at 80 characters. */
const ATTACHMENT_TITLE_MAX = 80;

function Thumbnail({ item, online }: { item: AttachmentWithFile; online: boolean }) {
  const { t } = useTranslation();
  const source = useAttachmentSource(item, online);
  const isImage = (item.mimetype ?? '').startsWith('image/');
  return (
    <Stack as="li" gap="1" data-testid="attachment">
      {source.state === 'loading' && <Skeleton aspectRatio={4 / 3} borderRadius="l2" />}
      {source.state === 'ready' && (
        <Link href={source.url} {...fileLinkProps(item.mimetype, item.title)} aria-label={t('notificationDetails.attachments.open', { title: item.title })} display="block" borderRadius="l2" overflow="hidden" borderWidth="1px">
          {isImage ? <Image src={source.url} alt={item.title} aspectRatio={4 / 3} objectFit="cover" w="full" bg="bg.muted" /> : <Text p="3">{item.title}</Text>}
        </Link>
      )}
      {source.state === 'unavailable' && (
        <Flex aspectRatio={4 / 3} align="center" justify="center" direction="column" gap="1" bg="bg.muted" color="fg.muted" borderRadius="l2" textAlign="center" p="2">
          <ImageOff size={24} aria-hidden />
          <Text textStyle="xs">{t('notificationDetails.attachments.onlineOnly')}</Text>
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

/** A document (any attachment that is not a picture): a line with its title, opened in a new tab. */
function DocumentRow({ item, online }: { item: AttachmentWithFile; online: boolean }) {
  const { t } = useTranslation();
  const source = useAttachmentSource(item, online);
  return (
    <HStack as="li" gap="3" py="1" minH="11" borderBottomWidth="1px" data-testid="attachment-document">
      <FileText size={20} aria-hidden />
      {source.state === 'ready' ? (
        <Link href={source.url} {...fileLinkProps(item.mimetype, item.title)} flex="1" minW="0" minH="11" display="flex" alignItems="center" overflowWrap="anywhere" title={item.title}>
          {truncateText(item.title, ATTACHMENT_TITLE_MAX)}
        </Link>
      ) : (
        <Text flex="1" minW="0" overflowWrap="anywhere" title={item.title} color={source.state === 'unavailable' ? 'fg.muted' : undefined}>
          {truncateText(item.title, ATTACHMENT_TITLE_MAX)}
          {source.state === 'unavailable' && ` (${t('notificationDetails.attachments.onlineOnly')})`}
        </Text>
      )}
      {item.pending && <NotSyncedBadge />}
    </HStack>
  );
}

/** A picture, or an attachment whose type this device does not know yet (the thumbnail shows its title then). */
const isPreview = (item: AttachmentWithFile) => item.mimetype === null || item.mimetype.startsWith('image/');

/**
 * The attachments section of §2.2: the first three pictures, then "n weitere anzeigen" for the rest (§9), and the
 * documents as a list below.
 */
export function NotificationAttachments({ notificationnodeid }: { notificationnodeid: string }) {
  const { t } = useTranslation();
  const items = useAttachmentsWithFiles(notificationnodeid);
  const online = useOnlineStatus();
  const [expanded, setExpanded] = useState(false);
  const previews = items?.filter(isPreview) ?? [];
  const documents = items?.filter((item) => !isPreview(item)) ?? [];
  const shown = expanded ? previews : previews.slice(0, ATTACHMENT_PREVIEW_COUNT);
  const hidden = previews.length - shown.length;
  return (
    <Box as="section" aria-labelledby="notification-attachments" data-testid="notification-attachments">
      <Heading id="notification-attachments" as="h3" size="md" mb="3">
        {t('notificationDetails.attachments.title')}
      </Heading>
      {!items && <Skeleton h="24" />}
      {items?.length === 0 && <Text color="fg.muted">{t('notificationDetails.attachments.none')}</Text>}
      {shown.length > 0 && (
        <SimpleGrid as="ul" columns={{ base: 2, sm: 3 }} gap="3" listStyleType="none" m="0" p="0">
          {shown.map((item) => (
            <Thumbnail key={item.nodeid} item={item} online={online} />
          ))}
        </SimpleGrid>
      )}
      {(hidden > 0 || (expanded && previews.length > ATTACHMENT_PREVIEW_COUNT)) && (
        <Button variant="outline" size="md" minH="11" mt="3" onClick={() => setExpanded(!expanded)} aria-expanded={expanded} data-testid="attachments-more">
          {expanded ? <ChevronUp aria-hidden /> : <ChevronDown aria-hidden />}
          {expanded ? t('notificationDetails.attachments.showLess') : t('notificationDetails.attachments.showMore', { count: hidden })}
        </Button>
      )}
      {documents.length > 0 && (
        <Stack as="ul" gap="0" listStyleType="none" m="0" mt="4" p="0" aria-label={t('notificationDetails.attachments.documents')}>
          {documents.map((item) => (
            <DocumentRow key={item.nodeid} item={item} online={online} />
          ))}
        </Stack>
      )}
    </Box>
  );
}
