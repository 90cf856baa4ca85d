import { PlaceholderPage } from '../../components/placeholder-page';

export const TicketsPage = () => <PlaceholderPage titleKey="menu.tickets" />;
