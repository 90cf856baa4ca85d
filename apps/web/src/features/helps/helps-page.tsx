import { PlaceholderPage } from '../../components/placeholder-page';

export const HelpsPage = () => <PlaceholderPage titleKey="menu.helps" />;
