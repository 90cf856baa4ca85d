import { useEffect, useState } from 'react';
import { Box, Toolbar, useMediaQuery, useTheme } from '@mui/material';
import { Outlet } from 'react-router';
import { connectSocket, disconnectSocket } from '../../api/socket';
import { clearAfterLogin, useCurrentSession } from '../../api/session';
import { DisconnectedBanner } from '../../features/connections/disconnected-banner';
import { hasCampaignFlag, storageKeys, writeStorage } from '../../lib/storage';
import { AppDrawer } from './app-drawer';
import { buildMenu } from './menu-items';
import { TopBar } from './top-bar';
import { useIdlePresence } from './use-idle-presence';
import { useLiveCompanyStatus } from './use-live-company-status';
import { settingValue, useCompanySettings } from './use-shell-data';

const useSocketConnection = (userId: number, companyId: number) => {
  useEffect(() => {
    connectSocket({ userId, companyId });
    return () => disconnectSocket();
  }, [userId, companyId]);
};

export const AppLayout = () => {
  const { user } = useCurrentSession();
  const theme = useTheme();
  // SPEC §9: open by default above 1200 px, temporary below 600 px.
  const isWide = useMediaQuery(theme.breakpoints.up('lg'), { noSsr: true });
  const isNarrow = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const settings = useCompanySettings();
  const startsClosed = settingValue(settings, 'initialSideMenu') === 'closed';
  const [userChoice, setUserChoice] = useState<boolean | null>(null);
  const isDrawerOpen = userChoice ?? (isWide && !startsClosed);

  const sections = buildMenu({ user, settings, hasCampaignFlag: hasCampaignFlag() });
  const showsCampaigns = sections.some((section) =>
    section.entries.some((entry) => entry.id === 'campaigns'),
  );

  useSocketConnection(user.id, user.companyId);
  useLiveCompanyStatus();
  useIdlePresence();
  useEffect(clearAfterLogin, []);

  useEffect(() => {
    // The campaign routes exist only with the local flag (SPEC §2); keep it in step with the menu.
    if (showsCampaigns && !hasCampaignFlag()) writeStorage(storageKeys.campaignFlag, 'true');
  }, [showsCampaigns]);

  return (
    <Box sx={{ display: 'flex', minHeight: '100vh' }}>
      <TopBar isDrawerOpen={isDrawerOpen} onToggleDrawer={() => setUserChoice(!isDrawerOpen)} />
      <AppDrawer
        sections={sections}
        open={isDrawerOpen}
        isTemporary={isNarrow}
        onClose={() => setUserChoice(false)}
      />
      <Box component="main" sx={{ flexGrow: 1, minWidth: 0, p: { xs: 2, md: 3 } }}>
        <Toolbar />
        <DisconnectedBanner />
        <Outlet />
      </Box>
    </Box>
  );
};
