import { PlaceholderPage } from '../../components/placeholder-page';

export const TagsPage = () => <PlaceholderPage titleKey="menu.tags" />;
