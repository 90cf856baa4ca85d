import { PlaceholderPage } from '../../components/placeholder-page';

export const SubscribePage = () => <PlaceholderPage titleKey="pages.subscribe" />;
