import { PlaceholderPage } from '../../components/placeholder-page';

export const KanbanPage = () => <PlaceholderPage titleKey="menu.kanban" />;
