import { render } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { AppRoutes } from '../app/app-routes';
import { clearSession, setSession, type AuthResponse } from '../api/session';
import { TestProviders } from './test-providers';

// Renders the real routes and shell at a path, with or without a session. For tests whose subject
// is the shell (layout, menus, top bar, route guards); a page or component test uses renderPage.
export const renderApp = (path: string, auth?: AuthResponse | null) => {
  if (auth) setSession(auth, null);
  else clearSession();
  return render(
    <TestProviders>
      <MemoryRouter initialEntries={[path]}>
        <AppRoutes />
      </MemoryRouter>
    </TestProviders>,
  );
};
