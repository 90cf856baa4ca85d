import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import {
  CAMPAIGN_REPORT_REFRESH_MS,
  campaignsContract,
  type CampaignEvent,
  type CampaignReport,
  type CampaignShippingPage,
  type CampaignView,
  type ShippingStatus,
} from '@atendi/shared';
import { call } from '../../api/http-client';
import { useCompanyEvent } from '../../api/socket';
import { saveCsv } from '../../lib/save-file';
import type { PagedSource } from '../../lib/use-paged-list';
import { campaignKeys } from './campaigns.api';

export { campaignQuery } from './campaigns.api';

// While a campaign runs, its recipients table is asked again at most this often.
const SHIPPING_REFRESH_MS = 3000;

// The campaign's own entry is the one the campaigns page writes too, so either page's changes show in
// the other.
const campaignReportKeys = {
  detail: campaignKeys.detail,
  // Every cached search and status filter of one campaign's recipients.
  shipping: (id: number) => ['campaigns', 'shipping', id] as const,
  shippingList: (id: number, status: ShippingStatus | '', search: string) =>
    ['campaigns', 'shipping', id, status, search] as const,
};

const fetchCampaignShippingPage = (
  id: number,
  status: ShippingStatus | '',
  searchParam: string,
  pageNumber: number,
) =>
  call(campaignsContract.listCampaignShipping, {
    params: { id },
    // No status asks for every recipient.
    query: { searchParam, pageNumber, status: status || undefined },
  });

export const campaignShippingList = (
  id: number,
  status: ShippingStatus | '',
): PagedSource<'records', CampaignShippingPage> => ({
  queryKey: (search) => campaignReportKeys.shippingList(id, status, search),
  rowsKey: 'records',
  fetchPage: (search, pageNumber) => fetchCampaignShippingPage(id, status, search, pageNumber),
});

// SPEC §2 Campaign report: sent of valid contacts (the recipients the campaign messages, all but those
// it skipped because they had opted out). The headline, the percentage and the bar show the same
// figures, whatever the campaign's status.
export const reportFigures = (report: CampaignReport) => {
  const { valid, sent } = report;
  const progress = valid > 0 ? Math.min(100, Math.round((sent / valid) * 100)) : 0;
  return { valid, sent, progress };
};

// GET /campaigns/{id}/shipping.csv through the app's client (bearer token, refresh once and retry).
// The client answers a body that is not JSON as its text, which a CSV, starting with its header row,
// never is.
const fetchCampaignCsv = async (id: number) => {
  const body: unknown = await call(campaignsContract.exportCampaignShipping, { params: { id } });
  return typeof body === 'string' ? body : '';
};

const campaignCsvName = (id: number) => `campaign-${id}.csv`;

export const downloadCampaignCsv = async (id: number) =>
  saveCsv(await fetchCampaignCsv(id), campaignCsvName(id));

type Timer = ReturnType<typeof setTimeout>;

// company-{id}-campaign for the report of one campaign: an update replaces the campaign (status and
// report counts); while it runs, the recipients table is asked again at most every 3 s (the last
// change is never left out); once it finishes, campaign and recipients are read again 5 s later
// (SPEC §9), when the last sends have settled. A delete is handed to the page.
export const useCampaignReportLiveUpdates = (campaignId: number, onDeleted: () => void) => {
  const queryClient = useQueryClient();
  const cooldown = useRef<Timer | undefined>(undefined);
  const pendingRefresh = useRef(false);
  const finalRefresh = useRef<Timer | undefined>(undefined);

  useEffect(
    () => () => {
      clearTimeout(cooldown.current);
      clearTimeout(finalRefresh.current);
      cooldown.current = undefined;
      finalRefresh.current = undefined;
      pendingRefresh.current = false;
    },
    [campaignId],
  );

  const refreshShipping = () =>
    void queryClient.invalidateQueries({ queryKey: campaignReportKeys.shipping(campaignId) });

  const coolDown = () => {
    cooldown.current = setTimeout(() => {
      cooldown.current = undefined;
      if (!pendingRefresh.current) return;
      pendingRefresh.current = false;
      refreshShipping();
      coolDown();
    }, SHIPPING_REFRESH_MS);
  };

  const throttledRefreshShipping = () => {
    if (cooldown.current) {
      pendingRefresh.current = true;
      return;
    }
    refreshShipping();
    coolDown();
  };

  useCompanyEvent<CampaignEvent>('campaign', (event) => {
    if (!event || campaignId <= 0) return;
    if (event.action === 'delete') {
      if (event.id === campaignId) onDeleted();
      return;
    }
    const { record } = event;
    if (record?.id !== campaignId) return;
    const previous = queryClient.getQueryData<CampaignView>(campaignReportKeys.detail(campaignId));
    queryClient.setQueryData(campaignReportKeys.detail(campaignId), record);
    if (record.status === 'EM_ANDAMENTO') throttledRefreshShipping();
    if (record.status === 'FINALIZADA' && previous?.status !== 'FINALIZADA') {
      clearTimeout(finalRefresh.current);
      finalRefresh.current = setTimeout(() => {
        finalRefresh.current = undefined;
        void queryClient.invalidateQueries({ queryKey: campaignReportKeys.detail(campaignId) });
        refreshShipping();
      }, CAMPAIGN_REPORT_REFRESH_MS);
    }
  });
};
