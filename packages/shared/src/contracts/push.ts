import { defineRoutes } from '../contract';
import { noContentResponse, okResponse } from '../responses';
import {
  pushEndpointQuery,
  pushLanguageSchema,
  pushPreferencesSchema,
  pushSubscriptionSchema,
  pushSubscriptionViewSchema,
  vapidPublicKeySchema,
} from '../push';

// Issue 41: Web Push for the signed-in user's own devices and preferences.
export const pushContract = defineRoutes('push', {
  getVapidPublicKey: {
    method: 'GET',
    path: '/push/vapid-public-key',
    summary: 'The server’s VAPID public key, for PushManager.subscribe',
    response: okResponse(vapidPublicKeySchema),
  },
  registerPushSubscription: {
    method: 'POST',
    path: '/push/subscriptions',
    summary: 'Register (or refresh) this device’s push subscription for the signed-in user',
    body: pushSubscriptionSchema,
    response: okResponse(pushSubscriptionViewSchema),
  },
  updatePushLanguage: {
    method: 'PATCH',
    path: '/push/subscriptions',
    summary:
      'The language of this device’s pushes (its app’s, chosen again); only the caller’s own device changes',
    body: pushLanguageSchema,
    response: noContentResponse,
  },
  deletePushSubscription: {
    method: 'DELETE',
    path: '/push/subscriptions',
    summary: 'Stop pushes to this device (its subscription, by endpoint)',
    query: pushEndpointQuery,
    response: noContentResponse,
  },
  getPushPreferences: {
    method: 'GET',
    path: '/push/preferences',
    summary: 'What the signed-in user is pushed about',
    response: okResponse(pushPreferencesSchema),
  },
  updatePushPreferences: {
    method: 'PUT',
    path: '/push/preferences',
    summary: 'Choose what the signed-in user is pushed about (on all their devices)',
    body: pushPreferencesSchema,
    response: okResponse(pushPreferencesSchema),
  },
});
