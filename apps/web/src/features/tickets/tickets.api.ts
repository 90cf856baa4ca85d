import { useCallback, useMemo, useSyncExternalStore } from 'react';
import {
  hashKey,
  infiniteQueryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
} from '@tanstack/react-query';
import {
  isTicketListed,
  messagesContract,
  REPLY_WINDOW_MS,
  replyWindowAt,
  seesAllTickets,
  ticketsContract,
  type AppMessageEvent,
  type ChatMessageView,
  type MessagesPage,
  type MessageView,
  type ReplyWindow,
  type TicketBulkResult,
  type TicketEvent,
  type TicketListPage,
  type TicketStatus,
  type TicketView,
  type TicketViewer,
} from '@atendi/shared';
import { ApiError, call } from '../../api/http-client';
import { useCurrentSession } from '../../api/session';
import { useCompanyEvent } from '../../api/socket';
import { saveFile } from '../../lib/save-file';

export type { MessagesPage };

// One list of the inbox. status null lists every status (the search tab).
export type TicketListFilters = {
  status: TicketStatus | null;
  showAll: boolean;
  search: string;
  // The search tab's tag and user filters (any of them).
  tags?: number[];
  users?: number[];
  // The inbox tabs' order: the nearest SLA deadline first (the search keeps recency).
  sortBy?: 'urgency';
};

// Whose lists these are: the API scopes them by the same shared rule (isTicketListed).
export type { TicketViewer };

type ListData = InfiniteData<TicketListPage, number>;
type MessagesData = InfiniteData<MessagesPage, number>;

export const ticketsKeys = {
  lists: ['tickets', 'list'] as const,
  list: (filters: TicketListFilters) => ['tickets', 'list', filters] as const,
  details: ['tickets', 'detail'] as const,
  // The route's reference: a uuid, or an old numeric id (SPEC §2).
  detail: (ref: string) => ['tickets', 'detail', ref] as const,
  messages: (ticketId: number) => ['tickets', 'messages', ticketId] as const,
  deleteMutation: ['tickets', 'delete'] as const,
};

const isNumericId = (ref: string) => /^\d+$/.test(ref);

// The API's list query for these filters, without the page: GET /tickets sends it with a page, a
// bulk action on "all matching" sends it as its filter.
const urgent = (filters: TicketListFilters) => filters.sortBy === 'urgency' && !filters.search;

const listQueryOf = (filters: TicketListFilters) => ({
  status: filters.status ?? undefined,
  searchParam: filters.search,
  showAll: filters.showAll ? ('true' as const) : ('false' as const),
  tags: filters.tags?.length ? JSON.stringify(filters.tags) : undefined,
  users: filters.users?.length ? JSON.stringify(filters.users) : undefined,
  sortBy: urgent(filters) ? ('urgency' as const) : undefined,
});

const fetchTicketsPage = (filters: TicketListFilters, pageNumber: number) =>
  call(ticketsContract.listTickets, { query: { ...listQueryOf(filters), pageNumber } });
const fetchTicket = (ref: string) =>
  isNumericId(ref)
    ? call(ticketsContract.getTicket, { params: { id: Number(ref) } })
    : call(ticketsContract.getTicketByUuid, { params: { uuid: ref } });
const updateTicketStatus = (id: number, status: TicketStatus) =>
  call(ticketsContract.updateTicket, { params: { id }, body: { status } });
const deleteTicket = (id: number) => call(ticketsContract.deleteTicket, { params: { id } });

export const fetchMessagesPage = (ticketId: number, pageNumber: number, markRead = true) =>
  call(messagesContract.listMessages, {
    params: { ticketId },
    query: markRead ? { pageNumber } : { pageNumber, markRead: 'false' },
  });
// A send carries a key of its own (sendKeys.ts): retried after an answer that never arrived, the
// server answers what the first try stored instead of sending twice.
type TextSend = { body: string; quotedMsg?: number; key?: string };
const sendMessage = (ticketId: number, { key, ...input }: TextSend) =>
  call(
    messagesContract.sendMessage,
    { params: { ticketId }, body: input },
    key ? { headers: { 'Idempotency-Key': key } } : undefined,
  );
