/**
 * "Neue Meldung" on the machine screen: a quick fault report (type, title, description, one photo) saved through
 * `createNotification` into the mirror and the outbox, so it works offline and the list shows it at once.
 * The photo comes from the camera (`capture="environment"`) or the device's files; its bytes are stored as
 * ArrayBuffer + MIME type with the report. What was typed is kept on the device until it is saved or cancelled, so
 * the dialog closed by a stray tap, Escape or a reload opens again with it (stores/kept-drafts.ts).
 */
import { Button, Field, HStack, Image, Input, NativeSelect, Stack, Text, Textarea } from '@chakra-ui/react';
import { Camera, ImagePlus, X } from 'lucide-react';
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { NOTIFICATION_TYPE, REPORTABLE_NOTIFICATION_TYPES, type NotificationType } from '../../../shared/domain/notification';
import { AppDialog, DialogSaveActions } from '../../components/app-dialog';
import { FilePicker } from '../../components/attachment-picker';
import { FormError } from '../../components/form-actions';
import { SubmissionStop, useSubmission } from '../../components/use-submission';
import { formatDateTime } from '../../lib/dates';
import { holdPageOpen } from '../../lib/hold-page-open';
import { usePermission } from '../../lib/use-permission';
import { dropKeptDraft, hasTextFields, readKeptDraft, useKeepDraft } from '../../stores/kept-drafts';
import { useSessionStore } from '../../stores/session-store';
import { createNotification } from '../../sync/repositories/notifications';
import { useWriteContext } from '../../sync/use-write-context';

const DRAFT_KIND = 'quick-fault-draft';

interface QuickFaultDraft {
  type: number;
  title: string;
  description: string;
}

function isQuickFaultDraft(value: unknown): value is QuickFaultDraft {
  return hasTextFields(value, ['title', 'description']) && REPORTABLE_NOTIFICATION_TYPES.includes((value as { type?: unknown }).type as NotificationType);
}

interface ChosenPhoto {
  file: File;
  previewUrl: string;
}

