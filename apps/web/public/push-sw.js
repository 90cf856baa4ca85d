/* Issue 41, Web Push: what the service worker does with a push. The app's own service worker
   imports this file (importScripts('/push-sw.js')); until it has one, the push settings register this
   file alone. A push carries { title, body, url, tag } (apps/api/src/modules/push/push-sender.ts):
   shown as a notification (one per conversation: `tag`), and a click opens or focuses the app on
   `url` (/tickets/{uuid}). */

self.addEventListener('push', (event) => {
  let payload;
  try {
    payload = event.data ? event.data.json() : {};
  } catch {
    payload = { body: event.data ? event.data.text() : '' };
  }
  const title = payload.title || 'Atendi';
  event.waitUntil(
    self.registration.showNotification(title, {
      body: payload.body || '',
      tag: payload.tag,
      renotify: Boolean(payload.tag),
      icon: '/favicon.svg',
      data: { url: payload.url || '/tickets' },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url || '/tickets', self.location.origin).href;
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      // A tab of the app already open goes to the conversation; otherwise a new one opens.
      const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
      if (open) {
        try {
          await open.focus();
          // Only a tab this worker controls can be sent elsewhere; another one gets a new tab.
          return await open.navigate(url);
        } catch {
          // fall through
        }
      }
      return self.clients.openWindow(url);
    })(),
  );
});