const retryMessage = (id: number) => call(messagesContract.retryMessage, { params: { id } });
const deleteMessage = (id: number) => call(messagesContract.deleteMessage, { params: { id } });
// '' takes the company's reaction back.
const reactToMessage = (id: number, emoji: string) =>
  call(messagesContract.reactToMessage, { params: { id }, body: { emoji } });
// Issue 39: into the contact's open conversation, or a new one held by the caller (the answer's).
export const forwardMessages = (messageIds: number[], contactId: number) =>
  call(messagesContract.forwardMessages, { body: { messageIds, contactId } });

export const useTicketViewer = (): TicketViewer => {
  const { user } = useCurrentSession();
  return {
    userId: user.id,
    queueIds: user.queues.map((queue) => queue.id),
    seesAll: seesAllTickets(user),
  };
};

// The API's list order: most recently updated first, then the higher id; sorted by urgency, the
// nearest SLA deadline before all that (tickets without one after those with one).
const comesBefore = (a: TicketView, b: TicketView, byUrgency: boolean) => {
  if (byUrgency && a.slaDueAt !== b.slaDueAt) {
    if (a.slaDueAt === null) return false;
    if (b.slaDueAt === null) return true;
    const due = Date.parse(a.slaDueAt) - Date.parse(b.slaDueAt);
    if (due !== 0) return due < 0;
  }
  const diff = Date.parse(a.updatedAt) - Date.parse(b.updatedAt);
  return diff === 0 ? a.id > b.id : diff > 0;
};

// Whether the API would list the ticket under these filters, the search text aside.
const ticketMatchesList = (
  ticket: TicketView,
  filters: TicketListFilters,
  viewer: TicketViewer,
) => {
  if (filters.status !== null && ticket.status !== filters.status) return false;
  if (filters.tags?.length && !ticket.tags.some((tag) => filters.tags?.includes(tag.id)))
    return false;
  if (filters.users?.length && !(ticket.userId !== null && filters.users.includes(ticket.userId)))
    return false;
  return isTicketListed(viewer, ticket, filters.showAll);
};

// The API also matches message texts; here only what the ticket itself shows can be checked.
const matchesSearch = (ticket: TicketView, search: string) => {
  const term = search.trim().toLowerCase();
  return (
    !term ||
    [ticket.contact.name, ticket.contact.number, ticket.lastMessage].some((text) =>
      text?.toLowerCase().includes(term),
    )
  );
};

const withoutTicket = (data: ListData, ticketId: number): ListData => ({
  ...data,
  pages: data.pages.map((page) => ({
    ...page,
    tickets: page.tickets.filter((row) => row.id !== ticketId),
  })),
});

// Puts the ticket where the API's order places it among the loaded rows; past the last loaded row
// of a list with more pages it is left for those pages to bring.
const placeInOrder = (data: ListData, ticket: TicketView, byUrgency: boolean): ListData => {
  const pages = data.pages.map((page) => ({ ...page, tickets: [...page.tickets] }));
  for (const page of pages) {
    const index = page.tickets.findIndex((row) => comesBefore(ticket, row, byUrgency));
    if (index >= 0) {
      page.tickets.splice(index, 0, ticket);
      return { ...data, pages };
    }
  }
  const last = pages[pages.length - 1];
  if (last.hasMore) return { ...data, pages };
  last.tickets.push(ticket);
  return { ...data, pages };
};

// SPEC §4 Live updates: an updated ticket takes its place (a new message moves it to the top) in the
// lists it matches and leaves the others; a deleted one leaves them all.
export const applyTicketEvent = (
  data: ListData | undefined,
  event: TicketEvent,
  filters: TicketListFilters,
  viewer: TicketViewer,
): ListData | undefined => {
  if (!data || data.pages.length === 0) return data;
  if (event.action === 'delete') return withoutTicket(data, event.ticketId);
  if (event.action === 'updateUnread') {
    return {
      ...data,
      pages: data.pages.map((page) => ({
        ...page,
        tickets: page.tickets.map((row) =>
          row.id === event.ticketId ? { ...row, unreadMessages: 0 } : row,
        ),
      })),
    };
  }
  const { ticket } = event;
  const isListed = data.pages.some((page) => page.tickets.some((row) => row.id === ticket.id));
  const rest = withoutTicket(data, ticket.id);
  if (!ticketMatchesList(ticket, filters, viewer)) return isListed ? rest : data;
  // A search result stays once found; a new one must at least show the searched text.
  if (!isListed && !matchesSearch(ticket, filters.search)) return data;
  return placeInOrder(rest, ticket, urgent(filters));
};

