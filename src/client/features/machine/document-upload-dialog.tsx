/**
 * The documentation upload dialog (spec part 1 §2.1, §5): the chosen files, each with its title (default: the file
 * name without extension), one description (optional) and one category (required) for all. Only text, PDF, Word
 * and Excel are accepted; others are listed with their type and skipped. Save is disabled without a category,
 * without a file, or while an error shows; cancel drops everything. Saving queues the uploads (offline too).
 */
import { Alert, Box, chakra, Field, HStack, IconButton, Input, List, NativeSelect, Stack, Text, Textarea } from '@chakra-ui/react';
import { FilePlus, X } from 'lucide-react';
import { useId, useState, type ChangeEvent, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ATTACHMENT_CATEGORIES, isAttachmentCategory, type AttachmentCategory } from '../../../shared/domain/attachment';
import { sortDocumentationFiles, titleFromFileName, type RejectedFile } from '../../../shared/domain/documentation-upload';
import { AppDialog, DialogSaveActions } from '../../components/app-dialog';
import { FormError } from '../../components/form-actions';
import { useSubmission } from '../../components/use-submission';
import { keepFileCopy } from '../../lib/photo-cache';
import { uploadDocuments } from '../../sync/repositories/documents';
import { useWriteContext } from '../../sync/use-write-context';
import { announceRejected, DOCUMENT_ACCEPT } from './document-rejections';

/** "Truncation: file name in the upload dialog 30" (spec part 1 §9). */
const truncate = (name: string, max = 30) => (name.length > max ? `${name.slice(0, max - 1)}…` : name);

interface ChosenDocument {
  file: File;
  title: string;
}

export interface DocumentUploadDialogProps {
  equipmentnodeid: string;
  /** What was dropped or chosen before the dialog opened, already sorted. */
  initial: { accepted: File[]; rejected: RejectedFile<File>[] };
  category: AttachmentCategory | null;
  onClose(): void;
  /** After the uploads were queued, with their category. */
  onSaved(category: AttachmentCategory): void;
}

