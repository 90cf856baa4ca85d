import type { FastifyHelmetOptions } from '@fastify/helmet';

type Directives = Record<string, string[]>;

const policy = (directives: Directives) => ({ useDefaults: false as const, directives });

// What both servers send besides their Content-Security-Policy (helmet adds nosniff and the rest).
const common = {
  xFrameOptions: { action: 'deny' as const },
  // Only honoured over HTTPS (the proxy's business); the operator's other subdomains are not ours.
  strictTransportSecurity: { maxAge: 15_552_000, includeSubDomains: false },
  // Would refuse the API's media in the web app (no CORP header on a page's cross-origin <img>).
  crossOriginEmbedderPolicy: false,
};

// The API answers JSON: nothing in it may load anything, be framed or be a form's target.
export const apiHelmetOptions: FastifyHelmetOptions = {
  ...common,
  contentSecurityPolicy: policy({
    'default-src': ["'none'"],
    'base-uri': ["'none'"],
    'form-action': ["'none'"],
    'frame-ancestors': ["'none'"],
  }),
  // The web app runs on another origin (port 3000 vs 8080, or another site when a CDN serves it) and
  // shows uploads in <img>/<audio>: helmet's same-origin would block them. Signed links guard uploads.
  crossOriginResourcePolicy: { policy: 'cross-origin' },
  referrerPolicy: { policy: 'no-referrer' },
};

// An upload opened in its own tab (an image, a PDF): the browser's viewer needs its inline styles
// and the file itself; no script of the file runs.
export const uploadCsp = policy({
  'default-src': ["'none'"],
  'img-src': ["'self'"],
  'media-src': ["'self'"],
  'object-src': ["'self'"],
  'style-src': ["'unsafe-inline'"],
  'frame-ancestors': ["'none'"],
});

// Swagger UI at /docs: its scripts and styles from /docs/static (it sets inline styles), and
// "Try it out" calls this API.
export const docsCsp = [
  "default-src 'self'",
  "base-uri 'self'",
  "connect-src 'self'",
  "font-src 'self' data:",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "img-src 'self' data:",
  "object-src 'none'",
  "script-src 'self'",
  "script-src-attr 'none'",
  "style-src 'self' 'unsafe-inline'",
].join('; ');

// The API's origin and its WebSocket twin (socket.io), or nothing when PUBLIC_API_URL is not absolute.
const apiOrigins = (apiUrl: string) => {
  try {
    const { origin, protocol, host } = new URL(apiUrl);
    if (protocol !== 'http:' && protocol !== 'https:') return [];
    return [origin, `${protocol === 'https:' ? 'wss' : 'ws'}://${host}`];
  } catch {
    return [];
  }
};

// The web app's policy: its own bundle only ('self', no inline script), MUI/emotion's injected
// styles, media from the API (signed upload links), blob:/data: previews and recorded audio, the
// API over HTTP and socket.io, and the help centre's YouTube thumbnails and player.
const webCspDirectives = (apiUrl: string): Directives => {
  const [api, apiSocket] = apiOrigins(apiUrl);
  const fromApi = api ? [api] : [];
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:', ...fromApi, 'https://img.youtube.com'],
    'media-src': ["'self'", 'data:', 'blob:', ...fromApi],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'", ...fromApi, ...(apiSocket ? [apiSocket] : [])],
    'frame-src': ['https://www.youtube.com'],
    'worker-src': ["'self'", 'blob:'],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
};

export const webHelmetOptions = (apiUrl: string): FastifyHelmetOptions => ({
  ...common,
  contentSecurityPolicy: policy(webCspDirectives(apiUrl)),
  // YouTube's embedded player refuses to play without the page's origin as referrer.
  referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
});
