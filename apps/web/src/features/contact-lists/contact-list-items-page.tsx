import { PlaceholderPage } from '../../components/placeholder-page';

export const ContactListItemsPage = () => <PlaceholderPage titleKey="pages.contactListItems" />;
