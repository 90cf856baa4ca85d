import {
  useInfiniteQuery,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
} from '@tanstack/react-query';
import {
  queueIntegrationsContract,
  type IntegrationDeliveriesPage,
  type IntegrationEvent,
  type IntegrationInput,
  type IntegrationsPage,
  type IntegrationTestSessionInput,
  type IntegrationUpdateInput,
  type IntegrationView,
} from '@atendi/shared';
import { call } from '../../api/http-client';
import { applyIntegrationOptionEventToCache } from '../../api/queries/integrations';
import { useCompanyEvent } from '../../api/socket';
import { removeFromPages, updatePagedLists, upsertIntoPages } from '../../lib/paged-cache';
import type { PagedSource } from '../../lib/use-paged-list';

type IntegrationsData = InfiniteData<IntegrationsPage, number>;

const integrationsKeys = {
  lists: ['queue-integrations', 'page'] as const,
  list: (search: string) => ['queue-integrations', 'page', search] as const,
  deliveries: (id: number, failed: boolean) =>
    ['queue-integrations', 'deliveries', id, { failed }] as const,
};

const fetchIntegrationsPage = (searchParam: string, pageNumber: number) =>
  call(queueIntegrationsContract.listIntegrations, { query: { searchParam, pageNumber } });
export const createIntegration = (input: IntegrationInput) =>
  call(queueIntegrationsContract.createIntegration, { body: input });
export const updateIntegration = (id: number, input: IntegrationUpdateInput) =>
  call(queueIntegrationsContract.updateIntegration, { params: { id }, body: input });
export const deleteIntegration = (id: number) =>
  call(queueIntegrationsContract.deleteIntegration, { params: { id } });
const fetchDeliveriesPage = (id: number, failed: boolean, pageNumber: number) =>
  call(queueIntegrationsContract.listIntegrationDeliveries, {
    params: { id },
    query: { pageNumber, failed: failed ? 'true' : 'false' },
  });
// integrationId lets an edit test the stored key (jsonContent left ''), which the form never holds.
export const testDialogflowSession = (input: IntegrationTestSessionInput) =>
  call(queueIntegrationsContract.testDialogflowSession, { body: input });

// Newest first, 40 a page. Every opening reads them again: they pile up while the flow is in use.
// Silent: the dialog tells a failure in place.
export const useIntegrationDeliveries = (id: number, failed: boolean) =>
  useInfiniteQuery({
    queryKey: integrationsKeys.deliveries(id, failed),
    queryFn: ({ pageParam }) => fetchDeliveriesPage(id, failed, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last: IntegrationDeliveriesPage, pages: IntegrationDeliveriesPage[]) =>
      last.hasMore ? pages.length + 1 : undefined,
    staleTime: 0,
    meta: { silent: true },
  });

export const integrationsList: PagedSource<'queueIntegrations', IntegrationsPage> = {
  queryKey: integrationsKeys.list,
  rowsKey: 'queueIntegrations',
  fetchPage: fetchIntegrationsPage,
};

const matchesSearch = (name: string, search: string) =>
  name.toLowerCase().includes(search.trim().toLowerCase());

// SPEC §7 company-{id}-queueIntegration: create and update insert or replace, delete removes.
const applyIntegrationEvent = (
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
  // Events carry no signing secret (no secret travels on a socket): a listed row keeps the one read.
  const listed = data?.pages
    .flatMap((page) => page.queueIntegrations)
    .find((row) => row.id === record.id);
  const kept: IntegrationView = {
    ...record,
    signingSecret: record.signingSecret ?? listed?.signingSecret ?? null,
  };
  return upsertIntoPages(data, 'queueIntegrations', kept, true);
};

// The pickers' list (api/queries/integrations.ts) follows too.
export const applyIntegrationEventToCache = (queryClient: QueryClient, event: IntegrationEvent) => {
  updatePagedLists<IntegrationsData>(queryClient, integrationsKeys.lists, (data, search) =>
    applyIntegrationEvent(data, event, search),
  );
  applyIntegrationOptionEventToCache(queryClient, event);
};

export const useIntegrationLiveUpdates = () => {
  const queryClient = useQueryClient();
  useCompanyEvent<IntegrationEvent>('queueIntegration', (event) => {
    if (
      event?.action === 'delete' ? typeof event.integrationId === 'number' : event?.queueIntegration
    )
      applyIntegrationEventToCache(queryClient, event);
  });
};
