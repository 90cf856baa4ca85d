import { PlaceholderPage } from '../../components/placeholder-page';

export const ConnectionsPage = () => <PlaceholderPage titleKey="menu.connections" />;
