/**
 * The overview's QR code dialog (part 1 §2.1; part 2 §2.2 sticker): the machine's sticker QR, the address it
 * encodes, and the sticker PDF (the equipment form's sticker, lib/sticker-pdf.ts). A warning when the address is
 * this computer only (localhost/127.0.0.1): a tablet scanning such a sticker reaches nothing. Works offline: the
 * QR code and the PDF are made on the device; jsPDF and qrcode load only when the dialog opens.
 */
import { Alert, Box, Button, Code, Image, Skeleton, Stack, Text } from '@chakra-ui/react';
import { Download } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AppDialog } from '../../components/app-dialog';
import { FormError } from '../../components/form-actions';
import { downloadBlob } from '../../lib/download';
import { isLoopbackUrl, stickerUrl } from '../../lib/sticker-url';
import { useStickerBaseUrl } from '../../lib/use-sticker-base';
import { useStickerLabels } from '../../lib/use-sticker-labels';
import type { MachineSticker } from '../../sync/machine-frame';

const loadStickerPdf = () => import('../../lib/sticker-pdf');

export function MachineQrDialog({ sticker, onClose }: { sticker: MachineSticker; onClose(): void }) {
  const { t } = useTranslation();
  const baseUrl = useStickerBaseUrl();
  const labels = useStickerLabels();
  const url = stickerUrl(baseUrl, sticker.nodeid);
  const [qr, setQr] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let active = true;
    void loadStickerPdf()
      .then(({ qrDataUrl }) => qrDataUrl(url))
      .then((dataUrl) => active && setQr(dataUrl));
    return () => {
      active = false;
    };
  }, [url]);

  const download = async () => {
    setBusy(true);
    setError(null);
    try {
      const { stickerFileName, stickerPdf } = await loadStickerPdf();
      const { typenameplatefilenodeid: _nameplate, ...data } = sticker;
      downloadBlob(await stickerPdf(data, baseUrl, labels), stickerFileName(sticker.name));
    } catch {
      setError(t('machine.qr.failed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <AppDialog
      onClose={onClose}
      title={t('machine.qr.title', { name: sticker.name })}
      testId="machine-qr-dialog"
      closeLabel={t('machine.qr.close')}
      footerLayout="wrap"
      footer={
        <>
          <Button variant="outline" onClick={onClose}>
            {t('machine.qr.close')}
          </Button>
          <Button colorPalette="brand" onClick={() => void download()} loading={busy} disabled={!sticker.name.trim()} data-testid="machine-qr-download">
            <Download aria-hidden />
            {t('machine.qr.download')}
          </Button>
        </>
      }
    >
      <Stack gap="4" align="stretch">
        {isLoopbackUrl(url) && (
          <Alert.Root status="warning" data-testid="machine-qr-localhost">
            <Alert.Indicator />
            <Alert.Content>
              <Alert.Title>{t('machine.qr.localhostTitle')}</Alert.Title>
              <Alert.Description>{t('machine.qr.localhostText', { host: new URL(url).host })}</Alert.Description>
            </Alert.Content>
          </Alert.Root>
        )}
        <Box alignSelf="center" w="56" h="56" borderWidth="1px" borderRadius="l2" p="2" bg="white">
          {qr ? <Image src={qr} alt={t('machine.qr.alt', { name: sticker.name })} w="full" h="full" data-testid="machine-qr-image" data-url={url} /> : <Skeleton w="full" h="full" />}
        </Box>
        <Stack gap="1">
          <Text textStyle="sm" color="fg.muted">
            {t('machine.qr.address')}
          </Text>
          <Code size="md" whiteSpace="normal" wordBreak="break-all" p="2" data-testid="machine-qr-url">
            {url}
          </Code>
        </Stack>
        <FormError error={error} />
      </Stack>
    </AppDialog>
  );
}
