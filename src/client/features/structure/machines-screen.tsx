/**
 * /machines (spec part 2 §2.1 "equipment: pools and their equipment"): every pool with its machines and a link to
 * edit it, then the machines linked nowhere ('Nicht verknüpfte Geräte'), then the catalogue (brands and classes, each
 * opening its form). The header creates a machine or a pool. Read from the local mirror (offline too).
 */
import { Box, Card, Flex, Heading, HStack, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { Boxes } from 'lucide-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../lib/i18n';
import type { MachineListOrigin } from '../../lib/machine-navigation';
import { usePermission } from '../../lib/use-permission';
import { rowBudget, useRowsInSteps } from '../../lib/use-rows-in-steps';
import { useStructureData } from '../../sync/use-structure-data';
import { isLinked } from './equipment-selection';
import { CatalogueSection } from './catalogue-section';
import { CountAndEdit, ListHeader, MachineLine, MirrorListState } from './list-parts';
import { poolViews, selectableEquipment, truncateTitle } from './structure-view';

/** The machines opened here lead back to this list. */
const MACHINES_ORIGIN: MachineListOrigin = { from: 'machines' };

export function MachinesScreen() {
  const { t } = useTranslation();
  const data = useStructureData();
  const language = currentLanguage();
  const canCreatePool = usePermission('equipmentpool', 'create');
  const canUpdatePool = usePermission('equipmentpool', 'update');
  const canCreateEquipment = usePermission('equipment', 'create');
  const pools = useMemo(() => (data ? poolViews(data, language) : []), [data, language]);
  const unlinked = useMemo(() => (data ? selectableEquipment(data, language).filter((machine) => !isLinked(machine)) : []), [data, language]);
  // A plant's thousands of machines are rendered in steps (lib/use-rows-in-steps.ts); counts show the whole.
  const rows = useRowsInSteps(pools.reduce((sum, pool) => sum + pool.equipment.length, 0) + unlinked.length);
  const take = rowBudget(rows);
  const shownByPool = pools.map((pool) => take(pool.equipment));
  const shownUnlinked = take(unlinked);

  return (
    <Stack gap="6" p={{ base: '4', md: '6', lg: '8' }} maxW="7xl">
      {/* why the equipment button: once machines existed, nothing in the app led to the equipment form any more
          (the dashboard's onboarding cards are gone then; a new admin's walkthrough). */}
      <ListHeader
        title={t('pools.title')}
        create={canCreateEquipment ? { label: t('pools.createEquipment'), to: '/create-machine', testId: 'equipment-create' } : undefined}
        more={canCreatePool ? [{ label: t('pools.create'), to: '/create-machine-pool', testId: 'pool-create' }] : []}
      />

      <MirrorListState data={data} empty={pools.length === 0} emptyText={t('pools.empty')} />

      {pools.length > 0 && (
        <SimpleGrid columns={{ base: 1, md: 2 }} gap="4" alignItems="start">
          {pools.map((pool, index) => (
            <Card.Root key={pool.nodeid} variant="outline" bg="bg.panel" data-testid="pool-item">
              <Card.Header>
                <Flex justify="space-between" align="center" gap="3">
                  <HStack gap="2" minW="0">
                    <Box color="brand.fg">
                      <Boxes size={20} aria-hidden />
                    </Box>
                    <Card.Title as="h3" truncate title={pool.name} data-testid="pool-name">
                      {truncateTitle(pool.name)}
                    </Card.Title>
                  </HStack>
                  <CountAndEdit
                    equipmentCount={pool.equipment.length}
                    edit={canUpdatePool ? { label: t('pools.editPool', { name: pool.name }), to: `/edit-pool?nodeid=${pool.nodeid}`, state: { pageType: 'edit', nodeid: pool.nodeid } } : undefined}
                    testId="pool"
                  />
                </Flex>
              </Card.Header>
              <Card.Body pt="0">
                {pool.equipment.length === 0 ? (
                  <Text color="fg.muted">{t('sites.noEquipment')}</Text>
                ) : (
                  <Stack as="ul" gap="0" listStyleType="none" m="0" p="0">
                    {shownByPool[index]!.map((machine) => (
                      <MachineLine key={machine.nodeid} machine={machine} origin={MACHINES_ORIGIN} />
                    ))}
                  </Stack>
                )}
              </Card.Body>
            </Card.Root>
          ))}
        </SimpleGrid>
      )}

      {unlinked.length > 0 && (
        <Stack as="section" gap="3" aria-labelledby="unlinked-title">
          <Heading id="unlinked-title" as="h3" size="md">
            {t('equipmentSelection.unlinked')} ({unlinked.length})
          </Heading>
          <Card.Root variant="outline" bg="bg.panel">
            <Card.Body py="2">
              <SimpleGrid as="ul" columns={{ base: 1, md: 2 }} columnGap="6" listStyleType="none" m="0" p="0">
                {shownUnlinked.map((machine) => (
                  <MachineLine key={machine.nodeid} machine={machine} origin={MACHINES_ORIGIN} />
                ))}
              </SimpleGrid>
            </Card.Body>
          </Card.Root>
        </Stack>
      )}

      {data && <CatalogueSection language={language} />}
    </Stack>
  );
}
