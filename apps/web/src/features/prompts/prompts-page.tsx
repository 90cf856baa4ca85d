import { PlaceholderPage } from '../../components/placeholder-page';

export const PromptsPage = () => <PlaceholderPage titleKey="menu.prompts" />;
