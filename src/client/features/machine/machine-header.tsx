/** The machine screen's header (part 1 §2.1): name, brand, model, pool or area, plant, Equipment ID, Inventory ID, photo. */
import { Box, Card, DataList, Flex, Heading, Stack, Text } from '@chakra-ui/react';
import { Cog } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { MachineDetail } from '../../sync/machine-mirror';

/**
 * The machine photo: the mirror holds the file's record but not its bytes or a signed URL, so a placeholder
 * shows for now (docs/decisions.md).
 */
function MachinePhoto({ name }: { name: string }) {
  const { t } = useTranslation();
  return (
    <Flex
      role="img"
      aria-label={`${t('machine.photo', { name })}: ${t('machine.noPhoto')}`}
      w={{ base: '28', md: '36' }}
      h={{ base: '28', md: '36' }}
      flexShrink={0}
      align="center"
      justify="center"
      direction="column"
      gap="1"
      borderRadius="l3"
      bg="bg.muted"
      color="fg.muted"
    >
      <Cog size={40} aria-hidden />
      <Text textStyle="xs">{t('machine.noPhoto')}</Text>
    </Flex>
  );
}

export function MachineHeader({ machine }: { machine: MachineDetail }) {
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
          <MachinePhoto name={machine.name} />
          <Stack gap="3" minW="0" flex="1">
            <Heading as="h2" size="2xl" lineClamp={2}>
              {machine.name}
            </Heading>
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
