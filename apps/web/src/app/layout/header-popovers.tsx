import { useState, type ReactNode } from 'react';
import { Badge, Box, IconButton, Popover, Tooltip, Typography } from '@mui/material';
import NotificationsIcon from '@mui/icons-material/NotificationsOutlined';
import { useTranslation } from 'react-i18next';

// The announcements feature owns its popover (live list, badge, viewer).
export { AnnouncementsPopover } from '../../features/announcements/announcements-popover';

const HeaderPopover = ({
  label,
  icon,
  emptyText,
  testId,
}: {
  label: string;
  icon: ReactNode;
  emptyText: string;
  testId: string;
}) => {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <Tooltip title={label}>
        <IconButton
          color="inherit"
          aria-label={label}
          data-testid={testId}
          onClick={(event) => setAnchor(event.currentTarget)}
        >
          {icon}
        </IconButton>
      </Tooltip>
      <Popover
        open={Boolean(anchor)}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      >
        <Box sx={{ width: 320, p: 2 }}>
          <Typography variant="subtitle2" gutterBottom>
            {label}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {emptyText}
          </Typography>
        </Box>
      </Popover>
    </>
  );
};

// Placeholder until the tickets issue feeds it live data.
export const NotificationsPopover = () => {
  const { t } = useTranslation();
  return (
    <HeaderPopover
      label={t('topBar.notifications')}
      emptyText={t('topBar.noNotifications')}
      testId="notifications-button"
      icon={
        // The unread-ticket count arrives with the inbox; a red 0 would read as an alert.
        <Badge badgeContent={0} color="error">
          <NotificationsIcon />
        </Badge>
      }
    />
  );
};
