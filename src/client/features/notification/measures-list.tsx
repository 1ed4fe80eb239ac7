/**
 * The measures (Maßnahmen) of a notification, part 1 §2.2: each solution with title ("Maßnahme ohne Titel" when it
 * has none), description, date and time, documenting author and attachments — photos as thumbnails that open the
 * image viewer, other files as links that open or download them — an edit link per solution (notification.workflow
 * update) and "Maßnahme hinzufügen" (create). Read live from the mirror (src/client/sync/notification-solutions.ts),
 * so a solution saved offline shows at once. A file's bytes come from the device while the server does not have
 * them, then from the file cache, or once from its signed download (then kept).
 */
import { Badge, Box, Button, Card, Flex, Heading, Image, Link, SimpleGrid, Skeleton, Stack, Text } from '@chakra-ui/react';
import { FileText, Film, ImageOff, Pencil, Plus } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import { createWorkflow, updateWorkflow } from '../../../shared/mutations/workflows';
import { ImageViewer } from '../../components/image-viewer';
import { NotSyncedBadge } from '../../components/not-synced-badge';
import { formatDateTime } from '../../lib/dates';
import type { NotificationOrigin } from '../../lib/notification-origin';
import { addSolutionLink, editSolutionLink } from '../../lib/solution-navigation';
import { useOnlineStatus } from '../../lib/use-online-status';
import { useMayRun } from '../../lib/use-permission';
import type { AttachmentWithFile } from '../../sync/offline-files';
import { useNotificationSolutions, type SolutionItem } from '../../sync/notification-solutions';
import { useAttachmentSource } from './use-attachment-source';

export interface MeasuresListProps {
  notificationnodeid: string;
  /** Where the solution form returns to: the notification's details screen. */
  equipmentnodeid: string | null;
  /** Where the details were opened from: the solution form hands it back, so their back link still leads there. */
  origin?: NotificationOrigin | null;
}

function AttachmentTile({ item, online }: { item: AttachmentWithFile; online: boolean }) {
  const { t } = useTranslation();
  const source = useAttachmentSource(item, online);
  const [viewing, setViewing] = useState(false);
  const isImage = (item.mimetype ?? '').startsWith('image/');
  const Icon = (item.mimetype ?? '').startsWith('video/') ? Film : FileText;
  return (
    <Stack as="li" gap="1" minW="0" data-testid="solution-attachment">
      {source.state === 'loading' && <Skeleton aspectRatio={4 / 3} borderRadius="l2" />}
      {source.state === 'ready' && isImage && (
        <Button
          variant="plain"
          p="0"
          h="auto"
          display="block"
          borderRadius="l2"
          overflow="hidden"
          borderWidth="1px"
          onClick={() => setViewing(true)}
          aria-label={t('solution.list.openPhoto', { title: item.title })}
          data-testid="solution-photo"
        >
          <Image src={source.url} alt={item.title} aspectRatio={4 / 3} objectFit="cover" w="full" bg="bg.muted" />
        </Button>
      )}
      {source.state === 'ready' && !isImage && (
        <Link
          href={source.url}
          target="_blank"
          rel="noreferrer"
          download={item.title}
          aria-label={t('solution.list.openFile', { title: item.title })}
          aspectRatio={4 / 3}
          display="flex"
          flexDirection="column"
          alignItems="center"
          justifyContent="center"
          gap="1"
          borderRadius="l2"
          borderWidth="1px"
          bg="bg.muted"
          colorPalette="brand"
          data-testid="solution-file"
        >
          <Icon size={28} aria-hidden />
        </Link>
      )}
      {source.state === 'unavailable' && (
        <Flex aspectRatio={4 / 3} align="center" justify="center" direction="column" gap="1" bg="bg.muted" color="fg.muted" borderRadius="l2" textAlign="center" p="2">
          <ImageOff size={24} aria-hidden />
          <Text textStyle="xs">{t('solution.list.onlineOnly')}</Text>
        </Flex>
      )}
      <Flex gap="2" align="start" minW="0" wrap="wrap">
        <Text textStyle="sm" lineClamp={3} flex="1 1 8rem" minW="0" overflowWrap="anywhere" title={item.title}>
          {item.title}
        </Text>
        {item.pending && <NotSyncedBadge />}
      </Flex>
      {viewing && source.state === 'ready' && <ImageViewer title={item.title} src={source.url} alt={item.title} onClose={() => setViewing(false)} />}
    </Stack>
  );
}

