import { z } from 'zod';
import { defineRoutes } from '../contract';
import { errorResponseSchema, noContentResponse, okResponse } from '../responses';
import { idParam } from '../schemas';
import {
  ssoCallbackQuery,
  ssoConfigInputSchema,
  ssoDiscoverySchema,
  ssoEmailQuery,
  ssoSettingsSchema,
} from '../sso';

// A browser sent on elsewhere (the Location header): no body.
const redirect = (description: string) =>
  ({ 302: z.undefined().describe(description), '4xx': errorResponseSchema }) as const;

// Issue 37: single sign-on with OpenID Connect, per company. The sign-in itself is a browser's
// round trip: start (to the provider, with state, nonce and PKCE), callback (back, to the web app).
export const ssoContract = defineRoutes('sso', {
  discoverSso: {
    method: 'GET',
    path: '/auth/sso',
    summary: 'Whether an email signs in with its company’s SSO, and whether a password still works',
    isPublic: true,
    query: ssoEmailQuery,
    response: okResponse(ssoDiscoverySchema),
  },
  startSso: {
    method: 'GET',
    path: '/auth/sso/start',
    summary: 'Send the browser to the identity provider of the email’s company',
    description:
      'Answers 302 to the provider (authorization code flow with PKCE, state and nonce), or to the ' +
      'web login page with ?ssoError= when the email has no SSO or the provider cannot be reached.',
    isPublic: true,
    query: ssoEmailQuery,
    response: redirect('To the identity provider, or back to the login page with the error'),
  },
  finishSso: {
    method: 'GET',
    path: '/auth/sso/callback',
    summary: 'Where the identity provider sends the browser back; signs in and opens the web app',
    description:
      'The redirect URI to register at the provider. Answers 302 to the web app with the session ' +
      'cookie, or to its login page with ?ssoError=.',
    isPublic: true,
    query: ssoCallbackQuery,
    response: redirect('To the web app, signed in, or to its login page with the error'),
  },
  getSso: {
    method: 'GET',
    path: '/companies/:id/sso',
    summary: 'Read the company’s single sign-on (the client secret is never answered)',
    params: idParam,
    response: okResponse(ssoSettingsSchema),
  },
  updateSso: {
    method: 'PUT',
    path: '/companies/:id/sso',
    summary: 'Set up the company’s single sign-on; the provider’s discovery is checked first',
    params: idParam,
    body: ssoConfigInputSchema,
    response: okResponse(ssoSettingsSchema),
  },
  deleteSso: {
    method: 'DELETE',
    path: '/companies/:id/sso',
    summary: 'Remove the company’s single sign-on (passwords work again)',
    params: idParam,
    response: noContentResponse,
  },
});
