import { useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { ticketsContract } from '@atendi/shared';
import { call } from '../../api/http-client';
import { useConnections } from '../../api/queries/connections';
import { useQueues } from '../../api/queries/queues';
import { useUserOptions } from '../../api/queries/users';
import { useCompanyEvent } from '../../api/socket';
import { readStorage, storageKeys, writeStorage } from '../../lib/storage';

export type StepKey = 'queue' | 'connection' | 'agent' | 'testMessage';

const gettingStartedKeys = {
  tickets: ['getting-started', 'tickets'] as const,
};

const fetchTickets = () =>
  call(ticketsContract.listTickets, { query: { showAll: 'true', pageNumber: 1 } });

// Fresh on each visit; a failed check leaves its step open rather than toasting on the home page.
const useStepQuery = <T>(queryKey: QueryKey, queryFn: () => Promise<T>, enabled: boolean) =>
  useQuery({ queryKey, queryFn, enabled, staleTime: 0, meta: { silent: true } });

// A change another tab or user makes ticks its step without a reload.
const useRefreshOn = (event: string, queryKey: QueryKey) => {
  const queryClient = useQueryClient();
  useCompanyEvent(event, () => void queryClient.invalidateQueries({ queryKey }));
};

// Which of the four first steps the company has done, read from the lists the API already serves
// (queues, connections and users from the app's shared queries, which follow their live events);
// null while any is still loading.
export const useGettingStartedSteps = (
  myUserId: number,
  enabled: boolean,
): Record<StepKey, boolean> | null => {
  const queues = useQueues({ enabled, silent: true });
  const connections = useConnections({ enabled });
  const users = useUserOptions({ enabled, silent: true });
  const tickets = useStepQuery(gettingStartedKeys.tickets, fetchTickets, enabled);
  useRefreshOn('ticket', gettingStartedKeys.tickets);
  if ([queues, connections, users, tickets].some((query) => query.isPending)) return null;
  return {
    queue: (queues.data ?? []).length > 0,
    connection: (connections.data ?? []).some((connection) => connection.status === 'CONNECTED'),
    agent: (users.data ?? []).some((user) => user.id !== myUserId),
    testMessage: (tickets.data?.tickets.length ?? 0) > 0,
  };
};

// The companies (ids) whose admin closed the card or finished every step, on this browser.
const closedCompanies = () =>
  (readStorage(storageKeys.gettingStartedClosed) ?? '').split(',').filter(Boolean);

export const isGettingStartedClosed = (companyId: number) =>
  closedCompanies().includes(String(companyId));

export const closeGettingStarted = (companyId: number) => {
  if (isGettingStartedClosed(companyId)) return;
  writeStorage(
    storageKeys.gettingStartedClosed,
    [...closedCompanies(), String(companyId)].join(','),
  );
};
