import { PlaceholderPage } from '../../components/placeholder-page';

export const SettingsPage = () => <PlaceholderPage titleKey="menu.settings" />;
