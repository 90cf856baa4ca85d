import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { pushPreferenceDefaults, type PushPreferences } from '@atendi/shared';
import { callsOf, jsonResponse, makeAuth, stubApi } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';

// Issue 41: "Notificaciones push" in the account menu. jsdom has no service workers nor push: the
// browser's side is stood in for with the few calls the section makes (register, ready,
// pushManager.getSubscription/subscribe, unsubscribe, Notification.requestPermission).

const PUBLIC_KEY =
  'BAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJygpKissLS4vMDEyMzQ1Njc4OTo7PD0-P0A';
const ENDPOINT = 'https://push.example.net/send/abc123';

const fakeBrowser = (options: { registered?: boolean } = {}) => {
  let current: PushSubscription | null = null;
  const subscription = {
    endpoint: ENDPOINT,
    options: { applicationServerKey: null },
    toJSON: () => ({ endpoint: ENDPOINT, keys: { p256dh: 'device-key', auth: 'device-auth' } }),
    unsubscribe: vi.fn(async () => {
      current = null;
      return true;
    }),
  } as unknown as PushSubscription;
  const pushManager = {
    getSubscription: vi.fn(async () => current),
    subscribe: vi.fn(async () => {
      current = subscription;
      return subscription;
    }),
  };
  const registration = { pushManager } as unknown as ServiceWorkerRegistration;
  let registered = options.registered ?? false;
  const serviceWorker = {
    getRegistration: vi.fn(async () => (registered ? registration : undefined)),
    register: vi.fn(async () => {
      registered = true;
      return registration;
    }),
    ready: Promise.resolve(registration),
  };
  // jsdom's navigator has no serviceWorker; the stand-in is taken away after each test.
  Object.defineProperty(navigator, 'serviceWorker', { value: serviceWorker, configurable: true });
  vi.stubGlobal('PushManager', class {});
  const requestPermission = vi.fn(async () => 'granted');
  vi.stubGlobal('Notification', { permission: 'default', requestPermission });
  return { serviceWorker, pushManager, subscription, requestPermission };
};

const pushApi = () => {
  let preferences: PushPreferences = { ...pushPreferenceDefaults };
  const bodies: unknown[] = [];
  const languages: unknown[] = [];
  const fetchMock = stubApi({
    'GET /push/vapid-public-key': () => jsonResponse(200, { publicKey: PUBLIC_KEY }),
    'GET /push/preferences': () => jsonResponse(200, preferences),
    'PUT /push/preferences': (init) => {
      preferences = JSON.parse(String(init.body)) as PushPreferences;
      return jsonResponse(200, preferences);
    },
    'POST /push/subscriptions': (init) => {
      bodies.push(JSON.parse(String(init.body)));
      return jsonResponse(200, { endpoint: ENDPOINT, device: 'Firefox', createdAt: '' });
    },
    'DELETE /push/subscriptions': () => new Response(null, { status: 204 }),
    'PATCH /push/subscriptions': (init) => {
      languages.push(JSON.parse(String(init.body)));
      return new Response(null, { status: 204 });
    },
  });
  return { fetchMock, bodies, languages, preferences: () => preferences };
};

const openSection = async () => {
  const user = userEvent.setup();
  renderApp('/tickets', makeAuth());
  await user.click(await screen.findByTestId('account-menu'));
  await user.click(screen.getByTestId('push-notifications'));
  const dialog = await screen.findByRole('dialog', { name: 'Notificaciones push' });
  return { user, dialog };
};

afterEach(() => {
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, 'serviceWorker');
});

