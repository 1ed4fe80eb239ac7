/** The app's API client: base /api (same origin; Vite's dev server proxies it), tokens from the session store. */
import { createApiClient } from './api-client';
import { getAppSessionVault, getDeviceCredentials, sessionStore, sessionTokenSource } from '../stores/session-store';

export const api = createApiClient({ baseUrl: '/api', tokens: sessionTokenSource(sessionStore, getAppSessionVault, getDeviceCredentials) });
