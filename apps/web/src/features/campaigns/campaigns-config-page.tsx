import { PlaceholderPage } from '../../components/placeholder-page';

export const CampaignsConfigPage = () => <PlaceholderPage titleKey="menu.campaignsConfig" />;
