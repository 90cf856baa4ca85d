import { useQuery, type QueryClient } from '@tanstack/react-query';
import { templatesContract, type TemplateList } from '@atendi/shared';
import { call } from '../http-client';

// A Cloud API connection's message templates (GET /whatsapp/{id}/templates): the copy the platform
// keeps, read by the connections page's templates dialog, the campaign form and the chat's template
// dialog under one cache key per connection.

export const templateKeys = {
  list: (whatsappId: number) => ['templates', whatsappId] as const,
};

const fetchTemplates = (whatsappId: number) =>
  call(templatesContract.listTemplates, { params: { id: whatsappId } });

// A fresh copy read from the WhatsApp Business Account (admins: connections-page:editOrDeleteConnection).
export const syncTemplates = (whatsappId: number) =>
  call(templatesContract.syncTemplates, { params: { id: whatsappId } });

// What a sync answered is the list every screen shows from then on.
export const setTemplates = (queryClient: QueryClient, whatsappId: number, list: TemplateList) =>
  queryClient.setQueryData(templateKeys.list(whatsappId), list);

// null: the connection is not a Cloud API one, so it has no templates. Silent: the caller says so in
// place instead of a toast.
export const useTemplates = (whatsappId: number | null, { enabled = true, silent = false } = {}) =>
  useQuery({
    queryKey: templateKeys.list(whatsappId ?? 0),
    queryFn: () => fetchTemplates(whatsappId ?? 0),
    enabled: enabled && whatsappId !== null,
    staleTime: 0,
    meta: { silent },
  });
