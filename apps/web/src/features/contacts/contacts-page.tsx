import { PlaceholderPage } from '../../components/placeholder-page';

export const ContactsPage = () => <PlaceholderPage titleKey="menu.contacts" />;
