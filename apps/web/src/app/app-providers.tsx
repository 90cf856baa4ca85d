import { useEffect, useState, type ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import { ToastContainer } from 'react-toastify';
import { createQueryClient } from '../api/query-client';
import { subscribeSession, getSessionState } from '../api/session';
import { disconnectSocket } from '../api/socket';
import { TOAST_MS } from '../api/toasts';
import { i18n } from '../i18n/i18n';
import { ThemeModeProvider, useThemeMode } from './theme-mode';

const AppToasts = () => {
  const { mode } = useThemeMode();
  return <ToastContainer position="top-right" autoClose={TOAST_MS} theme={mode} newestOnTop />;
};

// Providers shared by the app and its tests; the router is chosen by the caller. Kept apart from
// the routes so that a test of one page or component loads that code only.
export const AppProviders = ({ children }: { children: ReactNode }) => {
  const [queryClient] = useState(createQueryClient);

  useEffect(
    () =>
      subscribeSession(() => {
        // Nothing cached for one user may leak into the next session.
        if (getSessionState().status === 'anonymous') {
          disconnectSocket();
          queryClient.clear();
        }
      }),
    [queryClient],
  );

  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <ThemeModeProvider>
          {children}
          <AppToasts />
        </ThemeModeProvider>
      </QueryClientProvider>
    </I18nextProvider>
  );
};
