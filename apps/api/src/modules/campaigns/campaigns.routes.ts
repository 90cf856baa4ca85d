import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  campaignSchema,
  campaignSettingsContract as campaignSettings,
  campaignShippingPageSchema,
  campaignShippingQuery,
  campaignsPageSchema,
  campaignsQuery,
  campaignUpdateSchema,
  campaignViewSchema,
  createdResponse,
  idParam,
  messageMediaExtensions,
  MESSAGE_MEDIA_MAX_BYTES,
  noContentResponse,
  okResponse,
} from '@atendi/shared';
import { contractRoutes } from '../../platform/contract-routes';
import { uploaderOf, type UploadRule } from '../../platform/uploads';
import { dispatchControls, ensureDispatch } from './campaign-dispatcher';
import {
  campaignMediaOwner,
  cancelCampaign,
  createCampaign,
  deleteCampaign,
  getCampaign,
  listCampaigns,
  listCampaignSettings,
  listShipping,
  restartCampaign,
  saveCampaignSettings,
  setCampaignMedia,
  shippingCsv,
  updateCampaign,
} from './campaigns.service';

const mediaRule: UploadRule = {
  extensions: messageMediaExtensions,
  maxBytes: MESSAGE_MEDIA_MAX_BYTES,
};

// SPEC §7 "Campaigns": admins of a company whose plan has campaigns. The sending is the dispatcher's
// (campaign-dispatcher.ts, run from background.ts).
export const campaignsRoutes = async (root: FastifyInstance) => {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const route = contractRoutes(app);
  const deps = app.deps;
  const tags = ['campaigns'];
  const config = {
    access: { permission: 'campaigns:manage' as const, planFeature: 'useCampaigns' as const },
  };
  const one = okResponse(campaignViewSchema);
  const dispatcher = dispatchControls(deps.jobs);

  app.get(
    '/campaigns',
    {
      schema: {
        summary: 'List campaigns, a page at a time',
        operationId: 'listCampaigns',
        tags,
        querystring: campaignsQuery,
        response: okResponse(campaignsPageSchema),
      },
      config,
    },
    async (request) => listCampaigns(deps, request.auth, request.query),
  );
  app.get(
    '/campaigns/:id',
    {
      schema: {
        summary: 'Read one campaign',
        operationId: 'getCampaign',
        tags,
        params: idParam,
        response: one,
      },
      config,
    },
    async (request) => getCampaign(deps, request.auth, request.params.id),
  );
  app.post(
    '/campaigns',
    {
      schema: {
        summary: 'Create a campaign',
        operationId: 'createCampaign',
        tags,
        body: campaignSchema,
        response: createdResponse(campaignViewSchema),
      },
      config,
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await createCampaign(deps, request.auth, request.body, dispatcher.startDue)),
  );
  app.put(
    '/campaigns/:id',
    {
      schema: {
        summary: 'Change a campaign',
        operationId: 'updateCampaign',
        tags,
        params: idParam,
        body: campaignUpdateSchema,
        response: one,
      },
      config,
    },
    async (request) =>
      updateCampaign(deps, request.auth, request.params.id, request.body, dispatcher.startDue),
  );
  app.delete(
    '/campaigns/:id',
    {
      schema: {
        summary: 'Delete a campaign',
        operationId: 'deleteCampaign',
        tags,
        params: idParam,
        response: noContentResponse,
      },
      config,
    },
    async (request, reply) => {
      await deleteCampaign(deps, request.auth, request.params.id);
      return reply.status(204).send();
    },
  );
  app.post(
    '/campaigns/:id/media-upload',
    {
      schema: {
        summary: "Attach a file to a campaign's messages",
        operationId: 'uploadCampaignMedia',
        tags,
        params: idParam,
        consumes: ['multipart/form-data'],
        response: one,
      },
      config,
    },
    async (request) => {
      // Check the campaign first so a refused request stores nothing.
      const owner = await campaignMediaOwner(deps, request.auth, request.params.id);
      const file = await deps.uploads.receive(request, uploaderOf(request, owner), mediaRule);
      try {
        return await setCampaignMedia(deps, request.auth, request.params.id, file);
      } catch (error) {
        await deps.uploads.remove(owner, file.storedName);
        throw error;
      }
    },
  );
  app.delete(
    '/campaigns/:id/media-upload',
    {
      schema: {
        summary: "Remove a campaign's file",
        operationId: 'removeCampaignMedia',
        tags,
        params: idParam,
        response: one,
      },
      config,
    },
    async (request) => setCampaignMedia(deps, request.auth, request.params.id, null),
  );
  app.post(
    '/campaigns/:id/cancel',
    {
      schema: {
        summary: "Stop a campaign's sending",
        operationId: 'cancelCampaign',
        tags,
        params: idParam,
        response: one,
      },
      config,
    },
    async (request) => cancelCampaign(deps, request.auth, request.params.id),
  );
  app.post(
    '/campaigns/:id/restart',
    {
      schema: {
        summary: "Resume a cancelled campaign's sending",
        operationId: 'restartCampaign',
        tags,
        params: idParam,
        response: one,
      },
      config,
    },
    async (request) =>
      restartCampaign(deps, request.auth, request.params.id, {
        ensure: ensureDispatch,
        kick: dispatcher.kick,
      }),
  );
  app.get(
    '/campaigns/:id/shipping',
    {
      schema: {
        summary: "List a campaign's recipients and how far each got",
        operationId: 'listCampaignShipping',
        tags,
        params: idParam,
        querystring: campaignShippingQuery,
        response: okResponse(campaignShippingPageSchema),
      },
      config,
    },
    async (request) => listShipping(deps, request.auth, request.params.id, request.query),
  );
  app.get(
    '/campaigns/:id/shipping.csv',
    {
      schema: {
        summary: "Download a campaign's recipients as CSV",
        operationId: 'exportCampaignShipping',
        tags,
        params: idParam,
        // Answered as text/csv (an attachment); errors are JSON as everywhere.
        response: okResponse(
          z.string().describe('text/csv: number,name,variant,status,deliveredAt,confirmedAt,error'),
        ),
      },
      config,
    },
    async (request, reply) => {
      const chunks = shippingCsv(deps, request.auth, request.params.id);
      // The first chunk (the header) comes after the ownership check, so a 404 is still an error body.
      const first = await chunks.next();
      return reply
        .type('text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="campaign-${request.params.id}.csv"`)
        .send(
          // Streamed: the declared string schema documents it; the serializer leaves streams alone.
          Readable.from(
            (async function* () {
              if (!first.done) yield first.value;
              yield* chunks;
            })(),
          ) as unknown as string,
        );
    },
  );

  route(campaignSettings.listCampaignSettings, config, async (request) =>
    listCampaignSettings(deps, request.auth),
  );
  route(campaignSettings.saveCampaignSettings, config, async (request) =>
    saveCampaignSettings(deps, request.auth, request.body.settings),
  );
};
