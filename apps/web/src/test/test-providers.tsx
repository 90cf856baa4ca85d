import type { ReactNode } from 'react';
import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import { AppProviders } from '../app/app-providers';

// In development emotion writes each CSS rule into a <style> tag of its own: hundreds of nodes that
// jsdom walks on every label lookup and style check. One sheet filled through insertRule (what
// production builds do) has the same rules and keeps role and label queries twice as fast.
const styleCache = createCache({ key: 'css', speedy: true });

// The app's providers (query client, i18n, theme, toasts) as the tests render them.
export const TestProviders = ({ children }: { children: ReactNode }) => (
  <CacheProvider value={styleCache}>
    <AppProviders>{children}</AppProviders>
  </CacheProvider>
);
