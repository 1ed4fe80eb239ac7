/** Entry point (index.html loads this). */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { initI18n } from '../lib/i18n';
import { registerServiceWorker } from '../lib/register-sw';
import { sessionStore, watchOtherTabs } from '../stores/session-store';
import { App } from './app';

initI18n();
void sessionStore.getState().restore();
watchOtherTabs();
registerServiceWorker();

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
