// The service worker: no caching (pages are live data); it only routes notification clicks
// back into the open app with an 'ajaxify' message, as the spec describes.
// Typed locally: the DOM and WebWorker libs cannot share one tsconfig.
interface SwClient {
  postMessage(data: unknown): void;
  focus(): Promise<unknown>;
}
interface SwEvent {
  waitUntil(p: Promise<unknown>): void;
  notification?: { close(): void; data?: unknown };
}
interface SwScope {
  addEventListener(type: string, fn: (e: SwEvent) => void): void;
  skipWaiting(): Promise<void>;
  clients: {
    claim(): Promise<void>;
    matchAll(o: { type: string; includeUncontrolled: boolean }): Promise<SwClient[]>;
    openWindow(url: string): Promise<unknown>;
  };
}
const sw = self as unknown as SwScope;

sw.addEventListener('install', () => {
  void sw.skipWaiting();
});

sw.addEventListener('activate', (event) => {
  event.waitUntil(sw.clients.claim());
});

sw.addEventListener('notificationclick', (event) => {
  event.notification?.close();
  const url = (event.notification?.data as { url?: string } | null)?.url;
  if (!url) return;
  event.waitUntil(
    sw.clients.matchAll({ type: 'window', includeUncontrolled: true }).then(async (clients) => {
      const client = clients[0];
      if (client) {
        client.postMessage({ action: 'ajaxify', url });
        await client.focus();
      } else {
        await sw.clients.openWindow(url);
      }
    }),
  );
});

export {};
