import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import {
  campaignSettingsContract as campaignSettings,
  campaignsContract as campaigns,
  messageMediaExtensions,
  MESSAGE_MEDIA_MAX_BYTES,
} from '@atendi/shared';
import { auditAs } from '../../platform/audit';
import { contractRoutes } from '../../platform/contract-routes';
import { sendCsv } from '../../platform/csv';
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
export const campaignsRoutes = async (app: FastifyInstance) => {
  const route = contractRoutes(app);
  const deps = app.deps;
  const config = {
    access: { permission: 'campaigns:manage' as const, planFeature: 'useCampaigns' as const },
  };
  const dispatcher = dispatchControls(deps.jobs);

  route(campaigns.listCampaigns, config, async (request) =>
    listCampaigns(deps, request.auth, request.query),
  );
  route(campaigns.getCampaign, config, async (request) =>
    getCampaign(deps, request.auth, request.params.id),
  );
  route(campaigns.createCampaign, config, async (request) =>
    createCampaign(deps, request.auth, request.body, dispatcher.startDue),
  );
  route(campaigns.updateCampaign, config, async (request) =>
    updateCampaign(deps, request.auth, request.params.id, request.body, dispatcher.startDue),
  );
  route(campaigns.deleteCampaign, config, async (request) => {
    await deleteCampaign(deps, request.auth, request.params.id);
  });
  route(campaigns.uploadCampaignMedia, config, async (request) => {
    // Check the campaign first so a refused request stores nothing.
    const owner = await campaignMediaOwner(deps, request.auth, request.params.id);
    const file = await deps.uploads.receive(request, uploaderOf(request, owner), mediaRule);
    try {
      return await setCampaignMedia(deps, request.auth, request.params.id, file);
    } catch (error) {
      await deps.uploads.remove(owner, file.storedName);
      throw error;
    }
  });
  route(campaigns.removeCampaignMedia, config, async (request) =>
    setCampaignMedia(deps, request.auth, request.params.id, null),
  );
  route(campaigns.cancelCampaign, config, async (request) =>
    cancelCampaign(deps, request.auth, request.params.id),
  );
  route(campaigns.restartCampaign, config, async (request) =>
    restartCampaign(deps, request.auth, request.params.id, {
      ensure: ensureDispatch,
      kick: dispatcher.kick,
    }),
  );
  route(campaigns.listCampaignShipping, config, async (request) =>
    listShipping(deps, request.auth, request.params.id, request.query),
  );
  route(campaigns.exportCampaignShipping, config, async (request, reply) => {
    const chunks = shippingCsv(deps, request.auth, request.params.id);
    // The first chunk (the header) comes after the ownership check, so a 404 is still an error body.
    const first = await chunks.next();
    const name = `campaign-${request.params.id}.csv`;
    // Issue 37: who downloaded which campaign's recipients.
    await auditAs(deps.db, request.auth, {
      action: 'export.campaign',
      target: `file:${name}`,
      detail: { campaignId: request.params.id },
    });
    return sendCsv(
      reply,
      name,
      // Streamed: the declared text schema documents it; Fastify sends a stream as it comes.
      Readable.from(
        (async function* () {
          if (!first.done) yield first.value;
          yield* chunks;
        })(),
      ),
    );
  });

  route(campaignSettings.listCampaignSettings, config, async (request) =>
    listCampaignSettings(deps, request.auth),
  );
  route(campaignSettings.saveCampaignSettings, config, async (request) =>
    saveCampaignSettings(deps, request.auth, request.body.settings),
  );
};
