import { AppBar, Box, IconButton, Stack, Toolbar, Tooltip, Typography } from '@mui/material';
import DarkModeIcon from '@mui/icons-material/DarkModeOutlined';
import LightModeIcon from '@mui/icons-material/LightModeOutlined';
import MenuIcon from '@mui/icons-material/Menu';
import MenuOpenIcon from '@mui/icons-material/MenuOpen';
import RefreshIcon from '@mui/icons-material/Refresh';
import { useTranslation } from 'react-i18next';
import { reloadPage } from '../../lib/browser';
import { useThemeMode } from '../theme-mode';
import { AccountMenu } from './account-menu';
import { AnnouncementsPopover, NotificationsPopover } from './header-popovers';
import { SubscriptionBanner } from './subscription-banner';
import { VolumeControl } from './volume-control';

export const TopBar = ({
  isDrawerOpen,
  onToggleDrawer,
}: {
  isDrawerOpen: boolean;
  onToggleDrawer: () => void;
}) => {
  const { t } = useTranslation();
  const { mode, toggleMode } = useThemeMode();
  return (
    <AppBar position="fixed" color="primary" sx={{ zIndex: (theme) => theme.zIndex.drawer + 1 }}>
      <Toolbar sx={{ gap: 1 }}>
        <IconButton
          color="inherit"
          edge="start"
          aria-label={t('topBar.toggleDrawer')}
          aria-expanded={isDrawerOpen}
          data-testid="drawer-toggle"
          onClick={onToggleDrawer}
        >
          {isDrawerOpen ? <MenuOpenIcon /> : <MenuIcon />}
        </IconButton>
        <Typography
          variant="h6"
          component="p"
          noWrap
          sx={{ fontWeight: 700, display: { xs: 'none', sm: 'block' } }}
        >
          {t('app.name')}
        </Typography>
        <Box sx={{ flexGrow: 1 }} />
        <SubscriptionBanner />
        <Stack
          direction="row"
          sx={{
            alignItems: 'center',
          }}
        >
          <Tooltip title={t('topBar.toggleTheme')}>
            <IconButton
              color="inherit"
              aria-label={t('topBar.toggleTheme')}
              data-testid="theme-toggle"
              onClick={toggleMode}
            >
              {mode === 'dark' ? <LightModeIcon /> : <DarkModeIcon />}
            </IconButton>
          </Tooltip>
          <VolumeControl />
          <Tooltip title={t('topBar.refresh')}>
            <IconButton color="inherit" aria-label={t('topBar.refresh')} onClick={reloadPage}>
              <RefreshIcon />
            </IconButton>
          </Tooltip>
          <NotificationsPopover />
          <AnnouncementsPopover />
          <AccountMenu />
        </Stack>
      </Toolbar>
    </AppBar>
  );
};
