import {
  useCallback,
  useEffect,
  useRef,
  useState,
  type Dispatch,
  type SetStateAction,
} from 'react';
import {
  Badge,
  Box,
  FormControlLabel,
  IconButton,
  InputAdornment,
  OutlinedInput,
  Stack,
  Switch,
  Tab,
  Tabs,
  Tooltip,
  Typography,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import ChecklistIcon from '@mui/icons-material/Checklist';
import SearchIcon from '@mui/icons-material/Search';
import TimerOutlinedIcon from '@mui/icons-material/TimerOutlined';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'react-toastify';
import { useTranslation } from 'react-i18next';
import { ticketsContract, type TicketView } from '@atendi/shared';
import { call } from '../../api/http-client';
import { lazyComponent, lazyDialog } from '../../lib/lazy-component';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { TicketBulkBar } from './ticket-bulk-bar';
import { TicketList } from './ticket-list';
import { TicketPeekDialog } from './ticket-peek';
import {
  applyTicketEventToCache,
  useBulkUpdateTickets,
  useTicketList,
  useTicketViewer,
  useUpdateTicketStatus,
  type BulkChange,
  type BulkOutcome,
  type BulkTarget,
  type TicketListFilters,
  type TicketViewer,
} from './tickets.api';

const NewTicketDialog = lazyDialog(() =>
  import('./new-ticket-dialog').then((module) => module.NewTicketDialog),
);
// The search tab's tag and user pickers (MUI's Autocomplete): only the search tab shows them.
const SearchFilters = lazyComponent(() =>
  import('./search-filters').then((module) => module.SearchFilters),
);
const BulkResultDialog = lazyDialog(() =>
  import('./ticket-bulk-dialogs').then((module) => module.BulkResultDialog),
);

export type ListTab = 'open' | 'closed' | 'search';
export type ListState = {
  tab: ListTab;
  // The open tab's sub-list: tickets being served ('open') or waiting ('pending').
  openList: 'open' | 'pending';
  // Whether the sub-list was chosen (by the agent, or once where the work is when the inbox opened).
  isOpenListChosen: boolean;
  showAll: boolean;
  // The open tab's lists sorted by urgency (nearest SLA deadline first) instead of recency.
  urgent: boolean;
  searchInput: string;
  searchTags: number[];
  searchUsers: number[];
};

const CountLabel = ({ text, count }: { text: string; count: string }) =>
  count ? (
    <Badge badgeContent={count} color="primary" sx={{ pr: 2.5, '& .MuiBadge-badge': { right: 6 } }}>
      {text}
    </Badge>
  ) : (
    text
  );

// SPEC §4: the list's close also ends any bot, integration or AI agent on the ticket.
const closeFromList = (ticket: TicketView) =>
  call(ticketsContract.updateTicket, {
    params: { id: ticket.id },
    body: { status: 'closed', useIntegration: false, promptId: null, integrationId: null },
  });

// Selection mode (issue 36): the rows checked in the list shown (listKey), or every ticket it
// matches. Checks belong to one list: another tab or filter starts with none.
type Checked = { listKey: string; ids: ReadonlySet<number>; allMatching: boolean };
const NONE: ReadonlySet<number> = new Set();
const noneChecked = (listKey: string): Checked => ({ listKey, ids: NONE, allMatching: false });

// Everything done: a toast says so. Some refused: a dialog says which and why.
const useBulkActions = (onDone: () => void) => {
  const { t } = useTranslation();
  const bulk = useBulkUpdateTickets();
  const [outcome, setOutcome] = useState<BulkOutcome | null>(null);
  const [isResultOpen, setIsResultOpen] = useState(false);
  const run = (change: BulkChange, target: BulkTarget) =>
    bulk.mutate(
      { change, target },
      {
        onSuccess: (next) => {
          onDone();
          const { total, succeeded, failed } = next.result;
          if (total === 0) toast.info(t('tickets.bulk.result.noneMatched'));
          else if (failed === 0)
            toast.success(t('tickets.bulk.result.done', { succeeded, count: total }));
          else {
            setOutcome(next);
            setIsResultOpen(true);
          }
        },
      },
    );
  const resultDialog = (
    <BulkResultDialog
      open={isResultOpen}
      outcome={outcome}
      onClose={() => setIsResultOpen(false)}
    />
  );
  return { run, isRunning: bulk.isPending, resultDialog };
};

const useCloseFromList = (viewer: TicketViewer) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: closeFromList,
    onSuccess: (ticket) =>
      applyTicketEventToCache(queryClient, { action: 'update', ticket }, viewer),
  });
};

