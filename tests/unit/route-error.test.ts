import { describe, expect, it } from 'vitest';
import { routeErrorKind } from '../../src/client/components/route-error';

describe('routeErrorKind', () => {
  it('a chunk that could not be fetched: offline when the device is, else the app was updated', () => {
    for (const message of [
      'Failed to fetch dynamically imported module: http://127.0.0.1/assets/machine-overview-screen-DK.js', // Chromium
      'error loading dynamically imported module: http://127.0.0.1/assets/x.js', // Firefox
      'Importing a module script failed.', // Safari
      'Unable to preload CSS for /assets/design-system.css', // Vite's preload helper
    ]) {
      expect(routeErrorKind(new TypeError(message), false), message).toBe('offline');
      expect(routeErrorKind(new TypeError(message), true), message).toBe('updated');
    }
  });

  it('anything else is a failure of the screen, online or not', () => {
    expect(routeErrorKind(new TypeError("Cannot read properties of undefined (reading 'name')"), false)).toBe('failed');
    expect(routeErrorKind({ status: 500 }, true)).toBe('failed');
    expect(routeErrorKind(undefined, true)).toBe('failed');
  });
});
