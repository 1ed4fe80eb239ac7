/** The text colour (near-black or white) with the higher WCAG contrast on a `#RRGGBB` background. */

// Pure black: with black and white, one of the two always reaches 4.5:1 (the worst case, luminance ≈ 0.18, gives 4.58).
const DARK = '#000000';
const LIGHT = '#ffffff';

/** WCAG 2.x relative luminance of `#RRGGBB`. */
export function relativeLuminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((at) => {
    const channel = Number.parseInt(hex.slice(at, at + 2), 16) / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

const contrast = (a: number, b: number) => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);

export function readableTextOn(background: string): string {
  const bg = relativeLuminance(background);
  return contrast(bg, relativeLuminance(DARK)) >= contrast(bg, relativeLuminance(LIGHT)) ? DARK : LIGHT;
}
