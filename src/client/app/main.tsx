/** Entry point (index.html loads this). */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { initI18n, whenLanguageLoaded } from '../lib/i18n';
import { sessionStore, watchOtherTabs } from '../stores/session-store';
import { App } from './app';
import { prefetchSignedInRoute } from './prefetch';

initI18n();
prefetchSignedInRoute();
void sessionStore.getState().restore();
watchOtherTabs();
// why lazy: workbox-window is not needed for the first paint; the worker registers once the entry has run.
void import('../lib/register-sw').then((m) => m.registerServiceWorker());

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
// At once for German; a device set to English first loads its texts (one small chunk), so nothing flashes German.
void whenLanguageLoaded().then(() =>
  createRoot(container).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