// Rows of every loaded page, each ticket once: a live insert can push a row onto the next page.
export const ticketsOf = (data: { pages: TicketListPage[] } | undefined) => {
  const byId = new Map<number, TicketView>();
  data?.pages.forEach((page) =>
    page.tickets.forEach((ticket) => {
      if (!byId.has(ticket.id)) byId.set(ticket.id, ticket);
    }),
  );
  return [...byId.values()];
};

// A plain message view (no failed-send error, no reactions) as the chat keeps it. Its reactions are
// the ones the chat already had: a view that does not carry them leaves them as they were.
const asChatMessage = (
  message: MessageView | ChatMessageView,
  current?: ChatMessageView,
): ChatMessageView => ({
  error: null,
  reactions: current?.reactions ?? [],
  ...message,
});

// The contact writing opens (or moves on) the 24-hour window of a Cloud API ticket: closesAt is their
// newest message plus 24 hours. Other tickets have no window (null) and keep none.
export const windowAfter = (
  current: ReplyWindow | null | undefined,
  incoming: (MessageView | ChatMessageView)[],
  now = new Date(),
): ReplyWindow | null => {
  if (!current) return current ?? null;
  const latest = Math.max(
    ...incoming
      .filter((message) => !message.fromMe)
      .map((message) => Date.parse(message.createdAt)),
  );
  if (!Number.isFinite(latest)) return current;
  if (current.closesAt !== null && Date.parse(current.closesAt) >= latest + REPLY_WINDOW_MS)
    return current;
  return replyWindowAt(new Date(latest), now);
};

// A message the chat has not seen joins the newest page; one it has is replaced (ack, edit, delete).
export const upsertMessages = (
  data: MessagesData | undefined,
  incoming: (MessageView | ChatMessageView)[],
): MessagesData | undefined => {
  if (!data || data.pages.length === 0 || incoming.length === 0) return data;
  const byId = new Map(incoming.map((message) => [message.id, message]));
  const seen = new Set<number>();
  // Replaced wherever it appears: a message can sit on two pages after the offsets moved.
  const pages = data.pages.map((page) => ({
    ...page,
    messages: page.messages.map((message) => {
      const view = byId.get(message.id);
      if (!view) return message;
      seen.add(message.id);
      const next = asChatMessage(view, message);
      // Live events can overtake each other (the send's update before its create): the newer
      // version of a message stays.
      return next.updatedAt < message.updatedAt ? message : next;
    }),
  }));
  const fresh = [...byId.values()]
    .filter((message) => !seen.has(message.id))
    .map((message) => asChatMessage(message));
  if (fresh.length) pages[0] = { ...pages[0], messages: [...pages[0].messages, ...fresh] };
  const replyWindow = windowAfter(pages[0].replyWindow, incoming);
  if (replyWindow !== (pages[0].replyWindow ?? null)) pages[0] = { ...pages[0], replyWindow };
  return { ...data, pages };
};

// A free-form send refused with ERR_WAPP_WINDOW_CLOSED: the window is closed, whatever the chat
// believed (closesAt from the refusal's details when it has them).
export const closeReplyWindow = (
  queryClient: QueryClient,
  ticketId: number,
  details: Record<string, unknown> | undefined,
) =>
  queryClient.setQueryData<MessagesData>(ticketsKeys.messages(ticketId), (data) => {
    if (!data || data.pages.length === 0) return data;
    const [first, ...rest] = data.pages;
    const closesAt =
      details && 'closesAt' in details
        ? typeof details.closesAt === 'string'
          ? details.closesAt
          : null
        : (first.replyWindow?.closesAt ?? null);
    return { ...data, pages: [{ ...first, replyWindow: { open: false, closesAt } }, ...rest] };
  });

export const isWindowClosedError = (error: unknown): error is ApiError =>
  error instanceof ApiError && error.code === 'ERR_WAPP_WINDOW_CLOSED';

