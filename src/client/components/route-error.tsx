/**
 * What a screen shows when it cannot be shown (the router's error element) instead of the router's bare
 * "Unexpected Application Error!". Three cases, in the user's words:
 * - offline, and the screen's code is not on the device yet (the service worker stores every screen in the
 *   background after the first visit; a technician who went offline at once may be ahead of it): it says so, that
 *   the data is safe, and loads the screen by itself once the device is online again;
 * - online, and the screen's code is gone (the app was updated on the server since this page loaded): reload;
 * - anything else: reload, or go to the dashboard.
 * Plain elements with a CSS module and the shell's texts only: the design system or the app's texts may be what
 * failed to load.
 */
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router-dom';
import { AppLogo } from './app-logo';
import styles from './route-error.module.css';

/** A lazy chunk (a screen, the design system, the texts) that could not be fetched, as browsers word it. */
export function isChunkLoadError(error: unknown): boolean {
  return error instanceof Error && /dynamically imported module|Importing a module script failed|Unable to preload CSS/i.test(error.message);
}

export type RouteErrorKind = 'offline' | 'updated' | 'failed';

export function routeErrorKind(error: unknown, online: boolean): RouteErrorKind {
  if (!isChunkLoadError(error)) return 'failed';
  return online ? 'updated' : 'offline';
}

export function RouteError() {
  const { t } = useTranslation();
  const kind = routeErrorKind(useRouteError(), navigator.onLine);

  useEffect(() => {
    if (kind !== 'offline') return undefined;
    const reload = () => window.location.reload();
    window.addEventListener('online', reload);
    return () => window.removeEventListener('online', reload);
  }, [kind]);

  return (
    <main className={styles.page} data-testid="route-error" data-kind={kind}>
      <AppLogo size={56} />
      <h1 className={styles.title}>{t(`routeError.${kind}.title`)}</h1>
      <p className={styles.text}>{t(`routeError.${kind}.text`)}</p>
      <div className={styles.actions}>
        <button type="button" className={styles.primary} onClick={() => window.location.reload()}>
          {t('routeError.reload')}
        </button>
        {/* A full load, not the router: its state is what failed. */}
        <a className={styles.secondary} href="/dashboard">
          {t('routeError.dashboard')}
        </a>
      </div>
    </main>
  );
}
