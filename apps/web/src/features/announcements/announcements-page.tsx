import { PlaceholderPage } from '../../components/placeholder-page';

export const AnnouncementsPage = () => <PlaceholderPage titleKey="menu.announcements" />;
