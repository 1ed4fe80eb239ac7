/**
 * The catalogue on /machines: the brands (with their manufacturer and number of types) and the equipment classes,
 * each opening its form, and the buttons that create one. Before, /create-brand, /edit-brand and the class forms were
 * linked from nowhere (a new admin's walkthrough): the brand and class forms return to /machines after saving, so this
 * is where they start. Types are created in the equipment form's type picker and listed on their brand's form.
 */
import { Box, Button, Card, Flex, Heading, Link, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { Plus } from 'lucide-react';
import { useMemo } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { compareNames, localized } from '../../../shared/domain/text';
import { usePermission } from '../../lib/use-permission';
import { PENDING_DELETE } from '../../sync/mirror-fields';
import { useMirrorRows } from '../../sync/use-mirror';

interface CatalogueLine {
  nodeid: string;
  name: string;
  detail?: string;
}

export function CatalogueSection({ language }: { language: string }) {
  const { t } = useTranslation();
  const canCreate = usePermission('equipment', 'create');
  const canUpdate = usePermission('equipment', 'update');
  const brandRows = useMirrorRows('brands');
  const manufacturerRows = useMirrorRows('manufacturers');
  const typeRows = useMirrorRows('equipmenttypes');
  const classRows = useMirrorRows('equipmentclasses');

  const brands = useMemo<CatalogueLine[]>(() => {
    const manufacturers = new Map((manufacturerRows ?? []).map((row) => [row.nodeid, localized(row.name, language) ?? '']));
    const typeCounts = new Map<string, number>();
    for (const row of typeRows ?? []) {
      if (row[PENDING_DELETE] || typeof row.brandnodeid !== 'string') continue;
      typeCounts.set(row.brandnodeid, (typeCounts.get(row.brandnodeid) ?? 0) + 1);
    }
    return (brandRows ?? [])
      .filter((row) => !row[PENDING_DELETE])
      .map((row) => {
        const manufacturer = typeof row.manufacturernodeid === 'string' ? manufacturers.get(row.manufacturernodeid) : undefined;
        const detail = [manufacturer, t('brands.types', { count: typeCounts.get(row.nodeid) ?? 0 })].filter(Boolean).join(' · ');
        return { nodeid: row.nodeid, name: localized(row.name, language) ?? '', detail };
      })
      .sort((a, b) => compareNames(a.name, b.name, language));
  }, [brandRows, manufacturerRows, typeRows, language, t]);

  const classes = useMemo<CatalogueLine[]>(
    () =>
      (classRows ?? [])
        .filter((row) => !row[PENDING_DELETE])
        .map((row) => ({ nodeid: row.nodeid, name: localized(row.name, language) ?? '' }))
        .sort((a, b) => compareNames(a.name, b.name, language)),
    [classRows, language],
  );

  if (brandRows === undefined || classRows === undefined) return null;

  return (
    <Stack as="section" gap="3" aria-labelledby="catalogue-title" data-testid="catalogue">
      <Heading id="catalogue-title" as="h3" size="md">
        {t('catalogue.title')}
      </Heading>
      <Text color="fg.muted">{t('catalogue.text')}</Text>
      <SimpleGrid columns={{ base: 1, md: 2 }} gap="4" alignItems="start">
        <CatalogueCard
          title={t('catalogue.brands', { count: brands.length })}
          lines={brands}
          empty={t('catalogue.noBrands')}
          editPath={canUpdate ? '/edit-brand' : null}
          create={canCreate ? { label: t('pages.createBrand'), to: '/create-brand', testId: 'brand-create' } : null}
          testId="catalogue-brands"
          lineTestId="catalogue-brand-link"
        />
        <CatalogueCard
          title={t('catalogue.classes', { count: classes.length })}
          lines={classes}
          empty={t('catalogue.noClasses')}
          editPath={canUpdate ? '/edit-equipment-class' : null}
          create={canCreate ? { label: t('pages.createEquipmentClass'), to: '/create-equipment-class', testId: 'class-create' } : null}
          testId="catalogue-classes"
          lineTestId="catalogue-class-link"
        />
      </SimpleGrid>
    </Stack>
  );
}

interface CatalogueCardProps {
  title: string;
  lines: readonly CatalogueLine[];
  empty: string;
  /** The edit form's path, or null when the user may not change entries (then the names are plain text). */
  editPath: string | null;
  create: { label: string; to: string; testId: string } | null;
  testId: string;
  lineTestId: string;
}

function CatalogueCard({ title, lines, empty, editPath, create, testId, lineTestId }: CatalogueCardProps) {
  return (
    <Card.Root variant="outline" bg="bg.panel" data-testid={testId}>
      <Card.Header>
        <Flex justify="space-between" align="center" gap="3" wrap="wrap">
          <Card.Title as="h4">{title}</Card.Title>
          {create && (
            <Button asChild variant="outline" colorPalette="brand" size="md" minH="11">
              <RouterLink to={create.to} data-testid={create.testId}>
                <Plus aria-hidden />
                {create.label}
              </RouterLink>
            </Button>
          )}
        </Flex>
      </Card.Header>
      <Card.Body pt="0">
        {lines.length === 0 ? (
          <Text color="fg.muted">{empty}</Text>
        ) : (
          <Stack as="ul" gap="0" listStyleType="none" m="0" p="0">
            {lines.map((line) => (
              <Box as="li" key={line.nodeid} borderBottomWidth="1px" borderColor="border.muted">
                {editPath ? (
                  <Link asChild display="block" py="2" minH="11" minW="0" color="inherit" _hover={{ bg: 'bg.muted', textDecoration: 'none' }}>
                    <RouterLink to={`${editPath}?nodeid=${encodeURIComponent(line.nodeid)}`} state={{ nodeid: line.nodeid }} data-testid={lineTestId}>
                      <Text fontWeight="medium" color="brand.fg" truncate title={line.name}>
                        {line.name}
                      </Text>
                      {line.detail && (
                        <Text textStyle="sm" color="fg.muted" truncate>
                          {line.detail}
                        </Text>
                      )}
                    </RouterLink>
                  </Link>
                ) : (
                  <Box py="2" minH="11">
                    <Text fontWeight="medium" truncate title={line.name}>
                      {line.name}
                    </Text>
                    {line.detail && (
                      <Text textStyle="sm" color="fg.muted" truncate>
                        {line.detail}
                      </Text>
                    )}
                  </Box>
                )}
              </Box>
            ))}
          </Stack>
        )}
      </Card.Body>
    </Card.Root>
  );
}
