/** The app bar's scan button: on every private screen, so a technician can open a machine from its sticker. */
import { IconButton } from '@chakra-ui/react';
import { ScanLine } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';

// why lazy: html5-qrcode and its decoder are only needed once someone scans.
const ScanDialog = lazy(() => import('./scan-dialog').then((m) => ({ default: m.ScanDialog })));

export function ScanButton() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <IconButton variant="ghost" color="white" _hover={{ bg: 'whiteAlpha.200' }} aria-label={t('scan.open')} title={t('scan.open')} onClick={() => setOpen(true)}>
        <ScanLine />
      </IconButton>
      {open && (
        <Suspense fallback={null}>
          <ScanDialog onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
