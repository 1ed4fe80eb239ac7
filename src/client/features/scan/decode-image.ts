/**
 * The code on a photo of a sticker ("Foto wählen" in the scan dialog), and on a camera frame where html5-qrcode
 * reads the camera with ZXing alone.
 *
 * First html5-qrcode's file scan, as the camera uses it: the browser's own BarcodeDetector where there is one (Chrome
 * on Android tablets), else its bundled ZXing. ZXing's finder-pattern search misses clean codes: of stickers drawn
 * as the sticker PDF draws them (random machine ids, 500–2,000 px wide) it did not find the code on 5–15 % per
 * size, though it decodes them once told where the code is, and 2.5–5 % stayed unread after the retries at other
 * widths; jsQR read all 240 it was given (docs/decisions.md "Reading a sticker from a photo").
 * So a photo ZXing does not read goes to jsQR, and then both are tried at other widths. A photo that reads at once
 * pays for nothing more: jsQR (~48 KB gzip) is a chunk of its own, loaded when a photo needs it (the service worker
 * keeps it for offline use like every chunk). Where the browser has no BarcodeDetector, the camera's frames go to
 * jsQR too, twice a second (`decodeVideoFrame`).
 */
import type { Html5Qrcode } from 'html5-qrcode';
import type jsQRFunction from 'jsqr';

/** The widths a photo is tried at again: the decoders read some codes at one size and not at a near one (an e2e
 * run's sticker, 709 px, failed in ZXing as taken and at 1000, 600, 1200, 700, 500 and 450 px, and decoded at 800,
 * 900, 1400 and 1600 px). */
const RETRY_WIDTHS = [1000, 800, 600, 900, 1400];

/** jsQR reads a photo at most this wide: a tablet camera's 12-MP photo is ~4,000 px, which jsQR needs about a
 * second for at tablet speed, and a sticker's code filling even a tenth of it has enough pixels at 1,600. */
const JSQR_MAX_WIDTH = 1600;

function drawn(bitmap: ImageBitmap, width: number): HTMLCanvasElement | null {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = Math.max(1, Math.round((bitmap.height * width) / bitmap.width));
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (!context) return null;
  context.fillStyle = '#fff'; // transparent PNG pixels would turn black
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  return canvas;
}

type JsQR = typeof jsQRFunction;

function readWithJsQR(jsQR: JsQR, canvas: HTMLCanvasElement, inversionAttempts: 'attemptBoth' | 'dontInvert' = 'attemptBoth'): string | null {
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (!context) return null;
  const image = context.getImageData(0, 0, canvas.width, canvas.height);
  return jsQR(image.data, image.width, image.height, { inversionAttempts })?.data ?? null;
}

async function readWithScanner(scanner: Html5Qrcode, canvas: HTMLCanvasElement): Promise<string | null> {
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
  if (!blob) return null;
  return scanner.scanFile(new File([blob], 'scan.png', { type: 'image/png' }), false).catch(() => null);
}

/** The text of the code on `file`; throws when no decoder reads one at any size tried. */
export async function decodePhoto(scanner: Html5Qrcode, file: File): Promise<string> {
  try {
    return await scanner.scanFile(file, false);
  } catch (first) {
    const bitmap = await createImageBitmap(file).catch(() => null);
    if (!bitmap) throw first;
    try {
      const { default: jsQR } = await import('jsqr');
      const asTaken = drawn(bitmap, Math.min(bitmap.width, JSQR_MAX_WIDTH));
      const text = asTaken && readWithJsQR(jsQR, asTaken);
      if (text) return text;
      for (const width of RETRY_WIDTHS) {
        const canvas = drawn(bitmap, width);
        if (!canvas) continue;
        const retried = readWithJsQR(jsQR, canvas) ?? (await readWithScanner(scanner, canvas));
        if (retried) return retried;
      }
    } finally {
      bitmap.close();
    }
    throw first;
  }
}

/** Whether html5-qrcode reads the camera with the browser's BarcodeDetector (else with ZXing alone). */
export function hasBarcodeDetector(): boolean {
  return 'BarcodeDetector' in window;
}

/** Camera frames are read at most this wide: a sticker held up to the camera fills much of a 640 px frame. */
const FRAME_MAX_WIDTH = 640;
let frameCanvas: HTMLCanvasElement | null = null;

/**
 * The code in the camera's current frame by jsQR, or null. For browsers without BarcodeDetector, where html5-qrcode
 * reads frames with ZXing alone and would keep missing a code its detector does not find (above) however long the
 * technician holds the tablet. Dark codes on light stickers only (no inverted try: half the work per frame).
 */
export async function decodeVideoFrame(video: HTMLVideoElement): Promise<string | null> {
  if (video.readyState < HTMLMediaElement.HAVE_CURRENT_DATA || video.videoWidth === 0) return null;
  const { default: jsQR } = await import('jsqr');
  const width = Math.min(video.videoWidth, FRAME_MAX_WIDTH);
  frameCanvas ??= document.createElement('canvas');
  frameCanvas.width = width;
  frameCanvas.height = Math.max(1, Math.round((video.videoHeight * width) / video.videoWidth));
  const context = frameCanvas.getContext('2d', { willReadFrequently: true });
  if (!context) return null;
  context.drawImage(video, 0, 0, frameCanvas.width, frameCanvas.height);
  return readWithJsQR(jsQR, frameCanvas, 'dontInvert');
}