export const TicketListPane = ({
  state,
  onStateChange,
  selectedUuid,
  onAccepted,
}: {
  state: ListState;
  onStateChange: Dispatch<SetStateAction<ListState>>;
  selectedUuid: string | null;
  onAccepted: (ticket: TicketView) => void;
}) => {
  const { t } = useTranslation();
  const viewer = useTicketViewer();
  const update = (patch: Partial<ListState>) =>
    onStateChange((current) => ({ ...current, ...patch }));
  const showAll = viewer.seesAll && state.showAll;
  // SPEC §2: typed text lowercased, applied after 500 ms.
  const search = useDebouncedValue(state.searchInput.trim().toLowerCase());

  const order = state.urgent ? { sortBy: 'urgency' as const } : {};
  const openFilters: TicketListFilters = { status: 'open', showAll, search: '', ...order };
  const pendingFilters: TicketListFilters = { status: 'pending', showAll, search: '', ...order };
  // SPEC §6: the closed and search lists always ask for every ticket the user may see.
  const closedFilters: TicketListFilters = { status: 'closed', showAll: true, search: '' };
  const foundFilters: TicketListFilters = {
    status: null,
    showAll: true,
    search,
    tags: state.searchTags,
    users: state.searchUsers,
  };
  const open = useTicketList(openFilters);
  const pending = useTicketList(pendingFilters);
  const closed = useTicketList(closedFilters, state.tab === 'closed');
  const isSearching = search !== '' || state.searchTags.length > 0 || state.searchUsers.length > 0;
  const found = useTicketList(foundFilters, state.tab === 'search' && isSearching);
  // The list on screen and its query: what selection mode checks rows of and "all matching" means.
  const shown =
    state.tab === 'open'
      ? state.openList === 'open'
        ? { list: open, filters: openFilters }
        : { list: pending, filters: pendingFilters }
      : state.tab === 'closed'
        ? { list: closed, filters: closedFilters }
        : isSearching
          ? { list: found, filters: foundFilters }
          : null;
  const accept = useUpdateTicketStatus();
  const acceptingId = accept.isPending ? (accept.variables?.ticket.id ?? null) : null;
  const acceptTicket = (ticket: TicketView) =>
    accept.mutate({ ticket, status: 'open' }, { onSuccess: onAccepted });
  const close = useCloseFromList(viewer);
  // The open list holds one's own tickets, or everyone's for those who see all: each may be closed.
  const resolveTicket = (ticket: TicketView) => close.mutate(ticket);
  const [isCreating, setIsCreating] = useState(false);
  const [peeked, setPeeked] = useState<TicketView | null>(null);

  // The inbox opens where the work is: on the waiting list when conversations wait and the agent
  // serves none. Once: after that the agent's choice stands.
  const hasServed = open.isSuccess ? open.tickets.length > 0 : null;
  const hasWaiting = pending.isSuccess ? pending.tickets.length > 0 : null;
  useEffect(() => {
    if (state.isOpenListChosen || hasServed === null || hasWaiting === null) return;
    onStateChange((current) => ({
      ...current,
      isOpenListChosen: true,
      openList: !hasServed && hasWaiting ? 'pending' : current.openList,
    }));
  }, [state.isOpenListChosen, hasServed, hasWaiting, onStateChange]);

  // SPEC §2: emptying the search returns to the open tab.
  const hadSearch = useRef(false);
  useEffect(() => {
    if (search) {
      hadSearch.current = true;
    } else if (hadSearch.current) {
      hadSearch.current = false;
      onStateChange((current) => ({ ...current, tab: 'open' }));
    }
  }, [search, onStateChange]);

  // Selection mode (issue 36): a click on a row checks it; the bar acts on the checked rows.
  const [isSelecting, setIsSelecting] = useState(false);
  const listKey = shown ? JSON.stringify(shown.filters) : '';
  const [checkedState, setChecked] = useState<Checked>(() => noneChecked(listKey));
  const checked = checkedState.listKey === listKey ? checkedState : noneChecked(listKey);
  // The rows loaded, for the check callback: kept out of its dependencies, so that a list update
  // does not re-render every row in view.
  const shownTickets = useRef<TicketView[]>([]);
  const shownList = shown?.list.tickets;
  useEffect(() => {
    shownTickets.current = shownList ?? [];
  }, [shownList]);
  const checkTicket = useCallback(
    (ticket: TicketView) =>
      setChecked((current) => {
        const mine = current.listKey === listKey ? current : noneChecked(listKey);
        // Unchecking one of "all matching": the rows loaded but that one, checked one by one.
        const ids = new Set(
          mine.allMatching ? shownTickets.current.map((row) => row.id) : mine.ids,
        );
        if (ids.has(ticket.id)) ids.delete(ticket.id);
        else ids.add(ticket.id);
        return { listKey, ids, allMatching: false };
      }),
    [listKey],
  );
  const leaveSelection = () => {
    setIsSelecting(false);
    setChecked(noneChecked(listKey));
  };
  const bulk = useBulkActions(leaveSelection);
  const runBulk = (change: BulkChange) => {
    if (!shown) return;
    bulk.run(change, checked.allMatching ? { filters: shown.filters } : { ids: [...checked.ids] });
  };
  const bulkBar = isSelecting && (
    <TicketBulkBar
      count={checked.ids.size}
      allMatching={checked.allMatching}
      canSelectAll={shown !== null}
      canResolve={state.tab !== 'closed'}
      isBusy={bulk.isRunning}
      onSelectAll={() => setChecked({ listKey, ids: NONE, allMatching: true })}
      onClear={() => setChecked(noneChecked(listKey))}
      onCancel={leaveSelection}
      onRun={runBulk}
    />
  );

  const listProps = {
    myUserId: viewer.userId,
    selectedUuid,
    ...(isSelecting && {
      onCheck: checkTicket,
      isCheckDisabled: bulk.isRunning,
      checked: checked.allMatching ? ('all' as const) : checked.ids,
    }),
  };

  return (
    <Stack sx={{ flex: 1, minHeight: 0 }}>
      <Stack
        direction="row"
        sx={{ alignItems: 'center', borderBottom: 1, borderColor: 'divider', flexShrink: 0 }}
      >
        <Tabs
          value={state.tab}
          onChange={(_event, tab: ListTab) => update({ tab })}
          variant="fullWidth"
          aria-label={t('tickets.tabs.label')}
          sx={{ flex: 1, minWidth: 0 }}
        >
          <Tab value="open" label={t('tickets.tabs.open')} />
          <Tab value="closed" label={t('tickets.tabs.closed')} />
          <Tab value="search" label={t('tickets.tabs.search')} />
        </Tabs>
        <Tooltip title={t('tickets.bulk.selectHint')} describeChild>
          {/* The span keeps the tooltip working while the button is disabled. */}
          <span>
            <IconButton
              size="small"
              color={isSelecting ? 'primary' : 'default'}
              aria-label={t('tickets.bulk.select')}
              aria-pressed={isSelecting}
              disabled={bulk.isRunning}
              onClick={() => (isSelecting ? leaveSelection() : setIsSelecting(true))}
              sx={{ mx: 0.5 }}
            >
              <ChecklistIcon fontSize="small" />
            </IconButton>
          </span>
        </Tooltip>
      </Stack>

      {state.tab === 'open' && (
        <>
          <Stack
            direction="row"
            sx={{
              alignItems: 'center',
              borderBottom: 1,
              borderColor: 'divider',
              pr: 1,
              flexShrink: 0,
            }}
          >
            <Tabs
              value={state.openList}
              onChange={(_event, openList: ListState['openList']) =>
                update({ openList, isOpenListChosen: true })
              }
              aria-label={t('tickets.tabs.openLists')}
              // Tabs as wide as their text and count: both fit beside "+" and "Ver todos" in a
              // 400 px list (MUI's 90 px minimum and 16 px sides cut the second one's count off),
              // and on a phone beside the thumb-sized buttons.
              sx={{
                flex: 1,
                minWidth: 0,
                '& .MuiTab-root': { minWidth: 0, px: { xs: 0.75, sm: 1.5 } },
              }}
            >
              <Tab
                value="open"
                label={<CountLabel text={t('tickets.lists.open')} count={open.countLabel} />}
              />
              <Tab
                value="pending"
                label={<CountLabel text={t('tickets.lists.pending')} count={pending.countLabel} />}
              />
            </Tabs>
            <Tooltip title={t('tickets.sla.sortUrgency')}>
              <IconButton
                size="small"
                color={state.urgent ? 'primary' : 'default'}
                aria-label={t('tickets.sla.sortUrgency')}
                aria-pressed={state.urgent}
                onClick={() => update({ urgent: !state.urgent })}
              >
                <TimerOutlinedIcon />
              </IconButton>
            </Tooltip>
            <Tooltip title={t('tickets.newTicket.open')}>
              <IconButton
                size="small"
                color="primary"
                aria-label={t('tickets.newTicket.open')}
                onClick={() => setIsCreating(true)}
              >
                <AddIcon />
              </IconButton>
            </Tooltip>
            {viewer.seesAll && (
              <Tooltip title={t('tickets.showAll')} describeChild>
                <FormControlLabel
                  sx={{ mr: 0, ml: 0.5, flexShrink: 0 }}
                  control={
                    <Switch
                      size="small"
                      checked={state.showAll}
                      onChange={(event) => update({ showAll: event.target.checked })}
                      slotProps={{ input: { 'aria-label': t('tickets.showAll') } }}
                    />
                  }
                  // The list pane is at its narrowest (320 px) between 600 and 1200 px, and on a
                  // phone narrower than 380 px the tabs need the label's room.
                  label={
                    <Typography
                      variant="body2"
                      sx={{
                        display: { xs: 'block', sm: 'none', lg: 'block' },
                        '@media (max-width: 379.95px)': { display: 'none' },
                      }}
                    >
                      {t('tickets.showAll')}
                    </Typography>
                  }
                />
              </Tooltip>
            )}
          </Stack>
          {bulkBar}
          {state.openList === 'open' ? (
            <TicketList
              {...listProps}
              label={t('tickets.lists.open')}
              list={open}
              emptyText={t('tickets.empty.open')}
              onResolve={resolveTicket}
              resolvingId={close.isPending ? (close.variables?.id ?? null) : null}
            />
          ) : (
            <TicketList
              {...listProps}
              label={t('tickets.lists.pending')}
              list={pending}
              emptyText={t('tickets.empty.pending')}
              onAccept={acceptTicket}
              acceptingId={acceptingId}
              onPeek={viewer.seesAll ? setPeeked : undefined}
            />
          )}
        </>
      )}

      {state.tab === 'closed' && (
        <>
          {bulkBar}
          <TicketList
            {...listProps}
            label={t('tickets.lists.closed')}
            list={closed}
            emptyText={t('tickets.empty.closed')}
          />
        </>
      )}

      {state.tab === 'search' && (
        <>
          <Box sx={{ p: 1, flexShrink: 0 }}>
            {/* An OutlinedInput, as a TextField without label renders it: TextField would bring
                MUI's Select and the other variants into the first load. */}
            <OutlinedInput
              size="small"
              fullWidth
              type="search"
              autoFocus
              placeholder={t('tickets.search.placeholder')}
              value={state.searchInput}
              onChange={(event) => update({ searchInput: event.target.value })}
              startAdornment={
                <InputAdornment position="start">
                  <SearchIcon fontSize="small" />
                </InputAdornment>
              }
              slotProps={{ input: { 'aria-label': t('tickets.search.label') } }}
            />
          </Box>
          <SearchFilters
            tagIds={state.searchTags}
            userIds={state.searchUsers}
            canFilterUsers={viewer.seesAll}
            onChange={update}
          />
          {bulkBar}
          {isSearching ? (
            <TicketList
              {...listProps}
              label={t('tickets.lists.search')}
              list={found}
              emptyText={t('tickets.empty.search')}
              onAccept={acceptTicket}
              acceptingId={acceptingId}
            />
          ) : (
            <Typography
              sx={{
                color: 'text.secondary',
                p: 3,
                textAlign: 'center',
              }}
            >
              {t('tickets.search.hint')}
            </Typography>
          )}
        </>
      )}
      <NewTicketDialog
        open={isCreating}
        onClose={() => setIsCreating(false)}
        onCreated={(ticket) => {
          setIsCreating(false);
          onAccepted(ticket);
        }}
      />
      <TicketPeekDialog ticket={peeked} onClose={() => setPeeked(null)} />
      {bulk.resultDialog}
    </Stack>
  );
};
