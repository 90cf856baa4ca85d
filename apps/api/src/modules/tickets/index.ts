// The tickets module's public surface: other modules import from '../tickets' (this file) only, never
// the files behind it (eslint keeps it so). Inside, core/ holds the ticket lifecycle, views, visibility and
// routes; inbound/ the channel events' ingest; bots/ what the platform does on its own (queue bot,
// automatic texts, timers, service hours); notes/ the ticket's notes.
export {
  loadTicketViews,
  selectTicketViews,
  serializeContact,
  toTicketView,
  type TicketView,
} from './core/ticket-views';
export {
  chatViewerRooms,
  listScope,
  notificationRooms,
  roomsOf,
  ticketRooms,
  ticketViewer,
} from './core/visibility';
export { conversationWith, previewOf } from './inbound/ingest';
export { fillVariables } from './bots/bot-texts';
export {
  messageCreated,
  messageUpdated,
  snapshotOf,
  ticketChanged,
  ticketUpdated,
} from './core/ticket-events';
export {
  handOverFromAgent,
  handOverFromIntegration,
  writeTransition,
  writeTransitions,
} from './core/ticket-transition';
export { queueTransitionMessages } from './bots/ticket-automation';
export { loadReactions, storeReaction } from './core/reactions';

export { createTicket, listTickets, updateTicket } from './core/tickets.service';
export {
  addBotNote,
  assertVisible,
  messageFilesOf,
  visibleTicketRow,
} from './core/tickets.service';
