/**
 * /create-brand and /edit-brand (spec part 2 §2.1 "brand and class forms"; fields not shown): the brand's name
 * and its manufacturer, an existing one or a new one. Its types are listed for orientation; they are created in
 * the equipment form's type picker.
 */
import { Alert, Box, Button, Card, Field, Flex, Heading, Input, Stack, Text } from '@chakra-ui/react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { isQuotaExceeded } from '../../db/local-db';
import { PENDING_DELETE } from '../../sync/mirror-fields';
import { createBrand, updateBrand } from '../../sync/repositories/brands';
import { useMirrorRows, useWriteContext } from '../../sync/use-mirror';
import { usePermission } from '../auth/use-permission';
import { CatalogPicker, type PickerChoice } from './catalog-picker';
import { localizedText } from './equipment-form-model';
import { CATALOGUE_FORM_EXIT, useRecordTarget } from './use-record-target';

export function BrandFormScreen() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const context = useWriteContext();
  const { mode, nodeid } = useRecordTarget('/edit-brand');
  const canWrite = usePermission('equipment', mode === 'add' ? 'create' : 'update');
  const brands = useMirrorRows('brands');
  const manufacturers = useMirrorRows('manufacturers');
  const types = useMirrorRows('equipmenttypes');
  const brand = nodeid ? brands?.find((row) => row.nodeid === nodeid && !row[PENDING_DELETE]) : undefined;
  const [name, setName] = useState('');
  const [manufacturer, setManufacturer] = useState<PickerChoice | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const initialised = useRef(false);
  useEffect(() => {
    if (initialised.current || !brand) return;
    initialised.current = true;
    setName(localizedText(brand.name, i18n.language));
    if (typeof brand.manufacturernodeid === 'string') setManufacturer({ isnew: false, nodeid: brand.manufacturernodeid });
  }, [brand, i18n.language]);

  if (mode === 'edit' && brands !== undefined && !brand) {
    return (
      <Alert.Root status="warning" m="6" maxW="3xl" data-testid="brand-not-found">
        <Alert.Indicator />
        <Alert.Title>{t('brands.notFound')}</Alert.Title>
      </Alert.Root>
    );
  }

  const valid = name.trim() !== '' && manufacturer !== null && (!manufacturer.isnew || Boolean(manufacturer.name?.trim()));
  const submit = async () => {
    if (!context || !valid || !manufacturer || busy) return;
    setBusy(true);
    setError(null);
    const input = { name, manufacturer: manufacturer.isnew ? { isnew: true as const, name: manufacturer.name ?? '' } : { isnew: false as const, nodeid: manufacturer.nodeid } };
    try {
      if (brand) await updateBrand(context, brand, input);
      else await createBrand(context, input);
      void navigate(CATALOGUE_FORM_EXIT);
    } catch (cause) {
      setError(isQuotaExceeded(cause) ? t('sync.errors.quota') : t('equipment.errors.saveFailed'));
      setBusy(false);
    }
  };
  const brandTypes = (types ?? []).filter((row) => row.brandnodeid === brand?.nodeid && !row[PENDING_DELETE]);

  return (
    <Box p={{ base: '4', md: '6' }} maxW="3xl">
      <Card.Root variant="outline">
        <Card.Body gap="5" as="form" onSubmit={(event) => (event.preventDefault(), void submit())}>
          <Heading as="h2" size="lg">
            {t(mode === 'add' ? 'pages.createBrand' : 'pages.editBrand')}
          </Heading>
          <Field.Root required invalid={name.trim() === ''} disabled={busy || !canWrite}>
            <Field.Label>
              {t('brands.name')}
              <Field.RequiredIndicator />
            </Field.Label>
            <Input data-testid="brand-name" value={name} onChange={(event) => setName(event.target.value)} />
          </Field.Root>
          <CatalogPicker
            label={t('equipment.fields.manufacturer')}
            testId="brand-manufacturer"
            options={(manufacturers ?? []).map((row) => ({ nodeid: row.nodeid, label: localizedText(row.name, i18n.language) })).sort((a, b) => a.label.localeCompare(b.label))}
            value={manufacturer}
            onChange={setManufacturer}
            invalid={manufacturer === null}
            disabled={busy || !canWrite}
          />
          {brand && (
            <Stack gap="1">
              <Text fontWeight="medium">{t('brands.types', { count: brandTypes.length })}</Text>
              <Text color="fg.muted">{brandTypes.map((row) => localizedText(row.model, i18n.language)).join(', ') || '–'}</Text>
            </Stack>
          )}
          {error && (
            <Alert.Root status="error">
              <Alert.Indicator />
              <Alert.Title>{error}</Alert.Title>
            </Alert.Root>
          )}
          <Flex gap="3" justify="flex-end">
            <Button variant="ghost" onClick={() => void navigate(CATALOGUE_FORM_EXIT)} disabled={busy}>
              {t('equipment.cancel')}
            </Button>
            <Button type="submit" colorPalette="brand" disabled={!valid || !canWrite} loading={busy} data-testid="brand-submit">
              {t(mode === 'add' ? 'brands.create' : 'brands.save')}
            </Button>
          </Flex>
        </Card.Body>
      </Card.Root>
    </Box>
  );
}
