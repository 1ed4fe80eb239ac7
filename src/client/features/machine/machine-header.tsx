/** The machine screen's header (part 1 §2.1): name, brand, model, pool or area, plant, Equipment ID, Inventory ID, photo. */
import { Box, Card, DataList, Flex, Heading, Image, Skeleton, Stack, Text } from '@chakra-ui/react';
import { Cog } from 'lucide-react';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { fileDownloadSchema } from '../../../shared/api/files';
import { api } from '../../lib/api';
import { cachedPhoto, downloadPhoto } from '../../lib/photo-cache';
import { useOnlineStatus } from '../../lib/use-online-status';
import type { MachineDetail } from '../../sync/machine-mirror';

/**
 * The machine photo. The mirror names the file but has no bytes: online the server signs a download URL and the
 * bytes are kept on the device (lib/photo-cache.ts), so a photo once seen also shows offline. Offline without
 * such a copy, or without a photo, a placeholder says which it is.
 */
function MachinePhoto({ name, imagefilenodeid }: { name: string; imagefilenodeid: string | null }) {
  const { t } = useTranslation();
  const online = useOnlineStatus();
  const [source, setSource] = useState<{ nodeid: string; url: string | null } | null>(null);

  useEffect(() => {
    if (!imagefilenodeid) return undefined;
    const controller = new AbortController();
    let objectUrl: string | null = null;
    const show = (blob: Blob | null) => {
      if (controller.signal.aborted) return;
      objectUrl = blob && blob.type.startsWith('image/') ? URL.createObjectURL(blob) : null;
      setSource({ nodeid: imagefilenodeid, url: objectUrl });
    };
    const load = async (): Promise<Blob | null> => {
      if (!online) return cachedPhoto(imagefilenodeid);
      try {
        const file = await api.get(`files/${imagefilenodeid}/download`, { schema: fileDownloadSchema, signal: controller.signal });
        if (!file.mimetype.startsWith('image/')) return null;
        return await downloadPhoto(imagefilenodeid, file.url, controller.signal);
      } catch {
        // The connection is worse than the status says: a copy kept earlier is better than nothing.
        return controller.signal.aborted ? null : cachedPhoto(imagefilenodeid);
      }
    };
    void load().then(show);
    return () => {
      controller.abort();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [imagefilenodeid, online]);

  const size = { w: { base: '28', md: '36' }, h: { base: '28', md: '36' }, flexShrink: 0, borderRadius: 'l3' } as const;
  const url = source && source.nodeid === imagefilenodeid ? source.url : undefined;
  if (imagefilenodeid && url === undefined) return <Skeleton {...size} />;
  if (imagefilenodeid && url) return <Image src={url} alt={t('machine.photo', { name })} {...size} objectFit="contain" bg="white" borderWidth="1px" />;
  const text = imagefilenodeid && !online ? t('machine.photoOnlineOnly') : t('machine.noPhoto');
  return (
    <Flex role="img" aria-label={`${t('machine.photo', { name })}: ${text}`} {...size} align="center" justify="center" direction="column" gap="1" bg="bg.muted" color="fg.muted" textAlign="center" p="2">
      <Cog size={40} aria-hidden />
      <Text textStyle="xs">{text}</Text>
    </Flex>
  );
}

/** `actions`: the options menu, top right (part 1 §2.1). */
export function MachineHeader({ machine, actions }: { machine: MachineDetail; actions?: ReactNode }) {
  const { t } = useTranslation();
  const rows: [string, string | null][] = [
    [t('machine.brand'), machine.brand],
    [t('machine.model'), machine.model],
    machine.pool && !machine.area ? [t('machine.pool'), machine.pool] : [t('machine.area'), machine.area],
    [t('machine.site'), machine.site],
    [t('machine.equipmentId'), machine.equipmentid],
    [t('machine.inventoryId'), machine.inventoryid],
  ];
  if (machine.pool && machine.area) rows.splice(3, 0, [t('machine.pool'), machine.pool]);
  return (
    <Card.Root variant="outline" bg="bg.panel" data-testid="machine-header">
      <Card.Body>
        <Flex gap={{ base: '4', md: '6' }} align="start">
          <MachinePhoto name={machine.name} imagefilenodeid={machine.imagefilenodeid} />
          <Stack gap="3" minW="0" flex="1">
            <Flex justify="space-between" align="start" gap="2">
              <Heading as="h2" size="2xl" lineClamp={2}>
                {machine.name}
              </Heading>
              {actions}
            </Flex>
            <DataList.Root orientation="horizontal" size="md" display="grid" gridTemplateColumns={{ base: '1fr', md: 'repeat(2, minmax(0, 1fr))' }} gap="2" columnGap="8">
              {rows.map(([label, value]) => (
                <DataList.Item key={label} minW="0">
                  <DataList.ItemLabel minW="32">{label}</DataList.ItemLabel>
                  <DataList.ItemValue>
                    <Box as="span" truncate>
                      {value ?? '—'}
                    </Box>
                  </DataList.ItemValue>
                </DataList.Item>
              ))}
            </DataList.Root>
          </Stack>
        </Flex>
      </Card.Body>
    </Card.Root>
  );
}
