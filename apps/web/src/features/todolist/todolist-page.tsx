import { PlaceholderPage } from '../../components/placeholder-page';

export const TodoListPage = () => <PlaceholderPage titleKey="menu.todolist" />;
