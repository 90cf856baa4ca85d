import { PlaceholderPage } from '../../components/placeholder-page';

export const UsersPage = () => <PlaceholderPage titleKey="menu.users" />;
