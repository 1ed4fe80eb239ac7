/** A plain overview of sites, areas and pools with equipment counts; issue #4 builds the real dashboard. */
import { Badge, Box, Card, Heading, HStack, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { Boxes, Factory, MapPin } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { StructureTree } from '../../../shared/api/structure';
import { siteEquipmentCount } from './structure-stats';

function CountBadge({ count }: { count: number }) {
  const { t } = useTranslation();
  return (
    <Badge variant="subtle" colorPalette="gray" size="md" flexShrink={0}>
      {t('dashboard.summary.equipmentCount', { count })}
    </Badge>
  );
}

function Row({ label, count, indent = false }: { label: string; count: number; indent?: boolean }) {
  return (
    <HStack as="li" justify="space-between" minH="11" ps={indent ? '8' : '0'} borderBottomWidth="1px" borderColor="border.muted" gap="3">
      <Text truncate>{label}</Text>
      <CountBadge count={count} />
    </HStack>
  );
}

export function StructureSummary({ tree }: { tree: StructureTree }) {
  const { t } = useTranslation();
  return (
    <Stack gap="4">
      <Heading as="h2" size="lg">
        {t('dashboard.summary.title')}
      </Heading>
      <SimpleGrid columns={{ base: 1, lg: 2 }} gap="4" alignItems="start">
        <Card.Root variant="outline" bg="bg.panel">
          <Card.Header>
            <HStack gap="2">
              <Factory size={20} aria-hidden />
              <Card.Title as="h3">{t('dashboard.summary.sites')}</Card.Title>
            </HStack>
          </Card.Header>
          <Card.Body pt="2">
            <Stack gap="5">
              {tree.sites.map((site) => (
                <Box key={site.nodeid}>
                  <HStack justify="space-between" gap="3">
                    <Box minW="0">
                      <Text fontWeight="semibold" truncate>
                        {site.name}
                      </Text>
                      <HStack gap="1" color="fg.muted" textStyle="sm">
                        <MapPin size={14} aria-hidden />
                        <Text truncate>{t('dashboard.summary.address', { street: site.street, zipcode: site.zipcode, city: site.city })}</Text>
                      </HStack>
                    </Box>
                    <CountBadge count={siteEquipmentCount(site)} />
                  </HStack>
                  <Stack as="ul" gap="0" mt="2" listStyleType="none" m="0" p="0">
                    {site.areas.length === 0 && (
                      <Text as="li" ps="8" color="fg.muted" textStyle="sm" py="2">
                        {t('dashboard.summary.noAreas')}
                      </Text>
                    )}
                    {site.areas.map((area) => (
                      <Row key={area.nodeid} label={area.name} count={area.equipment.length} indent />
                    ))}
                  </Stack>
                </Box>
              ))}
            </Stack>
          </Card.Body>
        </Card.Root>

        <Stack gap="4">
          <Card.Root variant="outline" bg="bg.panel">
            <Card.Header>
              <HStack gap="2">
                <Boxes size={20} aria-hidden />
                <Card.Title as="h3">{t('dashboard.summary.pools')}</Card.Title>
              </HStack>
            </Card.Header>
            <Card.Body pt="2">
              <Stack as="ul" gap="0" listStyleType="none" m="0" p="0">
                {tree.equipmentpools.map((pool) => (
                  <Row key={pool.nodeid} label={pool.name} count={pool.equipment.length} />
                ))}
              </Stack>
            </Card.Body>
          </Card.Root>
          {tree.unlinked.length > 0 && (
            <Card.Root variant="outline" bg="bg.panel">
              <Card.Body>
                <HStack justify="space-between">
                  <Text fontWeight="semibold">{t('dashboard.summary.unlinked')}</Text>
                  <CountBadge count={tree.unlinked.length} />
                </HStack>
              </Card.Body>
            </Card.Root>
          )}
        </Stack>
      </SimpleGrid>
    </Stack>
  );
}
