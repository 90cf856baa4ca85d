import { useState } from 'react';
import {
  Box,
  Divider,
  FormControlLabel,
  IconButton,
  ListItemIcon,
  Menu,
  MenuItem,
  Radio,
  RadioGroup,
  Tooltip,
  Typography,
} from '@mui/material';
import AccountCircleIcon from '@mui/icons-material/AccountCircle';
import LogoutIcon from '@mui/icons-material/Logout';
import PersonIcon from '@mui/icons-material/PersonOutlined';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useCurrentSession } from '../../api/session';
import { logout } from '../../features/auth/auth.api';
import { changeLanguage, languages, type Language } from '../../i18n/i18n';
import { lazyDialog } from '../../lib/lazy-component';

const ProfileDialog = lazyDialog(() =>
  import('./profile-dialog').then((module) => module.ProfileDialog),
);

export const AccountMenu = () => {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { user } = useCurrentSession();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [isProfileOpen, setProfileOpen] = useState(false);
  // The language just chosen, shown as chosen while its texts are fetched (i18n.changeLanguage).
  const [choosing, setChoosing] = useState<Language | null>(null);

  const closeMenu = () => setAnchor(null);

  const onLogout = async () => {
    closeMenu();
    await logout();
    navigate('/login', { replace: true });
  };

  return (
    <>
      <Tooltip title={t('topBar.account')}>
        <IconButton
          color="inherit"
          aria-label={t('topBar.account')}
          data-testid="account-menu"
          onClick={(event) => setAnchor(event.currentTarget)}
        >
          <AccountCircleIcon />
        </IconButton>
      </Tooltip>
      <Menu
        open={Boolean(anchor)}
        anchorEl={anchor}
        onClose={closeMenu}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { sx: { minWidth: 240 } } }}
      >
        <Box sx={{ px: 2, py: 1 }}>
          <Typography variant="subtitle2" noWrap>
            {user.name}
          </Typography>
          <Typography
            variant="caption"
            noWrap
            component="p"
            sx={{
              color: 'text.secondary',
            }}
          >
            {user.email}
          </Typography>
        </Box>
        <Divider />
        <MenuItem
          data-testid="profile"
          onClick={() => {
            closeMenu();
            setProfileOpen(true);
          }}
        >
          <ListItemIcon>
            <PersonIcon fontSize="small" />
          </ListItemIcon>
          {t('account.profile')}
        </MenuItem>
        <Divider />
        {/* Arrow keys belong to the radio group here, not to the menu's item navigation. */}
        <Box sx={{ px: 2, py: 0.5 }} onKeyDown={(event) => event.stopPropagation()}>
          <Typography
            variant="caption"
            id="language-label"
            sx={{
              color: 'text.secondary',
            }}
          >
            {t('account.language')}
          </Typography>
          <RadioGroup
            aria-labelledby="language-label"
            value={choosing ?? i18n.resolvedLanguage}
            onChange={(_event, value) => {
              setChoosing(value as Language);
              void changeLanguage(value as Language).finally(() => setChoosing(null));
            }}
          >
            {languages.map((language) => (
              <FormControlLabel
                key={language}
                value={language}
                label={t(`languages.${language}`)}
                control={
                  <Radio
                    size="small"
                    slotProps={{ input: { 'data-testid': `lang-${language}` } as object }}
                  />
                }
              />
            ))}
          </RadioGroup>
        </Box>
        <Divider />
        <MenuItem data-testid="logout" onClick={() => void onLogout()}>
          <ListItemIcon>
            <LogoutIcon fontSize="small" />
          </ListItemIcon>
          {t('account.logout')}
        </MenuItem>
      </Menu>
      <ProfileDialog open={isProfileOpen} onClose={() => setProfileOpen(false)} />
    </>
  );
};