export function QuickFaultDialog({ equipmentnodeid, onClose }: { equipmentnodeid: string; onClose: () => void }) {
  const { t } = useTranslation();
  const context = useWriteContext();
  const canAttach = usePermission('equipment.attachment', 'create');
  const usernodeid = useSessionStore((state) => state.session?.usernodeid) ?? '';
  const [restored] = useState(() => (usernodeid ? readKeptDraft(DRAFT_KIND, usernodeid, equipmentnodeid, isQuickFaultDraft) : null));
  const [type, setType] = useState<NotificationType>(() => (restored?.value.type as NotificationType | undefined) ?? NOTIFICATION_TYPE.downtimeDefect);
  const [title, setTitle] = useState(restored?.value.title ?? '');
  const [description, setDescription] = useState(restored?.value.description ?? '');
  const [photo, setPhoto] = useState<ChosenPhoto | null>(null);

  const draft = useMemo(() => (title.trim() === '' && description.trim() === '' ? null : ({ type, title, description } satisfies QuickFaultDraft)), [type, title, description]);
  useKeepDraft(DRAFT_KIND, usernodeid, equipmentnodeid, draft, restored !== null);
  // A chosen photo is not kept with the text: while there is one, leaving the page asks first.
  const holdingPhoto = photo !== null;
  useEffect(() => (holdingPhoto ? holdPageOpen() : undefined), [holdingPhoto]);
  const discard = () => {
    if (usernodeid) dropKeptDraft(DRAFT_KIND, usernodeid, equipmentnodeid);
    onClose();
  };
  // The fields the declaration's schema refused (the server would have refused them after sync) show at their inputs.
  const { saving, error, setError, fieldErrors, submit: run } = useSubmission();

  useEffect(
    () => () => {
      if (photo) URL.revokeObjectURL(photo.previewUrl);
    },
    [photo],
  );

  const choose = (file: File) => {
    if (!file.type.startsWith('image/')) {
      setError(t('notificationSlice.dialog.notAnImage'));
      return;
    }
    setError(null);
    setPhoto({ file, previewUrl: URL.createObjectURL(file) });
  };

  const trimmedTitle = title.trim();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!context || !trimmedTitle || saving) return;
    await run(
      async () => {
        let bytes: ArrayBuffer | null = null;
        if (photo) {
          try {
            bytes = await photo.file.arrayBuffer();
          } catch {
            throw new SubmissionStop(t('notificationSlice.dialog.photoUnreadable'));
          }
        }
        await createNotification(context, {
          type,
          title: trimmedTitle,
          description: description.trim() || undefined,
          equipmentnodeid,
          ...(photo && bytes ? { photo: { bytes, mimetype: photo.file.type, name: photo.file.name || 'foto.jpg' } } : {}),
        });
      },
      { failed: t('notificationSlice.dialog.failed'), done: discard },
    );
  };

  return (
    <AppDialog
      onClose={() => !saving && onClose()}
      onSubmit={submit}
      // The text comes back after a stray tap (kept draft); a chosen photo would not.
      holdsInput={holdingPhoto}
      size="lg"
      placement="center"
      title={t('notificationSlice.dialog.title')}
      footer={<DialogSaveActions cancelLabel={t('notificationSlice.dialog.cancel')} saveLabel={t('notificationSlice.dialog.save')} savingLabel={t('notificationSlice.dialog.saving')} onCancel={discard} canSave={!!trimmedTitle && !!context} saving={saving} />}
    >
      <Stack gap="5">
        {restored && (
          <Text textStyle="sm" color="fg.muted" data-testid="quick-fault-draft-restored">
            {t('notificationForm.draftRestored', { date: formatDateTime(restored.savedAt) })}
          </Text>
        )}
        <Field.Root required>
          <Field.Label>{t('notificationSlice.dialog.type')}</Field.Label>
          <NativeSelect.Root size="lg">
            <NativeSelect.Field value={String(type)} onChange={(event) => setType(Number(event.target.value) as NotificationType)}>
              {REPORTABLE_NOTIFICATION_TYPES.map((value) => (
                <option key={value} value={value}>
                  {t(`notification.type.${value}`)}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </Field.Root>
        <Field.Root required invalid={fieldErrors.title !== undefined}>
          <Field.Label>
            {t('notificationSlice.dialog.titleField')}
            <Field.RequiredIndicator />
          </Field.Label>
          <Input value={title} onChange={(event) => setTitle(event.target.value)} autoComplete="off" />
          {fieldErrors.title && <Field.ErrorText>{fieldErrors.title}</Field.ErrorText>}
        </Field.Root>
        <Field.Root invalid={fieldErrors.description !== undefined}>
          <Field.Label>{t('notificationSlice.dialog.description')}</Field.Label>
          <Textarea value={description} onChange={(event) => setDescription(event.target.value)} rows={4} size="lg" />
          {fieldErrors.description && <Field.ErrorText>{fieldErrors.description}</Field.ErrorText>}
        </Field.Root>
        {canAttach && (
          <Stack gap="3">
            <HStack gap="3" flexWrap="wrap">
              <FilePicker label={t('notificationSlice.dialog.takePhoto')} icon={<Camera size={18} aria-hidden />} accept="image/*" capture onFiles={([file]) => file && choose(file)} testId="quick-fault-camera-input" />
              <FilePicker label={t('notificationSlice.dialog.choosePhoto')} icon={<ImagePlus size={18} aria-hidden />} accept="image/*" onFiles={([file]) => file && choose(file)} testId="quick-fault-photo-input" />
            </HStack>
            {photo && (
              <HStack gap="3" align="start">
                <Image src={photo.previewUrl} alt={t('notificationSlice.dialog.preview')} w="40" h="32" flexShrink={0} objectFit="cover" borderRadius="l2" borderWidth="1px" bg="bg.muted" />
                <Stack gap="1" minW="0">
                  <Text textStyle="sm" truncate>
                    {photo.file.name}
                  </Text>
                  <Button variant="outline" onClick={() => setPhoto(null)}>
                    <X aria-hidden />
                    {t('notificationSlice.dialog.removePhoto')}
                  </Button>
                </Stack>
              </HStack>
            )}
          </Stack>
        )}
        <FormError error={error} size="sm" />
      </Stack>
    </AppDialog>
  );
}
