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
import { patchModule, replaceOnce } from './vite-patch-module.ts';

const CONDITIONS_MODULE = /[\\/]@chakra-ui[\\/]react[\\/]dist[\\/]esm[\\/]styled-system[\\/]conditions\.js$/;

const SLOW_LOOKUP = `  function has(key) {
    return keys().includes(key) || SPECIAL_KEY_REGEX.test(key) || key.startsWith("_");`;

const SET_LOOKUP = `  const conditionKeys = new Set(Object.keys(values));
  function has(key) {
    return conditionKeys.has(key) || SPECIAL_KEY_REGEX.test(key) || key.startsWith("_");`;

/** The module's source with the Set lookup; throws when the line to replace is not there exactly once. */
export function patchConditionLookup(source: string): string {
  return replaceOnce(source, SLOW_LOOKUP, SET_LOOKUP, "Chakra's conditions module no longer has the lookup this build fixes (scripts/vite-chakra-conditions.ts): check whether the update fixed it, then drop or adapt the plugin");
}

export function chakraConditionLookup(): Plugin {
  return patchModule({
    name: 'anlagenbuch-chakra-condition-lookup',
    module: CONDITIONS_MODULE,
    patch: patchConditionLookup,
    library: '@chakra-ui',
    notPassed: "Chakra's conditions module was bundled without passing this plugin (scripts/vite-chakra-conditions.ts): its path changed",
  });
}
