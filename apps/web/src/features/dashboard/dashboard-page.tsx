import { PlaceholderPage } from '../../components/placeholder-page';

export const DashboardPage = () => <PlaceholderPage titleKey="menu.dashboard" />;
