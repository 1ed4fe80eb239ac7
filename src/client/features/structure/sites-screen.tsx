/**
 * /sites and /sites?sitenodeid=… (spec part 2 §2.1): the plants, and one plant with its areas, each with its
 * machine count, its machines (each opening its screen) and a link to edit it; links to create a plant or an area. Read from the local mirror, so it
 * works offline. Two panes from `md` (tablet landscape), list or plant below (portrait).
 */
import { Box, Button, Card, Flex, Grid, Heading, HStack, LinkBox, LinkOverlay, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { ArrowLeft, Factory, MapPin, Pencil, Plus } from 'lucide-react';
import { useMemo } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../lib/i18n';
import type { MachineListOrigin } from '../../lib/machine-navigation';
import { usePermission } from '../../lib/use-permission';
import { rowBudget, useRowsInSteps } from '../../lib/use-rows-in-steps';
import { useStructureData } from '../../sync/use-structure-data';
import { countryName } from './country-names';
import { CountAndEdit, ListHeader, MachineLine, MirrorListState } from './list-parts';
import { siteViews, truncateTitle, type SiteView } from './structure-view';

export function SitesScreen() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const selectedId = params.get('sitenodeid');
  const data = useStructureData();
  const canCreate = usePermission('site', 'create');
  const language = currentLanguage();
  const sites = data ? siteViews(data, language) : [];
  const selected = selectedId ? sites.find((site) => site.nodeid === selectedId) : undefined;

  return (
    <Stack gap="6" p={{ base: '4', md: '6', lg: '8' }} maxW="7xl">
      <ListHeader title={t('sites.title')} create={canCreate ? { label: t('sites.create'), to: '/create-site', state: { pageType: 'create' }, testId: 'site-create' } : undefined} />

      <MirrorListState data={data} empty={sites.length === 0} emptyText={t('sites.empty')} />

      {data && sites.length > 0 && (
        <Grid templateColumns={{ base: 'minmax(0, 1fr)', md: 'minmax(260px, 340px) minmax(0, 1fr)' }} gap="6" alignItems="start">
          <Stack as="ul" gap="3" listStyleType="none" m="0" p="0" display={{ base: selectedId ? 'none' : 'flex', md: 'flex' }} aria-label={t('sites.listLabel')}>
            {sites.map((site) => (
              <SiteListItem key={site.nodeid} site={site} active={site.nodeid === selectedId} />
            ))}
          </Stack>
          <Box display={{ base: selectedId ? 'block' : 'none', md: 'block' }} minW="0">
            {selected ? (
              <SiteDetail site={selected} />
            ) : selectedId ? (
              <Stack gap="3">
                <Text>{t('sites.notFound')}</Text>
                <Button asChild variant="outline" alignSelf="start">
                  <RouterLink to="/sites">{t('sites.back')}</RouterLink>
                </Button>
              </Stack>
            ) : (
              <Text color="fg.muted" display={{ base: 'none', md: 'block' }} pt="4">
                {t('sites.choose')}
              </Text>
            )}
          </Box>
        </Grid>
      )}
    </Stack>
  );
}

function SiteListItem({ site, active }: { site: SiteView; active: boolean }) {
  const { t } = useTranslation();
  return (
    <LinkBox as="li" borderWidth="1px" borderRadius="l2" p="4" bg={active ? 'brand.subtle' : 'bg.panel'} borderColor={active ? 'brand.solid' : 'border'} data-testid="site-item">
      <HStack gap="3" align="start">
        <Box color="brand.fg" pt="0.5">
          <Factory size={22} aria-hidden />
        </Box>
        <Box minW="0" flex="1">
          <LinkOverlay asChild>
            <RouterLink to={`/sites?sitenodeid=${site.nodeid}`} aria-current={active ? 'page' : undefined}>
              <Text fontWeight="semibold" truncate title={site.name}>
                {truncateTitle(site.name)}
              </Text>
            </RouterLink>
          </LinkOverlay>
          <Text textStyle="sm" color="fg.muted" truncate>
            {site.zipcode} {site.city}
          </Text>
          <Text textStyle="sm" color="fg.muted">
            {t('sites.areaCount', { count: site.areas.length })} · {t('sites.equipmentCount', { count: site.equipmentCount })}
          </Text>
        </Box>
      </HStack>
    </LinkBox>
  );
}

