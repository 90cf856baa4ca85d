import { useEffect, useState } from 'react';
import { Box, CircularProgress, Stack, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { useTranslation } from 'react-i18next';
import type { ChatMessageView, TicketEvent, TicketView } from '@atendi/shared';
import { ApiError } from '../../api/http-client';
import { useCompanyEvent, useSocket, useSocketRoom } from '../../api/socket';
import { ERROR_TOAST_MS, errorText } from '../../api/toasts';
import { useElementWidth } from '../../lib/use-element-width';
import { ContactDrawer, DRAWER_WIDTH } from './contact-drawer';
import { ForwardBar } from './forward-bar';
import { MessageComposer } from './message-composer';
import { MessageList } from './message-list';
import { ScheduledMessages } from './scheduled-messages';
import { TicketChatHeader, type HeaderDensity } from './ticket-chat-header';
import { ticketsKeys, useTicket, useTicketViewer, type TicketViewer } from './tickets.api';

// Live messages of this ticket while it is open (SPEC §7 joinChatBox); once joined, the messages load
// again so one that arrived before the room was joined is not missed.
const ChatRoom = ({ ticketId }: { ticketId: number }) => {
  const socket = useSocket();
  const queryClient = useQueryClient();
  useSocketRoom('joinChatBox', ticketId, () => {
    void queryClient.invalidateQueries({ queryKey: ticketsKeys.messages(ticketId) });
  });
  useEffect(
    () => () => {
      socket?.emit('leaveChatBox', ticketId);
    },
    [socket, ticketId],
  );
  return null;
};

const canWrite = (ticket: TicketView, viewer: TicketViewer) =>
  ticket.status === 'open' && (ticket.userId === viewer.userId || viewer.seesAll);

// Why there is no composer: the ticket waits, is resolved, or is someone else's.
const ComposerNotice = ({ ticket }: { ticket: TicketView }) => {
  const { t } = useTranslation();
  const text =
    ticket.status === 'pending'
      ? t('tickets.composer.pendingNotice')
      : ticket.status === 'closed'
        ? t('tickets.composer.closedNotice')
        : t('tickets.composer.othersNotice', { name: ticket.user?.name ?? '' });
  return (
    <Typography
      variant="body2"
      sx={{
        color: 'text.secondary',
        p: 2,
        textAlign: 'center',
        borderTop: 1,
        borderColor: 'divider',
        flexShrink: 0,
      }}
    >
      {text}
    </Typography>
  );
};

// SPEC §8: a ticket outside one's queues answers 403 ('Acceso no permitido'); either way, back to the list.
const useLeaveOnLoadError = (error: Error | null, hasTicket: boolean) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  useEffect(() => {
    if (!error) return;
    const status = error instanceof ApiError ? error.status : 0;
    // 400 is an address that is no uuid at all.
    const isGone = status === 404 || status === 400;
    // A refresh that could not reach the server leaves the chat as it was.
    if (hasTicket && status !== 403 && !isGone) return;
    const text =
      status === 403 ? t('tickets.unauthorized') : isGone ? t('tickets.gone') : errorText(error);
    toast.error(text, { autoClose: ERROR_TOAST_MS });
    navigate('/tickets', { replace: true });
  }, [error, hasTicket, navigate, t]);
};

// The chat's own width (beside the list, and beside the contact drawer when it is open) decides
// how its header and composer fit, not the window's.
const CHAT_MIN_BESIDE_DRAWER = 560;
const HEADER_LABELS_FROM = 640;
const HEADER_ICONS_FROM = 460;
const COMPACT_COMPOSER = 520;

const headerDensity = (chatWidth: number | undefined, isNarrow: boolean): HeaderDensity => {
  if (chatWidth === undefined) return isNarrow ? 'menu' : 'labels';
  if (chatWidth >= HEADER_LABELS_FROM) return 'labels';
  return chatWidth >= HEADER_ICONS_FROM ? 'icons' : 'menu';
};

