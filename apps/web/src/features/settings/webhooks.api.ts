import {
  webhookEndpointsContract,
  type WebhookDeliveryStatus,
  type WebhookEndpoint,
  type WebhookEndpointCreateInput,
  type WebhookEndpointUpdateInput,
} from '@atendi/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../api/http-client';

// Issue 38: the company's outbound webhooks (admins): its endpoints, their signing secrets and each
// one's delivery log. The secret comes in what creating answers, and after that only when asked.
const endpointsKey = ['webhook-endpoints'] as const;
const deliveriesKey = (endpointId: number) => [...endpointsKey, endpointId, 'deliveries'] as const;

type EndpointList = { endpoints: WebhookEndpoint[] };

export const useWebhookEndpoints = () =>
  useQuery({
    queryKey: endpointsKey,
    queryFn: () => call(webhookEndpointsContract.listWebhookEndpoints),
    // The tab says a failure itself.
    meta: { silent: true },
  });

export const useCreateWebhookEndpoint = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: WebhookEndpointCreateInput) =>
      call(webhookEndpointsContract.createWebhookEndpoint, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: endpointsKey, exact: true }),
    // The dialog says a refusal under its fields.
    meta: { silent: true },
  });
};

const replaceEndpoint = (list: EndpointList | undefined, endpoint: WebhookEndpoint) =>
  list && {
    endpoints: list.endpoints.map((item) => (item.id === endpoint.id ? endpoint : item)),
  };

const useSetEndpoint = () => {
  const queryClient = useQueryClient();
  return (endpoint: WebhookEndpoint) => {
    queryClient.setQueryData<EndpointList>(endpointsKey, (list) => replaceEndpoint(list, endpoint));
    return queryClient.invalidateQueries({ queryKey: endpointsKey, exact: true });
  };
};

// The edit dialog's save (silent: it says a refusal under its fields).
export const useUpdateWebhookEndpoint = () => {
  const setEndpoint = useSetEndpoint();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: WebhookEndpointUpdateInput }) =>
      call(webhookEndpointsContract.updateWebhookEndpoint, { params: { id }, body }),
    onSuccess: setEndpoint,
    meta: { silent: true },
  });
};

// A row's on/off: a failure is toasted like any mutation's.
export const useToggleWebhookEndpoint = () => {
  const setEndpoint = useSetEndpoint();
  return useMutation({
    mutationFn: ({ id, enabled }: { id: number; enabled: boolean }) =>
      call(webhookEndpointsContract.updateWebhookEndpoint, { params: { id }, body: { enabled } }),
    onSuccess: setEndpoint,
  });
};

export const deleteWebhookEndpoint = (id: number) =>
  call(webhookEndpointsContract.deleteWebhookEndpoint, { params: { id } });

// After deleting: gone from the list at once, then the list as the server has it.
export const useForgetWebhookEndpoint = () => {
  const queryClient = useQueryClient();
  return (id: number) => {
    queryClient.setQueryData<EndpointList>(
      endpointsKey,
      (list) => list && { endpoints: list.endpoints.filter((item) => item.id !== id) },
    );
    queryClient.removeQueries({ queryKey: [...endpointsKey, id] });
    void queryClient.invalidateQueries({ queryKey: endpointsKey, exact: true });
  };
};

// Asked each time the secret is shown (the server records who saw it): never kept once the dialog
// closes, never asked again on its own.
export const useWebhookSecret = (id: number) =>
  useQuery({
    queryKey: [...endpointsKey, id, 'secret'],
    queryFn: () => call(webhookEndpointsContract.getWebhookEndpointSecret, { params: { id } }),
    gcTime: 0,
    staleTime: Infinity,
    meta: { silent: true },
  });

// Sends the test event now; what it answers is the delivery (in the log too). The endpoint's health
// and its log may have changed with it.
export const useTestWebhookEndpoint = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      call(webhookEndpointsContract.testWebhookEndpoint, { params: { id } }),
    // Not waited for: the outcome is said at once.
    onSuccess: (_delivery, id) => {
      void queryClient.invalidateQueries({ queryKey: endpointsKey, exact: true });
      void queryClient.invalidateQueries({ queryKey: deliveriesKey(id) });
    },
  });
};

export const DELIVERIES_PAGE_SIZE = 20;
// While a delivery shown waits to be sent (a replay, a retry), the log is read again this often.
const PENDING_REFRESH_MS = 5000;

export const useWebhookDeliveries = (
  endpointId: number,
  status: WebhookDeliveryStatus | undefined,
  pageNumber: number,
) =>
  useQuery({
    queryKey: [...deliveriesKey(endpointId), 'list', { status: status ?? null, pageNumber }],
    queryFn: () =>
      call(webhookEndpointsContract.listWebhookDeliveries, {
        params: { id: endpointId },
        query: { ...(status ? { status } : {}), pageNumber },
      }),
    // The page being left stays on screen until the next one is in.
    placeholderData: keepPreviousData,
    staleTime: 0,
    refetchInterval: (query) =>
      query.state.data?.deliveries.some((delivery) => delivery.status === 'pending')
        ? PENDING_REFRESH_MS
        : false,
    meta: { silent: true },
  });

export const useWebhookDelivery = (endpointId: number, deliveryId: number) =>
  useQuery({
    queryKey: [...deliveriesKey(endpointId), 'detail', deliveryId],
    queryFn: () =>
      call(webhookEndpointsContract.getWebhookDelivery, {
        params: { id: endpointId, deliveryId },
      }),
    staleTime: 0,
    refetchInterval: (query) =>
      query.state.data?.status === 'pending' ? PENDING_REFRESH_MS : false,
    meta: { silent: true },
  });

// Sends a delivery again; the log (and the endpoint's health) then read as the server has them.
export const useReplayWebhookDelivery = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ endpointId, deliveryId }: { endpointId: number; deliveryId: number }) =>
      call(webhookEndpointsContract.replayWebhookDelivery, {
        params: { id: endpointId, deliveryId },
      }),
    onSuccess: (_delivery, { endpointId }) => {
      void queryClient.invalidateQueries({ queryKey: endpointsKey, exact: true });
      void queryClient.invalidateQueries({ queryKey: deliveriesKey(endpointId) });
    },
  });
};