function SiteDetail({ site }: { site: SiteView }) {
  const { t } = useTranslation();
  const canUpdate = usePermission('site', 'update');
  const canCreate = usePermission('site', 'create');
  const areaState = { pageType: 'create', sitename: site.name, sitenodeid: site.nodeid };
  const machineOrigin = useMemo<MachineListOrigin>(() => ({ from: 'sites', sitenodeid: site.nodeid }), [site.nodeid]);
  // A plant's thousands of machines are rendered in steps (lib/use-rows-in-steps.ts); the counts show the whole.
  const rows = useRowsInSteps(site.areas.reduce((sum, area) => sum + area.equipment.length, 0));
  const take = rowBudget(rows);
  const shownByArea = site.areas.map((area) => take(area.equipment));

  return (
    <Stack gap="5" data-testid="site-detail">
      <Button asChild variant="ghost" alignSelf="start" display={{ base: 'inline-flex', md: 'none' }}>
        <RouterLink to="/sites">
          <ArrowLeft aria-hidden />
          {t('sites.back')}
        </RouterLink>
      </Button>
      <Card.Root variant="outline" bg="bg.panel">
        <Card.Body gap="3">
          <Flex justify="space-between" gap="4" wrap="wrap" align="start">
            <Box minW="0">
              <Heading as="h3" size="lg" data-testid="site-name">
                {site.name}
              </Heading>
              <HStack gap="1" color="fg.muted" mt="1" align="start">
                <Box pt="1">
                  <MapPin size={16} aria-hidden />
                </Box>
                <Text>
                  {site.street}
                  {site.siteid && `, ${site.siteid}`}
                  <br />
                  {site.zipcode} {site.city}, {countryName(site.country, currentLanguage())}
                </Text>
              </HStack>
            </Box>
            {canUpdate && (
              <Button asChild variant="outline">
                <RouterLink to={`/edit-site?nodeid=${site.nodeid}`} state={{ pageType: 'edit', nodeid: site.nodeid }} data-testid="site-edit">
                  <Pencil aria-hidden />
                  {t('sites.edit')}
                </RouterLink>
              </Button>
            )}
          </Flex>
        </Card.Body>
      </Card.Root>

      <Flex justify="space-between" align="center" gap="3" wrap="wrap">
        <Heading as="h3" size="md">
          {t('sites.areas')} ({site.areas.length})
        </Heading>
        {canCreate && (
          <Button asChild variant="outline" colorPalette="brand">
            <RouterLink to="/create-area" state={areaState} data-testid="area-create">
              <Plus aria-hidden />
              {t('sites.createArea')}
            </RouterLink>
          </Button>
        )}
      </Flex>
      {site.areas.length === 0 && <Text color="fg.muted">{t('sites.noAreas')}</Text>}
      <Stack as="ul" gap="3" listStyleType="none" m="0" p="0">
        {site.areas.map((area, index) => (
          <Box as="li" key={area.nodeid} borderWidth="1px" borderRadius="l2" p="4" bg="bg.panel" data-testid="area-item">
            <Flex justify="space-between" align="center" gap="3">
              <Box minW="0" flex="1">
                <Text fontWeight="semibold" truncate title={area.name} data-testid="area-name">
                  {truncateTitle(area.name)}
                </Text>
                {area.equipment.length === 0 && (
                  <Text textStyle="sm" color="fg.muted">
                    {t('sites.noEquipment')}
                  </Text>
                )}
              </Box>
              <CountAndEdit
                equipmentCount={area.equipment.length}
                edit={canUpdate ? { label: t('sites.editArea', { name: area.name }), to: `/create-area?nodeid=${area.nodeid}`, state: { ...areaState, pageType: 'edit', nodeid: area.nodeid } } : undefined}
                testId="area"
              />
            </Flex>
            {/* why links, not a comma list of names: the equipment form comes here after saving a machine of an area,
                which was then a name cut off in a larger area and opened nothing (a new admin's walkthrough). */}
            {shownByArea[index]!.length > 0 && (
              <SimpleGrid as="ul" columns={{ base: 1, lg: 2 }} columnGap="6" listStyleType="none" m="0" mt="2" p="0" aria-label={t('sites.areaMachines', { name: area.name })}>
                {shownByArea[index]!.map((machine) => (
                  <MachineLine key={machine.nodeid} machine={machine} origin={machineOrigin} />
                ))}
              </SimpleGrid>
            )}
          </Box>
        ))}
      </Stack>
    </Stack>
  );
}
