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
