/**
 * The PDF viewer dialog (spec part 1 §2.1, §2.5): one page at a time on a canvas, paging and download. pdfjs-dist
 * renders it with its worker bundled by Vite (`?url`: an asset of the app, precached by the service worker, so it
 * works offline and under the app's CSP: no CDN, no eval). The library is loaded only when a PDF is opened.
 */
import { Box, Button, Center, HStack, IconButton, Spinner, Text } from '@chakra-ui/react';
import { ChevronLeft, ChevronRight, Download } from 'lucide-react';
import type { PDFDocumentProxy, RenderTask } from 'pdfjs-dist';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AppDialog } from './app-dialog';

async function loadPdf(bytes: ArrayBuffer): Promise<PDFDocumentProxy> {
  const [pdfjs, worker] = await Promise.all([import('pdfjs-dist'), import('pdfjs-dist/build/pdf.worker.min.mjs?url')]);
  pdfjs.GlobalWorkerOptions.workerSrc = worker.default;
  // why a copy: pdf.js transfers the buffer to its worker, which would detach the caller's (the mirror's) bytes.
  // why isEvalSupported false: the CSP has no 'unsafe-eval'; pdf.js would otherwise probe it (a CSP report).
  return pdfjs.getDocument({ data: new Uint8Array(bytes.slice(0)), isEvalSupported: false }).promise;
}

export interface PdfViewerDialogProps {
  title: string;
  /** The PDF's bytes; undefined while they are fetched, null when they could not be had. */
  bytes: ArrayBuffer | null | undefined;
  /** Why there are no bytes (shown instead of the page). */
  unavailableText: string;
  onDownload(): void;
  onClose(): void;
}

export function PdfViewerDialog({ title, bytes, unavailableText, onDownload, onClose }: PdfViewerDialogProps) {
  const { t } = useTranslation();
  const canvasRef = useRef<HTMLCanvasElement | null>(null);
  const frameRef = useRef<HTMLDivElement | null>(null);
  const [pdf, setPdf] = useState<PDFDocumentProxy | null>(null);
  const [failed, setFailed] = useState(false);
  const [page, setPage] = useState(1);
  const [rendering, setRendering] = useState(false);

  useEffect(() => {
    if (!bytes) return undefined;
    let cancelled = false;
    let loaded: PDFDocumentProxy | null = null;
    setFailed(false);
    loadPdf(bytes).then(
      (document) => {
        loaded = document;
        if (cancelled) void document.destroy();
        else {
          setPdf(document);
          setPage(1);
        }
      },
      () => !cancelled && setFailed(true),
    );
    return () => {
      cancelled = true;
      setPdf(null);
      if (loaded) void loaded.destroy();
    };
  }, [bytes]);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!pdf || !canvas) return undefined;
    let task: RenderTask | null = null;
    let cancelled = false;
    setRendering(true);
    void pdf
      .getPage(page)
      .then((pdfPage) => {
        if (cancelled) return undefined;
        // Fit the page to the frame's width, sharp on high-density screens.
        const width = Math.max(200, (frameRef.current?.clientWidth ?? 800) - 2);
        const base = pdfPage.getViewport({ scale: 1 });
        const scale = width / base.width;
        const ratio = window.devicePixelRatio || 1;
        const viewport = pdfPage.getViewport({ scale: scale * ratio });
        canvas.width = Math.floor(viewport.width);
        canvas.height = Math.floor(viewport.height);
        canvas.style.width = `${Math.floor(viewport.width / ratio)}px`;
        canvas.style.height = `${Math.floor(viewport.height / ratio)}px`;
        task = pdfPage.render({ canvas, viewport });
        return task.promise;
      })
      .then(
        () => !cancelled && setRendering(false),
        () => !cancelled && setRendering(false),
      );
    return () => {
      cancelled = true;
      task?.cancel();
    };
  }, [pdf, page]);

  const pages = pdf?.numPages ?? 0;
  const unavailable = bytes === null || failed;
  return (
    <AppDialog
      onClose={onClose}
      size={{ base: 'full', md: 'xl' }}
      placement="center"
      scrollBehavior="inside"
      testId="pdf-viewer"
      title={title}
      closeLabel={t('machineDocs.viewer.close')}
      footerLayout="wrap"
      footer={
        <>
          <HStack gap="2" flex="1">
            <IconButton aria-label={t('machineDocs.viewer.previous')} variant="outline" size="lg" disabled={!pdf || page <= 1} onClick={() => setPage((current) => current - 1)} data-testid="pdf-previous">
              <ChevronLeft />
            </IconButton>
            <Text minW="28" textAlign="center" data-testid="pdf-page" aria-live="polite">
              {pdf ? t('machineDocs.viewer.page', { page, pages }) : ''}
            </Text>
            <IconButton aria-label={t('machineDocs.viewer.next')} variant="outline" size="lg" disabled={!pdf || page >= pages} onClick={() => setPage((current) => current + 1)} data-testid="pdf-next">
              <ChevronRight />
            </IconButton>
          </HStack>
          <Button variant="outline" size="lg" onClick={onDownload} disabled={!bytes}>
            <Download aria-hidden />
            {t('machineDocs.viewer.download')}
          </Button>
        </>
      }
    >
      <Box ref={frameRef} bg="bg.muted" borderRadius="l2" minH="60" position="relative" display="flex" justifyContent="center" p="0">
        {unavailable ? (
          <Center minH="60" p="6" textAlign="center">
            <Text color="fg.muted">{failed ? t('machineDocs.viewer.broken') : unavailableText}</Text>
          </Center>
        ) : (
          <>
            <canvas ref={canvasRef} data-testid="pdf-canvas" data-page={pdf && !rendering ? page : undefined} aria-label={t('machineDocs.viewer.pageImage', { page })} role="img" />
            {(!pdf || rendering) && (
              <Center position="absolute" inset="0">
                <Spinner size="lg" aria-label={t('machineDocs.viewer.loading')} />
              </Center>
            )}
          </>
        )}
      </Box>
    </AppDialog>
  );
}
