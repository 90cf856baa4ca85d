import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type {
  SimulatorOutboundView,
  TemplateList,
  WhatsappEvent,
  WhatsappInput,
  WhatsappSessionEvent,
  WhatsappSessionView,
  WhatsappUpdateInput,
  WhatsappView,
} from '@atendi/shared';
import { api } from '../../api/http-client';
import { useCompanyEvent } from '../../api/socket';
import { setLiveData } from '../../lib/paged-cache';

export type Connection = WhatsappView;
export type QueueChoice = { id: number; name: string; color: string };

export const connectionsKeys = {
  // The page, the QR dialog and the drawer badge share this list so live events reach all three.
  list: ['connections', 'list'] as const,
  detail: (id: number) => ['connections', 'detail', id] as const,
  queueChoices: ['connections', 'queue-choices'] as const,
  outbound: (id: number) => ['connections', 'simulator-outbound', id] as const,
  templates: (id: number) => ['connections', 'templates', id] as const,
};

// SPEC §7: session=0 asks for the connection rows without the driver's live session object.
const withoutSession = { query: { session: 0 } };

export const fetchConnections = () => api.get<Connection[]>('/whatsapp', withoutSession);
export const fetchConnection = (id: number) =>
  api.get<Connection>(`/whatsapp/${id}`, withoutSession);
export const createConnection = (input: WhatsappInput) => api.post<Connection>('/whatsapp', input);
export const updateConnection = (id: number, input: WhatsappUpdateInput) =>
  api.put<Connection>(`/whatsapp/${id}`, input);
export const deleteConnection = (id: number) => api.delete(`/whatsapp/${id}`);
export const regenerateToken = (id: number) => api.post<{ token: string }>(`/whatsapp/${id}/token`);

// Session routes (admins): try again, new QR (or a pairing code for a phone number), disconnect.
// They answer with a message only; the new session state arrives as a live event.
export const startSession = (id: number) => api.post<unknown>(`/whatsappsession/${id}`);
export const requestNewQr = (id: number, phoneNumber?: string) =>
  api.put<unknown>(`/whatsappsession/${id}`, phoneNumber ? { phoneNumber } : undefined);
export const disconnectSession = (id: number) => api.delete<unknown>(`/whatsappsession/${id}`);

// The simulator's virtual phone (provider 'simulator').
export const simulatorScan = (id: number) => api.post<unknown>(`/simulator/${id}/scan`);
export const simulatorInbound = (
  id: number,
  input: { from: string; name?: string; body: string },
) => api.post<{ id: string }>(`/simulator/${id}/inbound`, input);
export const fetchSimulatorOutbound = (id: number) =>
  api.get<SimulatorOutboundView[]>(`/simulator/${id}/outbound`);
export const simulatorAck = (id: number, messageId: string, ack: number) =>
  api.post(`/simulator/${id}/ack`, { id: messageId, ack });
export const simulatorTyping = (id: number, from: string, typing: boolean) =>
  api.post(`/simulator/${id}/typing`, { from, typing });
export const simulatorDisconnect = (id: number) => api.post(`/simulator/${id}/disconnect`);

// A Cloud API connection's message templates: the copy the platform keeps, and a fresh copy read from
// the WhatsApp Business Account (admins).
export const fetchTemplates = (id: number) => api.get<TemplateList>(`/whatsapp/${id}/templates`);
export const syncTemplates = (id: number) =>
  api.post<TemplateList>(`/whatsapp/${id}/templates/sync`);

// The queue picker needs only ids, names and colours.
const fetchQueueChoices = () => api.get<QueueChoice[]>('/queue');

// Silent: the page shows its own error, and the drawer badge must not toast on every screen.
export const useConnections = (enabled = true) =>
  useQuery({
    queryKey: connectionsKeys.list,
    queryFn: fetchConnections,
    enabled,
    meta: { silent: true },
  });

export const useConnection = (id: number) =>
  useQuery({
    queryKey: connectionsKeys.detail(id),
    queryFn: () => fetchConnection(id),
    staleTime: 0,
  });

// Silent: the templates dialog shows its own error.
export const useTemplates = (id: number) =>
  useQuery({
    queryKey: connectionsKeys.templates(id),
    queryFn: () => fetchTemplates(id),
    staleTime: 0,
    meta: { silent: true },
  });

export const useQueueChoices = () =>
  useQuery({ queryKey: connectionsKeys.queueChoices, queryFn: fetchQueueChoices, staleTime: 0 });

// SPEC §4: create and update insert or replace, delete removes; the API lists by name.
export const applyWhatsappEvent = (list: Connection[] | undefined, event: WhatsappEvent) => {
  if (!list) return list;
  if (event.action === 'delete') return list.filter((row) => row.id !== event.whatsappId);
  const others = list.filter((row) => row.id !== event.whatsapp.id);
  const previous = list.find((row) => row.id === event.whatsapp.id);
  return [...others, keepToken(event.whatsapp, previous)].sort((a, b) =>
    a.name.localeCompare(b.name),
  );
};

// Broadcasts leave the external-API and verify tokens out (no secret travels on a socket): keep the ones read.
const keepToken = (incoming: Connection, previous: Connection | undefined): Connection => ({
  ...incoming,
  token: incoming.token ?? previous?.token ?? null,
  cloudVerifyToken: incoming.cloudVerifyToken ?? previous?.cloudVerifyToken ?? null,
});

// A session update changes only the session fields of its row.
export const applySessionUpdate = (list: Connection[] | undefined, session: WhatsappSessionView) =>
  list?.map((row) => (row.id === session.id ? { ...row, ...session } : row));

export const applyWhatsappEventToCache = (queryClient: QueryClient, event: WhatsappEvent) => {
  setLiveData<Connection[]>(queryClient, connectionsKeys.list, (list) =>
    applyWhatsappEvent(list, event),
  );
  if (event.action === 'delete') {
    queryClient.removeQueries({ queryKey: connectionsKeys.detail(event.whatsappId) });
  } else {
    setLiveData<Connection>(queryClient, connectionsKeys.detail(event.whatsapp.id), (row) =>
      row ? keepToken(event.whatsapp, row) : row,
    );
  }
};

export const applySessionToCache = (queryClient: QueryClient, session: WhatsappSessionView) => {
  setLiveData<Connection[]>(queryClient, connectionsKeys.list, (list) =>
    applySessionUpdate(list, session),
  );
  setLiveData<Connection>(queryClient, connectionsKeys.detail(session.id), (row) =>
    row ? { ...row, ...session } : row,
  );
};

export const useConnectionsLiveUpdates = () => {
  const queryClient = useQueryClient();
  useCompanyEvent<WhatsappEvent>('whatsapp', (event) => {
    if (event?.action === 'delete' || event?.whatsapp)
      applyWhatsappEventToCache(queryClient, event);
  });
  useCompanyEvent<WhatsappSessionEvent>('whatsappSession', (event) => {
    if (event?.action === 'update' && event.session)
      applySessionToCache(queryClient, event.session);
  });
};
