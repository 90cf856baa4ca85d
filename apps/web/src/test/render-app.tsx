import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import { render } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { AppProviders } from '../app/app';
import { AppRoutes } from '../app/app-routes';
import { clearSession, setSession, type AuthResponse } from '../api/session';

// In development emotion writes each CSS rule into a <style> tag of its own: hundreds of nodes that
// jsdom walks on every label lookup and style check. One sheet filled through insertRule (what
// production builds do) has the same rules and keeps role and label queries twice as fast.
const styleCache = createCache({ key: 'css', speedy: true });

// Renders the real routes and shell at a path, with or without a session.
export const renderApp = (path: string, auth?: AuthResponse | null) => {
  if (auth) setSession(auth, null);
  else clearSession();
  return render(
    <CacheProvider value={styleCache}>
      <AppProviders>
        <MemoryRouter initialEntries={[path]}>
          <AppRoutes />
        </MemoryRouter>
      </AppProviders>
    </CacheProvider>,
  );
};
