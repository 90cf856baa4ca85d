import { PlaceholderPage } from '../../components/placeholder-page';

export const QueuesPage = () => <PlaceholderPage titleKey="menu.queues" />;
