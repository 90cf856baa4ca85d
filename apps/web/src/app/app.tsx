import { BrowserRouter } from 'react-router';
import { AppProviders } from './app-providers';
import { AppRoutes } from './app-routes';

export const App = () => (
  <AppProviders>
    <BrowserRouter>
      <AppRoutes />
    </BrowserRouter>
  </AppProviders>
);
