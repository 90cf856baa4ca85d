// First: before any schema is created (see the file).
import './lib/zod-csp';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { registerServiceWorker } from './app/app-updates';
import { restoreSession } from './features/auth/auth.api';
import { initI18n } from './i18n/i18n';

// SPEC §4: a page load starts from the refresh cookie; guards show a spinner until it settles.
void restoreSession();

const root = document.getElementById('root');
if (!root) throw new Error('Missing #root element');

// The first render waits for the texts of the app's language (fetched meanwhile with the session).
void initI18n().then(() =>
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);

// Installable and quick to start (README "Install as an app"): the worker keeps the app's files.
// Registered once the page has loaded, so its downloads do not compete with the first load's.
if (import.meta.env.PROD) {
  window.addEventListener('load', () => {
    registerServiceWorker().catch(() => undefined);
  });
}
