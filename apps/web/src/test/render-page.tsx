import { useEffect, type ReactElement, type ReactNode } from 'react';
import { render } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { clearSession, setSession, useSession, type AuthResponse } from '../api/session';
import { connectSocket, disconnectSocket } from '../api/socket';
import { TestProviders } from './test-providers';

type PageOptions = {
  // The pattern the subject is mounted at when it reads route parameters ('/tickets/:ticketId?');
  // by default the path's own pathname.
  route?: string;
  // Pages the subject leads to, by pattern, when a test follows it there.
  routes?: Record<string, ReactNode>;
};

// What the shell does for a signed-in user: one socket (the fake one in tests) while mounted, so
// that the subject's live events and rooms work as in the app.
const SessionSocket = ({ children }: { children: ReactNode }) => {
  const user = useSession().session?.user;
  const userId = user?.id;
  const companyId = user?.companyId;
  useEffect(() => {
    if (userId === undefined || companyId === undefined) return;
    connectSocket({ userId, companyId });
    return () => disconnectSocket();
  }, [userId, companyId]);
  return children;
};

const LocationProbe = ({ onChange }: { onChange: (location: string) => void }) => {
  const { pathname, search } = useLocation();
  useEffect(() => {
    onChange(`${pathname}${search}`);
  }, [onChange, pathname, search]);
  return null;
};

// Renders one page or component at a path, with or without a session, inside the app's providers
// and a router but without the shell (no top bar, drawer or route guards): what a page test needs,
// at a fraction of the shell's cost. `location()` tells where the subject navigated to.
export const renderPage = (
  subject: ReactElement,
  path = '/',
  auth?: AuthResponse | null,
  { route = new URL(path, 'http://localhost').pathname, routes = {} }: PageOptions = {},
) => {
  if (auth) setSession(auth, null);
  else clearSession();
  let location = path;
  const view = render(
    <TestProviders>
      <SessionSocket>
        <MemoryRouter initialEntries={[path]}>
          <LocationProbe onChange={(next) => (location = next)} />
          <Routes>
            <Route path={route} element={subject} />
            {Object.entries(routes).map(([pattern, element]) => (
              <Route key={pattern} path={pattern} element={element} />
            ))}
            <Route path="*" element={null} />
          </Routes>
        </MemoryRouter>
      </SessionSocket>
    </TestProviders>,
  );
  return { ...view, location: () => location };
};
