/**
 * /create-brand and /edit-brand (spec part 2 §2.1 "brand and class forms"; fields not shown): the brand's name
 * and its manufacturer, an existing one or a new one. Its types are listed for orientation; they are created in
 * the equipment form's type picker. What was entered is kept on the device until saved or cancelled
 * (catalogue-form-draft.ts).
 */
import { Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { catalogueNameIssue } from '../../../shared/domain/equipment';
import { localized } from '../../../shared/domain/text';
import { usePermission } from '../../lib/use-permission';
import { recordDraftKey, useKeptForm } from '../../stores/kept-form';
import { PENDING_DELETE } from '../../sync/mirror-fields';
import { createBrand, updateBrand } from '../../sync/repositories/brands';
import { useMirrorRows, type MirrorRow } from '../../sync/use-mirror';
import { useWriteContext } from '../../sync/use-write-context';
import { CatalogPicker } from './catalog-picker';
import { BRAND_DRAFT_KIND, BRAND_FORM_MODEL, EMPTY_BRAND_FORM, type BrandFormValues } from './catalogue-form-draft';
import { CatalogueFormCard, CatalogueLoading, CatalogueNameField, CatalogueNotFound, useCatalogueSave } from './catalogue-form';
import { useRecordTarget } from './use-record-target';

export function BrandFormScreen() {
  const { t } = useTranslation();
  const { mode, nodeid } = useRecordTarget('/edit-brand');
  const brands = useMirrorRows('brands');
  const brand = nodeid ? brands?.find((row) => row.nodeid === nodeid && !row[PENDING_DELETE]) : undefined;
  if (mode === 'edit' && brands === undefined) return <CatalogueLoading />;
  if (mode === 'edit' && !brand) return <CatalogueNotFound text={t('brands.notFound')} testId="brand-not-found" />;
  return <BrandForm key={recordDraftKey(brand?.nodeid ?? null)} brand={brand ?? null} brands={brands} />;
}

/**
 * The form of one brand (or a new one), filled once when it opens: later pulls do not overwrite what the user is
 * entering, and the save sends only what differs from what the form was filled with (updateBrand).
 */
function BrandForm({ brand, brands }: { brand: MirrorRow | null; brands: MirrorRow[] | undefined }) {
  const { t, i18n } = useTranslation();
  const context = useWriteContext();
  const canWrite = usePermission('equipment', brand ? 'update' : 'create');
  const manufacturers = useMirrorRows('manufacturers');
  const types = useMirrorRows('equipmenttypes');
  const kept = useKeptForm(BRAND_DRAFT_KIND, recordDraftKey(brand?.nodeid ?? null), BRAND_FORM_MODEL, EMPTY_BRAND_FORM, (): BrandFormValues | null =>
    brand
      ? {
          name: localized(brand.name, i18n.language) ?? '',
          manufacturer: typeof brand.manufacturernodeid === 'string' ? { isnew: false, nodeid: brand.manufacturernodeid } : null,
        }
      : null,
  );
  const { values, setField } = kept;
  const { name, manufacturer } = values;
  const { busy, error, save, cancel } = useCatalogueSave(kept.dropDraft);

  // The manufacturer's other brands: a second one of the same name could not be told from it in the picker.
  const fellowBrands = manufacturer && !manufacturer.isnew ? (brands ?? []).filter((row) => row.manufacturernodeid === manufacturer.nodeid && row.nodeid !== brand?.nodeid && !row[PENDING_DELETE]).map((row) => localized(row.name, i18n.language) ?? '') : [];
  const nameIssue = catalogueNameIssue(name, fellowBrands);
  const valid = nameIssue === null && manufacturer !== null && (!manufacturer.isnew || Boolean(manufacturer.name?.trim()));
  const submit = async () => {
    if (!context || !valid || !manufacturer || busy) return;
    const input = { name, manufacturer: manufacturer.isnew ? { isnew: true as const, name: manufacturer.name ?? '' } : { isnew: false as const, nodeid: manufacturer.nodeid } };
    const filledWith = kept.initial;
    await save(() =>
      brand && filledWith
        ? updateBrand(context, brand.nodeid, input, { name: filledWith.name, manufacturernodeid: filledWith.manufacturer && !filledWith.manufacturer.isnew ? filledWith.manufacturer.nodeid : null })
        : createBrand(context, input),
    );
  };
  const brandTypes = (types ?? []).filter((row) => row.brandnodeid === brand?.nodeid && !row[PENDING_DELETE]);

  return (
    <CatalogueFormCard
      title={t(brand ? 'pages.editBrand' : 'pages.createBrand')}
      onSubmit={() => void submit()}
      onCancel={cancel}
      restoredAt={kept.restoredAt}
      busy={busy}
      error={error}
      submitLabel={t(brand ? 'brands.save' : 'brands.create')}
      canSubmit={valid && canWrite}
      submitTestId="brand-submit"
    >
      <CatalogueNameField label={t('brands.name')} testId="brand-name" value={name} onChange={(next) => setField('name', next)} disabled={busy || !canWrite} issue={nameIssue} />
      <CatalogPicker
        label={t('equipment.fields.manufacturer')}
        testId="brand-manufacturer"
        options={(manufacturers ?? []).map((row) => ({ nodeid: row.nodeid, label: localized(row.name, i18n.language) ?? '' })).sort((a, b) => a.label.localeCompare(b.label))}
        value={manufacturer}
        onChange={(next) => setField('manufacturer', next)}
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
