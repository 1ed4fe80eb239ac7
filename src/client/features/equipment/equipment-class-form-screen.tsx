/**
 * /create-equipment-class and /edit-equipment-class (spec part 2 §2.1; fields not shown): a class has a name,
 * localised; the form writes it in the current language and keeps the other language's text.
 */
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { catalogueNameIssue } from '../../../shared/domain/equipment';
import { localized } from '../../../shared/domain/text';
import { usePermission } from '../../lib/use-permission';
import { PENDING_DELETE } from '../../sync/mirror-fields';
import { createEquipmentClass, updateEquipmentClass } from '../../sync/repositories/brands';
import { useMirrorRows } from '../../sync/use-mirror';
import { useWriteContext } from '../../sync/use-write-context';
import { CatalogueFormCard, CatalogueNameField, CatalogueNotFound, useCatalogueSave } from './catalogue-form';
import { useRecordTarget } from './use-record-target';
import { currentLanguage } from '../../lib/i18n';

export function EquipmentClassFormScreen() {
  const { t, i18n } = useTranslation();
  const context = useWriteContext();
  const { mode, nodeid } = useRecordTarget('/edit-equipment-class');
  const canWrite = usePermission('equipment', mode === 'add' ? 'create' : 'update');
  const classes = useMirrorRows('equipmentclasses');
  const record = nodeid ? classes?.find((row) => row.nodeid === nodeid && !row[PENDING_DELETE]) : undefined;
  const [name, setName] = useState('');
  const { busy, error, save } = useCatalogueSave();
  const initialised = useRef(false);
  useEffect(() => {
    if (initialised.current || !record) return;
    initialised.current = true;
    setName(localized(record.name, i18n.language) ?? '');
  }, [record, i18n.language]);

  if (mode === 'edit' && classes !== undefined && !record) {
    return <CatalogueNotFound text={t('brands.classNotFound')} testId="class-not-found" />;
  }
  const nameIssue = catalogueNameIssue(
    name,
    (classes ?? []).filter((row) => row.nodeid !== record?.nodeid && !row[PENDING_DELETE]).map((row) => localized(row.name, i18n.language) ?? ''),
  );
  const submit = async () => {
    if (!context || nameIssue !== null || busy) return;
    const input = { name, lang: currentLanguage() };
    await save(() => (record ? updateEquipmentClass(context, record, input) : createEquipmentClass(context, input)));
  };
  return (
    <CatalogueFormCard
      title={t(mode === 'add' ? 'pages.createEquipmentClass' : 'pages.editEquipmentClass')}
      onSubmit={() => void submit()}
      busy={busy}
      error={error}
      submitLabel={t(mode === 'add' ? 'brands.createClass' : 'brands.save')}
      canSubmit={nameIssue === null && canWrite}
      submitTestId="class-submit"
    >
      <CatalogueNameField label={t('brands.className')} testId="class-name" value={name} onChange={setName} disabled={busy || !canWrite} issue={nameIssue} />
    </CatalogueFormCard>
  );
}
