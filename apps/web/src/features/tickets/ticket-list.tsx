import { memo, useMemo, type ReactNode } from 'react';
import {
  Alert,
  Avatar,
  Box,
  Button,
  Checkbox,
  Chip,
  CircularProgress,
  IconButton,
  List,
  ListItem,
  ListItemAvatar,
  ListItemButton,
  Stack,
  Tooltip,
  Typography,
  useTheme,
} from '@mui/material';
import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutlined';
import SmartToyOutlinedIcon from '@mui/icons-material/SmartToyOutlined';
import VisibilityOutlinedIcon from '@mui/icons-material/VisibilityOutlined';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { TicketView } from '@atendi/shared';
import { cssColor } from '../../lib/colors';
import { stripWhatsappFormat } from '../../lib/whatsapp-format';
import { useInfiniteScroll } from '../../lib/use-infinite-scroll';
import { rowPosition, useFocusedRowKept } from '../../lib/virtual-rows';
import { formatListTime, initialOf } from './ticket-format';
import { SlaChip } from './sla-chip';
import type { useTicketList } from './tickets.api';

type TicketListQuery = ReturnType<typeof useTicketList>;

// A row's height before it is measured: three lines (name, last message, queue chips) and a divider.
const ROW_ESTIMATE_PX = 89;
// Rows rendered beyond each edge of the view, so that scrolling shows no blank before they come.
const OVERSCAN_ROWS = 6;

