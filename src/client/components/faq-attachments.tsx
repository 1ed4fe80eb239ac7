/**
 * The files of a FAQ (its attachments) as a list of links. A file picked on this device opens from its stored
 * bytes until the server has it (offline too); a synced one from a signed URL, which needs a connection.
 */
import { Flex, HStack, Link, Stack, Text } from '@chakra-ui/react';
import { FileText, Film, Image as ImageIcon } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { attachmentSchema } from '../../shared/api/attachments';
import { api } from '../lib/api';
import { fileLinkProps } from '../lib/file-link';
import { useOnlineStatus } from '../lib/use-online-status';
import { useAttachments, type AttachmentItem } from '../sync/machine-mirror';
import { NotSyncedBadge } from './not-synced-badge';

function useFileUrl(item: AttachmentItem, online: boolean): string | null {
  const [remote, setRemote] = useState<string | null>(null);
  const [local, setLocal] = useState<string | null>(null);
  useEffect(() => {
    if (!item.local) return undefined;
    const url = URL.createObjectURL(new Blob([item.local.bytes], { type: item.local.mimetype }));
    setLocal(url);
    return () => URL.revokeObjectURL(url);
  }, [item.local]);
  useEffect(() => {
    if (item.local || item.pending || !online) return undefined;
    const controller = new AbortController();
    api
      .get(`attachments/${item.nodeid}`, { schema: attachmentSchema, signal: controller.signal })
      .then((attachment) => setRemote(attachment.url))
      .catch(() => undefined);
    return () => controller.abort();
  }, [item.local, item.pending, item.nodeid, online]);
  if (item.local) return local;
  return online ? remote : null;
}

function FileIcon({ mimetype }: { mimetype: string | null }) {
  if (mimetype?.startsWith('image/')) return <ImageIcon size={18} aria-hidden />;
  if (mimetype?.startsWith('video/')) return <Film size={18} aria-hidden />;
  return <FileText size={18} aria-hidden />;
}

function AttachmentLink({ item, online }: { item: AttachmentItem; online: boolean }) {
  const { t } = useTranslation();
  const url = useFileUrl(item, online);
  return (
    <HStack as="li" gap="2" minH="11" data-testid="faq-attachment">
      <FileIcon mimetype={item.mimetype} />
      {url ? (
        <Link href={url} {...fileLinkProps(item.mimetype, item.title)} overflowWrap="anywhere" colorPalette="brand" variant="underline" minH="11" display="inline-flex" alignItems="center">
          {item.title}
        </Link>
      ) : (
        <Text overflowWrap="anywhere">{item.title}</Text>
      )}
      {!url && !online && (
        <Text textStyle="xs" color="fg.muted">
          {t('faq.attachments.onlineOnly')}
        </Text>
      )}
      {item.pending && <NotSyncedBadge />}
    </HStack>
  );
}

export function FaqAttachments({ faqnodeid }: { faqnodeid: string }) {
  const { t } = useTranslation();
  const items = useAttachments(faqnodeid);
  const online = useOnlineStatus();
  if (!items || items.length === 0) return null;
  return (
    <Stack gap="1">
      <Text textStyle="sm" fontWeight="medium" color="fg.muted">
        {t('faq.attachments.title', { count: items.length })}
      </Text>
      <Flex as="ul" direction="column" listStyleType="none" ps="0" m="0">
        {[...items]
          .sort((a, b) => a.title.localeCompare(b.title, 'de'))
          .map((item) => (
            <AttachmentLink key={item.nodeid} item={item} online={online} />
          ))}
      </Flex>
    </Stack>
  );
}