function SolutionCard({ solution, canEdit, online, origin }: { solution: SolutionItem; canEdit: boolean; online: boolean; origin: NotificationOrigin | null }) {
  const { t } = useTranslation();
  const title = solution.title ?? t('solution.list.untitled');
  const edit = editSolutionLink(solution.nodeid, solution.notificationnodeid, origin);
  return (
    <Card.Root as="li" variant="outline" bg="bg.panel" data-testid="solution-item" data-nodeid={solution.nodeid}>
      <Card.Body gap="3">
        <Flex gap="3" align="start" justify="space-between" wrap="wrap">
          <Stack gap="1" flex="1 1 16rem" minW="0">
            <Heading as="h4" size="md" overflowWrap="anywhere" color={solution.title ? undefined : 'fg.muted'} fontStyle={solution.title ? undefined : 'italic'} data-testid="solution-title">
              {title}
            </Heading>
            <Text textStyle="sm" color="fg.muted" data-testid="solution-meta">
              {t('solution.list.documented', { date: solution.created ? formatDateTime(solution.created) : '—', author: solution.author ?? t('solution.list.unknownAuthor') })}
            </Text>
          </Stack>
          <Flex gap="2" align="center">
            {solution.pending && <NotSyncedBadge />}
            {canEdit && (
              <Button asChild variant="outline" size="sm" minH="11" data-testid="solution-edit">
                <RouterLink to={edit.to} state={edit.state} aria-label={t('solution.list.editLabel', { title })}>
                  <Pencil size={16} aria-hidden />
                  {t('solution.list.edit')}
                </RouterLink>
              </Button>
            )}
          </Flex>
        </Flex>
        {solution.description && (
          <Text whiteSpace="pre-wrap" overflowWrap="anywhere" data-testid="solution-description">
            {solution.description}
          </Text>
        )}
        {solution.furtherSteps.map((step, index) => (
          <Text key={index} whiteSpace="pre-wrap" overflowWrap="anywhere" data-testid="solution-further-step">
            {step}
          </Text>
        ))}
        {solution.attachments.length > 0 && (
          <Box>
            <Badge variant="subtle" mb="2">
              {t('solution.list.attachments', { count: solution.attachments.length })}
            </Badge>
            <SimpleGrid as="ul" columns={{ base: 3, lg: 5 }} gap="3" listStyleType="none" m="0" p="0">
              {solution.attachments.map((item) => (
                <AttachmentTile key={item.nodeid} item={item} online={online} />
              ))}
            </SimpleGrid>
          </Box>
        )}
      </Card.Body>
    </Card.Root>
  );
}

export function MeasuresList({ notificationnodeid, equipmentnodeid, origin = null }: MeasuresListProps) {
  const { t } = useTranslation();
  const solutions = useNotificationSolutions(notificationnodeid);
  const canCreate = useMayRun(createWorkflow);
  const canEdit = useMayRun(updateWorkflow);
  const online = useOnlineStatus();
  const add = addSolutionLink(notificationnodeid, equipmentnodeid, origin);
  return (
    <Stack as="section" gap="4" aria-labelledby="measures-heading" data-testid="measures-list" data-notification={notificationnodeid}>
      <Flex gap="3" align="center" justify="space-between" wrap="wrap">
        <Heading id="measures-heading" as="h3" size="md">
          {t('solution.list.heading')}
        </Heading>
        {canCreate && (
          <Button asChild colorPalette="brand" minH="11" data-testid="solution-add">
            <RouterLink to={add.to} state={add.state}>
              <Plus size={18} aria-hidden />
              {t('solution.list.add')}
            </RouterLink>
          </Button>
        )}
      </Flex>
      {!solutions && <Skeleton h="24" />}
      {solutions?.length === 0 && (
        <Text color="fg.muted" data-testid="measures-empty">
          {t('solution.list.empty')}
        </Text>
      )}
      {solutions && solutions.length > 0 && (
        <Stack as="ul" gap="3" listStyleType="none" m="0" p="0">
          {solutions.map((solution) => (
            <SolutionCard key={solution.nodeid} solution={solution} canEdit={canEdit} online={online} origin={origin} />
          ))}
        </Stack>
      )}
    </Stack>
  );
}
