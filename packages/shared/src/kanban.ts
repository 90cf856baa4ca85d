import type { z } from 'zod';
import { ticketListQuery } from './schemas';
import type { TagOption } from './tags';
import type { TicketView } from './tickets';

// SPEC §7 Kanban. GET /tags/kanban: the lanes, one per tag marked kanban.
export type KanbanLanes = { lista: TagOption[] };

// GET /ticket/kanban: the ticket list's queue filter and show-all switch, read the same way.
export const kanbanTicketsQuery = ticketListQuery.pick({ queueIds: true, showAll: true });
export type KanbanTicketsQuery = z.infer<typeof kanbanTicketsQuery>;
export type KanbanTickets = { tickets: TicketView[] };
