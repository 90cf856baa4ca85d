import { useQueryClient, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import type {
  IntegrationEvent,
  IntegrationInput,
  IntegrationsPage,
  IntegrationUpdateInput,
  IntegrationView,
} from '@atendi/shared';
import { api } from '../../api/http-client';
import { useCompanyEvent } from '../../api/socket';
import { removeFromPages, updatePagedLists, upsertIntoPages } from '../../lib/paged-cache';
import type { PagedSource } from '../../lib/use-paged-list';

type IntegrationsData = InfiniteData<IntegrationsPage, number>;

export const integrationsKeys = {
  lists: ['queue-integrations', 'page'] as const,
  list: (search: string) => ['queue-integrations', 'page', search] as const,
};

export const fetchIntegrationsPage = (searchParam: string, pageNumber: number) =>
  api.get<IntegrationsPage>('/queueIntegration', { query: { searchParam, pageNumber } });
export const createIntegration = (input: IntegrationInput) =>
  api.post<IntegrationView>('/queueIntegration', input);
export const updateIntegration = (id: number, input: IntegrationUpdateInput) =>
  api.put<IntegrationView>(`/queueIntegration/${id}`, input);
export const deleteIntegration = (id: number) =>
  api.delete<{ message: string }>(`/queueIntegration/${id}`);

export const integrationsList: PagedSource<'queueIntegrations', IntegrationsPage> = {
  queryKey: integrationsKeys.list,
  rowsKey: 'queueIntegrations',
  fetchPage: fetchIntegrationsPage,
};

const matchesSearch = (name: string, search: string) =>
  name.toLowerCase().includes(search.trim().toLowerCase());

// SPEC §7 company-{id}-queueIntegration: create and update insert or replace, delete removes.
export const applyIntegrationEvent = (
  data: IntegrationsData | undefined,
  event: IntegrationEvent,
  search: string,
): IntegrationsData | undefined => {
  if (event.action === 'delete')
    return removeFromPages(data, 'queueIntegrations', event.integrationId);
  const { queueIntegration: record } = event;
  // A rename can take an integration out of the current search.
  if (!matchesSearch(record.name, search))
    return removeFromPages(data, 'queueIntegrations', record.id);
  return upsertIntoPages(data, 'queueIntegrations', record, true);
};

export const applyIntegrationEventToCache = (queryClient: QueryClient, event: IntegrationEvent) =>
  updatePagedLists<IntegrationsData>(queryClient, integrationsKeys.lists, (data, search) =>
    applyIntegrationEvent(data, event, search),
  );

export const useIntegrationLiveUpdates = () => {
  const queryClient = useQueryClient();
  useCompanyEvent<IntegrationEvent>('queueIntegration', (event) => {
    if (
      event?.action === 'delete' ? typeof event.integrationId === 'number' : event?.queueIntegration
    )
      applyIntegrationEventToCache(queryClient, event);
  });
};
