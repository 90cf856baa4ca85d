import {
  memo,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
  type UIEvent,
} from 'react';
import { Box, Chip, CircularProgress, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { toast } from 'react-toastify';
import { useTranslation } from 'react-i18next';
import {
  MESSAGE_FORWARD_MAX,
  type AppMessageEvent,
  type ChatMessageView,
  type TicketView,
} from '@atendi/shared';
import { useCompanyEvent } from '../../api/socket';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { formatDate } from '../../lib/dates';
import { rowPosition, useFocusedRowKept } from '../../lib/virtual-rows';
import { MessageBubble, type MessageActions } from './message-bubble';
import {
  applyMessagesToCache,
  applyTicketEventToCache,
  fetchMessagesPage,
  useDeleteMessage,
  useReactToMessage,
  useRetryMessage,
  useTicketMessages,
  useTicketViewer,
} from './tickets.api';

// SPEC §9: older messages load within 50 px of the top, 500 ms after scrolling stops there.
const OLDER_THRESHOLD_PX = 50;
const OLDER_DEBOUNCE_MS = 500;
// Close enough to the bottom to keep following new messages.
const BOTTOM_SLACK_PX = 80;
// A message's height before it is measured: a bubble of one or two lines.
const MESSAGE_ESTIMATE_PX = 64;
// Messages rendered beyond each edge of the view, so that scrolling shows no blank before they come.
const OVERSCAN_MESSAGES = 6;
// Space above the first message (the scroll box's own padding is below the last).
const TOP_PADDING_PX = 8;

// At most one read receipt per this many ms while messages keep arriving in the open chat.
export const MARK_READ_THROTTLE_MS = 2000;

// The conversation on screen is being read: a message arriving in it is marked read at once (page 1
// of GET /messages reads the ticket, as opening it does), so its unread badge does not climb. A
// hidden tab reads nothing until it is shown again.
const useKeepChatRead = (ticketId: number, isEnabled: boolean) => {
  const queryClient = useQueryClient();
  const viewer = useTicketViewer();
  // The viewer object is new on every render; a pending timer must outlive those renders.
  const viewerRef = useRef(viewer);
  useEffect(() => {
    viewerRef.current = viewer;
  });
  const state = useRef({ lastAt: 0, hasUnread: false, timer: undefined as number | undefined });

  const markRead = useCallback(async () => {
    const current = state.current;
    current.hasUnread = false;
    current.lastAt = Date.now();
    try {
      const page = await fetchMessagesPage(ticketId, 1);
      applyMessagesToCache(queryClient, ticketId, page.messages);
      if (page.ticket)
        applyTicketEventToCache(
          queryClient,
          { action: 'update', ticket: page.ticket },
          viewerRef.current,
        );
    } catch {
      // The next message or opening the chat again reads it.
    }
  }, [queryClient, ticketId]);

  const schedule = useCallback(() => {
    const current = state.current;
    if (document.hidden || current.timer !== undefined) return;
    const wait = current.lastAt + MARK_READ_THROTTLE_MS - Date.now();
    if (wait <= 0) {
      void markRead();
      return;
    }
    current.timer = window.setTimeout(() => {
      current.timer = undefined;
      if (current.hasUnread) void markRead();
    }, wait);
  }, [markRead]);

  useCompanyEvent<AppMessageEvent>('appMessage', (event) => {
    if (!isEnabled || event?.action !== 'create' || !event.message) return;
    if (event.message.ticketId !== ticketId || event.message.fromMe) return;
    state.current.hasUnread = true;
    schedule();
  });

  useEffect(() => {
    const current = state.current;
    const onVisible = () => {
      if (!document.hidden && current.hasUnread) schedule();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      document.removeEventListener('visibilitychange', onVisible);
      window.clearTimeout(current.timer);
      current.timer = undefined;
    };
  }, [schedule]);
};

const DaySeparator = ({ date }: { date: string }) => (
  <Box role="separator" sx={{ display: 'flex', justifyContent: 'center', my: 1.5 }}>
    <Chip size="small" label={date} sx={{ bgcolor: 'background.paper', boxShadow: 1 }} />
  </Box>
);

// Over the top of the conversation while an older page loads: out of the flow, so that neither its
// coming nor its going moves the messages.
const OlderPageSpinner = () => {
  const { t } = useTranslation();
  return (
    <Box sx={{ position: 'sticky', top: 0, height: 0, zIndex: 1 }}>
      <Box sx={{ py: 1, textAlign: 'center' }}>
        <CircularProgress size={24} aria-label={t('app.loading')} />
      </Box>
    </Box>
  );
};

// One row of the virtualised conversation: a message, with the day's separator above it when it
// opens a day, measured whole. Positioned out of the flow, it keeps its children's margins inside.
// Memoised: scrolling re-renders the list, and only the rows coming into view need rendering then.
const MessageRow = memo(function MessageRow({
  message,
  previous,
  contactName,
  actions,
  index,
  start,
  measureRef,
}: {
  message: ChatMessageView;
  previous: ChatMessageView | undefined;
  contactName: string;
  actions: MessageActions;
  index: number;
  start: number;
  measureRef: (node: HTMLDivElement | null) => void;
}) {
  const day = formatDate(message.createdAt);
  const isNewDay = !previous || formatDate(previous.createdAt) !== day;
  return (
    <div ref={measureRef} data-index={index} style={rowPosition(start)}>
      {isNewDay && <DaySeparator date={day} />}
      <MessageBubble message={message} contactName={contactName} actions={actions} />
    </div>
  );
});

// The conversation, newest at the bottom; scrolling to the top brings older pages. A peek
// (keepsRead false) shows it without reading what arrives meanwhile. Virtualised: only the messages
// in view are rendered, so that a conversation of thousands scrolls as smoothly as a short one.
export const MessageList = ({
  ticket,
  canReply,
  onReply,
  keepsRead = true,
  footer,
  selection = null,
  onSelectionChange,
}: {
  ticket: TicketView;
  canReply: boolean;
  onReply: (message: ChatMessageView) => void;
  keepsRead?: boolean;
  // Shown after the newest message (the contact's scheduled messages).
  footer?: ReactNode;
  // Issue 39: the messages checked to forward, in the chat's order (null while not choosing). Without
  // onSelectionChange the chat offers no forwarding.
  selection?: readonly number[] | null;
  onSelectionChange?: (ids: number[]) => void;
}) => {
  const { t } = useTranslation();
  useKeepChatRead(ticket.id, keepsRead);
  const { messages, data, isLoading, hasNextPage, isFetchingNextPage, fetchNextPage } =
    useTicketMessages(ticket.id, keepsRead);
  const retry = useRetryMessage(ticket.id);
  const remove = useDeleteMessage(ticket.id);
  const react = useReactToMessage(ticket.id);
  const [toDelete, setToDelete] = useState<ChatMessageView | null>(null);
  const pageCount = data?.pages.length ?? 0;

  const boxRef = useRef<HTMLDivElement>(null);
  const footerRef = useRef<HTMLDivElement>(null);
  const paging = useRef({ hasNextPage, isFetchingNextPage, fetchNextPage });
  useEffect(() => {
    paging.current = { hasNextPage, isFetchingNextPage, fetchNextPage };
  });
  const { rangeExtractor, focusHandlers } = useFocusedRowKept();
  const virtualizer = useVirtualizer<HTMLDivElement, HTMLDivElement>({
    count: messages.length,
    getScrollElement: () => boxRef.current,
    estimateSize: () => MESSAGE_ESTIMATE_PX,
    getItemKey: (index) => messages[index].id,
    overscan: OVERSCAN_MESSAGES,
    paddingStart: TOP_PADDING_PX,
    // Older messages prepended keep the one being read where it is on screen, and a reader at the
    // bottom stays there while the last message grows (an image arriving).
    anchorTo: 'end',
    rangeExtractor,
  });
  const isAtBottom = useRef(true);
  const newestId = useRef<number | null>(null);
  const olderTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(olderTimer.current), []);

  const loadOlder = useCallback(() => {
    const current = paging.current;
    if (!current.hasNextPage || current.isFetchingNextPage) return;
    void current.fetchNextPage();
  }, []);

  const onScroll = (event: UIEvent<HTMLDivElement>) => {
    const box = event.currentTarget;
    isAtBottom.current = box.scrollHeight - box.scrollTop - box.clientHeight <= BOTTOM_SLACK_PX;
    clearTimeout(olderTimer.current);
    if (box.scrollTop <= OLDER_THRESHOLD_PX) {
      olderTimer.current = setTimeout(() => {
        if (boxRef.current && boxRef.current.scrollTop <= OLDER_THRESHOLD_PX) loadOlder();
      }, OLDER_DEBOUNCE_MS);
    }
  };

  // To the end of the box (the footer included), correcting as the rows on the way are measured.
  const scrollToBottom = useCallback(() => virtualizer.scrollToEnd(), [virtualizer]);

  useLayoutEffect(() => {
    const newest = messages[messages.length - 1];
    if (newest && newest.id !== newestId.current) {
      const isFirstLoad = newestId.current === null;
      newestId.current = newest.id;
      // On opening, for the reader already at the bottom, and for what was just sent.
      if (isFirstLoad || isAtBottom.current || newest.fromMe) scrollToBottom();
    }
  }, [messages, scrollToBottom]);

  // The composer growing (long text, a reply) shrinks the box: a reader at the bottom stays there.
  useEffect(() => {
    const box = boxRef.current;
    if (!box || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (isAtBottom.current) scrollToBottom();
    });
    observer.observe(box);
    // So does the footer growing (schedules arriving after the messages).
    if (footerRef.current) observer.observe(footerRef.current);
    return () => observer.disconnect();
  }, [scrollToBottom]);

  // A first page too short to scroll could never reach its top: ask for the older one at once.
  useEffect(() => {
    const box = boxRef.current;
    if (box && box.clientHeight > 0 && box.scrollHeight <= box.clientHeight) loadOlder();
  }, [pageCount, hasNextPage, loadOlder]);

  const { mutate: retryMessage } = retry;
  const { mutate: reactToMessage } = react;
  const retryingId = retry.isPending ? (retry.variables ?? null) : null;
  // The checked messages kept in the chat's order, whatever order they were checked in: the
  // conversation they go to reads them as they were written. Read through a ref, so that a message
  // arriving does not make every row render again.
  const order = useRef({ messages, selection });
  useEffect(() => {
    order.current = { messages, selection };
  });
  const selectionSet = useMemo(() => (selection ? new Set(selection) : null), [selection]);
  // One object while none of its parts changes, so that scrolling re-renders no row already in view.
  const actions = useMemo<MessageActions>(
    () => ({
      canReply,
      onReply,
      onDelete: setToDelete,
      onRetry: (message) => retryMessage(message.id),
      retryingId,
      onMediaLoad: () => {
        if (isAtBottom.current) scrollToBottom();
      },
      onReact: (message, emoji) => reactToMessage({ messageId: message.id, emoji }),
      onForward: onSelectionChange && ((message) => onSelectionChange([message.id])),
      selection: selectionSet,
      onToggleSelected: (message) => {
        const checked = new Set(order.current.selection ?? []);
        if (checked.has(message.id)) checked.delete(message.id);
        else if (checked.size < MESSAGE_FORWARD_MAX) checked.add(message.id);
        else return;
        onSelectionChange?.(
          order.current.messages.flatMap(({ id }) => (checked.has(id) ? [id] : [])),
        );
      },
    }),
    [
      canReply,
      onReply,
      retryMessage,
      retryingId,
      scrollToBottom,
      reactToMessage,
      onSelectionChange,
      selectionSet,
    ],
  );

  return (
    <Box
      ref={boxRef}
      onScroll={onScroll}
      data-testid="messages-scroll"
      sx={(theme) => ({
        flex: 1,
        minHeight: 0,
        overflowY: 'auto',
        px: { xs: 1, sm: 2 },
        pb: 1,
        bgcolor: theme.palette.mode === 'light' ? '#efeae2' : '#0b141a',
      })}
    >
      {isFetchingNextPage && <OlderPageSpinner />}
      {isLoading && (
        <Box sx={{ py: 1, textAlign: 'center' }}>
          <CircularProgress size={24} aria-label={t('app.loading')} />
        </Box>
      )}
      {!isLoading && messages.length === 0 && (
        <Typography
          sx={{
            color: 'text.secondary',
            p: 3,
            textAlign: 'center',
          }}
        >
          {t('tickets.noMessages')}
        </Typography>
      )}
      {/* A style, not sx: the height changes as rows are measured, and each sx value is a CSS rule. */}
      <Box style={{ position: 'relative', height: virtualizer.getTotalSize() }} {...focusHandlers}>
        {virtualizer.getVirtualItems().map((row) => (
          <MessageRow
            key={row.key}
            message={messages[row.index]}
            previous={messages[row.index - 1]}
            contactName={ticket.contact.name}
            actions={actions}
            index={row.index}
            start={row.start}
            measureRef={virtualizer.measureElement}
          />
        ))}
      </Box>
      {footer && <Box ref={footerRef}>{footer}</Box>}
      <ConfirmDialog
        open={toDelete !== null}
        title={t('tickets.message.deleteTitle')}
        message={t('tickets.message.deleteText')}
        confirmLabel={t('tickets.message.delete')}
        isDestructive
        isBusy={remove.isPending}
        onConfirm={() =>
          toDelete &&
          remove.mutate(toDelete.id, {
            onSuccess: () => toast.success(t('tickets.message.deletedToast')),
            onSettled: () => setToDelete(null),
          })
        }
        onClose={() => setToDelete(null)}
      />
    </Box>
  );
};
