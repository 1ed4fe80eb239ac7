/** Entry point (index.html loads this). */
// why first: starts the current route's chunks before the modules below are evaluated (see start-prefetch.ts).
import './start-prefetch';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { initI18n, whenLanguageLoaded } from '../lib/i18n';
import { sessionStore, watchOtherTabs } from '../stores/session-store';
import { App } from './app';

initI18n();
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
