/** "Dokument bearbeiten" (spec part 1 §2.1, §6 `equipment.attachment` update): title, description, category. */
import { Field, Input, NativeSelect, Stack, Textarea } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ATTACHMENT_CATEGORIES, isAttachmentCategory, type AttachmentCategory } from '../../../shared/domain/attachment';
import { AppDialog, DialogSaveActions } from '../../components/app-dialog';
import { FormError } from '../../components/form-actions';
import { useSubmission } from '../../components/use-submission';
import type { MachineDocument } from '../../sync/machine-documents';
import { updateDocument } from '../../sync/repositories/documents';
import { useWriteContext } from '../../sync/use-write-context';

export function DocumentEditDialog({ document, onClose }: { document: MachineDocument; onClose(): void }) {
  const { t } = useTranslation();
  const context = useWriteContext();
  const [title, setTitle] = useState(document.title);
  const [description, setDescription] = useState(document.description ?? '');
  const [category, setCategory] = useState<AttachmentCategory>(document.category);
  // What the dialog opened with: a save sends only what the user changed against it.
  const [before] = useState(() => ({ title: document.title, description: document.description ?? null, category: document.category }));
  const { saving, error, fieldErrors, submit: run } = useSubmission();
  const canSave = !!context && title.trim() !== '' && !saving;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!canSave || !context) return;
    await run(() => updateDocument(context, document.nodeid, before, { title: title.trim(), description: description.trim() || null, category }), { failed: t('machineDocs.edit.failed'), done: onClose });
  };

  return (
    <AppDialog
      onClose={() => !saving && onClose()}
      onSubmit={submit}
      size="lg"
      placement="center"
      testId="document-edit-dialog"
      title={t('machineDocs.edit.title')}
      footer={<DialogSaveActions cancelLabel={t('machineDocs.upload.cancel')} saveLabel={t('machineDocs.upload.save')} onCancel={onClose} canSave={canSave} saving={saving} saveTestId="document-edit-save" />}
    >
      <Stack gap="5">
        <Field.Root required invalid={fieldErrors.title !== undefined || title.trim() === ''}>
          <Field.Label>
            {t('machineDocs.edit.titleField')}
            <Field.RequiredIndicator />
          </Field.Label>
          <Input value={title} onChange={(event) => setTitle(event.target.value)} autoComplete="off" data-testid="document-edit-title" />
          {(fieldErrors.title || title.trim() === '') && <Field.ErrorText>{fieldErrors.title ?? t('machineDocs.edit.titleRequired')}</Field.ErrorText>}
        </Field.Root>
        <Field.Root required>
          <Field.Label>
            {t('machineDocs.upload.category')}
            <Field.RequiredIndicator />
          </Field.Label>
          <NativeSelect.Root size="lg">
            <NativeSelect.Field value={category} onChange={(event) => isAttachmentCategory(event.target.value) && setCategory(event.target.value)} data-testid="document-edit-category">
              {ATTACHMENT_CATEGORIES.map((value) => (
                <option key={value} value={value}>
                  {t(`machineDocs.category.${value}`)}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </Field.Root>
        <Field.Root invalid={fieldErrors.description !== undefined}>
          <Field.Label>{t('machineDocs.upload.description')}</Field.Label>
          <Textarea value={description} onChange={(event) => setDescription(event.target.value)} rows={3} size="lg" />
          {fieldErrors.description && <Field.ErrorText>{fieldErrors.description}</Field.ErrorText>}
        </Field.Root>
        <FormError error={error} size="sm" />
      </Stack>
    </AppDialog>
  );
}
