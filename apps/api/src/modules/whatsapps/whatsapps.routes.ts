import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createdResponse,
  idParam,
  messageResponseSchema,
  noContentResponse,
  okResponse,
  simulatorAckSchema,
  simulatorInboundResultSchema,
  simulatorInboundSchema,
  simulatorContactsSchema,
  simulatorOutboundQuery,
  simulatorOutboundViewSchema,
  simulatorScanSchema,
  simulatorTypingSchema,
  whatsappSchema,
  whatsappSessionSchema,
  whatsappTokenSchema,
  whatsappUpdateSchema,
  whatsappViewSchema,
} from '@atendi/shared';
import { AppError } from '../../platform/errors';
import { listOutbound, spoolMedia } from '../../channels/simulator/simulator-driver';
import {
  createWhatsapp,
  deleteWhatsapp,
  findWhatsapp,
  getWhatsapp,
  listWhatsapps,
  regenerateToken,
  sessionAction,
  updateWhatsapp,
} from './whatsapps.service';

type SimulatorScan = z.output<typeof simulatorScanSchema>;
type SimulatorInboundResult = z.output<typeof simulatorInboundResultSchema>;

// SPEC §7 sends ?session=0 (leave the session data out); we never send session data anyway.
const sessionQuery = z.object({ session: z.string().max(10).optional() });

