import { PlaceholderPage } from '../../components/placeholder-page';

export const SchedulesPage = () => <PlaceholderPage titleKey="menu.schedules" />;
