import { render } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { AppProviders } from '../app/app';
import { AppRoutes } from '../app/app-routes';
import { clearSession, setSession, type AuthResponse } from '../api/session';

// Renders the real routes and shell at a path, with or without a session.
export const renderApp = (path: string, auth?: AuthResponse | null) => {
  if (auth) setSession(auth, null);
  else clearSession();
  return render(
    <AppProviders>
      <MemoryRouter initialEntries={[path]}>
        <AppRoutes />
      </MemoryRouter>
    </AppProviders>,
  );
};
