/** Decimals as people type them in the app's language (§9: de-DE, otherwise en-US). */

/**
 * The whole part of a typed decimal, as a regular-expression source: bare digits ("1250"), or thousands grouped
 * by `group` the way the language writes them ("1.250" German, "1,250" English). A grouped number never starts
 * with 0: "0.500" is a half typed the other language's way, not 500, and is refused rather than misread.
 * The cost inputs and the equipment form read numbers with it, so both refuse the same texts.
 */
export function wholePartPattern(group: '.' | ','): string {
  const g = group === '.' ? '\\.' : ',';
  return `(?:\\d+|[1-9]\\d{0,2}(?:${g}\\d{3})+)`;
}

/**
 * Whether a number has at most `decimals` decimals: what a numeric(p, decimals) column keeps without rounding it to
 * another value (1e-7 with three would be stored as 0). Binary noise of a number that has them (10.1 + 20.023 =
 * 30.122999999999998) passes and is stored as the decimals meant. Costs and counter readings check with it.
 */
export function hasAtMostDecimals(value: number, decimals: number): boolean {
  const scaled = value * 10 ** decimals;
  return Math.abs(scaled - Math.round(scaled)) < 1e-6;
}
