import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import {
  simulatorContract as simulator,
  whatsappSessionsContract as sessions,
  whatsappsContract as whatsapps,
  type simulatorInboundResultSchema,
  type simulatorScanSchema,
} from '@atendi/shared';
import { AppError } from '../../platform/errors';
import { contractRoutes } from '../../platform/contract-routes';
import {
  listConversation,
  listOutbound,
  spoolMedia,
} from '../../channels/simulator/simulator-driver';
import {
  createWhatsapp,
  deleteWhatsapp,
  getWhatsapp,
  listWhatsapps,
  providerOf,
  regenerateToken,
  sessionAction,
  updateWhatsapp,
} from './whatsapps.service';
import { connectionHistoryOf } from './connection-health';

type SimulatorScan = z.output<typeof simulatorScanSchema>;
type SimulatorInboundResult = z.output<typeof simulatorInboundResultSchema>;

export const whatsappsRoutes = async (app: FastifyInstance) => {
  const route = contractRoutes(app);
  const deps = app.deps;
  const { db } = deps;
  const add = { access: { permission: 'connections-page:addConnection' as const } };
  const edit = { access: { permission: 'connections-page:editOrDeleteConnection' as const } };
  const act = { access: { permission: 'connections-page:actionButtons' as const } };

  // Every profile reads connections (transfer and new-ticket dialogs); only admins change them.
  route(whatsapps.listWhatsapps, async (request) => listWhatsapps(db, request.auth));
  route(whatsapps.getWhatsapp, async (request) => getWhatsapp(db, request.auth, request.params.id));
  route(whatsapps.createWhatsapp, add, async (request) =>
    createWhatsapp(deps, request.auth, request.body),
  );
  route(whatsapps.updateWhatsapp, edit, async (request) =>
    updateWhatsapp(deps, request.auth, request.params.id, request.body),
  );
  route(whatsapps.deleteWhatsapp, edit, async (request) => {
    await deleteWhatsapp(deps, request.auth, request.params.id);
  });
  // A new external-API token (the old one stops working at once).
  route(whatsapps.getWhatsappHistory, act, async (request) =>
    connectionHistoryOf(db, request.auth, request.params.id),
  );
  route(whatsapps.regenerateWhatsappToken, edit, async (request) =>
    regenerateToken(deps, request.auth, request.params.id),
  );

  route(sessions.restartWhatsappSession, act, async (request) =>
    sessionAction(deps, request.auth, request.params.id, 'restart'),
  );
  route(sessions.renewWhatsappSession, act, async (request) =>
    sessionAction(deps, request.auth, request.params.id, 'newQr', request.body?.phoneNumber),
  );
  route(sessions.disconnectWhatsappSession, act, async (request) =>
    sessionAction(deps, request.auth, request.params.id, 'disconnect'),
  );

  if (!deps.config.simulatorEnabled) return;

  // The simulator's virtual phone (SIMULATOR_ENABLED), for the demo and the tests. A phone whose
  // session runs on this node is known without a read (a busy phone calls hundreds of times a second).
  const simulated = async (companyId: number, id: number) => {
    const here = deps.channels.runningHere(id);
    if (here?.companyId === companyId && here.provider === 'simulator') return;
    if ((await providerOf(db, { companyId }, id)) !== 'simulator')
      throw new AppError('ERR_NO_WAPP_FOUND', 'Not a simulator connection');
  };
  route(simulator.simulatorScan, act, async (request) => {
    await simulated(request.auth.companyId, request.params.id);
    // The driver's extras answer unknown; the response schema checks what goes out.
    return (await deps.channels.extra(request.params.id, 'scan')) as SimulatorScan;
  });
  route(simulator.simulatorInbound, { ...act, bodyLimit: 20 * 1024 * 1024 }, async (request) => {
    await simulated(request.auth.companyId, request.params.id);
    const { mediaBase64, ...message } = request.body;
    const mediaPath = mediaBase64 ? await spoolMedia(deps.simulatorSpool, mediaBase64) : undefined;
    return (await deps.channels.extra(request.params.id, 'inbound', {
      ...message,
      mediaPath,
    })) as SimulatorInboundResult;
  });
  route(simulator.listSimulatorOutbound, act, async (request) => {
    await simulated(request.auth.companyId, request.params.id);
    return listOutbound(db, request.params.id, request.query.pageNumber);
  });
  route(simulator.listSimulatorConversation, act, async (request) => {
    await simulated(request.auth.companyId, request.params.id);
    return listConversation(db, request.params.id, request.query);
  });
  route(simulator.simulatorAck, act, async (request) => {
    await simulated(request.auth.companyId, request.params.id);
    await deps.channels.extra(request.params.id, 'ack', request.body);
  });
  route(simulator.simulatorTyping, act, async (request) => {
    await simulated(request.auth.companyId, request.params.id);
    await deps.channels.extra(request.params.id, 'typing', request.body);
  });
  route(simulator.simulatorReaction, act, async (request) => {
    await simulated(request.auth.companyId, request.params.id);
    await deps.channels.extra(request.params.id, 'reaction', request.body);
  });
  route(simulator.simulatorContacts, act, async (request) => {
    await simulated(request.auth.companyId, request.params.id);
    await deps.channels.extra(request.params.id, 'contacts', request.body);
  });
  route(simulator.simulatorDisconnect, act, async (request) => {
    await simulated(request.auth.companyId, request.params.id);
    await deps.channels.extra(request.params.id, 'disconnect');
  });
};
