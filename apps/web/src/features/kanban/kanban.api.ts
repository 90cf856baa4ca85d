import { useRef, useState } from 'react';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  isTicketListed,
  seesAllTickets,
  tagsContract,
  type AppMessageEvent,
  type KanbanTickets,
  type TagOption,
  type TicketEvent,
  type TicketView,
  type TicketViewer,
} from '@atendi/shared';
import { call } from '../../api/http-client';
import { useCurrentSession } from '../../api/session';
import { useCompanyEvent, useSocketRoom } from '../../api/socket';
import { toastError } from '../../api/toasts';

// The first lane holds the tickets without a kanban tag (SPEC §2 Kanban).
export const OPEN_LANE = 'open';
export type LaneKey = typeof OPEN_LANE | number;
export type Lane = { key: LaneKey; tag: TagOption | null };
type TicketTag = TicketView['tags'][number];

// Whose board this is: a user's holds their queues' tickets, an admin's every ticket (SPEC §6).
type BoardViewer = TicketViewer;

const kanbanKeys = {
  lanes: ['kanban', 'lanes'] as const,
  tickets: (viewer: BoardViewer) => ['kanban', 'tickets', viewer] as const,
};

const fetchLanes = () => call(tagsContract.listKanbanLanes);
const fetchBoardTickets = (viewer: BoardViewer) =>
  call(tagsContract.listKanbanTickets, {
    query: viewer.seesAll
      ? { showAll: 'true' }
      : { queueIds: viewer.queueIds.length ? JSON.stringify(viewer.queueIds) : undefined },
  });
const clearTicketTags = (ticketId: number) =>
  call(tagsContract.clearTicketTags, { params: { ticketId } });
const addTicketTag = (ticketId: number, tagId: number) =>
  call(tagsContract.addTicketTag, { params: { ticketId, tagId } });

const useBoardViewer = (): BoardViewer => {
  const { user } = useCurrentSession();
  return {
    userId: user.id,
    queueIds: user.queues.map((queue) => queue.id),
    seesAll: seesAllTickets(user),
  };
};

const lanesOf = (tags: TagOption[]): Lane[] => [
  { key: OPEN_LANE, tag: null },
  ...tags.map((tag) => ({ key: tag.id, tag })),
];

// A ticket with several kanban tags shows once, in the first of their lanes.
export const laneOf = (ticket: TicketView, lanes: Lane[]): LaneKey =>
  lanes.find((lane) => lane.tag && ticket.tags.some((tag) => tag.id === lane.key))?.key ??
  OPEN_LANE;

// The tags a ticket holds once moved: a move takes every tag off, then adds the lane's (SPEC §4).
const tagsForLane = (lane: Lane): TicketTag[] =>
  lane.tag ? [{ id: lane.tag.id, name: lane.tag.name, color: lane.tag.color }] : [];

// Whether the API would put the ticket on this board (tags.service listKanbanTickets): open and
// waiting tickets the list rule shows (show-all for those who see every ticket), within the queues
// fetchBoardTickets asks for.
const isOnBoard = (ticket: TicketView, viewer: BoardViewer) => {
  if (ticket.status !== 'open' && ticket.status !== 'pending') return false;
  const inAskedQueues =
    viewer.seesAll ||
    !viewer.queueIds.length ||
    (ticket.queueId !== null && viewer.queueIds.includes(ticket.queueId));
  return inAskedQueues && isTicketListed(viewer, ticket, viewer.seesAll);
};

// The API's order: most recently updated first, then the higher id.
const byNewest = (a: TicketView, b: TicketView) =>
  Date.parse(b.updatedAt) - Date.parse(a.updatedAt) || b.id - a.id;

// SPEC §4 Live updates: an updated ticket takes its place (or leaves, once closed or out of reach);
// a deleted one leaves.
const applyBoardEvent = (
  data: KanbanTickets | undefined,
  event: TicketEvent,
  viewer: BoardViewer,
): KanbanTickets | undefined => {
  if (!data || event.action === 'updateUnread') return data;
  const id = event.action === 'delete' ? event.ticketId : event.ticket.id;
  // An older state of a card that arrived late (the inbox's rule, tickets.api.ts).
  const shown = data.tickets.find((ticket) => ticket.id === id);
  if (
    shown &&
    shown.version > (event.action === 'delete' ? (event.version ?? Infinity) : event.ticket.version)
  )
    return data;
  const rest = data.tickets.filter((ticket) => ticket.id !== id);
  if (event.action === 'delete' || !isOnBoard(event.ticket, viewer))
    return rest.length === data.tickets.length ? data : { tickets: rest };
  return { tickets: [...rest, event.ticket].sort(byNewest) };
};

