import { PlaceholderPage } from '../../components/placeholder-page';

export const QuickMessagesPage = () => <PlaceholderPage titleKey="menu.quickMessages" />;
