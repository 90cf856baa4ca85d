declare global {
  // Global augmentation needs an interface; the server writes this in /runtime-config.js.
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions
  interface Window {
    __APP_CONFIG__?: { apiUrl?: string };
  }
}

const DEFAULT_API_URL = 'http://localhost:8080';

export const getApiUrl = (): string => {
  const runtime = typeof window === 'undefined' ? undefined : window.__APP_CONFIG__?.apiUrl;
  const url = runtime || (import.meta.env.VITE_API_URL as string | undefined) || DEFAULT_API_URL;
  return url.replace(/\/+$/, '');
};
