import { z } from 'zod';
import { defineRoutes } from '../contract';
import {
  createdResponse,
  messageResponseSchema,
  noContentResponse,
  okResponse,
} from '../responses';
import {
  idParam,
  simulatorAckSchema,
  simulatorContactsSchema,
  simulatorInboundSchema,
  simulatorReactionSchema,
  simulatorTypingSchema,
  whatsappSchema,
  whatsappSessionSchema,
  whatsappUpdateSchema,
} from '../schemas';
import {
  connectionHistorySchema,
  simulatorInboundResultSchema,
  simulatorConversationItemSchema,
  simulatorConversationQuery,
  simulatorOutboundQuery,
  simulatorOutboundViewSchema,
  simulatorScanSchema,
  whatsappTokenSchema,
  whatsappViewSchema,
} from '../whatsapp';

// SPEC §7 sends ?session=0 (leave the session data out); the API never sends session data anyway.
const sessionQuery = z.object({ session: z.string().max(10).optional() });

// SPEC §7 Connections (`whatsapps`): every profile reads them (transfer and new-ticket dialogs); only
// admins change them.
export const whatsappsContract = defineRoutes('whatsapp', {
  listWhatsapps: {
    method: 'GET',
    path: '/whatsapp',
    summary: "List the company's connections, by name",
    query: sessionQuery,
    response: okResponse(z.array(whatsappViewSchema)),
  },
  getWhatsapp: {
    method: 'GET',
    path: '/whatsapp/:id',
    summary: 'Read one connection',
    params: idParam,
    query: sessionQuery,
    response: okResponse(whatsappViewSchema),
  },
  createWhatsapp: {
    method: 'POST',
    path: '/whatsapp',
    summary: 'Create a connection',
    body: whatsappSchema,
    response: createdResponse(whatsappViewSchema),
  },
  updateWhatsapp: {
    method: 'PUT',
    path: '/whatsapp/:id',
    summary: 'Change a connection',
    params: idParam,
    body: whatsappUpdateSchema,
    response: okResponse(whatsappViewSchema),
  },
  getWhatsappHistory: {
    method: 'GET',
    path: '/whatsapp/:id/history',
    summary: 'The connection’s last 100 status changes and why (issue 39: number health)',
    params: idParam,
    response: okResponse(connectionHistorySchema),
  },
  deleteWhatsapp: {
    method: 'DELETE',
    path: '/whatsapp/:id',
    summary: 'Delete a connection without tickets',
    params: idParam,
    response: noContentResponse,
  },
  regenerateWhatsappToken: {
    method: 'POST',
    path: '/whatsapp/:id/token',
    summary: 'Issue a new external-API token (the old one stops working)',
    params: idParam,
    response: okResponse(whatsappTokenSchema),
  },
});

// A connection's session: each answers a sentence; the new state arrives as a live event.
export const whatsappSessionsContract = defineRoutes('whatsappsession', {
  restartWhatsappSession: {
    method: 'POST',
    path: '/whatsappsession/:id',
    summary: "Start the connection's session again, keeping its pairing",
    params: idParam,
    response: okResponse(messageResponseSchema),
  },
  renewWhatsappSession: {
    method: 'PUT',
    path: '/whatsappsession/:id',
    summary: 'Forget the pairing: a new QR code, or a pairing code for a phone number',
    params: idParam,
    body: whatsappSessionSchema,
    response: okResponse(messageResponseSchema),
  },
  disconnectWhatsappSession: {
    method: 'DELETE',
    path: '/whatsappsession/:id',
    summary: "Log the connection's session out",
    params: idParam,
    response: okResponse(messageResponseSchema),
  },
});

// The simulator's virtual phone (registered only with SIMULATOR_ENABLED), for the demo and the tests.
export const simulatorContract = defineRoutes('simulator', {
  simulatorScan: {
    method: 'POST',
    path: '/simulator/:id/scan',
    summary: 'Simulator: the phone scans the QR code',
    params: idParam,
    response: okResponse(simulatorScanSchema),
  },
  simulatorInbound: {
    method: 'POST',
    path: '/simulator/:id/inbound',
    summary: 'Simulator: a contact sends a message',
    params: idParam,
    body: simulatorInboundSchema,
    response: okResponse(simulatorInboundResultSchema),
  },
  listSimulatorOutbound: {
    method: 'GET',
    path: '/simulator/:id/outbound',
    summary: 'Simulator: what the phone received, a page at a time',
    params: idParam,
    query: simulatorOutboundQuery,
    response: okResponse(z.array(simulatorOutboundViewSchema)),
  },
  listSimulatorConversation: {
    method: 'GET',
    path: '/simulator/:id/conversation',
    summary: "Simulator: the phone's chats, what its contacts wrote and what they received",
    params: idParam,
    query: simulatorConversationQuery,
    response: okResponse(z.array(simulatorConversationItemSchema)),
  },
  simulatorAck: {
    method: 'POST',
    path: '/simulator/:id/ack',
    summary: 'Simulator: the phone acknowledges a message',
    params: idParam,
    body: simulatorAckSchema,
    response: noContentResponse,
  },
  simulatorTyping: {
    method: 'POST',
    path: '/simulator/:id/typing',
    summary: 'Simulator: a contact starts or stops typing',
    params: idParam,
    body: simulatorTypingSchema,
    response: noContentResponse,
  },
  simulatorReaction: {
    method: 'POST',
    path: '/simulator/:id/reaction',
    summary: 'Simulator: a contact reacts to a message (an empty emoji takes it back)',
    params: idParam,
    body: simulatorReactionSchema,
    response: noContentResponse,
  },
  simulatorContacts: {
    method: 'POST',
    path: '/simulator/:id/contacts',
    summary: "Simulator: the phone's address book",
    params: idParam,
    body: simulatorContactsSchema,
    response: noContentResponse,
  },
  simulatorDisconnect: {
    method: 'POST',
    path: '/simulator/:id/disconnect',
    summary: 'Simulator: the phone drops the session',
    params: idParam,
    response: noContentResponse,
  },
});