const patchTicket = (
  queryClient: QueryClient,
  viewer: BoardViewer,
  ticketId: number,
  tags: TicketTag[],
) =>
  queryClient.setQueryData<KanbanTickets>(kanbanKeys.tickets(viewer), (data) =>
    data
      ? {
          tickets: data.tickets.map((ticket) =>
            ticket.id === ticketId ? { ...ticket, tags } : ticket,
          ),
        }
      : data,
  );

// The lanes, the cards, live updates and moves. A move is two calls (take the tags off, add the
// lane's); while it runs the card keeps its new lane, whatever the events between the calls say.
export const useKanbanBoard = () => {
  const queryClient = useQueryClient();
  const viewer = useBoardViewer();
  const lanesQuery = useQuery({ queryKey: kanbanKeys.lanes, queryFn: fetchLanes });
  const ticketsQuery = useQuery({
    queryKey: kanbanKeys.tickets(viewer),
    queryFn: () => fetchBoardTickets(viewer),
  });
  const movingTags = useRef(new Map<number, TicketTag[]>());
  const [moving, setMoving] = useState<ReadonlySet<number>>(new Set());

  const apply = (event: TicketEvent) => {
    const held = event.action === 'update' ? movingTags.current.get(event.ticket.id) : undefined;
    const settled: TicketEvent =
      event.action === 'update' && held
        ? { action: 'update', ticket: { ...event.ticket, tags: held } }
        : event;
    queryClient.setQueryData<KanbanTickets>(kanbanKeys.tickets(viewer), (data) =>
      applyBoardEvent(data, settled, viewer),
    );
  };

  // Once the rooms are joined, reload: a change made before then is not missed.
  const reload = () => void queryClient.invalidateQueries({ queryKey: ['kanban', 'tickets'] });
  useSocketRoom('joinTickets', 'open', reload);
  useSocketRoom('joinTickets', 'pending', reload);
  useCompanyEvent<TicketEvent>('ticket', (event) => {
    const isWellFormed =
      event?.action === 'update' ? Boolean(event.ticket) : typeof event?.ticketId === 'number';
    if (isWellFormed) apply(event);
  });
  useCompanyEvent<AppMessageEvent>('appMessage', (event) => {
    if (event?.ticket) apply({ action: 'update', ticket: event.ticket });
  });
  // A tag renamed, recoloured, made a lane or deleted changes the lanes.
  useCompanyEvent('tag', () => void queryClient.invalidateQueries({ queryKey: kanbanKeys.lanes }));

  const setMovingFlag = (ticketId: number, isMoving: boolean) =>
    setMoving((current) => {
      const next = new Set(current);
      if (isMoving) next.add(ticketId);
      else next.delete(ticketId);
      return next;
    });

  const move = async (ticket: TicketView, lane: Lane) => {
    if (movingTags.current.has(ticket.id)) return;
    const tags = tagsForLane(lane);
    movingTags.current.set(ticket.id, tags);
    setMovingFlag(ticket.id, true);
    patchTicket(queryClient, viewer, ticket.id, tags);
    let isCleared = false;
    try {
      await clearTicketTags(ticket.id);
      isCleared = true;
      const saved = lane.tag ? await addTicketTag(ticket.id, lane.tag.id) : null;
      movingTags.current.delete(ticket.id);
      if (saved) apply({ action: 'update', ticket: saved });
    } catch (error) {
      movingTags.current.delete(ticket.id);
      // Back to what the server holds: the old tags, or none if only the second call failed.
      patchTicket(queryClient, viewer, ticket.id, isCleared ? [] : ticket.tags);
      toastError(error);
    } finally {
      setMovingFlag(ticket.id, false);
    }
  };

  const lanes = lanesOf(lanesQuery.data?.lista ?? []);
  return {
    lanes,
    tickets: ticketsQuery.data?.tickets ?? [],
    isPending: lanesQuery.isPending || ticketsQuery.isPending,
    isError: lanesQuery.isError || ticketsQuery.isError,
    moving,
    move,
  };
};
