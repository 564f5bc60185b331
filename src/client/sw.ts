// The service worker: no caching (pages are live data). It shows web pushes (the forum's
// notifications: title, text, url) and routes notification clicks back into the open app with
// an 'ajaxify' message, as the spec describes, or opens the forum when no tab is open.
// Typed locally: the DOM and WebWorker libs cannot share one tsconfig.
interface SwClient {
  postMessage(data: unknown): void;
  focus(): Promise<unknown>;
}
interface SwEvent {
  waitUntil(p: Promise<unknown>): void;
  notification?: { close(): void; data?: unknown };
  /** A push's payload (the 'push' event). */
  data?: { json(): unknown; text(): string } | null;
}
interface SwScope {
  addEventListener(type: string, fn: (e: SwEvent) => void): void;
  skipWaiting(): Promise<void>;
  registration: { scope: string; showNotification(title: string, options: { body?: string; tag?: string; data?: unknown; icon?: string }): Promise<void> };
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

/** A push from the forum (see PushMessage in src/shared/schemas/push.ts); anything else shows as plain text. */
function readPush(data: SwEvent['data']): { title: string; body: string; url: string; tag?: string } {
  if (!data) return { title: '', body: '', url: '' };
  try {
    const m = data.json() as Record<string, unknown> | null;
    const str = (v: unknown) => (typeof v === 'string' ? v : '');
    return { title: str(m?.title), body: str(m?.body), url: str(m?.url), tag: str(m?.tag) || undefined };
  } catch {
    return { title: '', body: data.text(), url: '' };
  }
}

sw.addEventListener('push', (event) => {
  const m = readPush(event.data);
  // A browser requires every push to show a notification: an empty one still names the forum.
  const title = m.title || location.hostname;
  event.waitUntil(sw.registration.showNotification(title, { body: m.body, tag: m.tag, data: { url: m.url || sw.registration.scope } }));
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
