import type { FastifyInstance } from 'fastify';
import { pushContract as push } from '@atendi/shared';
import { contractRoutes } from '../../platform/contract-routes';
import {
  deleteSubscription,
  preferencesOf,
  registerSubscription,
  updateLanguage,
  updatePreferences,
  vapidPublicKey,
} from './push.service';

// Issue 41: every signed-in user's own devices and preferences (the sending is in background.ts).
export const pushRoutes = async (app: FastifyInstance) => {
  const route = contractRoutes(app);
  const deps = app.deps;

  route(push.getVapidPublicKey, async () => vapidPublicKey(deps));
  route(push.registerPushSubscription, async (request) =>
    registerSubscription(deps, request.auth, request.body, request.headers['user-agent'] ?? ''),
  );
  route(push.updatePushLanguage, async (request) => {
    await updateLanguage(deps, request.auth, request.body);
  });
  route(push.deletePushSubscription, async (request) => {
    await deleteSubscription(deps, request.auth, request.query.endpoint);
  });
  route(push.getPushPreferences, async (request) => preferencesOf(deps.db, request.auth.userId));
  route(push.updatePushPreferences, async (request) =>
    updatePreferences(deps, request.auth, request.body),
  );
};
