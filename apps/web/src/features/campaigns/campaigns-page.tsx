import { PlaceholderPage } from '../../components/placeholder-page';

export const CampaignsPage = () => <PlaceholderPage titleKey="menu.campaigns" />;
