import type { NotificationObject } from '../../shared/schemas/notification';
import { createStore, type Store } from './store';

type Always = 'nid' | 'bodyShort' | 'path' | 'datetime' | 'read';

/**
 * NodeBB's NotificationObject (the shared schema; a type import only, so TypeBox stays out of
 * the browser bundle). The page's list carries fewer fields than the API and the live event.
 */
export type NotificationItem = Pick<NotificationObject, Always> & Partial<Omit<NotificationObject, Always>>;

/** The member's notifications as the bell shows them. */
export interface NotificationsState {
  /** Unread count for the badge and the document title. */
  unread: number;
  /** The latest notifications (the dropdown), or null until first loaded. */
  latest: NotificationItem[] | null;
}

/** How many notifications the dropdown lists. */
export const DROPDOWN_SIZE = 10;

const stores = new WeakMap<object, Store<NotificationsState>>();

/** The notifications store of one runtime (one per tab), created on first use. */
export function notificationsOf(rt: object): Store<NotificationsState> {
  let s = stores.get(rt);
  if (!s) {
    s = createStore<NotificationsState>({ unread: 0, latest: null });
    stores.set(rt, s);
  }
  return s;
}

/** A page's title with NodeBB's unread prefix "(3) Title"; no prefix at zero. */
export function titleWithCount(title: string, count: number): string {
  return Number.isFinite(count) && count > 0 ? `(${Math.floor(count)}) ${title}` : title;
}

/**
 * Puts a live notification at the top of a list. A merged notification (same nid) replaces
 * its older copy instead of appearing twice; `limit` caps the list (the dropdown's size).
 */
export function mergeLive(list: readonly NotificationItem[], item: NotificationItem, limit = Infinity): NotificationItem[] {
  return [item, ...list.filter((n) => n.nid !== item.nid)].slice(0, limit);
}

/** The unread count after a live notification: unchanged when it was already unread here. */
export function unreadAfterLive(state: NotificationsState, item: NotificationItem, serverCount?: unknown): number {
  if (typeof serverCount === 'number' && Number.isFinite(serverCount) && serverCount >= 0) return serverCount;
  if (item.read) return state.unread;
  const known = state.latest?.find((n) => n.nid === item.nid);
  return known && !known.read ? state.unread : state.unread + 1;
}

/** Applies a live `event:new_notification` to the state. */
export function applyLive(state: NotificationsState, item: NotificationItem, serverCount?: unknown): NotificationsState {
  return {
    unread: unreadAfterLive(state, item, serverCount),
    latest: state.latest ? mergeLive(state.latest, item, DROPDOWN_SIZE) : state.latest,
  };
}

/** A list with one notification marked read (nid given) or all of them. */
export function markRead(list: readonly NotificationItem[], nid?: string): NotificationItem[] {
  return list.map((n) => (nid === undefined || n.nid === nid ? (n.read ? n : { ...n, read: true, readClass: '' }) : n));
}

/** The state after the member marked one notification read (the count drops if it was unread). */
export function applyRead(state: NotificationsState, nid: string, wasUnread: boolean): NotificationsState {
  return { unread: wasUnread ? Math.max(0, state.unread - 1) : state.unread, latest: state.latest && markRead(state.latest, nid) };
}

/** Sorts the API's read and unread lists into one, newest first. */
export function combineLists(res: { read?: NotificationItem[]; unread?: NotificationItem[] } | null | undefined, limit = DROPDOWN_SIZE): NotificationItem[] {
  const all = [...(res?.unread ?? []), ...(res?.read ?? [])];
  return all.sort((a, b) => b.datetime - a.datetime).slice(0, limit);
}

/** Reads a notification out of a live event's payload (the object itself or `{ notification }`). */
export function liveItem(data: unknown): NotificationItem | null {
  const d = data as { notification?: unknown; nid?: unknown } | null;
  const n = (d && typeof d === 'object' && d.notification && typeof d.notification === 'object' ? d.notification : d) as Partial<NotificationItem> | null;
  if (!n || typeof n !== 'object' || (typeof n.nid !== 'string' && typeof n.nid !== 'number')) return null;
  return { ...n, nid: String(n.nid), bodyShort: n.bodyShort ?? '', path: n.path ?? '', datetime: Number(n.datetime) || Date.now(), read: n.read === true } as NotificationItem;
}

/** The unread count a live event carries, if any (`unreadCount`, `unread` or `count`). */
export function liveCount(data: unknown): number | undefined {
  if (!data || typeof data !== 'object') return typeof data === 'number' ? data : undefined;
  const d = data as { unreadCount?: unknown; unread?: unknown; count?: unknown };
  for (const v of [d.unreadCount, d.unread, d.count]) if (typeof v === 'number' && Number.isFinite(v)) return v;
  return undefined;
}

/** A run of notification text, bold or not. */
export interface TextRun {
  text: string;
  bold: boolean;
}

const TAG = /<\/?([a-z]+)[^>]*>/gi;

/**
 * A translated notification text as runs of plain text: NodeBB's strings wrap names in
 * <strong>, which become bold runs; any other markup is dropped, never rendered as HTML.
 */
export function textRuns(html: string, decode: (s: string) => string = (s) => s): TextRun[] {
  const runs: TextRun[] = [];
  let bold = 0;
  let last = 0;
  const push = (raw: string) => {
    const text = decode(raw);
    if (text) runs.push({ text, bold: bold > 0 });
  };
  for (const m of html.matchAll(TAG)) {
    push(html.slice(last, m.index));
    last = m.index + m[0].length;
    const tag = m[1]!.toLowerCase();
    if (tag === 'strong' || tag === 'b') bold = Math.max(0, bold + (m[0][1] === '/' ? -1 : 1));
  }
  push(html.slice(last));
  return runs;
}

// Filters that cover more than their own type (the server's NOTIFICATION_FILTERS; not
// imported: that module would bring TypeBox into the browser bundle).
const FILTER_TYPES: Record<string, string[]> = { mention: ['mention', 'quote'], group: ['group-invite', 'group-request'] };

/** Whether a live notification belongs in the page's list (first page, matching type filter). */
export function showsLive(data: { selectedFilter?: { filter?: string }; pagination?: { currentPage?: number } }, item: NotificationItem): boolean {
  const onFirst = !data.pagination || (data.pagination.currentPage ?? 1) <= 1;
  const filter = data.selectedFilter?.filter ?? '';
  return onFirst && (!filter || (FILTER_TYPES[filter] ?? [filter]).includes(item.type ?? ''));
}