export const whatsappsRoutes = async (root: FastifyInstance) => {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const deps = app.deps;
  const { db } = deps;
  const tags = ['whatsapp'];
  const add = { access: { permission: 'connections-page:addConnection' as const } };
  const edit = { access: { permission: 'connections-page:editOrDeleteConnection' as const } };
  const act = { access: { permission: 'connections-page:actionButtons' as const } };
  const one = okResponse(whatsappViewSchema);
  const sessionAnswer = okResponse(messageResponseSchema);

  // Every profile reads connections (transfer and new-ticket dialogs); only admins change them.
  app.get(
    '/whatsapp',
    {
      schema: {
        summary: "List the company's connections, by name",
        operationId: 'listWhatsapps',
        tags,
        querystring: sessionQuery,
        response: okResponse(z.array(whatsappViewSchema)),
      },
    },
    async (request) => listWhatsapps(db, request.auth),
  );
  app.get(
    '/whatsapp/:id',
    {
      schema: {
        summary: 'Read one connection',
        operationId: 'getWhatsapp',
        tags,
        params: idParam,
        querystring: sessionQuery,
        response: one,
      },
    },
    async (request) => getWhatsapp(db, request.auth, request.params.id),
  );
  app.post(
    '/whatsapp',
    {
      schema: {
        summary: 'Create a connection',
        operationId: 'createWhatsapp',
        tags,
        body: whatsappSchema,
        response: createdResponse(whatsappViewSchema),
      },
      config: add,
    },
    async (request, reply) =>
      reply.status(201).send(await createWhatsapp(deps, request.auth, request.body)),
  );
  app.put(
    '/whatsapp/:id',
    {
      schema: {
        summary: 'Change a connection',
        operationId: 'updateWhatsapp',
        tags,
        params: idParam,
        body: whatsappUpdateSchema,
        response: one,
      },
      config: edit,
    },
    async (request) => updateWhatsapp(deps, request.auth, request.params.id, request.body),
  );
  app.delete(
    '/whatsapp/:id',
    {
      schema: {
        summary: 'Delete a connection without tickets',
        operationId: 'deleteWhatsapp',
        tags,
        params: idParam,
        response: noContentResponse,
      },
      config: edit,
    },
    async (request, reply) => {
      await deleteWhatsapp(deps, request.auth, request.params.id);
      return reply.status(204).send();
    },
  );
  // A new external-API token (the old one stops working at once).
  app.post(
    '/whatsapp/:id/token',
    {
      schema: {
        summary: 'Issue a new external-API token (the old one stops working)',
        operationId: 'regenerateWhatsappToken',
        tags,
        params: idParam,
        response: okResponse(whatsappTokenSchema),
      },
      config: edit,
    },
    async (request) => regenerateToken(deps, request.auth, request.params.id),
  );

  const sessionTags = ['whatsappsession'];
  app.post(
    '/whatsappsession/:id',
    {
      schema: {
        summary: "Start the connection's session again, keeping its pairing",
        operationId: 'restartWhatsappSession',
        tags: sessionTags,
        params: idParam,
        response: sessionAnswer,
      },
      config: act,
    },
    async (request) => sessionAction(deps, request.auth, request.params.id, 'restart'),
  );
  app.put(
    '/whatsappsession/:id',
    {
      schema: {
        summary: 'Forget the pairing: a new QR code, or a pairing code for a phone number',
        operationId: 'renewWhatsappSession',
        tags: sessionTags,
        params: idParam,
        body: whatsappSessionSchema,
        response: sessionAnswer,
      },
      config: act,
    },
    async (request) =>
      sessionAction(deps, request.auth, request.params.id, 'newQr', request.body?.phoneNumber),
  );
  app.delete(
    '/whatsappsession/:id',
    {
      schema: {
        summary: "Log the connection's session out",
        operationId: 'disconnectWhatsappSession',
        tags: sessionTags,
        params: idParam,
        response: sessionAnswer,
      },
      config: act,
    },
    async (request) => sessionAction(deps, request.auth, request.params.id, 'disconnect'),
  );

  if (!deps.config.simulatorEnabled) return;

  // The simulator's virtual phone (SIMULATOR_ENABLED), for the demo and the tests.
  const simTags = ['simulator'];
  const simulated = async (companyId: number, id: number) => {
    const row = await findWhatsapp(db, { companyId }, id);
    if (row.provider !== 'simulator')
      throw new AppError('ERR_NO_WAPP_FOUND', 'Not a simulator connection');
    return row;
  };
  app.post(
    '/simulator/:id/scan',
    {
      schema: {
        summary: 'Simulator: the phone scans the QR code',
        operationId: 'simulatorScan',
        tags: simTags,
        params: idParam,
        response: okResponse(simulatorScanSchema),
      },
      config: act,
    },
    async (request) => {
      await simulated(request.auth.companyId, request.params.id);
      // The driver's extras answer unknown; the response schema checks what goes out.
      return (await deps.channels.extra(request.params.id, 'scan')) as SimulatorScan;
    },
  );
  app.post(
    '/simulator/:id/inbound',
    {
      schema: {
        summary: 'Simulator: a contact sends a message',
        operationId: 'simulatorInbound',
        tags: simTags,
        params: idParam,
        body: simulatorInboundSchema,
        response: okResponse(simulatorInboundResultSchema),
      },
      config: act,
      bodyLimit: 20 * 1024 * 1024,
    },
    async (request) => {
      await simulated(request.auth.companyId, request.params.id);
      const { mediaBase64, ...message } = request.body;
      const mediaPath = mediaBase64
        ? await spoolMedia(deps.simulatorSpool, mediaBase64)
        : undefined;
      return (await deps.channels.extra(request.params.id, 'inbound', {
        ...message,
        mediaPath,
      })) as SimulatorInboundResult;
    },
  );
  app.get(
    '/simulator/:id/outbound',
    {
      schema: {
        summary: 'Simulator: what the phone received, a page at a time',
        operationId: 'listSimulatorOutbound',
        tags: simTags,
        params: idParam,
        querystring: simulatorOutboundQuery,
        response: okResponse(z.array(simulatorOutboundViewSchema)),
      },
      config: act,
    },
    async (request) => {
      await simulated(request.auth.companyId, request.params.id);
      return listOutbound(db, request.params.id, request.query.pageNumber);
    },
  );
  app.post(
    '/simulator/:id/ack',
    {
      schema: {
        summary: 'Simulator: the phone acknowledges a message',
        operationId: 'simulatorAck',
        tags: simTags,
        params: idParam,
        body: simulatorAckSchema,
        response: noContentResponse,
      },
      config: act,
    },
    async (request, reply) => {
      await simulated(request.auth.companyId, request.params.id);
      await deps.channels.extra(request.params.id, 'ack', request.body);
      return reply.status(204).send();
    },
  );
  app.post(
    '/simulator/:id/typing',
    {
      schema: {
        summary: 'Simulator: a contact starts or stops typing',
        operationId: 'simulatorTyping',
        tags: simTags,
        params: idParam,
        body: simulatorTypingSchema,
        response: noContentResponse,
      },
      config: act,
    },
    async (request, reply) => {
      await simulated(request.auth.companyId, request.params.id);
      await deps.channels.extra(request.params.id, 'typing', request.body);
      return reply.status(204).send();
    },
  );
  app.post(
    '/simulator/:id/contacts',
    {
      schema: {
        summary: "Simulator: the phone's address book",
        operationId: 'simulatorContacts',
        tags: simTags,
        params: idParam,
        body: simulatorContactsSchema,
        response: noContentResponse,
      },
      config: act,
    },
    async (request, reply) => {
      await simulated(request.auth.companyId, request.params.id);
      await deps.channels.extra(request.params.id, 'contacts', request.body);
      return reply.status(204).send();
    },
  );
  app.post(
    '/simulator/:id/disconnect',
    {
      schema: {
        summary: 'Simulator: the phone drops the session',
        operationId: 'simulatorDisconnect',
        tags: simTags,
        params: idParam,
        response: noContentResponse,
      },
      config: act,
    },
    async (request, reply) => {
      await simulated(request.auth.companyId, request.params.id);
      await deps.channels.extra(request.params.id, 'disconnect');
      return reply.status(204).send();
    },
  );
};
