/**
 * A photo full size (machine photo, nameplate; part 1 §2.1 "a zoom viewer that can rotate"): pinch or wheel to
 * zoom, drag to move (react-zoom-pan-pinch), buttons to zoom, rotate by 90° and reset. It shows an object URL the
 * caller already has, so it works offline from the device's kept copy.
 */
import { Box, Button, HStack, IconButton, Image, Text } from '@chakra-ui/react';
import { RotateCcw, RotateCw, Scan, ZoomIn, ZoomOut } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TransformComponent, TransformWrapper } from 'react-zoom-pan-pinch';
import { AppDialog } from './app-dialog';

export interface ImageViewerProps {
  title: string;
  src: string;
  alt: string;
  onClose(): void;
  testId?: string;
}

/** Loaded on demand through `ImageViewer` (image-viewer.tsx); import that one. */
export function ImageViewerDialog({ title, src, alt, onClose, testId = 'image-viewer' }: ImageViewerProps) {
  const { t } = useTranslation();
  const [rotation, setRotation] = useState(0);
  // The image fills the frame (a small photo is scaled up too); turned by 90° its box takes the frame's height as
  // width and the other way round, so the turned image still fits whole.
  const frame = useRef<HTMLDivElement>(null);
  const [size, setSize] = useState<{ width: number; height: number } | null>(null);
  useEffect(() => {
    const element = frame.current;
    if (!element) return undefined;
    const observer = new ResizeObserver(([entry]) => entry && setSize({ width: entry.contentRect.width, height: entry.contentRect.height }));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  const sideways = rotation % 180 !== 0;
  const box = size && sideways ? { width: `${size.height}px`, height: `${size.width}px` } : { width: '100%', height: '100%' };
  return (
    <AppDialog
      onClose={onClose}
      title={title}
      size={{ base: 'full', md: 'xl' }}
      testId={testId}
      closeLabel={t('machine.header.close')}
      footer={
        <Button variant="outline" onClick={onClose}>
          {t('machine.header.close')}
        </Button>
      }
    >
      <TransformWrapper minScale={1} maxScale={8} centerOnInit doubleClick={{ mode: 'toggle' }}>
        {({ zoomIn, zoomOut, resetTransform }) => (
          <Box>
            <HStack gap="1" mb="3" flexWrap="wrap" justify="center">
              <IconButton variant="outline" size="lg" aria-label={t('machine.header.zoomOut')} onClick={() => void zoomOut()} data-testid="viewer-zoom-out">
                <ZoomOut />
              </IconButton>
              <IconButton variant="outline" size="lg" aria-label={t('machine.header.zoomIn')} onClick={() => void zoomIn()} data-testid="viewer-zoom-in">
                <ZoomIn />
              </IconButton>
              <IconButton variant="outline" size="lg" aria-label={t('machine.header.rotateLeft')} onClick={() => setRotation((value) => (value + 270) % 360)} data-testid="viewer-rotate-left">
                <RotateCcw />
              </IconButton>
              <IconButton variant="outline" size="lg" aria-label={t('machine.header.rotateRight')} onClick={() => setRotation((value) => (value + 90) % 360)} data-testid="viewer-rotate-right">
                <RotateCw />
              </IconButton>
              <IconButton
                variant="outline"
                size="lg"
                aria-label={t('machine.header.reset')}
                onClick={() => {
                  setRotation(0);
                  void resetTransform();
                }}
                data-testid="viewer-reset"
              >
                <Scan />
              </IconButton>
            </HStack>
            <Box ref={frame} bg="gray.900" borderRadius="l2" overflow="hidden" h={{ base: 'calc(100dvh - 16rem)', md: '60vh' }} touchAction="none">
              <TransformComponent wrapperStyle={{ width: '100%', height: '100%' }} contentStyle={{ width: '100%', height: '100%' }}>
                <Box w="full" h="full" display="flex" alignItems="center" justifyContent="center">
                  <Image
                    src={src}
                    alt={alt}
                    flexShrink={0}
                    objectFit="contain"
                    transition="transform 0.2s"
                    style={{ ...box, transform: `rotate(${rotation}deg)` }}
                    data-rotation={rotation}
                    data-testid="viewer-image"
                    draggable={false}
                  />
                </Box>
              </TransformComponent>
            </Box>
            <Text textStyle="sm" color="fg.muted" mt="2" textAlign="center">
              {t('machine.header.viewerHint')}
            </Text>
          </Box>
        )}
      </TransformWrapper>
    </AppDialog>
  );
}
