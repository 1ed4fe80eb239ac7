/**
 * Scan a service sticker (design brief: "Technicians scan a machine's QR sticker with the tablet camera"): the
 * back camera through html5-qrcode, and a photo of the sticker as the fallback (no camera, permission refused,
 * a glare the live view can't read). A machine sticker opens the machine from the local mirror, so it works
 * offline; a sticker of another installation, an unknown machine or any other code is said in plain words. A sticker
 * that cannot be read at all (torn, painted over, no camera) is opened by the Equipment-ID printed on it, typed.
 */
import { Box, Button, Field, Flex, Input, Stack, Text } from '@chakra-ui/react';
import { Html5Qrcode } from 'html5-qrcode';
import { Camera, ImageUp, Search } from 'lucide-react';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { AppDialog } from '../../components/app-dialog';
import { MACHINE_OVERVIEW_PATH, parseScannedCode } from '../../lib/sticker-url';
import { useOwnStickerBases } from '../../lib/use-sticker-base';
import { findMachineByEquipmentId, findMirrorRow } from '../../sync/use-mirror';
import { decodePhoto, decodeVideoFrame, hasBarcodeDetector } from './decode-image';

type CameraState = 'starting' | 'running' | 'unavailable' | 'stopped';

type Outcome = { tone: 'error' | 'info'; text: string } | null;

/** How often a camera frame goes to jsQR where the browser has no BarcodeDetector (decode-image.ts). */
const FRAME_FALLBACK_MS = 500;

