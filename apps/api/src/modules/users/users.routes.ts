import type { FastifyInstance } from 'fastify';
import { usersContract as users } from '@atendi/shared';
import { contractRoutes } from '../../platform/contract-routes';
import { choosePresence } from '../presence';
import {
  createUser,
  deleteUser,
  getUser,
  listUsers,
  listUsersBrief,
  updateUser,
} from './users.service';

export const usersRoutes = async (app: FastifyInstance) => {
  const route = contractRoutes(app);
  const deps = app.deps;
  const { db } = deps;
  const manage = { access: { permission: 'users:manage' as const } };

  route(users.listUsers, manage, async (request) => listUsers(db, request.auth, request.query));
  route(users.listUserOptions, async (request) =>
    listUsersBrief(db, request.auth, request.query.companyId),
  );
  route(users.getUser, async (request) => getUser(db, request.auth, request.params.id));
  route(users.createUser, manage, async (request) => createUser(deps, request.auth, request.body));
  // Users edit themselves (profile dialog); the service refuses what their profile may not change.
  route(users.updateUser, async (request) =>
    updateUser(deps, request.auth, request.params.id, request.body),
  );
  // One's own availability; presence follows from it and from one's sockets.
  route(users.setPresence, async (request) =>
    choosePresence(deps, request.auth, request.body.availability),
  );
  route(users.deleteUser, manage, async (request) => {
    await deleteUser(deps, request.auth, request.params.id);
  });
};
