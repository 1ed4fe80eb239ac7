/**
 * /create-brand and /edit-brand (spec part 2 §2.1 "brand and class forms"; fields not shown): the brand's name
 * and its manufacturer, an existing one or a new one. Its types are listed for orientation; they are created in
 * the equipment form's type picker.
 */
import { Stack, Text } from '@chakra-ui/react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { catalogueNameIssue } from '../../../shared/domain/equipment';
import { localized } from '../../../shared/domain/text';
import { usePermission } from '../../lib/use-permission';
import { PENDING_DELETE } from '../../sync/mirror-fields';
import { createBrand, updateBrand } from '../../sync/repositories/brands';
import { useMirrorRows } from '../../sync/use-mirror';
import { useWriteContext } from '../../sync/use-write-context';
import { CatalogPicker, type PickerChoice } from './catalog-picker';
import { CatalogueFormCard, CatalogueNameField, CatalogueNotFound, useCatalogueSave } from './catalogue-form';
import { useRecordTarget } from './use-record-target';

export function BrandFormScreen() {
  const { t, i18n } = useTranslation();
  const context = useWriteContext();
  const { mode, nodeid } = useRecordTarget('/edit-brand');
  const canWrite = usePermission('equipment', mode === 'add' ? 'create' : 'update');
  const brands = useMirrorRows('brands');
  const manufacturers = useMirrorRows('manufacturers');
  const types = useMirrorRows('equipmenttypes');
  const brand = nodeid ? brands?.find((row) => row.nodeid === nodeid && !row[PENDING_DELETE]) : undefined;
  const [name, setName] = useState('');
  const [manufacturer, setManufacturer] = useState<PickerChoice | null>(null);
  const { busy, error, save } = useCatalogueSave();
  const initialised = useRef(false);
  // The brand as the form was filled from it: a save sends what differs from it, not from the live row, which a sync
  // may have given another device's change meanwhile (compared with that, this form's stale value would undo it).
  const filledFrom = useRef<typeof brand>(undefined);
  useEffect(() => {
    if (initialised.current || !brand) return;
    initialised.current = true;
    filledFrom.current = brand;
    setName(localized(brand.name, i18n.language) ?? '');
    if (typeof brand.manufacturernodeid === 'string') setManufacturer({ isnew: false, nodeid: brand.manufacturernodeid });
  }, [brand, i18n.language]);

  if (mode === 'edit' && brands !== undefined && !brand) {
    return <CatalogueNotFound text={t('brands.notFound')} testId="brand-not-found" />;
  }

  // The manufacturer's other brands: a second one of the same name could not be told from it in the picker.
  const fellowBrands = manufacturer && !manufacturer.isnew ? (brands ?? []).filter((row) => row.manufacturernodeid === manufacturer.nodeid && row.nodeid !== brand?.nodeid && !row[PENDING_DELETE]).map((row) => localized(row.name, i18n.language) ?? '') : [];
  const nameIssue = catalogueNameIssue(name, fellowBrands);
  const valid = nameIssue === null && manufacturer !== null && (!manufacturer.isnew || Boolean(manufacturer.name?.trim()));
  const submit = async () => {
    if (!context || !valid || !manufacturer || busy) return;
    const input = { name, manufacturer: manufacturer.isnew ? { isnew: true as const, name: manufacturer.name ?? '' } : { isnew: false as const, nodeid: manufacturer.nodeid } };
    await save(() => (brand ? updateBrand(context, filledFrom.current ?? brand, input) : createBrand(context, input)));
  };
  const brandTypes = (types ?? []).filter((row) => row.brandnodeid === brand?.nodeid && !row[PENDING_DELETE]);

  return (
    <CatalogueFormCard
      title={t(mode === 'add' ? 'pages.createBrand' : 'pages.editBrand')}
      onSubmit={() => void submit()}
      busy={busy}
      error={error}
      submitLabel={t(mode === 'add' ? 'brands.create' : 'brands.save')}
      canSubmit={valid && canWrite}
      submitTestId="brand-submit"
    >
      <CatalogueNameField label={t('brands.name')} testId="brand-name" value={name} onChange={setName} disabled={busy || !canWrite} issue={nameIssue} />
      <CatalogPicker
        label={t('equipment.fields.manufacturer')}
        testId="brand-manufacturer"
        options={(manufacturers ?? []).map((row) => ({ nodeid: row.nodeid, label: localized(row.name, i18n.language) ?? '' })).sort((a, b) => a.label.localeCompare(b.label))}
        value={manufacturer}
        onChange={setManufacturer}
        invalid={manufacturer === null}
        disabled={busy || !canWrite}
      />
      {brand && (
        <Stack gap="1">
          <Text fontWeight="medium">{t('brands.types', { count: brandTypes.length })}</Text>
          <Text color="fg.muted">{brandTypes.map((row) => localized(row.model, i18n.language) ?? '').join(', ') || '–'}</Text>
        </Stack>
      )}
    </CatalogueFormCard>
  );
}