export function ScanDialog({ onClose }: { onClose(): void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const bases = useOwnStickerBases();
  const regionId = `scan-region-${useId().replace(/[^a-zA-Z0-9]/g, '')}`;
  const scannerRef = useRef<Html5Qrcode | null>(null);
  // why a second scanner for photos: html5-qrcode refuses a file scan while its camera state machine is in any
  // other state than idle ("ongoing camera scan"), and after a failed or slow camera start on a busy tablet it
  // sometimes was not — a good sticker photo then read as "no QR code" (seen in loaded e2e runs). This one never
  // starts a camera.
  const fileScannerRef = useRef<Html5Qrcode | null>(null);
  const fileRegionId = `${regionId}-file`;
  const handledRef = useRef(false);
  const [camera, setCamera] = useState<CameraState>('starting');
  const [outcome, setOutcome] = useState<Outcome>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  const stopCamera = useCallback(async () => {
    const scanner = scannerRef.current;
    if (scanner?.isScanning) await scanner.stop().catch(() => undefined);
    setCamera((state) => (state === 'running' ? 'stopped' : state));
  }, []);

  const handleCode = useCallback(
    async (text: string) => {
      const code = parseScannedCode(text, bases);
      if (code.kind === 'foreign') return setOutcome({ tone: 'error', text: t('scan.foreign') });
      if (code.kind === 'other-installation') return setOutcome({ tone: 'error', text: t('scan.otherInstallation', { origin: code.origin }) });
      const machine = await findMirrorRow('equipment', code.nodeid);
      if (!machine) return setOutcome({ tone: 'error', text: t('scan.unknownMachine') });
      handledRef.current = true;
      await stopCamera();
      onClose();
      void navigate(`${MACHINE_OVERVIEW_PATH}?nodeid=${code.nodeid}`);
    },
    [bases, navigate, onClose, stopCamera, t],
  );

  const handleRef = useRef(handleCode);
  useEffect(() => {
    handleRef.current = handleCode;
  }, [handleCode]);

  // A code read from the camera, by html5-qrcode or by the frame fallback below.
  const lastCameraText = useRef('');
  const onCameraText = useCallback((text: string) => {
    // why: the same code is reported every frame; act once per distinct code.
    if (handledRef.current || text === lastCameraText.current) return;
    lastCameraText.current = text;
    // A code whose handling failed (the local database busy, say) is read again from the next frame.
    void handleRef.current(text).catch(() => {
      lastCameraText.current = '';
    });
  }, []);

  // A photo chosen while the camera is still starting (slow on a busy tablet: getUserMedia can take seconds to
  // fail) stops the camera only once its start has settled; the photo itself goes to fileScannerRef.
  const cameraStart = useRef<Promise<void>>(Promise.resolve());

  const startCamera = useCallback(() => {
    const started = (async () => {
      const scanner = scannerRef.current;
      if (!scanner) return;
      setCamera('starting');
      setOutcome(null);
      lastCameraText.current = '';
      try {
        await scanner.start(
          // why ideal, not exact: tablets have a back camera, laptops and test browsers only one, which must work too.
          { facingMode: 'environment' },
          { fps: 10, qrbox: (width, height) => ({ width: Math.floor(Math.min(width, height) * 0.75), height: Math.floor(Math.min(width, height) * 0.75) }) },
          onCameraText,
          () => undefined,
        );
        setCamera('running');
      } catch {
        setCamera('unavailable');
      }
    })();
    cameraStart.current = started;
    return started;
  }, [onCameraText]);

  // Without BarcodeDetector html5-qrcode reads frames with ZXing alone, which misses some clean codes at every
  // distance (decode-image.ts): twice a second the current frame goes to jsQR as well.
  useEffect(() => {
    if (camera !== 'running' || hasBarcodeDetector()) return;
    let reading = false;
    const timer = window.setInterval(() => {
      const video = document.getElementById(regionId)?.querySelector('video');
      if (reading || handledRef.current || !video) return;
      reading = true;
      void decodeVideoFrame(video)
        .then((text) => {
          if (text) onCameraText(text);
        })
        .catch(() => undefined)
        .finally(() => {
          reading = false;
        });
    }, FRAME_FALLBACK_MS);
    return () => window.clearInterval(timer);
  }, [camera, regionId, onCameraText]);

  useEffect(() => {
    scannerRef.current = new Html5Qrcode(regionId, { verbose: false });
    fileScannerRef.current = new Html5Qrcode(fileRegionId, { verbose: false });
    void startCamera();
    return () => {
      const scanner = scannerRef.current;
      scannerRef.current = null;
      fileScannerRef.current = null;
      if (scanner?.isScanning) void scanner.stop().catch(() => undefined);
    };
  }, [regionId, fileRegionId, startCamera]);

  // A sticker that cannot be read (torn, painted over, no camera): the Equipment-ID printed on it, typed.
  const [typedId, setTypedId] = useState('');
  const openTyped = async () => {
    if (typedId.trim() === '') return;
    const machine = await findMachineByEquipmentId(typedId);
    if (!machine) return setOutcome({ tone: 'error', text: t('scan.manualNotFound', { id: typedId.trim() }) });
    handledRef.current = true;
    await cameraStart.current;
    await stopCamera();
    onClose();
    void navigate(`${MACHINE_OVERVIEW_PATH}?nodeid=${machine.nodeid}`);
  };

  const scanPhoto = async (file: File | undefined) => {
    const fileScanner = fileScannerRef.current;
    if (!file || !fileScanner) return;
    // The user chose a photo instead: the camera (once its start has settled) is not needed any more.
    await cameraStart.current;
    await stopCamera();
    setOutcome(null);
    try {
      const text = await decodePhoto(fileScanner, file);
      await handleCode(text);
    } catch {
      setOutcome({ tone: 'error', text: t('scan.noCodeInPhoto') });
    }
    if (fileInput.current) fileInput.current.value = '';
  };

  return (
    <AppDialog
      onClose={onClose}
      size={{ base: 'full', md: 'lg' }}
      title={t('scan.title')}
      footerLayout="wrap"
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            {t('scan.close')}
          </Button>
          {camera !== 'running' && camera !== 'starting' && (
            <Button variant="outline" onClick={() => void startCamera()}>
              <Camera aria-hidden /> {t('scan.retryCamera')}
            </Button>
          )}
          <Button colorPalette="brand" onClick={() => fileInput.current?.click()}>
            <ImageUp aria-hidden /> {t('scan.fromPhoto')}
          </Button>
        </>
      }
    >
      <Stack gap="4">
        <Text color="fg.muted">{t('scan.hint')}</Text>
        <Box id={regionId} data-testid="scan-camera" display={camera === 'unavailable' ? 'none' : 'block'} minH="64" bg="gray.900" borderRadius="l2" overflow="hidden" aria-label={t('scan.cameraView')} />
        <Box id={fileRegionId} display="none" aria-hidden />
        {camera === 'starting' && <Text role="status">{t('scan.cameraStarting')}</Text>}
        {camera === 'running' && <Text role="status">{t('scan.cameraRunning')}</Text>}
        {camera === 'unavailable' && (
          <Text role="status" color="orange.fg">
            {t('scan.cameraUnavailable')}
          </Text>
        )}
        {outcome && (
          <Box role="alert" data-testid="scan-outcome" p="3" borderRadius="l2" bg={outcome.tone === 'error' ? 'red.subtle' : 'blue.subtle'} color={outcome.tone === 'error' ? 'red.fg' : 'blue.fg'} fontWeight="medium">
            {outcome.text}
          </Box>
        )}
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void openTyped();
          }}
        >
          <Field.Root>
            <Field.Label>{t('scan.manualLabel')}</Field.Label>
            <Flex gap="2" wrap="wrap" w="full">
              <Input
                size="lg"
                flex="1 1 12rem"
                value={typedId}
                placeholder={t('scan.manualPlaceholder')}
                autoComplete="off"
                autoCapitalize="characters"
                spellCheck={false}
                enterKeyHint="go"
                data-testid="scan-equipment-id"
                onChange={(event) => setTypedId(event.target.value)}
              />
              <Button type="submit" size="lg" variant="outline" disabled={typedId.trim() === ''} data-testid="scan-equipment-id-open">
                <Search aria-hidden /> {t('scan.manualOpen')}
              </Button>
            </Flex>
          </Field.Root>
        </form>
        <input ref={fileInput} type="file" accept="image/*" hidden aria-label={t('scan.fromPhoto')} data-testid="scan-file-input" onChange={(event) => void scanPhoto(event.target.files?.[0])} />
      </Stack>
    </AppDialog>
  );
}