// The contact's 24-hour window on a Cloud API ticket as the chat knows it: page 1 of its messages,
// moved on by the contact's messages (live or loaded) and closed by a refused send. null on other
// connections, and until the messages load.
export const useReplyWindow = (ticketId: number): ReplyWindow | null => {
  const queryClient = useQueryClient();
  const subscribe = useCallback(
    (notify: () => void) => {
      const hash = hashKey(ticketsKeys.messages(ticketId));
      return queryClient.getQueryCache().subscribe((event) => {
        if (event.query.queryHash === hash) notify();
      });
    },
    [queryClient, ticketId],
  );
  return useSyncExternalStore(
    subscribe,
    () =>
      queryClient.getQueryData<MessagesData>(ticketsKeys.messages(ticketId))?.pages[0]
        ?.replyWindow ?? null,
  );
};

// The conversation oldest first, each message once. Page 1 holds the newest messages.
export const messagesOf = (data: { pages: MessagesPage[] } | undefined) => {
  const byId = new Map<number, ChatMessageView>();
  data?.pages.forEach((page) =>
    page.messages.forEach((message) => {
      if (!byId.has(message.id)) byId.set(message.id, message);
    }),
  );
  // Each date parsed once, not at every comparison: a conversation may hold thousands.
  return [...byId.values()]
    .map((message) => ({ message, at: Date.parse(message.createdAt) }))
    .sort((a, b) => a.at - b.at || a.message.id - b.message.id)
    .map(({ message }) => message);
};

// The newest state of each ticket this screen has heard of, by version (null: it left the lists that
// heard it). Two processes can load a ticket around the same change and emit what they loaded in the
// opposite order; an older state must never put back what a newer one took away.
type Known = { version: number; ticket: TicketView | null };
const knownByClient = new WeakMap<QueryClient, Map<number, Known>>();
const knownTickets = (queryClient: QueryClient) => {
  let known = knownByClient.get(queryClient);
  if (!known) {
    known = new Map();
    knownByClient.set(queryClient, known);
  }
  return known;
};

// Records the event's state; false when the screen already knows a newer one. A delete without a
// version is the ticket itself gone.
const isNewestState = (queryClient: QueryClient, event: TicketEvent) => {
  if (event.action === 'updateUnread') return true;
  const id = event.action === 'update' ? event.ticket.id : event.ticketId;
  const version =
    event.action === 'update' ? event.ticket.version : (event.version ?? Number.POSITIVE_INFINITY);
  const known = knownTickets(queryClient);
  const current = known.get(id);
  if (current && version < current.version) return false;
  known.set(id, { version, ticket: event.action === 'update' ? event.ticket : null });
  return true;
};

// A page the API answered while newer events arrived: each of its tickets is replaced by the newest
// state heard (or left out once that state is off the list); the rest are remembered as heard.
export const reconcileTicketPage = (
  queryClient: QueryClient,
  page: TicketListPage,
  filters: TicketListFilters,
  viewer: TicketViewer,
): TicketListPage => {
  const known = knownTickets(queryClient);
  const tickets: TicketView[] = [];
  for (const ticket of page.tickets) {
    const current = known.get(ticket.id);
    if (!current || current.version <= ticket.version) {
      known.set(ticket.id, { version: ticket.version, ticket });
      tickets.push(ticket);
    } else if (current.ticket && ticketMatchesList(current.ticket, filters, viewer)) {
      tickets.push(current.ticket);
    }
  }
  return tickets.length === page.tickets.length &&
    tickets.every((ticket, i) => ticket === page.tickets[i])
    ? page
    : { ...page, tickets };
};

export const applyTicketEventToCache = (
  queryClient: QueryClient,
  event: TicketEvent,
  viewer: TicketViewer,
) => {
  if (!isNewestState(queryClient, event)) return;
  queryClient
    .getQueryCache()
    .findAll({ queryKey: ticketsKeys.lists })
    .forEach(({ queryKey }) => {
      const filters = queryKey[2] as TicketListFilters;
      queryClient.setQueryData<ListData>(queryKey, (data) =>
        applyTicketEvent(data, event, filters, viewer),
      );
    });
  if (event.action === 'update') {
    queryClient.setQueriesData<TicketView>({ queryKey: ticketsKeys.details }, (current) =>
      current?.id === event.ticket.id ? event.ticket : current,
    );
  }
};

export const applyMessagesToCache = (
  queryClient: QueryClient,
  ticketId: number,
  messages: (MessageView | ChatMessageView)[],
) =>
  queryClient.setQueryData<MessagesData>(ticketsKeys.messages(ticketId), (data) =>
    upsertMessages(data, messages),
  );

