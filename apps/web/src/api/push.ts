import { languageOr, pushContract } from '@atendi/shared';
import { i18n } from '../i18n/i18n';
import { call } from './http-client';

// Issue 41, Web Push on this device: the browser's side of it. The app's service worker shows the
// pushes when it has one (it imports /push-sw.js); until then, /push-sw.js is registered on its own,
// never over another registration.

export type PushState = 'unsupported' | 'denied' | 'off' | 'on';

const PUSH_WORKER = '/push-sw.js';

const pushSupported = () =>
  typeof navigator !== 'undefined' &&
  'serviceWorker' in navigator &&
  typeof window !== 'undefined' &&
  'PushManager' in window &&
  'Notification' in window;

// The VAPID public key (base64url) as PushManager.subscribe takes it.
const keyBytes = (base64url: string) => {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '='));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
};

const sameKey = (a: ArrayBuffer, b: Uint8Array) => {
  const left = new Uint8Array(a);
  return left.length === b.length && left.every((byte, i) => byte === b[i]);
};

const currentSubscription = async () => {
  const registration = await navigator.serviceWorker.getRegistration();
  return (await registration?.pushManager.getSubscription()) ?? null;
};

// The app's language on this device: its pushes are written in it.
const appLanguage = () => languageOr(i18n.resolvedLanguage);

export const pushState = async (): Promise<PushState> => {
  if (!pushSupported()) return 'unsupported';
  if (Notification.permission === 'denied') return 'denied';
  return (await currentSubscription()) ? 'on' : 'off';
};

// Asks for permission, subscribes this browser with the server's key, and registers it for the
// signed-in user (again if it was: the server refreshes it, or takes it from another user).
export const enablePush = async (): Promise<PushState> => {
  if (!pushSupported()) return 'unsupported';
  if ((await Notification.requestPermission()) !== 'granted') return 'denied';
  if (!(await navigator.serviceWorker.getRegistration()))
    await navigator.serviceWorker.register(PUSH_WORKER);
  const registration = await navigator.serviceWorker.ready;
  const { publicKey } = await call(pushContract.getVapidPublicKey);
  let subscription = await registration.pushManager.getSubscription();
  // Made with another key (the server's pair changed): the push service would refuse our pushes.
  const key = subscription?.options.applicationServerKey;
  if (subscription && key && !sameKey(key, keyBytes(publicKey))) {
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await registration.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: keyBytes(publicKey),
  });
  const { endpoint, keys } = subscription.toJSON();
  await call(pushContract.registerPushSubscription, {
    body: {
      endpoint: endpoint ?? subscription.endpoint,
      keys: { p256dh: keys?.p256dh ?? '', auth: keys?.auth ?? '' },
      language: appLanguage(),
    },
  });
  return 'on';
};

// The app's language chosen again: this device's pushes follow it (the server changes only a device
// of the signed-in user). Best effort: the language itself is already changed.
export const followLanguageInPushes = async () => {
  if (!pushSupported() || Notification.permission !== 'granted') return;
  const subscription = await currentSubscription();
  if (!subscription) return;
  await call(pushContract.updatePushLanguage, {
    body: { endpoint: subscription.endpoint, language: appLanguage() },
  }).catch(() => undefined);
};

// Stops pushes to this browser: the server forgets it, and the browser's subscription ends.
export const disablePush = async (): Promise<PushState> => {
  const subscription = pushSupported() ? await currentSubscription() : null;
  if (subscription) {
    await call(pushContract.deletePushSubscription, {
      query: { endpoint: subscription.endpoint },
    });
    await subscription.unsubscribe();
  }
  return pushState();
};
