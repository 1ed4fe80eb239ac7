/**
 * Nameplate or equipment photo (spec part 2 §2.2): take it with the camera or choose a file, see it small, open it
 * large in a preview dialog closed with 'Schliessen' (the spec's text for this button, part 2 §2.2, kept as written). The bytes stay on the device until the machine is sent.
 */
import { Box, Button, Field, HStack, Image, Stack, Text } from '@chakra-ui/react';
import { Camera, ImageUp } from 'lucide-react';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AppDialog } from '../../components/app-dialog';
import type { PhotoInput } from '../../sync/repositories/attachments';

export interface PhotoFieldProps {
  label: string;
  testId: string;
  /** What to show: the new photo's object URL, or the stored one's. */
  previewUrl: string | null;
  onPick(photo: PhotoInput): void;
  disabled?: boolean;
}

export async function readPhoto(file: File): Promise<PhotoInput> {
  return { bytes: await file.arrayBuffer(), mimetype: file.type || 'application/octet-stream', name: file.name || 'foto.jpg' };
}

export function PhotoField({ label, testId, previewUrl, onPick, disabled = false }: PhotoFieldProps) {
  const { t } = useTranslation();
  const cameraInput = useRef<HTMLInputElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const [previewOpen, setPreviewOpen] = useState(false);
  const pick = async (file: File | undefined) => {
    if (file) onPick(await readPhoto(file));
  };
  return (
    <Field.Root disabled={disabled}>
      <Field.Label>{label}</Field.Label>
      <HStack gap="3" align="center" flexWrap="wrap">
        <Box
          asChild
          w="24"
          h="24"
          borderWidth="1px"
          borderRadius="l2"
          overflow="hidden"
          bg="bg.muted"
          display="flex"
          alignItems="center"
          justifyContent="center"
        >
          <button type="button" aria-label={t('equipment.photo.open', { label })} disabled={!previewUrl} onClick={() => previewUrl && setPreviewOpen(true)} data-testid={`${testId}-thumb`}>
            {previewUrl ? <Image src={previewUrl} alt={label} objectFit="cover" w="full" h="full" /> : <Text textStyle="xs" color="fg.muted" px="2" textAlign="center">{t('equipment.photo.none')}</Text>}
          </button>
        </Box>
        <Stack gap="2">
          <Button variant="outline" onClick={() => cameraInput.current?.click()} disabled={disabled}>
            <Camera aria-hidden /> {t('equipment.photo.camera')}
          </Button>
          <Button variant="outline" onClick={() => fileInput.current?.click()} disabled={disabled}>
            <ImageUp aria-hidden /> {t('equipment.photo.file')}
          </Button>
        </Stack>
      </HStack>
      {/* capture: tablets open the camera directly; desktops fall back to the file dialog. */}
      <input ref={cameraInput} type="file" accept="image/*" capture="environment" hidden onChange={(event) => void pick(event.target.files?.[0])} />
      <input ref={fileInput} type="file" accept="image/*" hidden data-testid={`${testId}-input`} onChange={(event) => void pick(event.target.files?.[0])} />
      {previewOpen && previewUrl && (
        <AppDialog onClose={() => setPreviewOpen(false)} size="xl" title={label} footer={<Button onClick={() => setPreviewOpen(false)}>{t('equipment.photo.close')}</Button>}>
          <Image src={previewUrl} alt={label} maxH="70vh" mx="auto" objectFit="contain" />
        </AppDialog>
      )}
    </Field.Root>
  );
}
