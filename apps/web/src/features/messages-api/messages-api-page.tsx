import { PlaceholderPage } from '../../components/placeholder-page';

export const MessagesApiPage = () => <PlaceholderPage titleKey="menu.messagesApi" />;