export const useTicketsLiveUpdates = () => {
  const queryClient = useQueryClient();
  const viewer = useTicketViewer();
  useCompanyEvent<TicketEvent>('ticket', (event) => {
    const isWellFormed =
      event?.action === 'update' ? Boolean(event.ticket) : typeof event?.ticketId === 'number';
    if (isWellFormed) applyTicketEventToCache(queryClient, event, viewer);
  });
  useCompanyEvent<AppMessageEvent>('appMessage', (event) => {
    if (!event?.message) return;
    applyMessagesToCache(queryClient, event.message.ticketId, [event.message]);
    if (event.ticket)
      applyTicketEventToCache(queryClient, { action: 'update', ticket: event.ticket }, viewer);
  });
};

const ticketListQuery = (filters: TicketListFilters, viewer: TicketViewer) =>
  infiniteQueryOptions({
    queryKey: ticketsKeys.list(filters),
    queryFn: async ({ pageParam, client }) =>
      reconcileTicketPage(client, await fetchTicketsPage(filters, pageParam), filters, viewer),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });

// Silent: a list that fails says so in place, with a retry button.
export const useTicketList = (filters: TicketListFilters, enabled = true) => {
  const viewer = useTicketViewer();
  const query = useInfiniteQuery({
    ...ticketListQuery(filters, viewer),
    enabled,
    meta: { silent: true },
  });
  // Once per page or update, not on every render: a list may hold thousands.
  const tickets = useMemo(() => ticketsOf(query.data), [query.data]);
  const hasMore = query.data?.pages[query.data.pages.length - 1]?.hasMore ?? false;
  // The API counts a page, not the whole list: say how many are loaded and whether more exist.
  const countLabel = tickets.length ? `${tickets.length}${hasMore ? '+' : ''}` : '';
  return { ...query, tickets, countLabel };
};

// Silent: the chat turns a failure into its own toast and leaves (SPEC §8 'Acceso no permitido').
export const useTicket = (ref: string) =>
  useQuery({
    queryKey: ticketsKeys.detail(ref),
    queryFn: () => fetchTicket(ref),
    staleTime: 0,
    meta: { silent: true },
  });

// markRead false: a look that leaves the ticket unread (the admin's peek).
export const useTicketMessages = (ticketId: number, markRead = true) => {
  const queryClient = useQueryClient();
  const viewer = useTicketViewer();
  const query = useInfiniteQuery({
    queryKey: ticketsKeys.messages(ticketId),
    queryFn: async ({ pageParam }) => {
      const page = await fetchMessagesPage(ticketId, pageParam, markRead);
      // Page 1 marks the ticket read; the lists learn it here even without the live event.
      if (pageParam === 1 && page.ticket)
        applyTicketEventToCache(queryClient, { action: 'update', ticket: page.ticket }, viewer);
      return page;
    },
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
    staleTime: 0,
  });
  // Once per page or message, not on every render: the chat re-renders as it scrolls, and a
  // conversation may hold thousands of messages to sort.
  const messages = useMemo(() => messagesOf(query.data), [query.data]);
  return { ...query, messages };
};

export const useUpdateTicketStatus = () => {
  const queryClient = useQueryClient();
  const viewer = useTicketViewer();
  return useMutation({
    mutationFn: ({ ticket, status }: { ticket: TicketView; status: TicketStatus }) =>
      updateTicketStatus(ticket.id, status),
    onSuccess: (ticket) =>
      applyTicketEventToCache(queryClient, { action: 'update', ticket }, viewer),
  });
};

export const useDeleteTicket = () => {
  const queryClient = useQueryClient();
  const viewer = useTicketViewer();
  return useMutation({
    mutationKey: ticketsKeys.deleteMutation,
    mutationFn: (ticket: TicketView) => deleteTicket(ticket.id),
    onSuccess: (_data, ticket) =>
      applyTicketEventToCache(queryClient, { action: 'delete', ticketId: ticket.id }, viewer),
  });
};

export const useSendMessage = (ticketId: number) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: TextSend) => sendMessage(ticketId, input),
    onSuccess: (messages) => applyMessagesToCache(queryClient, ticketId, messages),
    onError: (error) => {
      if (isWindowClosedError(error)) closeReplyWindow(queryClient, ticketId, error.details);
    },
  });
};

