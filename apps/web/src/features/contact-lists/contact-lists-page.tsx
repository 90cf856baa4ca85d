import { PlaceholderPage } from '../../components/placeholder-page';

export const ContactListsPage = () => <PlaceholderPage titleKey="menu.contactLists" />;
