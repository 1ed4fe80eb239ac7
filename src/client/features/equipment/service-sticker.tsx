/**
 * The service sticker on the equipment form (spec part 2 §2.2): QR code of the machine's URL, manufacturer and
 * serial number, and the PDF download named after the equipment name.
 */
import { Box, Button, Card, Heading, HStack, Image, Stack, Text } from '@chakra-ui/react';
import { Download } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { stickerUrl } from '../../lib/sticker-url';
import { useStickerBaseUrl } from '../../lib/use-sticker-base';
import type { StickerData } from '../../lib/sticker-pdf';
import { downloadBlob } from '../../lib/download';
import { useStickerLabels } from '../../lib/use-sticker-labels';

// why lazy: the QR encoder and the PDF writer load with the sticker, not with the form (docs/decisions.md § Chunks).
const loadStickerPdf = () => import('../../lib/sticker-pdf');

export function ServiceSticker({ data, saved }: { data: StickerData; saved: boolean }) {
  const { t } = useTranslation();
  const baseUrl = useStickerBaseUrl();
  const labels = useStickerLabels();
  const url = stickerUrl(baseUrl, data.nodeid);
  const [qr, setQr] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
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
    try {
      const { stickerFileName, stickerPdf } = await loadStickerPdf();
      downloadBlob(await stickerPdf(data, baseUrl, labels), stickerFileName(data.name));
    } finally {
      setBusy(false);
    }
  };
  const manufacturer = [data.manufacturer, data.brand, data.model].filter(Boolean).join(' · ');
  return (
    <Card.Root variant="outline" minW="0" data-testid="service-sticker">
      <Card.Body gap="3">
        <Heading as="h3" size="md">
          {t('sticker.title')}
        </Heading>
        <HStack gap="4" align="start" borderWidth="2px" borderColor="brand.700" borderRadius="l2" p="3">
          <Box w="32" h="32" flexShrink={0}>
            {qr && <Image src={qr} alt={t('sticker.qrAlt', { name: data.name })} w="full" h="full" data-testid="sticker-qr" data-url={url} />}
          </Box>
          <Stack gap="1" minW="0">
            {/* Two lines, as the printed sticker (lib/sticker-pdf.ts wraps the name to two lines before it cuts). */}
            <Text fontWeight="bold" color="brand.700" lineClamp={2} overflowWrap="anywhere">
              {data.name || '–'}
            </Text>
            <Text textStyle="xs" color="fg.muted">
              {t('sticker.manufacturer')}
            </Text>
            <Text textStyle="sm" fontWeight="semibold" lineClamp={2} overflowWrap="anywhere">
              {manufacturer || '–'}
            </Text>
            <Text textStyle="xs" color="fg.muted">
              {t('sticker.serialnumber')}
            </Text>
            <Text textStyle="sm" fontWeight="semibold" truncate>
              {data.serialnumber || '–'}
            </Text>
          </Stack>
        </HStack>
        {!saved && (
          <Text textStyle="sm" color="fg.muted">
            {t('sticker.notSavedYet')}
          </Text>
        )}
        <Button variant="outline" onClick={() => void download()} loading={busy} disabled={!data.name.trim()} data-testid="sticker-download">
          <Download aria-hidden /> {t('sticker.download')}
        </Button>
      </Card.Body>
    </Card.Root>
  );
}
