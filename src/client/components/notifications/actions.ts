import { api } from '../../app/api';
import type { Runtime } from '../../app/runtime';
import { errorText, translate } from '../../i18n';
import {
  applyLive, applyRead, combineLists, liveCount, liveItem, markRead, notificationsOf, type NotificationItem,
} from '../../state/notifications';

// Tabs of one browser tell each other about reads (the server's count event may not reach a
// tab whose socket is down); live arrivals come from the socket in every tab already.
const CHANNEL = 'palaver:notifications';
let channel: BroadcastChannel | null = null;
function broadcast(rt: Runtime, message: { nid?: string; all?: boolean }) {
  if (typeof BroadcastChannel === 'undefined') return;
  if (!channel) {
    channel = new BroadcastChannel(CHANNEL);
    channel.onmessage = (e: MessageEvent<{ nid?: string; all?: boolean }>) => {
      const s = notificationsOf(rt);
      if (e.data.all) s.set((st) => ({ unread: 0, latest: st.latest && markRead(st.latest) }));
      else if (e.data.nid) void refreshCount(rt);
    };
  }
  channel.postMessage(message);
}

function failed(rt: Runtime, err: unknown) {
  rt.alert({ type: 'danger', title: translate(rt.i18n, 'global:alert.error'), message: errorText(rt.i18n, err) });
}

/** Reads the member's unread count from the server into the store. */
export async function refreshCount(rt: Runtime): Promise<void> {
  try {
    const res = await api<{ unread?: number }>(rt.config, 'GET', '/notifications/count');
    if (typeof res?.unread === 'number') notificationsOf(rt).set((s) => ({ ...s, unread: res.unread! }));
  } catch (err) {
    console.warn('[notifications] count', err);
  }
}

/** Loads the latest notifications for the dropdown. */
export async function loadLatest(rt: Runtime): Promise<void> {
  try {
    const res = await api<{ read?: NotificationItem[]; unread?: NotificationItem[] }>(rt.config, 'GET', '/notifications');
    const latest = combineLists(res);
    notificationsOf(rt).set((s) => ({ unread: Math.max(s.unread, res?.unread?.length ?? 0), latest }));
  } catch (err) {
    failed(rt, err);
    notificationsOf(rt).set((s) => ({ ...s, latest: s.latest ?? [] }));
  }
}

/** Applies a live `event:new_notification` (every open tab receives it on its socket). */
export function receiveLive(rt: Runtime, data: unknown): NotificationItem | null {
  const item = liveItem(data);
  if (!item) return null;
  notificationsOf(rt).set((s) => applyLive(s, item, liveCount(data)));
  return item;
}

/** Sets the unread count the server pushed. */
export function receiveCount(rt: Runtime, data: unknown): void {
  const count = liveCount(data);
  if (count !== undefined && count >= 0) notificationsOf(rt).set((s) => ({ ...s, unread: count }));
}

/** Marks one notification read on the server and here; resolves false when it failed. */
export async function markOneRead(rt: Runtime, item: NotificationItem): Promise<boolean> {
  if (item.read) return true;
  notificationsOf(rt).set((s) => applyRead(s, item.nid, true));
  try {
    await api(rt.config, 'PUT', `/notifications/${encodeURIComponent(item.nid)}/read`);
    broadcast(rt, { nid: item.nid });
    return true;
  } catch (err) {
    failed(rt, err);
    void refreshCount(rt);
    return false;
  }
}

/** Marks every notification of the member read. */
export async function markAllRead(rt: Runtime): Promise<boolean> {
  const before = notificationsOf(rt).get();
  notificationsOf(rt).set((s) => ({ unread: 0, latest: s.latest && markRead(s.latest) }));
  try {
    await api(rt.config, 'PUT', '/notifications/read');
    broadcast(rt, { all: true });
    return true;
  } catch (err) {
    notificationsOf(rt).set(before);
    failed(rt, err);
    return false;
  }
}

/** Opens a notification's path in-page, marking it read first (NodeBB does the same). */
export function openNotification(rt: Runtime, item: NotificationItem): void {
  void markOneRead(rt, item);
  if (item.path) rt.navigate(notificationHref(rt.config.relative_path, item.path));
}

/** The link of a notification: its relative path under the site's relative_path. */
export function notificationHref(relativePath: string, path: string): string {
  if (/^https?:\/\//i.test(path)) return path;
  if (relativePath && (path === relativePath || path.startsWith(`${relativePath}/`))) return path;
  return `${relativePath}${path.startsWith('/') ? path : `/${path}`}`;
}
