/**
 * /create-equipment-class and /edit-equipment-class (spec part 2 §2.1; fields not shown): a class has a name,
 * localised; the form writes it in the language it opened in and keeps the other language's text. What was typed
 * is kept on the device until saved or cancelled (catalogue-form-draft.ts).
 */
import { useTranslation } from 'react-i18next';
import { catalogueNameIssue } from '../../../shared/domain/equipment';
import { localized } from '../../../shared/domain/text';
import { currentLanguage } from '../../lib/i18n';
import { usePermission } from '../../lib/use-permission';
import { recordDraftKey, useKeptForm } from '../../stores/kept-form';
import { PENDING_DELETE } from '../../sync/mirror-fields';
import { createEquipmentClass, updateEquipmentClass } from '../../sync/repositories/brands';
import { useMirrorRows, type MirrorRow } from '../../sync/use-mirror';
import { useWriteContext } from '../../sync/use-write-context';
import { CLASS_DRAFT_KIND, CLASS_FORM_MODEL, type ClassFormValues } from './catalogue-form-draft';
import { CatalogueFormCard, CatalogueLoading, CatalogueNameField, CatalogueNotFound, useCatalogueSave } from './catalogue-form';
import { useRecordTarget } from './use-record-target';

export function EquipmentClassFormScreen() {
  const { t } = useTranslation();
  const { mode, nodeid } = useRecordTarget('/edit-equipment-class');
  const classes = useMirrorRows('equipmentclasses');
  const record = nodeid ? classes?.find((row) => row.nodeid === nodeid && !row[PENDING_DELETE]) : undefined;
  if (mode === 'edit' && classes === undefined) return <CatalogueLoading />;
  if (mode === 'edit' && !record) return <CatalogueNotFound text={t('brands.classNotFound')} testId="class-not-found" />;
  return <EquipmentClassForm key={recordDraftKey(record?.nodeid ?? null)} record={record ?? null} classes={classes} />;
}

/** One class's form (or a new one's), filled once when it opens; the save sends the name only when it changed. */
function EquipmentClassForm({ record, classes }: { record: MirrorRow | null; classes: MirrorRow[] | undefined }) {
  const { t } = useTranslation();
  const context = useWriteContext();
  const canWrite = usePermission('equipment', record ? 'update' : 'create');
  const kept = useKeptForm(CLASS_DRAFT_KIND, recordDraftKey(record?.nodeid ?? null), CLASS_FORM_MODEL, { name: '', lang: currentLanguage() }, (): ClassFormValues | null => {
    const lang = currentLanguage();
    return record ? { name: localized(record.name, lang) ?? '', lang } : null;
  });
  const { values, setField } = kept;
  const { busy, error, save, cancel } = useCatalogueSave(kept.dropDraft);

  const nameIssue = catalogueNameIssue(
    values.name,
    (classes ?? []).filter((row) => row.nodeid !== record?.nodeid && !row[PENDING_DELETE]).map((row) => localized(row.name, values.lang) ?? ''),
  );
  const submit = async () => {
    if (!context || nameIssue !== null || busy) return;
    const input = { name: values.name, lang: values.lang };
    const filledWith = kept.initial;
    await save(() => (record && filledWith ? updateEquipmentClass(context, record.nodeid, input, filledWith.name) : createEquipmentClass(context, input)));
  };
  return (
    <CatalogueFormCard
      title={t(record ? 'pages.editEquipmentClass' : 'pages.createEquipmentClass')}
      onSubmit={() => void submit()}
      onCancel={cancel}
      restoredAt={kept.restoredAt}
      busy={busy}
      error={error}
      submitLabel={t(record ? 'brands.save' : 'brands.createClass')}
      canSubmit={nameIssue === null && canWrite}
      submitTestId="class-submit"
    >
      <CatalogueNameField label={t('brands.className')} testId="class-name" value={values.name} onChange={(next) => setField('name', next)} disabled={busy || !canWrite} issue={nameIssue} />
    </CatalogueFormCard>
  );
}
