import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from '@playwright/test';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * A camera "seeing" a printed sticker while the technician brings the tablet closer, as a file for Chromium's fake
 * camera: an MJPEG file is just JPEG frames one after another, here the sticker at six distances (480–680 px wide in
 * a 640 × 480 picture, its QR code — the left 4–44 mm of the 90 × 50 mm sticker — in the middle), five frames each,
 * played in a loop. why several: the decoder reads some codes at one fixed scale never (seen in CI: a sticker 600 px
 * wide, the same picture 30 times, was not read in 30 s, and read within 0.5 s once the distance changed), and a
 * hand-held camera never holds one distance. Returns the file's path; `frame600` gets the 600 px frame to look at.
 */
export async function stickerCameraFile(stickerPng: Buffer, outDir: string, frame600?: string): Promise<string> {
  const framer = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  const framePage = await framer.newPage({ viewport: { width: 640, height: 480 } });
  const png = stickerPng.toString('base64');
  const frames: Buffer[] = [];
  for (const width of [480, 520, 560, 600, 640, 680]) {
    const height = (width * 50) / 90;
    const left = 320 - (24 / 90) * width;
    const top = 240 - (25 / 50) * height;
    await framePage.setContent(`<body style="margin:0;background:#ddd;width:640px;height:480px;overflow:hidden;position:relative"><img src="data:image/png;base64,${png}" style="position:absolute;left:${left}px;top:${top}px;width:${width}px;height:${height}px"></body>`);
    const frame = await framePage.screenshot({ type: 'jpeg', quality: 90 });
    if (width === 600 && frame600) writeFileSync(frame600, frame);
    for (let i = 0; i < 5; i++) frames.push(frame);
  }
  await framer.close();
  const mjpeg = join(outDir, 'camera.mjpeg');
  writeFileSync(mjpeg, Buffer.concat(frames));
  return mjpeg;
}

/** Chromium whose camera (granted without asking) plays `mjpeg`. */
export function launchWithCamera(mjpeg: string): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', `--use-file-for-fake-video-capture=${mjpeg}`],
  });
}