describe('push notifications section', () => {
  it('turns pushes on for this device with the server’s key, chooses what to hear of, and turns them off', async () => {
    const browser = fakeBrowser();
    const api = pushApi();
    const { user, dialog } = await openSection();
    expect(await within(dialog).findByText('Desactivadas en este dispositivo.')).toBeTruthy();

    await user.click(within(dialog).getByRole('button', { name: 'Activar en este dispositivo' }));
    expect(await within(dialog).findByText('Activadas en este dispositivo.')).toBeTruthy();
    expect(browser.requestPermission).toHaveBeenCalled();
    // No service worker yet: the push worker is registered on its own.
    expect(browser.serviceWorker.register).toHaveBeenCalledWith('/push-sw.js');
    const [options] = browser.pushManager.subscribe.mock.calls[0] as unknown as [
      { userVisibleOnly: boolean; applicationServerKey: Uint8Array },
    ];
    expect(options.userVisibleOnly).toBe(true);
    // The key's bytes: 0x04 then 1…64, as the base64url above spells them.
    expect([...options.applicationServerKey]).toEqual([
      4,
      ...Array.from({ length: 64 }, (_, i) => i + 1),
    ]);
    expect(api.bodies).toEqual([
      { endpoint: ENDPOINT, keys: { p256dh: 'device-key', auth: 'device-auth' }, language: 'es' },
    ]);

    const waiting = within(dialog).getByRole('switch', {
      name: 'Conversaciones en espera en mis colas',
    });
    expect((waiting as HTMLInputElement).checked).toBe(false);
    await user.click(waiting);
    await waitFor(() => expect(api.preferences().waitingInQueues).toBe(true));
    expect(api.preferences()).toEqual({ ...pushPreferenceDefaults, waitingInQueues: true });

    await user.click(within(dialog).getByRole('button', { name: 'Desactivar' }));
    expect(await within(dialog).findByText('Desactivadas en este dispositivo.')).toBeTruthy();
    expect(browser.subscription.unsubscribe).toHaveBeenCalled();
    expect(callsOf(api.fetchMock)).toContain(
      `DELETE /push/subscriptions?endpoint=${encodeURIComponent(ENDPOINT)}`,
    );
  });

  it('writes this device’s pushes in the language the app is switched to', async () => {
    const browser = fakeBrowser({ registered: true });
    const api = pushApi();
    const { user, dialog } = await openSection();
    await user.click(
      await within(dialog).findByRole('button', { name: 'Activar en este dispositivo' }),
    );
    expect(await within(dialog).findByText('Activadas en este dispositivo.')).toBeTruthy();
    vi.stubGlobal('Notification', { permission: 'granted', requestPermission: vi.fn() });
    expect(browser.pushManager.subscribe).toHaveBeenCalledTimes(1);
    await user.click(within(dialog).getByRole('button', { name: 'Cerrar' }));

    await user.click(screen.getByTestId('account-menu'));
    await user.click(await screen.findByTestId('lang-pt-BR'));
    await waitFor(() => expect(api.languages).toEqual([{ endpoint: ENDPOINT, language: 'pt-BR' }]));
  });

  it('leaves the app’s own service worker in place (it imports the push worker)', async () => {
    const browser = fakeBrowser({ registered: true });
    pushApi();
    const { user, dialog } = await openSection();
    await user.click(
      await within(dialog).findByRole('button', { name: 'Activar en este dispositivo' }),
    );
    expect(await within(dialog).findByText('Activadas en este dispositivo.')).toBeTruthy();
    expect(browser.serviceWorker.register).not.toHaveBeenCalled();
    expect(browser.pushManager.subscribe).toHaveBeenCalledTimes(1);
  });

  it('says so when the browser blocks notifications', async () => {
    const browser = fakeBrowser();
    browser.requestPermission.mockResolvedValue('denied');
    pushApi();
    const { user, dialog } = await openSection();
    await user.click(
      await within(dialog).findByRole('button', { name: 'Activar en este dispositivo' }),
    );
    expect(
      await within(dialog).findByText(
        'El navegador tiene bloqueadas las notificaciones de este sitio.',
      ),
    ).toBeTruthy();
    expect(browser.pushManager.subscribe).not.toHaveBeenCalled();
  });
});
