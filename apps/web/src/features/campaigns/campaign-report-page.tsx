import { PlaceholderPage } from '../../components/placeholder-page';

export const CampaignReportPage = () => <PlaceholderPage titleKey="pages.campaignReport" />;
