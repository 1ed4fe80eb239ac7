/**
 * The zoom viewer (image-viewer-dialog.tsx), loaded when a photo is opened: its pinch-zoom library is ~160 kB of
 * code the screens showing the photo do not need until the tap (docs/decisions.md § Chunks). The chunk is in the
 * service worker's precache, so it opens offline too; while it loads (a few ms from the cache) nothing is shown.
 */
import { lazy, Suspense } from 'react';
import type { ImageViewerProps } from './image-viewer-dialog';

const ImageViewerDialog = lazy(() => import('./image-viewer-dialog').then((module) => ({ default: module.ImageViewerDialog })));

export function ImageViewer(props: ImageViewerProps) {
  return (
    <Suspense fallback={null}>
      <ImageViewerDialog {...props} />
    </Suspense>
  );
}
