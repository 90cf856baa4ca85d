import { Box, Stack, Tab, Tabs, Typography } from '@mui/material';
import { can } from '@atendi/shared';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useCurrentSession } from '../../api/session';
import { LoadingBox } from '../../components/loading-box';
import { MessagePage } from '../../components/message-page';
import { CompaniesTab } from './companies/companies-tab';
import { CompanySchedulesTab, CompanyTimeZone } from './company-schedules-tab';
import { ApiTokensTab } from './api-tokens-tab';
import { AuditTab } from './audit-tab';
import { ConversationExportsTab } from './conversation-exports-tab';
import { HelpsTab } from './helps/helps-tab';
import { InsightRulesTab } from './insight-rules-tab';
import { PlansTab } from './plans/plans-tab';
import { useLiveSettings, useSettings } from './settings.api';
import { SettingsOptionsTab } from './settings-options-tab';
import { SsoTab } from './sso-tab';
import { WebhooksTab } from './webhooks-tab';

type TabId =
  | 'options'
  | 'schedules'
  | 'audit'
  | 'sso'
  | 'api'
  | 'webhooks'
  | 'exports'
  | 'insight'
  | 'companies'
  | 'plans'
  | 'helps';

const SettingsTabs = () => {
  const { t } = useTranslation();
  const { user } = useCurrentSession();
  const [searchParams, setSearchParams] = useSearchParams();
  const settings = useSettings();
  useLiveSettings();

  const list = settings.data ?? [];
  const scheduleType = list.find((setting) => setting.key === 'scheduleType')?.value;
  // SPEC §2: schedules only with company business hours; the platform tabs only for super users.
  const tabs: TabId[] = [
    'options',
    ...(scheduleType === 'company' ? (['schedules'] as const) : []),
    ...(can(user, 'audit:view') ? (['audit'] as const) : []),
    'sso',
    ...(can(user, 'api-tokens:manage') ? (['api'] as const) : []),
    ...(can(user, 'webhooks:manage') ? (['webhooks'] as const) : []),
    ...(can(user, 'exports:manage') ? (['exports'] as const) : []),
    // Live insight's rules belong with the AI agents: their admins, on a plan with AI.
    ...(can(user, 'prompts:manage') && user.company?.plan?.useOpenAi ? (['insight'] as const) : []),
    ...(user.super ? (['companies', 'plans', 'helps'] as const) : []),
  ];
  const requested = searchParams.get('tab') as TabId | null;
  const current: TabId = requested && tabs.includes(requested) ? requested : 'options';

  const select = (tab: TabId) =>
    setSearchParams(tab === 'options' ? {} : { tab }, { replace: true });

  return (
    <Stack spacing={2}>
      <Typography variant="h5" component="h1">
        {t('menu.settings')}
      </Typography>
      <Box sx={{ borderBottom: 1, borderColor: 'divider' }}>
        <Tabs
          value={current}
          onChange={(_event, tab: TabId) => select(tab)}
          variant="scrollable"
          allowScrollButtonsMobile
          aria-label={t('menu.settings')}
        >
          {tabs.map((tab) => (
            <Tab key={tab} value={tab} label={t(`settings.tabs.${tab}`)} />
          ))}
        </Tabs>
      </Box>
      {settings.isPending && current === 'options' && <LoadingBox />}
      {settings.data && current === 'options' && (
        <Stack spacing={2}>
          <CompanyTimeZone companyId={user.companyId} />
          <SettingsOptionsTab
            settings={list}
            isSuper={user.super}
            hasAi={Boolean(user.company?.plan?.useOpenAi)}
          />
        </Stack>
      )}
      {current === 'audit' && <AuditTab />}
      {current === 'sso' && <SsoTab companyId={user.companyId} />}
      {current === 'api' && <ApiTokensTab />}
      {current === 'webhooks' && <WebhooksTab />}
      {current === 'exports' && <ConversationExportsTab />}
      {current === 'insight' && <InsightRulesTab />}
      {current === 'schedules' && <CompanySchedulesTab companyId={user.companyId} />}
      {current === 'companies' && <CompaniesTab />}
      {current === 'plans' && <PlansTab />}
      {current === 'helps' && <HelpsTab />}
    </Stack>
  );
};

export const SettingsPage = () => {
  const { t } = useTranslation();
  const { user } = useCurrentSession();
  if (!can(user, 'settings:update')) {
    return <MessagePage title={t('menu.settings')} text={t('settings.adminsOnly')} />;
  }
  return <SettingsTabs />;
};
