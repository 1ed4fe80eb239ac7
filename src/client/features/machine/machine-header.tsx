/**
 * The machine screen's header (part 1 §2.1): name, brand, model, pool or area, plant, Equipment ID, Inventory ID,
 * photo. The machine's own fields come with it (one indexed read, docs/client.md § Machine overview); the names it
 * references are read here, so only the header renders again when they arrive, and the photo loads on its own.
 */
import { Box, Card, DataList, Flex, Heading, Image, Skeleton, Stack, Text } from '@chakra-ui/react';
import { Cog, Maximize2 } from 'lucide-react';
import type { TFunction } from 'i18next';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ImageViewer } from '../../components/image-viewer';
import { currentLanguage } from '../../lib/i18n';
import { useOnlineStatus } from '../../lib/use-online-status';
import { usePhotoUrl } from '../../lib/use-photo-url';
import { useMachineNames, type MachineNames, type MachineRecord } from '../../sync/machine-mirror';

/**
 * The machine photo (lib/use-photo-url.ts: signed download online, the kept copy offline). A tap opens the zoom
 * viewer. Offline without a kept copy, or without a photo, a placeholder says which it is.
 */
function MachinePhoto({ name, imagefilenodeid }: { name: string; imagefilenodeid: string | null }) {
  const { t } = useTranslation();
  const online = useOnlineStatus();
  const url = usePhotoUrl(imagefilenodeid);
  const [viewing, setViewing] = useState(false);

  const size = { w: { base: '28', md: '36' }, h: { base: '28', md: '36' }, flexShrink: 0, borderRadius: 'l3' } as const;
  if (imagefilenodeid && url === undefined) return <Skeleton {...size} />;
  if (imagefilenodeid && url) {
    return (
      <>
        <Box
          as="button"
          {...size}
          p="0"
          cursor="zoom-in"
          position="relative"
          overflow="hidden"
          borderWidth="1px"
          bg="white"
          aria-label={t('machine.header.openPhoto', { name })}
          onClick={() => setViewing(true)}
          data-testid="machine-photo"
          _focusVisible={{ outline: '2px solid', outlineColor: 'colorPalette.focusRing', outlineOffset: '2px' }}
        >
          <Image src={url} alt={t('machine.photo', { name })} w="full" h="full" objectFit="contain" />
          <Box position="absolute" bottom="1" right="1" bg="blackAlpha.600" color="white" borderRadius="full" p="1" aria-hidden>
            <Maximize2 size={14} />
          </Box>
        </Box>
        {viewing && <ImageViewer title={t('machine.header.viewerTitle', { name })} src={url} alt={t('machine.photo', { name })} onClose={() => setViewing(false)} testId="machine-photo-viewer" />}
      </>
    );
  }
  const text = imagefilenodeid && !online ? t('machine.photoOnlineOnly') : t('machine.noPhoto');
  return (
    <Flex role="img" aria-label={`${t('machine.photo', { name })}: ${text}`} {...size} align="center" justify="center" direction="column" gap="1" bg="bg.muted" color="fg.muted" textAlign="center" p="2">
      <Cog size={40} aria-hidden />
      <Text textStyle="xs">{text}</Text>
    </Flex>
  );
}

/** The label and value rows; a referenced name is `undefined` while it is being read. */
function headerRows(t: TFunction, machine: MachineRecord, names: MachineNames | null | undefined): [string, string | null | undefined][] {
  const name = (key: keyof MachineNames) => (names === undefined ? undefined : (names?.[key] ?? null));
  const pool = name('pool');
  const area = name('area');
  const rows: [string, string | null | undefined][] = [
    [t('machine.brand'), name('brand')],
    [t('machine.model'), name('model')],
    pool && !area ? [t('machine.pool'), pool] : [t('machine.area'), area],
    [t('machine.site'), name('site')],
    [t('machine.equipmentId'), machine.equipmentid],
    [t('machine.inventoryId'), machine.inventoryid],
  ];
  if (pool && area) rows.splice(3, 0, [t('machine.pool'), pool]);
  return rows;
}

/** `actions`: the options menu, top right (part 1 §2.1). */
export function MachineHeader({ machine, actions }: { machine: MachineRecord; actions?: ReactNode }) {
  const { t } = useTranslation();
  const names = useMachineNames(machine.nodeid, currentLanguage());
  const rows = headerRows(t, machine, names);
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
                    {value === undefined ? (
                      <Skeleton h="5" w="24" />
                    ) : (
                      <Box as="span" truncate>
                        {value ?? '—'}
                      </Box>
                    )}
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
