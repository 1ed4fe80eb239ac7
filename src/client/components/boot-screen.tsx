/**
 * The boot shell of index.html (scripts/vite-boot-shell.ts: the mark and the name on the canvas colour, styled by
 * the shell's `<style>` in the head) as the app renders it while it cannot show a screen yet: the stored session is
 * being restored, or the first screen's code is loading. Plain elements, no Chakra UI: it shows before the design
 * system is loaded, and it takes over from the HTML's shell without a visible change.
 */
import { useTranslation } from 'react-i18next';
import { BOOT_SHELL_ID } from '../../shared/brand';
import { AppLogo } from './app-logo';

export function BootScreen() {
  const { t } = useTranslation();
  return (
    <div id={BOOT_SHELL_ID} role="status" aria-busy="true" aria-label={t('skeleton.label')}>
      <AppLogo size={72} />
      <p>{t('app.name')}</p>
      <span />
    </div>
  );
}
