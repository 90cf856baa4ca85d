import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  whatsappsContract,
  type WhatsappEvent,
  type WhatsappSessionEvent,
  type WhatsappSessionView,
  type WhatsappView,
} from '@atendi/shared';
import { setLiveData } from '../../lib/paged-cache';
import { call } from '../http-client';
import { useCompanyEvent } from '../socket';

// The connections resource (GET /whatsapp): one cache key for the whole app (the connections page,
// the drawer badge, the dialogs of users, tickets and campaigns, the getting-started card), kept
// current by the company-{id}-whatsapp and -whatsappSession events while a screen shows it.

export const connectionKeys = {
  list: ['connections', 'list'] as const,
  detail: (id: number) => ['connections', 'detail', id] as const,
};

// SPEC §7: session=0 asks for the connection rows without the driver's live session object.
const withoutSession = { session: '0' };

const fetchConnections = () => call(whatsappsContract.listWhatsapps, { query: withoutSession });
const fetchConnection = (id: number) =>
  call(whatsappsContract.getWhatsapp, { params: { id }, query: withoutSession });

// Broadcasts leave the external-API and verify tokens out (no secret travels on a socket): keep the ones read.
const keepToken = (incoming: WhatsappView, previous: WhatsappView | undefined): WhatsappView => ({
  ...incoming,
  token: incoming.token ?? previous?.token ?? null,
  cloudVerifyToken: incoming.cloudVerifyToken ?? previous?.cloudVerifyToken ?? null,
});

// SPEC §4: create and update insert or replace, delete removes; the API lists by name.
export const applyWhatsappEvent = (list: WhatsappView[] | undefined, event: WhatsappEvent) => {
  if (!list) return list;
  if (event.action === 'delete') return list.filter((row) => row.id !== event.whatsappId);
  const others = list.filter((row) => row.id !== event.whatsapp.id);
  const previous = list.find((row) => row.id === event.whatsapp.id);
  return [...others, keepToken(event.whatsapp, previous)].sort((a, b) =>
    a.name.localeCompare(b.name),
  );
};

// A session update changes only the session fields of its row.
const applySessionUpdate = (list: WhatsappView[] | undefined, session: WhatsappSessionView) =>
  list?.map((row) => (row.id === session.id ? { ...row, ...session } : row));

export const applyWhatsappEventToCache = (queryClient: QueryClient, event: WhatsappEvent) => {
  setLiveData<WhatsappView[]>(queryClient, connectionKeys.list, (list) =>
    applyWhatsappEvent(list, event),
  );
  if (event.action === 'delete') {
    queryClient.removeQueries({ queryKey: connectionKeys.detail(event.whatsappId) });
  } else {
    setLiveData<WhatsappView>(queryClient, connectionKeys.detail(event.whatsapp.id), (row) =>
      row ? keepToken(event.whatsapp, row) : row,
    );
  }
};

const applySessionToCache = (queryClient: QueryClient, session: WhatsappSessionView) => {
  const cached = queryClient.getQueryData<WhatsappView[]>(connectionKeys.list);
  // A connection the list does not hold yet (its create event still on the way): read it again.
  if (cached && !cached.some((row) => row.id === session.id))
    void queryClient.invalidateQueries({ queryKey: connectionKeys.list });
  setLiveData<WhatsappView[]>(queryClient, connectionKeys.list, (list) =>
    applySessionUpdate(list, session),
  );
  setLiveData<WhatsappView>(queryClient, connectionKeys.detail(session.id), (row) =>
    row ? { ...row, ...session } : row,
  );
};

const useConnectionEvents = () => {
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

// GET /whatsapp: read again when a screen that shows it mounts, and kept current by live events
// while it is shown. Silent: the connections page shows its own error, and the drawer badge (on every
// screen of an admin) must not toast.
export const useConnections = ({ enabled = true } = {}) => {
  useConnectionEvents();
  return useQuery({
    queryKey: connectionKeys.list,
    queryFn: fetchConnections,
    enabled,
    staleTime: 0,
    meta: { silent: true },
  });
};

export const useConnection = (id: number) => {
  useConnectionEvents();
  return useQuery({
    queryKey: connectionKeys.detail(id),
    queryFn: () => fetchConnection(id),
    staleTime: 0,
  });
};
