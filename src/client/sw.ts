/// <reference lib="webworker" />
// The service worker: no caching (pages are live data); it only routes notification clicks
// back into the open app with an 'ajaxify' message, as the spec describes.
declare const self: ServiceWorkerGlobalScope;

self.addEventListener('install', () => {
  void self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = (event.notification.data as { url?: string } | null)?.url;
  if (!url) return;
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then(async (clients) => {
      const client = clients[0];
      if (client) {
        client.postMessage({ action: 'ajaxify', url });
        await client.focus();
      } else {
        await self.clients.openWindow(url);
      }
    }),
  );
});

export {};