export function DocumentUploadDialog({ equipmentnodeid, initial, category: initialCategory, onClose, onSaved }: DocumentUploadDialogProps) {
  const { t } = useTranslation();
  const context = useWriteContext();
  const inputId = useId();
  const [chosen, setChosen] = useState<ChosenDocument[]>(() => initial.accepted.map((file) => ({ file, title: titleFromFileName(file.name) })));
  const [rejected, setRejected] = useState<RejectedFile<File>[]>(initial.rejected);
  const [category, setCategory] = useState<AttachmentCategory | ''>(initialCategory ?? '');
  const [description, setDescription] = useState('');
  const { saving, error, fieldErrors, submit: run } = useSubmission();

  const add = (files: File[]) => {
    const sorted = sortDocumentationFiles(files);
    announceRejected(sorted.rejected, t);
    setRejected(sorted.rejected);
    setChosen((current) => [...current, ...sorted.accepted.map((file) => ({ file, title: titleFromFileName(file.name) }))]);
  };
  const onPick = (event: ChangeEvent<HTMLInputElement>) => {
    const files = Array.from(event.target.files ?? []);
    event.target.value = '';
    if (files.length > 0) add(files);
  };

  // The field error: every file chosen last was refused, so there is nothing to save.
  const fileError = rejected.length > 0 && chosen.length === 0 ? t('machineDocs.upload.invalidExtension') : null;
  const canSave = !!context && chosen.length > 0 && category !== '' && !fileError && !saving;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!context || category === '' || !canSave) return;
    await run(
      async () => {
        const uploads = await Promise.all(
          chosen.map(async ({ file, title }) => ({
            bytes: await file.arrayBuffer(),
            name: file.name,
            // "Display name defaults to the file name without extension when empty" (§5).
            title: title.trim() || titleFromFileName(file.name),
            description: description.trim() || null,
            category,
          })),
        );
        const queued = await uploadDocuments(context, equipmentnodeid, uploads);
        // Kept beyond the outbox: the document stays readable offline after its bytes were sent.
        await Promise.all(queued.map((document) => keepFileCopy(document.filenodeid, new Blob([document.bytes], { type: document.mimetype }))));
      },
      { failed: t('machineDocs.upload.failed'), done: () => onSaved(category) },
    );
  };

  return (
    <AppDialog
      onClose={() => !saving && onClose()}
      onSubmit={submit}
      size="lg"
      placement="center"
      scrollBehavior="inside"
      testId="document-upload-dialog"
      title={t('machineDocs.upload.title')}
      footer={<DialogSaveActions cancelLabel={t('machineDocs.upload.cancel')} saveLabel={t('machineDocs.upload.save')} onCancel={onClose} canSave={canSave} saving={saving} saveTestId="document-upload-save" />}
    >
      <Stack gap="5">
        <Field.Root required invalid={fileError !== null}>
          <Field.Label>
            {t('machineDocs.upload.files')}
            <Field.RequiredIndicator />
          </Field.Label>
          <Box position="relative" _focusWithin={{ outline: '2px solid', outlineColor: 'brand.solid', outlineOffset: '2px', borderRadius: 'l2' }}>
            <chakra.label htmlFor={inputId} display="inline-flex" alignItems="center" gap="2" minH="11" px="4" borderWidth="1px" borderColor="border" borderRadius="l2" bg="bg.panel" fontWeight="medium" cursor="pointer">
              <FilePlus size={18} aria-hidden />
              {t('machineDocs.upload.choose')}
            </chakra.label>
            <chakra.input id={inputId} type="file" multiple accept={DOCUMENT_ACCEPT} onChange={onPick} position="absolute" inset="0" w="full" h="full" opacity={0} cursor="pointer" data-testid="document-upload-input" />
          </Box>
          <Field.HelperText>{t('machineDocs.upload.allowed')}</Field.HelperText>
          {fileError && <Field.ErrorText data-testid="document-file-error">{fileError}</Field.ErrorText>}
        </Field.Root>

        {rejected.length > 0 && (
          <Alert.Root status="warning" data-testid="document-rejected">
            <Alert.Indicator />
            <Alert.Content>
              <Alert.Title>{t('machineDocs.upload.skipped', { count: rejected.length })}</Alert.Title>
              <Alert.Description>
                <List.Root ps="4">
                  {rejected.map(({ file, type }, index) => (
                    <List.Item key={`${file.name}-${index}`}>{t('machineDocs.upload.skippedFile', { name: truncate(file.name, 60), type })}</List.Item>
                  ))}
                </List.Root>
              </Alert.Description>
            </Alert.Content>
          </Alert.Root>
        )}

        {chosen.map(({ file, title }, index) => (
          <Field.Root key={`${file.name}-${index}`} invalid={fieldErrors.title !== undefined}>
            <Field.Label>
              <Text as="span" title={file.name}>
                {t('machineDocs.upload.titleFor', { name: truncate(file.name) })}
              </Text>
            </Field.Label>
            <HStack w="full">
              <Input
                value={title}
                placeholder={titleFromFileName(file.name)}
                onChange={(event) => setChosen((current) => current.map((entry, i) => (i === index ? { ...entry, title: event.target.value } : entry)))}
                autoComplete="off"
                data-testid="document-title"
              />
              <IconButton aria-label={t('machineDocs.upload.remove', { name: file.name })} variant="ghost" onClick={() => setChosen((current) => current.filter((_, i) => i !== index))}>
                <X />
              </IconButton>
            </HStack>
            {fieldErrors.title && <Field.ErrorText>{fieldErrors.title}</Field.ErrorText>}
          </Field.Root>
        ))}

        <Field.Root required invalid={fieldErrors.specifier !== undefined}>
          <Field.Label>
            {t('machineDocs.upload.category')}
            <Field.RequiredIndicator />
          </Field.Label>
          <NativeSelect.Root size="lg">
            <NativeSelect.Field value={category} onChange={(event) => setCategory(isAttachmentCategory(event.target.value) ? event.target.value : '')} data-testid="document-category">
              <option value="">{t('machineDocs.upload.chooseCategory')}</option>
              {ATTACHMENT_CATEGORIES.map((value) => (
                <option key={value} value={value}>
                  {t(`machineDocs.category.${value}`)}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
          {fieldErrors.specifier && <Field.ErrorText>{fieldErrors.specifier}</Field.ErrorText>}
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
