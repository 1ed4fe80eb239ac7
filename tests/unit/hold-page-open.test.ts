/** The CSV import holds the page open: closing or reloading the tab halfway asks first (src/client/lib/hold-page-open.ts). */
import { describe, expect, it } from 'vitest';
import { holdPageOpen } from '../../src/client/lib/hold-page-open';

const unload = (target: EventTarget) => {
  const event = new Event('beforeunload', { cancelable: true });
  target.dispatchEvent(event);
  return event.defaultPrevented;
};

describe('holdPageOpen', () => {
  it('asks before unloading while held, and no longer once released', () => {
    const page = new EventTarget() as unknown as Window;
    expect(unload(page)).toBe(false);
    const release = holdPageOpen(page);
    expect(unload(page)).toBe(true);
    release();
    release();
    expect(unload(page)).toBe(false);
  });
});
