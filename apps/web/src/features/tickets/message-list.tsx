import {
  Fragment,
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type UIEvent,
} from 'react';
import { Box, Chip, CircularProgress, Typography } from '@mui/material';
import { toast } from 'react-toastify';
import { useTranslation } from 'react-i18next';
import type { ChatMessageView, TicketView } from '@atendi/shared';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { formatDate } from '../../lib/dates';
import { MessageBubble, type MessageActions } from './message-bubble';
import { useDeleteMessage, useRetryMessage, useTicketMessages } from './tickets.api';

// SPEC §9: older messages load within 50 px of the top, 500 ms after scrolling stops there.
const OLDER_THRESHOLD_PX = 50;
const OLDER_DEBOUNCE_MS = 500;
// Close enough to the bottom to keep following new messages.
const BOTTOM_SLACK_PX = 80;

const DaySeparator = ({ date }: { date: string }) => (
  <Box role="separator" sx={{ display: 'flex', justifyContent: 'center', my: 1.5 }}>
    <Chip size="small" label={date} sx={{ bgcolor: 'background.paper', boxShadow: 1 }} />
  </Box>
);

// The conversation, newest at the bottom; scrolling to the top brings older pages.
export const MessageList = ({
  ticket,
  canReply,
  onReply,
}: {
  ticket: TicketView;
  canReply: boolean;
  onReply: (message: ChatMessageView) => void;
}) => {
  const { t } = useTranslation();
  const { messages, data, isLoading, hasNextPage, isFetchingNextPage, fetchNextPage } =
    useTicketMessages(ticket.id);
  const retry = useRetryMessage(ticket.id);
  const remove = useDeleteMessage(ticket.id);
  const [toDelete, setToDelete] = useState<ChatMessageView | null>(null);
  const pageCount = data?.pages.length ?? 0;

  const boxRef = useRef<HTMLDivElement>(null);
  const paging = useRef({ hasNextPage, isFetchingNextPage, fetchNextPage, pageCount });
  useEffect(() => {
    paging.current = { hasNextPage, isFetchingNextPage, fetchNextPage, pageCount };
  });
  // Where the reader was when older messages were asked for, to keep them there once they arrive.
  const anchor = useRef<{ pageCount: number; height: number; top: number } | null>(null);
  const isAtBottom = useRef(true);
  const newestId = useRef<number | null>(null);
  const olderTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(olderTimer.current), []);

  const loadOlder = useCallback(() => {
    const box = boxRef.current;
    const current = paging.current;
    if (!box || !current.hasNextPage || current.isFetchingNextPage) return;
    anchor.current = { pageCount: current.pageCount, height: box.scrollHeight, top: box.scrollTop };
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

  const scrollToBottom = useCallback(() => {
    const box = boxRef.current;
    if (box) box.scrollTop = box.scrollHeight;
  }, []);

  useLayoutEffect(() => {
    const box = boxRef.current;
    if (!box) return;
    const saved = anchor.current;
    if (saved && pageCount > saved.pageCount) {
      box.scrollTop = box.scrollHeight - saved.height + saved.top;
      anchor.current = null;
    }
    const newest = messages[messages.length - 1];
    if (newest && newest.id !== newestId.current) {
      const isFirstLoad = newestId.current === null;
      newestId.current = newest.id;
      // On opening, for the reader already at the bottom, and for what was just sent.
      if (isFirstLoad || isAtBottom.current || newest.fromMe) scrollToBottom();
    }
  }, [messages, pageCount, scrollToBottom]);

  // The composer growing (long text, a reply) shrinks the box: a reader at the bottom stays there.
  useEffect(() => {
    const box = boxRef.current;
    if (!box || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (isAtBottom.current) scrollToBottom();
    });
    observer.observe(box);
    return () => observer.disconnect();
  }, [scrollToBottom]);

  // A first page too short to scroll could never reach its top: ask for the older one at once.
  useEffect(() => {
    const box = boxRef.current;
    if (box && box.clientHeight > 0 && box.scrollHeight <= box.clientHeight) loadOlder();
  }, [pageCount, hasNextPage, loadOlder]);

  const actions: MessageActions = {
    canReply,
    onReply,
    onDelete: setToDelete,
    onRetry: (message) => retry.mutate(message.id),
    retryingId: retry.isPending ? (retry.variables ?? null) : null,
    onMediaLoad: () => {
      if (isAtBottom.current) scrollToBottom();
    },
  };

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
        py: 1,
        bgcolor: theme.palette.mode === 'light' ? '#efeae2' : '#0b141a',
      })}
    >
      {(isLoading || isFetchingNextPage) && (
        <Box sx={{ py: 1, textAlign: 'center' }}>
          <CircularProgress size={24} aria-label={t('app.loading')} />
        </Box>
      )}
      {!isLoading && messages.length === 0 && (
        <Typography color="text.secondary" sx={{ p: 3, textAlign: 'center' }}>
          {t('tickets.noMessages')}
        </Typography>
      )}
      {messages.map((message, index) => {
        const day = formatDate(message.createdAt);
        const isNewDay = index === 0 || formatDate(messages[index - 1].createdAt) !== day;
        return (
          <Fragment key={message.id}>
            {isNewDay && <DaySeparator date={day} />}
            <MessageBubble message={message} contactName={ticket.contact.name} actions={actions} />
          </Fragment>
        );
      })}
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
