/**
 * "Neue Meldung" on the machine screen: a quick fault report (type, title, description, one photo) saved through
 * `createNotification` into the mirror and the outbox, so it works offline and the list shows it at once.
 * The photo comes from the camera (`capture="environment"`) or the device's files; its bytes are stored as
 * ArrayBuffer + MIME type with the report.
 */
import { Box, Button, chakra, Field, HStack, Image, Input, NativeSelect, Stack, Text, Textarea } from '@chakra-ui/react';
import { Camera, ImagePlus, X } from 'lucide-react';
import { useEffect, useId, useState, type ChangeEvent, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { NOTIFICATION_TYPE, REPORTABLE_NOTIFICATION_TYPES, type NotificationType } from '../../../shared/domain/notification';
import { AppDialog } from '../../components/app-dialog';
import { FormError } from '../../components/form-actions';
import { inputErrors } from '../../lib/input-errors';
import { usePermission } from '../../lib/use-permission';
import { createNotification } from '../../sync/repositories/notifications';
import { isQuotaExceeded, useWriteContext } from '../../sync/use-write-context';

interface ChosenPhoto {
  file: File;
  previewUrl: string;
}

/** A file input laid over a button-looking label: the whole 44 px target opens the camera or the chooser. */
function PhotoPicker({ label, icon, capture, onFile }: { label: string; icon: React.ReactNode; capture?: boolean; onFile: (file: File) => void }) {
  const id = useId();
  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (file) onFile(file);
  };
  return (
    <Box position="relative" _focusWithin={{ outline: '2px solid', outlineColor: 'brand.solid', outlineOffset: '2px', borderRadius: 'l2' }}>
      <chakra.label htmlFor={id} display="inline-flex" alignItems="center" gap="2" minH="11" px="4" borderWidth="1px" borderColor="border" borderRadius="l2" bg="bg.panel" fontWeight="medium" cursor="pointer">
        {icon}
        {label}
      </chakra.label>
      <chakra.input
        id={id}
        type="file"
        accept="image/*"
        {...(capture ? { capture: 'environment' } : {})}
        onChange={onChange}
        position="absolute"
        inset="0"
        w="full"
        h="full"
        opacity={0}
        cursor="pointer"
      />
    </Box>
  );
}

export function QuickFaultDialog({ equipmentnodeid, onClose }: { equipmentnodeid: string; onClose: () => void }) {
  const { t } = useTranslation();
  const context = useWriteContext();
  const canAttach = usePermission('equipment.attachment', 'create');
  const [type, setType] = useState<NotificationType>(NOTIFICATION_TYPE.downtimeDefect);
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [photo, setPhoto] = useState<ChosenPhoto | null>(null);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // The fields the declaration's schema refused (the server would have refused them after sync).
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});

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
    setSaving(true);
    setError(null);
    setFieldErrors({});
    try {
      let bytes: ArrayBuffer | null = null;
      if (photo) {
        try {
          bytes = await photo.file.arrayBuffer();
        } catch {
          setError(t('notificationSlice.dialog.photoUnreadable'));
          setSaving(false);
          return;
        }
      }
      await createNotification(context, {
        type,
        title: trimmedTitle,
        description: description.trim() || undefined,
        equipmentnodeid,
        ...(photo && bytes ? { photo: { bytes, mimetype: photo.file.type, name: photo.file.name || 'foto.jpg' } } : {}),
      });
      onClose();
    } catch (failure) {
      const refused = inputErrors(failure, t);
      if (refused) setFieldErrors(refused);
      else setError(isQuotaExceeded(failure) ? t('sync.errors.quota') : t('notificationSlice.dialog.failed'));
      setSaving(false);
    }
  };

  return (
    <AppDialog
      onClose={() => !saving && onClose()}
      onSubmit={submit}
      size="lg"
      placement="center"
      title={t('notificationSlice.dialog.title')}
      footer={
        <>
          <Button variant="ghost" onClick={onClose} disabled={saving}>
            {t('notificationSlice.dialog.cancel')}
          </Button>
          <Button type="submit" colorPalette="brand" disabled={!trimmedTitle || saving || !context} loading={saving} loadingText={t('notificationSlice.dialog.saving')}>
            {t('notificationSlice.dialog.save')}
          </Button>
        </>
      }
    >
      <Stack gap="5">
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
              <PhotoPicker label={t('notificationSlice.dialog.takePhoto')} icon={<Camera size={18} aria-hidden />} capture onFile={choose} />
              <PhotoPicker label={t('notificationSlice.dialog.choosePhoto')} icon={<ImagePlus size={18} aria-hidden />} onFile={choose} />
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
