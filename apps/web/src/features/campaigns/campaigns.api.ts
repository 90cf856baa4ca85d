import {
  queryOptions,
  useQuery,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
} from '@tanstack/react-query';
import {
  campaignsContract,
  contactListsContract,
  filesContract,
  type CampaignEvent,
  type CampaignInput,
  type CampaignsPage,
  type CampaignUpdateInput,
} from '@atendi/shared';
import { call } from '../../api/http-client';
import { useSession } from '../../api/session';
import { useCompanyEvent } from '../../api/socket';
import { removeFromPages, updatePagedLists, upsertIntoPages } from '../../lib/paged-cache';
import type { PagedSource } from '../../lib/use-paged-list';
import { campaignSettingsQuery } from './campaign-settings.api';

type CampaignsData = InfiniteData<CampaignsPage, number>;

export const campaignKeys = {
  lists: ['campaigns', 'page'] as const,
  list: (search: string) => ['campaigns', 'page', search] as const,
  detail: (id: number) => ['campaigns', 'detail', id] as const,
  // What the campaign form picks from (connections, tags and templates: api/queries/, shared).
  contactLists: ['campaigns', 'options', 'contact-lists'] as const,
  fileLists: (companyId: number) => ['campaigns', 'options', 'file-lists', companyId] as const,
};

const fetchCampaignsPage = (searchParam: string, pageNumber: number) =>
  call(campaignsContract.listCampaigns, { query: { searchParam, pageNumber } });
const fetchCampaign = (id: number) => call(campaignsContract.getCampaign, { params: { id } });
export const createCampaign = (input: CampaignInput) =>
  call(campaignsContract.createCampaign, { body: input });
export const updateCampaign = (id: number, input: CampaignUpdateInput) =>
  call(campaignsContract.updateCampaign, { params: { id }, body: input });
export const deleteCampaign = (id: number) =>
  call(campaignsContract.deleteCampaign, { params: { id } });
export const cancelCampaign = (id: number) =>
  call(campaignsContract.cancelCampaign, { params: { id } });
export const restartCampaign = (id: number) =>
  call(campaignsContract.restartCampaign, { params: { id } });

// One attachment per campaign, sent with its message: multipart field `file`.
export const uploadCampaignMedia = (id: number, file: File) => {
  const body = new FormData();
  body.append('file', file);
  return call(campaignsContract.uploadCampaignMedia, { params: { id }, body });
};
export const deleteCampaignMedia = (id: number) =>
  call(campaignsContract.removeCampaignMedia, { params: { id } });

// The pickers of the form: every contact list, tag, connection and file list of the company.
const fetchContactListOptions = () => call(contactListsContract.listAllContactLists);
// With companyId, GET /files answers every list of the company in one page.
const fetchFileListOptions = (companyId: number) =>
  call(filesContract.listFileLists, { query: { companyId } });

export const useContactListOptions = () =>
  useQuery({ queryKey: campaignKeys.contactLists, queryFn: fetchContactListOptions, staleTime: 0 });
export const useFileListOptions = () => {
  const companyId = useSession().session?.user.companyId ?? 0;
  return useQuery({
    queryKey: campaignKeys.fileLists(companyId),
    queryFn: () => fetchFileListOptions(companyId),
    select: (page) => page.files,
    enabled: companyId > 0,
    staleTime: 0,
  });
};
// The company's variables ({{key}}) offered beside the built-in ones.
export const useCampaignSettings = () => useQuery(campaignSettingsQuery);

export const campaignsList: PagedSource<'records', CampaignsPage> = {
  queryKey: campaignKeys.list,
  rowsKey: 'records',
  fetchPage: fetchCampaignsPage,
};

// One campaign (the report page); its failure is shown by the page.
export const campaignQuery = (id: number) =>
  queryOptions({
    queryKey: campaignKeys.detail(id),
    queryFn: () => fetchCampaign(id),
    meta: { silent: true },
  });

// The API's search: the term inside the name.
const matchesSearch = (name: string, search: string) =>
  name.toLowerCase().includes(search.trim().toLowerCase());

// SPEC §4: create and update insert or replace (a new campaign goes first: the API lists newest
// first), delete removes; a rename can take a row out of the current search.
const applyCampaignEvent = (
  data: CampaignsData | undefined,
  event: CampaignEvent,
  search: string,
): CampaignsData | undefined => {
  if (event.action === 'delete') return removeFromPages(data, 'records', event.id);
  const { record } = event;
  if (!matchesSearch(record.name, search)) return removeFromPages(data, 'records', record.id);
  return upsertIntoPages(data, 'records', record, true);
};

export const applyCampaignEventToCache = (queryClient: QueryClient, event: CampaignEvent) => {
  updatePagedLists<CampaignsData>(queryClient, campaignKeys.lists, (data, search) =>
    applyCampaignEvent(data, event, search),
  );
  if (event.action === 'delete')
    // A report open on it asks again and shows that the campaign is gone.
    void queryClient.invalidateQueries({ queryKey: campaignKeys.detail(event.id) });
  else queryClient.setQueryData(campaignKeys.detail(event.record.id), event.record);
};

const isCampaignEvent = (event: CampaignEvent | undefined): event is CampaignEvent =>
  event?.action === 'delete'
    ? typeof event.id === 'number'
    : Boolean(event && 'record' in event && event.record);

// company-{id}-campaign: { action, record } or { action: 'delete', id }. A running campaign is told
// again after every step, with its fresh report counts and status.
export const useCampaignLiveUpdates = () => {
  const queryClient = useQueryClient();
  useCompanyEvent<CampaignEvent | undefined>('campaign', (event) => {
    if (isCampaignEvent(event)) applyCampaignEventToCache(queryClient, event);
  });
};
