import { PlaceholderPage } from '../../components/placeholder-page';

export const FilesPage = () => <PlaceholderPage titleKey="menu.files" />;