export const TicketChat = ({
  ticketRef,
  isNarrow,
  onAccepted,
}: {
  ticketRef: string;
  isNarrow: boolean;
  onAccepted: (ticket: TicketView) => void;
}) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const viewer = useTicketViewer();
  const { data: ticket, error } = useTicket(ticketRef);
  const [replyTo, setReplyTo] = useState<ChatMessageView | null>(null);
  const [isContactOpen, setIsContactOpen] = useState(false);
  // Issue 39: the messages checked to forward, in the chat's order (null while not choosing).
  const [forwarding, setForwarding] = useState<number[] | null>(null);
  const [ref, width] = useElementWidth<HTMLDivElement>();
  useLeaveOnLoadError(error, Boolean(ticket));

  // An old link by numeric id (SPEC §2) moves to the ticket's uuid address.
  useEffect(() => {
    if (ticket && ticket.uuid !== ticketRef) navigate(`/tickets/${ticket.uuid}`, { replace: true });
  }, [ticket, ticketRef, navigate]);

  // A 'delete' also reaches the lists a ticket merely left; asking again tells which it was.
  useCompanyEvent<TicketEvent>('ticket', (event) => {
    if (event?.action !== 'delete' || event.ticketId !== ticket?.id) return;
    if (queryClient.isMutating({ mutationKey: ticketsKeys.deleteMutation })) return;
    void queryClient.invalidateQueries({ queryKey: ticketsKeys.detail(ticketRef) });
  });

  if (!ticket) {
    return (
      <Box sx={{ flex: 1, display: 'grid', placeItems: 'center' }}>
        <CircularProgress aria-label={t('app.loading')} />
      </Box>
    );
  }

  const isWritable = canWrite(ticket, viewer);
  // The drawer sits beside the chat only where the chat keeps its room; elsewhere it lies over it.
  const isDrawerOver =
    isNarrow || (width !== undefined && width - DRAWER_WIDTH < CHAT_MIN_BESIDE_DRAWER);
  const chatWidth =
    width === undefined ? undefined : isContactOpen && !isDrawerOver ? width - DRAWER_WIDTH : width;
  return (
    <Stack ref={ref} direction="row" sx={{ flex: 1, minHeight: 0, minWidth: 0 }}>
      <Stack sx={{ flex: 1, minHeight: 0, minWidth: 0 }}>
        <ChatRoom ticketId={ticket.id} />
        <TicketChatHeader
          ticket={ticket}
          isNarrow={isNarrow}
          density={headerDensity(chatWidth, isNarrow)}
          isContactOpen={isContactOpen}
          onContactToggle={() => setIsContactOpen((isOpen) => !isOpen)}
          onAccepted={onAccepted}
        />
        <MessageList
          key={ticket.id}
          ticket={ticket}
          canReply={isWritable}
          onReply={setReplyTo}
          footer={<ScheduledMessages contactId={ticket.contactId} />}
          selection={forwarding}
          onSelectionChange={setForwarding}
        />
        {forwarding && (
          <ForwardBar
            messageIds={forwarding}
            onCancel={() => setForwarding(null)}
            onForwarded={(target, contact) => {
              setForwarding(null);
              toast.success(
                t('tickets.forward.done', {
                  count: forwarding.length,
                  name: contact.name || contact.number,
                }),
              );
              navigate(`/tickets/${target.uuid}`);
            }}
          />
        )}
        {/* Hidden, not gone, while messages are chosen to forward: what was being written stays. */}
        <Box sx={{ display: forwarding ? 'none' : 'contents' }}>
          {isWritable ? (
            <MessageComposer
              ticket={ticket}
              replyTo={replyTo}
              isCompact={chatWidth !== undefined ? chatWidth < COMPACT_COMPOSER : isNarrow}
              onReplyChange={setReplyTo}
            />
          ) : (
            <ComposerNotice ticket={ticket} />
          )}
        </Box>
      </Stack>
      <ContactDrawer
        ticket={ticket}
        open={isContactOpen}
        isOver={isDrawerOver}
        onClose={() => setIsContactOpen(false)}
      />
    </Stack>
  );
};
