import { queryOptions } from '@tanstack/react-query';
import {
  campaignSettingsContract,
  campaignSettingsOf,
  type CampaignSettings,
} from '@atendi/shared';
import { call } from '../../api/http-client';

// The campaigns page reads the same list (the variables its message editor offers) under this key, so
// a save shows there at once.
export const campaignSettingsKey = ['campaigns', 'settings'] as const;

// GET /campaign-settings answers the SPEC's key/value list (each value JSON text).
const fetchCampaignSettings = () => call(campaignSettingsContract.listCampaignSettings);

// POST /campaign-settings { settings }: answers the stored list.
export const saveCampaignSettings = (settings: Partial<CampaignSettings>) =>
  call(campaignSettingsContract.saveCampaignSettings, { body: { settings } });

// The settings as the form edits them, the defaults standing in for keys never saved. Its failure is
// shown by the page.
export const campaignSettingsQuery = queryOptions({
  queryKey: campaignSettingsKey,
  queryFn: fetchCampaignSettings,
  select: campaignSettingsOf,
  meta: { silent: true },
});

// Variable keys typed twice: every row after the first with the same key (the server keeps the first).
export const duplicateKeyRows = (variables: { key: string }[]) => {
  const seen = new Set<string>();
  return variables.map(({ key }) => {
    const trimmed = key.trim();
    if (!trimmed) return false;
    if (seen.has(trimmed)) return true;
    seen.add(trimmed);
    return false;
  });
};
