import {
  simulatorContract,
  whatsappSessionsContract,
  whatsappsContract,
  type WhatsappInput,
  type WhatsappUpdateInput,
  type WhatsappView,
} from '@atendi/shared';
import { call } from '../../api/http-client';

// The connections page's changes and its simulator; the list and one connection are read through
// api/queries/connections.ts, shared with the rest of the app.

export type Connection = WhatsappView;

export const connectionsKeys = {
  // Every chat of a simulator's phone (then one per contact number) under one prefix.
  conversation: (id: number, number?: string) =>
    number
      ? (['connections', 'simulator-conversation', id, number] as const)
      : (['connections', 'simulator-conversation', id] as const),
  history: (id: number) => ['connections', 'history', id] as const,
};

export const createConnection = (input: WhatsappInput) =>
  call(whatsappsContract.createWhatsapp, { body: input });
export const updateConnection = (id: number, input: WhatsappUpdateInput) =>
  call(whatsappsContract.updateWhatsapp, { params: { id }, body: input });
export const deleteConnection = (id: number) =>
  call(whatsappsContract.deleteWhatsapp, { params: { id } });
// Issue 39: the connection's status changes and why, newest first (admins).
export const fetchConnectionHistory = (id: number) =>
  call(whatsappsContract.getWhatsappHistory, { params: { id } });
export const regenerateToken = (id: number) =>
  call(whatsappsContract.regenerateWhatsappToken, { params: { id } });

// Session routes (admins): try again, new QR (or a pairing code for a phone number), disconnect.
// They answer with a message only; the new session state arrives as a live event.
export const startSession = (id: number) =>
  call(whatsappSessionsContract.restartWhatsappSession, { params: { id } });
export const requestNewQr = (id: number, phoneNumber?: string) =>
  call(whatsappSessionsContract.renewWhatsappSession, {
    params: { id },
    body: phoneNumber ? { phoneNumber } : undefined,
  });
export const disconnectSession = (id: number) =>
  call(whatsappSessionsContract.disconnectWhatsappSession, { params: { id } });

// The simulator's virtual phone (provider 'simulator').
export const simulatorScan = (id: number) =>
  call(simulatorContract.simulatorScan, { params: { id } });
export const simulatorInbound = (
  id: number,
  input: { from: string; name?: string; body: string },
) => call(simulatorContract.simulatorInbound, { params: { id }, body: input });
// Both sides of the phone's chats, in order; with a number, the chat with that contact.
export const fetchSimulatorConversation = (id: number, number?: string) =>
  call(simulatorContract.listSimulatorConversation, {
    params: { id },
    query: number ? { number } : {},
  });
export const simulatorAck = (id: number, messageId: string, ack: number) =>
  call(simulatorContract.simulatorAck, { params: { id }, body: { id: messageId, ack } });
export const simulatorTyping = (id: number, from: string, typing: boolean) =>
  call(simulatorContract.simulatorTyping, { params: { id }, body: { from, typing } });
// The contact `from` reacts to a message of their chat (its provider id); '' takes it back.
export const simulatorReaction = (id: number, input: { from: string; id: string; emoji: string }) =>
  call(simulatorContract.simulatorReaction, { params: { id }, body: input });
export const simulatorDisconnect = (id: number) =>
  call(simulatorContract.simulatorDisconnect, { params: { id } });
