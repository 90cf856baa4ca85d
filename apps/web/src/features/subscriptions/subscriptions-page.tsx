import { PlaceholderPage } from '../../components/placeholder-page';

export const SubscriptionsPage = () => <PlaceholderPage titleKey="pages.subscriptions" />;
