import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatNumberText, i18n, initI18n, loadAppTexts } from '../../src/client/lib/i18n';

describe('number format of the texts', () => {
  afterEach(() => vi.restoreAllMocks());

  it('formats counts the German and the English way', async () => {
    initI18n('de');
    await loadAppTexts();
    expect(i18n.t('machine.list.count', { count: 1234 })).toContain('1.234');
    expect(formatNumberText(1234.5, 'en')).toBe('1,234.5');
    expect(formatNumberText(0.5, 'de', { style: 'percent', count: 3 })).toMatch(/^50\s%$/);
  });

  it('builds one formatter per language and options, not one per count', async () => {
    initI18n('de');
    await loadAppTexts();
    i18n.t('machine.list.count', { count: 1 });
    const constructed = vi.spyOn(Intl, 'NumberFormat');
    for (let count = 2; count < 200; count++) i18n.t('machine.list.count', { count });
    expect(constructed).not.toHaveBeenCalled();
    constructed.mockRestore();
    // A value already formatted is not formatted again (a list's rows repeat their counts).
    // why the getter: Intl.NumberFormat's format is an accessor that returns the bound function.
    const formatted = vi.spyOn(Intl.NumberFormat.prototype as unknown as Record<'format', unknown>, 'format', 'get');
    for (let round = 0; round < 3; round++) for (let count = 2; count < 200; count++) i18n.t('machine.list.count', { count });
    expect(formatted).not.toHaveBeenCalled();
    expect(i18n.t('machine.list.count', { count: 20_000 })).toContain('20.000');
    expect(formatted).toHaveBeenCalledTimes(1);
  });
});
