import { useState } from 'react';
import {
  Avatar,
  Badge,
  Box,
  IconButton,
  List,
  ListItemAvatar,
  ListItemButton,
  ListItemText,
  Popover,
  Tooltip,
  Typography,
} from '@mui/material';
import NotificationsIcon from '@mui/icons-material/NotificationsOutlined';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import {
  useAssignmentNotifications,
  useSlaNotifications,
  useMessageNotifications,
  useUnreadTickets,
} from '../../features/tickets/notifications';
import { stripWhatsappFormat } from '../../lib/whatsapp-format';

// The announcements feature owns its popover (live list, badge, viewer).
export { AnnouncementsPopover } from '../../features/announcements/announcements-popover';

// SPEC §2 App shell: the bell counts the tickets with unread messages waiting on this user and
// lists them; new messages, and conversations automatic assignment gives the user, also ring and
// show a browser notification.
export const NotificationsPopover = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const tickets = useUnreadTickets();
  useMessageNotifications();
  useAssignmentNotifications();
  useSlaNotifications();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const label = t('topBar.notifications');

  const open = (uuid: string) => {
    setAnchor(null);
    navigate(`/tickets/${uuid}`);
  };

  return (
    <>
      <Tooltip title={label}>
        <IconButton
          color="inherit"
          aria-label={label}
          data-testid="notifications-button"
          onClick={(event) => setAnchor(event.currentTarget)}
        >
          {/* No badge at 0: a red 0 would read as an alert. */}
          <Badge
            badgeContent={tickets.length}
            color="error"
            invisible={tickets.length === 0}
            data-testid="notifications-count"
          >
            <NotificationsIcon />
          </Badge>
        </IconButton>
      </Tooltip>
      <Popover
        open={Boolean(anchor)}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      >
        <Box sx={{ width: 340, maxHeight: 420, overflowY: 'auto' }}>
          <Typography variant="subtitle2" sx={{ px: 2, pt: 2, pb: 1 }}>
            {label}
          </Typography>
          {tickets.length === 0 ? (
            <Typography
              variant="body2"
              sx={{
                color: 'text.secondary',
                px: 2,
                pb: 2,
              }}
            >
              {t('topBar.noNotifications')}
            </Typography>
          ) : (
            <List dense disablePadding aria-label={label}>
              {tickets.map((ticket) => (
                <ListItemButton key={ticket.id} onClick={() => open(ticket.uuid)}>
                  <ListItemAvatar>
                    <Avatar
                      src={ticket.contact.urlPicture || ticket.contact.profilePicUrl || undefined}
                      alt=""
                    >
                      {(ticket.contact.name || '#').charAt(0).toUpperCase()}
                    </Avatar>
                  </ListItemAvatar>
                  <ListItemText
                    primary={ticket.contact.name || ticket.contact.number}
                    // What the contact wrote, not the bot's menu that answered it.
                    secondary={stripWhatsappFormat(ticket.lastContactMessage || ticket.lastMessage)}
                    slotProps={{ primary: { noWrap: true }, secondary: { noWrap: true } }}
                  />
                  <Box
                    component="span"
                    title={t('tickets.unread', { count: ticket.unreadMessages })}
                    sx={{
                      ml: 1,
                      minWidth: 20,
                      height: 20,
                      px: 0.75,
                      borderRadius: 10,
                      bgcolor: 'success.main',
                      color: 'success.contrastText',
                      fontSize: 12,
                      fontWeight: 600,
                      display: 'inline-flex',
                      alignItems: 'center',
                      justifyContent: 'center',
                      flexShrink: 0,
                    }}
                  >
                    {ticket.unreadMessages}
                  </Box>
                </ListItemButton>
              ))}
            </List>
          )}
        </Box>
      </Popover>
    </>
  );
};
