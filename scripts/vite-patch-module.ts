/**
 * A build-time change of one exact passage in a library module, for fixes the library does not have yet
 * (vite-chakra-conditions.ts, vite-chakra-global-css.ts). The build fails when the passage is not there exactly once,
 * or when the library was bundled without the module passing the plugin: an update moved or changed it, and the fix
 * must be checked against the update rather than silently skipped. Applied in the build only: the dev server's
 * pre-bundled dependencies and the unit tests run the library as published.
 */
import type { Plugin } from 'vite';

/** `source` with `from` replaced by `to`; throws `changed` when `from` is not in it exactly once. */
export function replaceOnce(source: string, from: string, to: string, changed: string): string {
  const at = source.indexOf(from);
  if (at === -1 || source.indexOf(from, at + 1) !== -1) throw new Error(changed);
  return source.slice(0, at) + to + source.slice(at + from.length);
}

export interface ModulePatch {
  name: string;
  /** The module's path. */
  module: RegExp;
  patch(source: string): string;
  /** Bundled ids that show the library is in this build (the service worker's build runs the plugins too). */
  library: string;
  /** The build's error when the library was bundled but the module did not pass the plugin. */
  notPassed: string;
}

export function patchModule({ name, module, patch, library, notPassed }: ModulePatch): Plugin {
  let patched = false;
  return {
    name,
    apply: 'build',
    buildStart() {
      patched = false;
    },
    transform(code, id) {
      if (!module.test(id)) return null;
      patched = true;
      return { code: patch(code), map: null };
    },
    buildEnd(error) {
      if (error || patched || ![...this.getModuleIds()].some((id) => id.includes(library))) return;
      this.error(notPassed);
    },
  };
}
