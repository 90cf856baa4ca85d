import { defineRoutes } from '../contract';
import { campaignSettingsBody, campaignSettingsListSchema } from '../campaigns';
import { okResponse } from '../responses';

// SPEC §7 Campaign settings: the company's sending pauses, opt-out words and variables, for admins of
// a company whose plan has campaigns. Answered as the stored key/value list (each value JSON text).
export const campaignSettingsContract = defineRoutes('campaigns', {
  listCampaignSettings: {
    method: 'GET',
    path: '/campaign-settings',
    summary: "Read the company's campaign settings",
    response: okResponse(campaignSettingsListSchema),
  },
  saveCampaignSettings: {
    method: 'POST',
    path: '/campaign-settings',
    summary: "Save the company's campaign settings",
    body: campaignSettingsBody,
    response: okResponse(campaignSettingsListSchema),
  },
});
