import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  queueIntegrationsContract,
  type IntegrationEvent,
  type IntegrationOption,
} from '@atendi/shared';
import { setLiveData } from '../../lib/paged-cache';
import { call } from '../http-client';
import { useCompanyEvent } from '../socket';

// Every integration of the company (GET /queueIntegration/list: the "Integration" select of
// connections and queues): one cache key for the whole app, kept current by the
// company-{id}-queueIntegration events while a screen shows it.

const integrationOptionKeys = { list: ['queue-integrations', 'options'] as const };

const fetchIntegrationOptions = () => call(queueIntegrationsContract.listIntegrationOptions);

// The API's order: by name, then id.
const byName = (a: IntegrationOption, b: IntegrationOption) =>
  a.name.localeCompare(b.name) || a.id - b.id;

// SPEC §7: create and update insert or replace, delete removes.
const applyIntegrationOptionEvent = (
  list: IntegrationOption[] | undefined,
  event: IntegrationEvent,
) => {
  if (!list) return list;
  if (event.action === 'delete') return list.filter((row) => row.id !== event.integrationId);
  const { id, name, type } = event.queueIntegration;
  return [...list.filter((row) => row.id !== id), { id, name, type }].sort(byName);
};

export const applyIntegrationOptionEventToCache = (
  queryClient: QueryClient,
  event: IntegrationEvent,
) =>
  setLiveData<IntegrationOption[]>(queryClient, integrationOptionKeys.list, (list) =>
    applyIntegrationOptionEvent(list, event),
  );

// Read again when a screen that shows it mounts, and kept current by live events while it is shown.
// Silent: the caller shows its own error instead of a toast. `select` picks what a screen shows.
export const useIntegrationOptions = <Shown = IntegrationOption[]>({
  silent = false,
  select,
}: { silent?: boolean; select?: (options: IntegrationOption[]) => Shown } = {}) => {
  const queryClient = useQueryClient();
  useCompanyEvent<IntegrationEvent>('queueIntegration', (event) => {
    if (
      event?.action === 'delete' ? typeof event.integrationId === 'number' : event?.queueIntegration
    )
      applyIntegrationOptionEventToCache(queryClient, event);
  });
  return useQuery({
    queryKey: integrationOptionKeys.list,
    queryFn: fetchIntegrationOptions,
    staleTime: 0,
    meta: { silent },
    select,
  });
};
