/**
 * A build-time fix to Chakra UI 3.37's condition lookup (vite.config.ts), until the library has it.
 *
 * `createConditions` (styled-system/conditions.js) answers "is this key a condition?" with
 * `Object.keys(values).includes(key)`: a new array of every condition (~100) for each question. The question is asked
 * for every key of every style object Chakra serializes — building the system's token and global CSS at boot and
 * each component's styles while the first screens render — and a CPU profile of `createSystem` had that line as its
 * largest self time (~18 %; docs/decisions.md "Chakra's condition lookup"). The fix asks a Set made once from the
 * same object, which nothing changes after it is made: the same answers (tests/unit/vite-chakra-conditions.test.ts
 * compares both on the real configuration).
 *
 * The build fails when the module or the line is not found (a Chakra update changed them): then check whether the
 * update fixed it, and drop this plugin or adapt the pattern. The dev server's pre-bundled dependencies and the unit
 * tests run Chakra as published; the fix changes speed, not behaviour.
 */
import type { Plugin } from 'vite';

const CONDITIONS_MODULE = /[\\/]@chakra-ui[\\/]react[\\/]dist[\\/]esm[\\/]styled-system[\\/]conditions\.js$/;

const SLOW_LOOKUP = `  function has(key) {
    return keys().includes(key) || SPECIAL_KEY_REGEX.test(key) || key.startsWith("_");`;

const SET_LOOKUP = `  const conditionKeys = new Set(Object.keys(values));
  function has(key) {
    return conditionKeys.has(key) || SPECIAL_KEY_REGEX.test(key) || key.startsWith("_");`;

/** The module's source with the Set lookup; throws when the line to replace is not there exactly once. */
export function patchConditionLookup(source: string): string {
  const at = source.indexOf(SLOW_LOOKUP);
  if (at === -1 || source.indexOf(SLOW_LOOKUP, at + 1) !== -1) {
    throw new Error("Chakra's conditions module no longer has the lookup this build fixes (scripts/vite-chakra-conditions.ts): check whether the update fixed it, then drop or adapt the plugin");
  }
  return source.slice(0, at) + SET_LOOKUP + source.slice(at + SLOW_LOOKUP.length);
}

export function chakraConditionLookup(): Plugin {
  let patched = false;
  return {
    name: 'anlagenbuch-chakra-condition-lookup',
    apply: 'build',
    buildStart() {
      patched = false;
    },
    transform(code, id) {
      if (!CONDITIONS_MODULE.test(id)) return null;
      patched = true;
      return { code: patchConditionLookup(code), map: null };
    },
    buildEnd(error) {
      // Only the app's build bundles Chakra; the service worker's build (vite-plugin-pwa) runs these plugins too.
      if (error || patched || ![...this.getModuleIds()].some((id) => id.includes('@chakra-ui'))) return;
      this.error("Chakra's conditions module was bundled without passing this plugin (scripts/vite-chakra-conditions.ts): its path changed");
    },
  };
}
