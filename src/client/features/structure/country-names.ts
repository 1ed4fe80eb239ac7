/** Country names for the plant form's list (spec part 2 §2.5: "country list in English and German"). */
import { COUNTRY_CODES } from '../../../shared/domain/country';

const displayNames = new Map<string, Intl.DisplayNames>();

/** The country's name in `language` (Intl.DisplayNames), the code itself where the runtime has no name. */
export function countryName(code: string, language: string): string {
  if (!code) return '';
  let names = displayNames.get(language);
  if (!names) {
    names = new Intl.DisplayNames([language], { type: 'region' });
    displayNames.set(language, names);
  }
  try {
    return names.of(code) ?? code;
  } catch {
    return code;
  }
}

/** Every country as {code, name}, sorted by name in `language`. */
export function countryOptions(language: string): { code: string; name: string }[] {
  return COUNTRY_CODES.map((code) => ({ code, name: countryName(code, language) })).sort((a, b) => a.name.localeCompare(b.name, language));
}
