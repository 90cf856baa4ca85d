import { PlaceholderPage } from '../../components/placeholder-page';

export const QueueIntegrationsPage = () => <PlaceholderPage titleKey="menu.integrations" />;
