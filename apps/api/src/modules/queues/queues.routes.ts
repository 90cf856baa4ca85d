import type { FastifyInstance } from 'fastify';
import { queueOptionsContract as options, queuesContract as queues } from '@atendi/shared';
import { contractRoutes } from '../../platform/contract-routes';
import {
  createOption,
  createQueue,
  deleteOption,
  deleteQueue,
  getOption,
  getQueue,
  listOptions,
  listQueues,
  updateOption,
  updateQueue,
} from './queues.service';

export const queuesRoutes = async (app: FastifyInstance) => {
  const route = contractRoutes(app);
  const deps = app.deps;
  const { db } = deps;
  const manage = { access: { permission: 'queues:manage' as const } };

  // Every profile reads queues (transfer, filters); only admins change them.
  route(queues.listQueues, async (request) => listQueues(db, request.auth));
  route(queues.getQueue, async (request) => getQueue(db, request.auth, request.params.id));
  route(queues.createQueue, manage, async (request) =>
    createQueue(deps, request.auth, request.body),
  );
  route(queues.updateQueue, manage, async (request) =>
    updateQueue(deps, request.auth, request.params.id, request.body),
  );
  route(queues.deleteQueue, manage, async (request) => {
    await deleteQueue(deps, request.auth, request.params.id);
  });

  route(options.listQueueOptions, async (request) => listOptions(db, request.auth, request.query));
  route(options.getQueueOption, async (request) => getOption(db, request.auth, request.params.id));
  route(options.createQueueOption, manage, async (request) =>
    createOption(db, request.auth, request.body),
  );
  route(options.updateQueueOption, manage, async (request) =>
    updateOption(db, request.auth, request.params.id, request.body),
  );
  route(options.deleteQueueOption, manage, async (request) => {
    await deleteOption(db, request.auth, request.params.id);
  });
};
