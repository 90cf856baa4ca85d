import { z } from 'zod';
import { ticketListQuery } from './schemas';
import { tagOptionSchema } from './tags';
import { ticketViewSchema } from './tickets';

// SPEC §7 Kanban. GET /tags/kanban: the lanes, one per tag marked kanban.
export const kanbanLanesSchema = z.object({ lista: z.array(tagOptionSchema) });
export type KanbanLanes = z.input<typeof kanbanLanesSchema>;

// GET /ticket/kanban: the ticket list's queue filter and show-all switch, read the same way.
export const kanbanTicketsQuery = ticketListQuery.pick({ queueIds: true, showAll: true });
export type KanbanTicketsQuery = z.infer<typeof kanbanTicketsQuery>;
export const kanbanTicketsSchema = z.object({ tickets: z.array(ticketViewSchema) });
export type KanbanTickets = z.input<typeof kanbanTicketsSchema>;
