import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Box, Paper, Stack, Typography, useMediaQuery, useTheme } from '@mui/material';
import ForumOutlinedIcon from '@mui/icons-material/ForumOutlined';
import { useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { can, type TicketView } from '@atendi/shared';
import { useSocketRoom } from '../../api/socket';
import { useCurrentSession } from '../../api/session';
import { useNotificationPermissionRequest } from './notifications';
import { TicketChat } from './ticket-chat';
import { TicketListPane, type ListState } from './ticket-list-pane';
import { ticketsKeys, useTicketsLiveUpdates } from './tickets.api';
import { thumbSized } from '../../lib/thumb';
import { visuallyHidden } from '../../lib/visually-hidden';

// SPEC §7 Real-time: the lists of every status and the notifications; the helper rejoins on
// reconnect. Once joined, the lists load again: a ticket that changed before the rooms were joined
// (just after the page opened, or while the connection was down) is not missed.
const useTicketRooms = () => {
  const queryClient = useQueryClient();
  const reload = () => void queryClient.invalidateQueries({ queryKey: ticketsKeys.lists });
  useSocketRoom('joinTickets', 'open', reload);
  useSocketRoom('joinTickets', 'pending', reload);
  useSocketRoom('joinTickets', 'closed', reload);
  useSocketRoom('joinNotification');
};

// The main box's toolbar and padding (app-layout.tsx) leave this much of the window to the inbox.
// On a phone the inbox takes the whole width and height below the toolbar (no padding, no frame),
// as chat apps do: every pixel goes to the conversation.
const paneHeight = {
  xs: 'calc(100dvh - 56px)',
  sm: 'calc(100dvh - 96px)',
  md: 'calc(100dvh - 112px)',
};

const NoTicketSelected = () => {
  const { t } = useTranslation();
  return (
    <Stack
      spacing={1}
      sx={{
        alignItems: 'center',
        justifyContent: 'center',
        height: '100%',
        color: 'text.secondary',
        p: 3,
        textAlign: 'center',
      }}
    >
      <ForumOutlinedIcon sx={{ fontSize: 56, opacity: 0.5 }} aria-hidden />
      <Typography>{t('tickets.selectTicket')}</Typography>
    </Stack>
  );
};

export const TicketsPage = () => {
  const { t } = useTranslation();
  const theme = useTheme();
  // SPEC §2: two panes on wide screens; below 600 px the list or the chat.
  const isNarrow = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const navigate = useNavigate();
  const { ticketId: ticketRef } = useParams();
  const { user } = useCurrentSession();
  // Kept here so the list keeps its tab and search while a narrow screen shows the chat.
  const [listState, setListState] = useState<ListState>(() => ({
    tab: 'open',
    openList: 'open',
    isOpenListChosen: false,
    // SPEC §6: the show-all switch starts on for admins.
    showAll: can(user, 'tickets-manager:showall'),
    urgent: false,
    searchInput: '',
    searchTags: [],
    searchUsers: [],
  }));

  useTicketRooms();
  useTicketsLiveUpdates();
  useNotificationPermissionRequest();

  // SPEC §4: after accepting, the agent is taken to the ticket, now among those they serve.
  const showAccepted = (ticket: TicketView) => {
    setListState((state) => ({ ...state, tab: 'open', openList: 'open', isOpenListChosen: true }));
    navigate(`/tickets/${ticket.uuid}`);
  };

  const list = (
    <TicketListPane
      state={listState}
      onStateChange={setListState}
      selectedUuid={ticketRef ?? null}
      onAccepted={showAccepted}
    />
  );
  const chat = ticketRef ? (
    <TicketChat
      key={ticketRef}
      ticketRef={ticketRef}
      isNarrow={isNarrow}
      onAccepted={showAccepted}
    />
  ) : (
    <NoTicketSelected />
  );

  return (
    <>
      <Typography component="h1" sx={visuallyHidden}>
        {t('tickets.title')}
      </Typography>
      <Paper
        variant="outlined"
        // On a phone every control of the list, chat and composer is thumb-sized.
        sx={[
          {
            display: 'flex',
            height: paneHeight,
            minHeight: 420,
            overflow: 'hidden',
            m: { xs: -2, sm: 0 },
            border: { xs: 0, sm: 1 },
            borderColor: { sm: 'divider' },
            borderRadius: { xs: 0, sm: 1 },
          },
          thumbSized,
        ]}
      >
        {isNarrow ? (
          <Box sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
            {ticketRef ? chat : list}
          </Box>
        ) : (
          <>
            <Box
              sx={{
                width: { sm: 320, lg: 400 },
                flexShrink: 0,
                borderRight: 1,
                borderColor: 'divider',
                display: 'flex',
                flexDirection: 'column',
                minHeight: 0,
              }}
            >
              {list}
            </Box>
            <Box sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
              {chat}
            </Box>
          </>
        )}
      </Paper>
    </>
  );
};
