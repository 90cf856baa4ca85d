import { z } from 'zod';
import { defineRoutes } from '../contract';
import {
  campaignSchema,
  campaignSettingsBody,
  campaignSettingsListSchema,
  campaignShippingPageSchema,
  campaignShippingQuery,
  campaignsPageSchema,
  campaignsQuery,
  campaignUpdateSchema,
  campaignViewSchema,
} from '../campaigns';
import { createdResponse, errorResponseSchema, noContentResponse, okResponse } from '../responses';
import { idParam } from '../schemas';

const one = okResponse(campaignViewSchema);

// SPEC §7 Campaigns: admins of a company whose plan has campaigns.
export const campaignsContract = defineRoutes('campaigns', {
  listCampaigns: {
    method: 'GET',
    path: '/campaigns',
    summary: 'List campaigns, a page at a time',
    query: campaignsQuery,
    response: okResponse(campaignsPageSchema),
  },
  getCampaign: {
    method: 'GET',
    path: '/campaigns/:id',
    summary: 'Read one campaign',
    params: idParam,
    response: one,
  },
  createCampaign: {
    method: 'POST',
    path: '/campaigns',
    summary: 'Create a campaign',
    body: campaignSchema,
    response: createdResponse(campaignViewSchema),
  },
  updateCampaign: {
    method: 'PUT',
    path: '/campaigns/:id',
    summary: 'Change a campaign',
    params: idParam,
    body: campaignUpdateSchema,
    response: one,
  },
  deleteCampaign: {
    method: 'DELETE',
    path: '/campaigns/:id',
    summary: 'Delete a campaign',
    params: idParam,
    response: noContentResponse,
  },
  uploadCampaignMedia: {
    method: 'POST',
    path: '/campaigns/:id/media-upload',
    summary: "Attach a file to a campaign's messages",
    params: idParam,
    consumes: ['multipart/form-data'],
    response: one,
  },
  removeCampaignMedia: {
    method: 'DELETE',
    path: '/campaigns/:id/media-upload',
    summary: "Remove a campaign's file",
    params: idParam,
    response: one,
  },
  cancelCampaign: {
    method: 'POST',
    path: '/campaigns/:id/cancel',
    summary: "Stop a campaign's sending",
    params: idParam,
    response: one,
  },
  restartCampaign: {
    method: 'POST',
    path: '/campaigns/:id/restart',
    summary: "Resume a cancelled campaign's sending",
    params: idParam,
    response: one,
  },
  listCampaignShipping: {
    method: 'GET',
    path: '/campaigns/:id/shipping',
    summary: "List a campaign's recipients and how far each got",
    params: idParam,
    query: campaignShippingQuery,
    response: okResponse(campaignShippingPageSchema),
  },
  exportCampaignShipping: {
    method: 'GET',
    path: '/campaigns/:id/shipping.csv',
    summary: "Download a campaign's recipients as CSV",
    params: idParam,
    // An attachment; errors are JSON as everywhere.
    response: {
      200: {
        description: 'The recipients, one row each',
        content: {
          'text/csv': {
            schema: z
              .string()
              .describe('number;name;variant;status;receipt;sentAt;confirmedAt;optedOutAt;error'),
          },
        },
      },
      '4xx': errorResponseSchema,
    },
  },
});

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