export const useRetryMessage = (ticketId: number) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (messageId: number) => retryMessage(messageId),
    onSuccess: (message) => applyMessagesToCache(queryClient, ticketId, [message]),
  });
};

export const useDeleteMessage = (ticketId: number) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (messageId: number) => deleteMessage(messageId),
    onSuccess: (message) => applyMessagesToCache(queryClient, ticketId, [message]),
  });
};

// Issue 39: the company's reaction to a message. The answer is the message with its reactions; a
// refusal for the Cloud API's closed window closes the chat's window, as a refused send does.
export const useReactToMessage = (ticketId: number) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ messageId, emoji }: { messageId: number; emoji: string }) =>
      reactToMessage(messageId, emoji),
    onSuccess: (message) => applyMessagesToCache(queryClient, ticketId, [message]),
    onError: (error) => {
      if (isWindowClosedError(error)) closeReplyWindow(queryClient, ticketId, error.details);
    },
  });
};

// Issue 36: what a bulk action does to each ticket (POST /tickets/bulk), through the same change
// PUT /tickets/{id} makes.
export type BulkChange =
  | { action: 'resolve' }
  | { action: 'return' }
  // To a person (open as theirs; in the queue given, or the ticket's own) or, without one, to wait
  // in the queue given.
  | { action: 'transfer'; userId?: number; queueId?: number }
  | { action: 'tag'; tagId: number };

// The tickets checked one by one, or every ticket a list shows (the API takes the first 500).
export type BulkTarget = { ids: number[] } | { filters: TicketListFilters };

// The answer, and the contact names of the tickets this screen had loaded (the answer has ids).
export type BulkOutcome = { result: TicketBulkResult; names: ReadonlyMap<number, string> };

const contactNameOf = (ticket: TicketView) => ticket.contact.name || ticket.contact.number;

const loadedTicketNames = (queryClient: QueryClient, names = new Map<number, string>()) => {
  for (const [, data] of queryClient.getQueriesData<ListData>({ queryKey: ticketsKeys.lists }))
    data?.pages.forEach((page) =>
      page.tickets.forEach((ticket) => names.set(ticket.id, contactNameOf(ticket))),
    );
  for (const [, ticket] of queryClient.getQueriesData<TicketView>({
    queryKey: ticketsKeys.details,
  }))
    if (ticket) names.set(ticket.id, contactNameOf(ticket));
  return names;
};

const bulkUpdateTickets = (change: BulkChange, target: BulkTarget) =>
  call(ticketsContract.bulkUpdateTickets, {
    body:
      'ids' in target
        ? { ...change, ids: target.ids }
        : { ...change, filter: listQueryOf(target.filters) },
  });

// The lists follow the changes through the live events of each ticket, as for any other change.
export const useBulkUpdateTickets = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({
      change,
      target,
    }: {
      change: BulkChange;
      target: BulkTarget;
    }): Promise<BulkOutcome> => {
      // Read before too: a changed ticket may leave the lists before the answer comes.
      const before = loadedTicketNames(queryClient);
      const result = await bulkUpdateTickets(change, target);
      return { result, names: loadedTicketNames(queryClient, before) };
    },
  });
};

export type TranscriptFormat = 'pdf' | 'json';

// Issue 38: a conversation's transcript, fetched with the session token and saved as ticket-<id>.pdf
// or ticket-<id>.json (pretty-printed).
export const downloadTicketTranscript = async (ticketId: number, format: TranscriptFormat) => {
  const name = `ticket-${ticketId}.${format}`;
  if (format === 'json') {
    const transcript = await call(ticketsContract.getTicketTranscript, {
      params: { id: ticketId },
    });
    saveFile(new Blob([JSON.stringify(transcript, null, 2)], { type: 'application/json' }), name);
    return;
  }
  // A PDF answer arrives as a Blob (api/http-client.ts reads bodies that are not text as bytes).
  const body: unknown = await call(ticketsContract.getTicketTranscriptPdf, {
    params: { id: ticketId },
  });
  // Anything else is not the file: the toast says "unknown error" rather than saving a broken PDF.
  if (!(body instanceof Blob)) throw new Error();
  saveFile(body, name);
};