const UnreadCount = ({ count }: { count: number }) => {
  const { t } = useTranslation();
  return (
    <Box
      component="span"
      title={t('tickets.unread', { count })}
      sx={{
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
      {count}
    </Box>
  );
};

const QueueChip = ({ queue }: { queue: TicketView['queue'] }) => {
  const { t } = useTranslation();
  const theme = useTheme();
  if (!queue) return <Chip size="small" variant="outlined" label={t('tickets.noQueue')} />;
  const color = cssColor(queue.color);
  return (
    <Chip
      size="small"
      label={queue.name}
      sx={{ bgcolor: color, color: theme.palette.getContrastText(color), maxWidth: 140 }}
    />
  );
};

// A waiting conversation a bot is answering (an integration's flow or an AI agent): people see it
// arrive, and see it become theirs when the bot hands it over.
const servedByBot = (ticket: TicketView) =>
  ticket.status === 'pending' &&
  !ticket.userId &&
  ((ticket.useIntegration && ticket.integrationId !== null) || ticket.promptId !== null);

const BotChip = () => {
  const { t } = useTranslation();
  return (
    <Tooltip title={t('tickets.botServingHint')}>
      <Chip
        size="small"
        variant="outlined"
        icon={<SmartToyOutlinedIcon />}
        label={t('tickets.botServing')}
        aria-label={t('tickets.botServingHint')}
      />
    </Tooltip>
  );
};

const TicketSummary = ({ ticket, myUserId }: { ticket: TicketView; myUserId: number }) => {
  const hasUnread = ticket.unreadMessages > 0;
  return (
    <Box sx={{ minWidth: 0, flex: 1 }}>
      <Stack
        direction="row"
        spacing={1}
        sx={{
          alignItems: 'baseline',
        }}
      >
        <Typography noWrap sx={{ flex: 1, fontWeight: 500 }}>
          {ticket.contact.name || ticket.contact.number}
        </Typography>
        <Typography
          variant="caption"
          color={hasUnread ? 'success.main' : 'text.secondary'}
          sx={{ flexShrink: 0 }}
        >
          {formatListTime(ticket.updatedAt)}
        </Typography>
      </Stack>
      <Stack
        direction="row"
        spacing={1}
        sx={{
          alignItems: 'center',
        }}
      >
        <Typography
          variant="body2"
          noWrap
          sx={{
            color: 'text.secondary',
            flex: 1,
          }}
        >
          {stripWhatsappFormat(ticket.lastMessage)}
        </Typography>
        {hasUnread && <UnreadCount count={ticket.unreadMessages} />}
      </Stack>
      <Stack
        direction="row"
        spacing={0.75}
        sx={{
          alignItems: 'center',
          mt: 0.5,
          minWidth: 0,
        }}
      >
        <QueueChip queue={ticket.queue} />
        <SlaChip ticket={ticket} />
        {servedByBot(ticket) && <BotChip />}
        <Typography
          variant="caption"
          noWrap
          sx={{
            color: 'text.secondary',
          }}
        >
          {ticket.whatsapp?.name}
          {ticket.user && ticket.userId !== myUserId ? ` · ${ticket.user.name}` : ''}
        </Typography>
      </Stack>
    </Box>
  );
};

const TicketAvatar = ({ ticket }: { ticket: TicketView }) => (
  <ListItemAvatar sx={{ alignSelf: 'flex-start', mt: 0.5 }}>
    <Avatar src={ticket.contact.urlPicture || ticket.contact.profilePicUrl || undefined} alt="">
      {initialOf(ticket.contact.name)}
    </Avatar>
  </ListItemAvatar>
);

// Actions a list may offer on its rows besides opening them.
type TicketRowActions = {
  onAccept?: (ticket: TicketView) => void;
  acceptingId?: number | null;
  // SPEC §6: admins peek into waiting tickets.
  onPeek?: (ticket: TicketView) => void;
  // SPEC §4: the list's own close (resolve) of an open ticket.
  onResolve?: (ticket: TicketView) => void;
  resolvingId?: number | null;
  // Selection mode (issue 36, bulk actions): each row has a checkbox, and a click on the row checks
  // or unchecks it instead of opening or accepting the ticket. Disabled while an action runs.
  onCheck?: (ticket: TicketView) => void;
  isCheckDisabled?: boolean;
};

const RowIconButton = ({
  label,
  disabled = false,
  onClick,
  children,
}: {
  label: string;
  disabled?: boolean;
  onClick: () => void;
  children: ReactNode;
}) => (
  <Tooltip title={label}>
    {/* The span keeps the tooltip working while the button is disabled. */}
    <span>
      <IconButton size="small" aria-label={label} disabled={disabled} onClick={onClick}>
        {children}
      </IconButton>
    </span>
  </Tooltip>
);

// Where a row of the virtualised list is: its index, its offset, how many rows the whole list has
// (-1 while unknown), and the virtualizer's ref, which measures it.
type RowPlace = {
  index: number;
  start: number;
  setSize: number;
  measureRef: (node: HTMLLIElement | null) => void;
};

// Places the row, and tells assistive technology where it is in the whole list: only the rows in
// view are in the page.
const rowPropsOf = ({ index, start, setSize, measureRef }: RowPlace) => ({
  ref: measureRef,
  'data-index': index,
  style: rowPosition(start),
  'aria-posinset': index + 1,
  'aria-setsize': setSize,
});

// SPEC §4: a pending ticket is not opened by a click; it is accepted first. Memoised: scrolling
// re-renders the list, and only the rows coming into view need rendering then (checking a row
// re-renders that row alone).
const TicketListItem = memo(function TicketListItem({
  ticket,
  myUserId,
  isSelected,
  isChecked,
  actions,
  ...place
}: {
  ticket: TicketView;
  myUserId: number;
  isSelected: boolean;
  isChecked: boolean;
  actions: TicketRowActions;
} & RowPlace) {
  const { t } = useTranslation();
  const rowProps = rowPropsOf(place);
  const navigate = useNavigate();
  const { onAccept, onPeek, onResolve, onCheck } = actions;
  const isAccepting = actions.acceptingId === ticket.id;
  if (onCheck) {
    return (
      <ListItem {...rowProps} disablePadding divider>
        <ListItemButton
          selected={isChecked}
          disabled={actions.isCheckDisabled}
          onClick={() => onCheck(ticket)}
          sx={{ borderRadius: 0, gap: 1, pl: 1 }}
        >
          {/* The row's click checks it: the box only shows it (and names it), out of the tab order. */}
          <Checkbox
            checked={isChecked}
            tabIndex={-1}
            disableRipple
            sx={{ p: 0.5, alignSelf: 'center' }}
            slotProps={{
              input: {
                'aria-label': t('tickets.bulk.check', {
                  name: ticket.contact.name || ticket.contact.number,
                }),
              },
            }}
          />
          <TicketAvatar ticket={ticket} />
          <TicketSummary ticket={ticket} myUserId={myUserId} />
        </ListItemButton>
      </ListItem>
    );
  }
  if (ticket.status === 'pending' && onAccept) {
    return (
      <ListItem {...rowProps} divider sx={{ gap: 1, alignItems: 'center' }}>
        <TicketAvatar ticket={ticket} />
        <TicketSummary ticket={ticket} myUserId={myUserId} />
        {onPeek && (
          <RowIconButton label={t('tickets.actions.peek')} onClick={() => onPeek(ticket)}>
            <VisibilityOutlinedIcon fontSize="small" />
          </RowIconButton>
        )}
        <Button
          size="small"
          variant="contained"
          disabled={isAccepting}
          onClick={() => onAccept(ticket)}
          sx={{ flexShrink: 0 }}
        >
          {t('tickets.actions.accept')}
        </Button>
      </ListItem>
    );
  }
  const canResolve = ticket.status === 'open' && onResolve;
  return (
    <ListItem
      {...rowProps}
      disablePadding
      divider
      secondaryAction={
        canResolve ? (
          <RowIconButton
            label={t('tickets.actions.close')}
            disabled={actions.resolvingId === ticket.id}
            onClick={() => onResolve(ticket)}
          >
            <CheckCircleOutlineIcon fontSize="small" />
          </RowIconButton>
        ) : undefined
      }
    >
      <ListItemButton
        selected={isSelected}
        onClick={() => navigate(`/tickets/${ticket.uuid}`)}
        sx={{ borderRadius: 0, gap: 1 }}
      >
        <TicketAvatar ticket={ticket} />
        <TicketSummary ticket={ticket} myUserId={myUserId} />
      </ListItemButton>
    </ListItem>
  );
});

// One list of the inbox, loading its next page near the end (SPEC §9). Virtualised: only the rows in
// view are rendered, so that thousands of tickets scroll as smoothly as forty.
export const TicketList = ({
  label,
  list,
  emptyText,
  myUserId,
  selectedUuid,
  onAccept,
  acceptingId,
  onPeek,
  onResolve,
  resolvingId,
  onCheck,
  isCheckDisabled,
  checked,
}: {
  label: string;
  list: TicketListQuery;
  emptyText: string;
  myUserId: number;
  selectedUuid: string | null;
  // Selection mode: the rows checked ('all': every row, as "all matching" is chosen).
  checked?: ReadonlySet<number> | 'all';
} & TicketRowActions) => {
  const { t } = useTranslation();
  const { tickets, isLoading, isError, hasNextPage, isFetchingNextPage, fetchNextPage, refetch } =
    list;
  const scroll = useInfiniteScroll({
    hasNextPage,
    isFetchingNextPage,
    fetchNextPage,
    loadedCount: tickets.length,
  });
  // One object while none of them changes, so that scrolling re-renders no row already in view.
  const actions = useMemo(
    () => ({ onAccept, acceptingId, onPeek, onResolve, resolvingId, onCheck, isCheckDisabled }),
    [onAccept, acceptingId, onPeek, onResolve, resolvingId, onCheck, isCheckDisabled],
  );
  const { rangeExtractor, focusHandlers } = useFocusedRowKept();
  const virtualizer = useVirtualizer<HTMLElement, HTMLLIElement>({
    count: tickets.length,
    getScrollElement: () => scroll.element,
    estimateSize: () => ROW_ESTIMATE_PX,
    getItemKey: (index) => tickets[index].id,
    overscan: OVERSCAN_ROWS,
    rangeExtractor,
  });
  // -1: more pages to come, the size is not known yet (WAI-ARIA aria-setsize).
  const setSize = hasNextPage ? -1 : tickets.length;

  return (
    <Box
      ref={scroll.ref}
      onScroll={scroll.onScroll}
      data-testid="tickets-scroll"
      sx={{ flex: 1, minHeight: 0, overflowY: 'auto' }}
    >
      <List
        aria-label={label}
        disablePadding
        // A style, not sx: the height changes as rows are measured, and each sx value is a CSS rule.
        style={{ height: virtualizer.getTotalSize() }}
        {...focusHandlers}
      >
        {virtualizer.getVirtualItems().map((row) => {
          const ticket = tickets[row.index];
          return (
            <TicketListItem
              key={row.key}
              ticket={ticket}
              myUserId={myUserId}
              isSelected={ticket.uuid === selectedUuid}
              isChecked={checked === 'all' || (checked?.has(ticket.id) ?? false)}
              actions={actions}
              index={row.index}
              start={row.start}
              setSize={setSize}
              measureRef={virtualizer.measureElement}
            />
          );
        })}
      </List>
      {(isLoading || isFetchingNextPage) && (
        <Box sx={{ py: 2, textAlign: 'center' }}>
          <CircularProgress size={24} aria-label={t('app.loading')} />
        </Box>
      )}
      {isError && tickets.length === 0 && (
        <Alert
          severity="error"
          sx={{ m: 1 }}
          action={
            <Button color="inherit" size="small" onClick={() => void refetch()}>
              {t('tickets.retry')}
            </Button>
          }
        >
          {t('tickets.loadFailed')}
        </Alert>
      )}
      {!isLoading && !isError && tickets.length === 0 && (
        <Typography
          sx={{
            color: 'text.secondary',
            p: 3,
            textAlign: 'center',
          }}
        >
          {emptyText}
        </Typography>
      )}
    </Box>
  );
};
