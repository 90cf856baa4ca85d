import { useId, useState } from 'react';
import {
  Badge,
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
import DevicesIcon from '@mui/icons-material/Devices';
import SecurityIcon from '@mui/icons-material/Security';
import PersonIcon from '@mui/icons-material/PersonOutlined';
import NotificationsActiveIcon from '@mui/icons-material/NotificationsActiveOutlined';
import { useMutation } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { presences, type Presence, type PresenceView } from '@atendi/shared';
import { setAvailability, usePresenceEvents } from '../../api/presence';
import { updateSessionUser, useCurrentSession } from '../../api/session';
import { PresenceDot, PresenceText } from '../../components/presence-dot';
import { logout } from '../../features/auth/auth.api';
import { languages, type Language } from '@atendi/shared';
import { changeLanguage } from '../../i18n/i18n';
import { followLanguageInPushes } from '../../api/push';
import { lazyDialog } from '../../lib/lazy-component';
import { visuallyHidden } from '../../lib/visually-hidden';

const ProfileDialog = lazyDialog(() =>
  import('./profile-dialog').then((module) => module.ProfileDialog),
);
const SessionsDialog = lazyDialog(() =>
  import('./sessions-dialog').then((module) => module.SessionsDialog),
);
const PushDialog = lazyDialog(() => import('./push-dialog').then((module) => module.PushDialog));
const TwoFactorDialog = lazyDialog(() =>
  import('./two-factor-dialog').then((module) => module.TwoFactorDialog),
);

const applyOwnPresence = ({ presence, availability }: PresenceView) =>
  updateSessionUser({ presence, availability, online: presence !== 'offline' });

// The signed-in user's presence and their own choice of it: the session's, kept current by their
// company-{id}-presence events (another tab's choice, inactivity, the last socket closing) and by
// the answer of PUT /presence.
const useOwnPresence = () => {
  const { user } = useCurrentSession();
  usePresenceEvents((change) => {
    if (change.userId === user.id) applyOwnPresence(change);
  });
  const choose = useMutation({
    mutationFn: (availability: Presence) => setAvailability(availability),
    onSuccess: applyOwnPresence,
  });
  return { presence: user.presence, availability: user.availability, choose: choose.mutate };
};

export const AccountMenu = () => {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { user } = useCurrentSession();
  const { presence, availability, choose } = useOwnPresence();
  const presenceId = useId();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [isProfileOpen, setProfileOpen] = useState(false);
  const [isTwoFactorOpen, setTwoFactorOpen] = useState(false);
  const [isSessionsOpen, setSessionsOpen] = useState(false);
  const [isPushOpen, setPushOpen] = useState(false);
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
          // The dot is for the eyes; screen readers hear the presence as the button's description.
          aria-describedby={presenceId}
          data-testid="account-menu"
          onClick={(event) => setAnchor(event.currentTarget)}
        >
          {/* The user's presence on their account icon: online green, away amber, offline grey. */}
          <Badge
            overlap="circular"
            anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
            badgeContent={
              <PresenceDot
                presence={presence}
                sx={{ boxShadow: (theme) => `0 0 0 2px ${theme.palette.background.paper}` }}
              />
            }
            sx={{ '& .MuiBadge-badge': { p: 0, minWidth: 0, height: 'auto' } }}
          >
            <AccountCircleIcon />
          </Badge>
          <Box component="span" id={presenceId} sx={visuallyHidden}>
            {t(`presence.${presence}`)}
          </Box>
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
          <Typography variant="caption" component="div" sx={{ mt: 0.5 }} data-testid="own-presence">
            <PresenceText presence={presence} />
          </Typography>
        </Box>
        <Divider />
        <Typography
          variant="caption"
          component="p"
          sx={{ px: 2, pt: 0.5, color: 'text.secondary' }}
        >
          {t('account.availability')}
        </Typography>
        {/* The user's own choice; the presence above is what the platform makes of it. */}
        {presences.map((choice) => (
          <MenuItem
            key={choice}
            role="menuitemradio"
            aria-checked={availability === choice}
            selected={availability === choice}
            data-testid={`availability-${choice}`}
            onClick={() => {
              closeMenu();
              choose(choice);
            }}
          >
            <ListItemIcon>
              <PresenceDot presence={choice} />
            </ListItemIcon>
            {t(`account.availabilityChoices.${choice}`)}
          </MenuItem>
        ))}
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
        <MenuItem
          data-testid="push-notifications"
          onClick={() => {
            closeMenu();
            setPushOpen(true);
          }}
        >
          <ListItemIcon>
            <NotificationsActiveIcon fontSize="small" />
          </ListItemIcon>
          {t('push.title')}
        </MenuItem>
        <MenuItem
          data-testid="two-factor"
          onClick={() => {
            closeMenu();
            setTwoFactorOpen(true);
          }}
        >
          <ListItemIcon>
            <SecurityIcon fontSize="small" />
          </ListItemIcon>
          {t('twoFactor.title')}
        </MenuItem>
        <MenuItem
          data-testid="sessions"
          onClick={() => {
            closeMenu();
            setSessionsOpen(true);
          }}
        >
          <ListItemIcon>
            <DevicesIcon fontSize="small" />
          </ListItemIcon>
          {t('sessions.title')}
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
              void changeLanguage(value as Language)
                .then(followLanguageInPushes)
                .finally(() => setChoosing(null));
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
      <TwoFactorDialog open={isTwoFactorOpen} onClose={() => setTwoFactorOpen(false)} />
      <SessionsDialog open={isSessionsOpen} onClose={() => setSessionsOpen(false)} />
      <PushDialog open={isPushOpen} onClose={() => setPushOpen(false)} />
    </>
  );
};
