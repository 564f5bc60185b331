import { NOTIFICATION_FILTERS, type NotificationFilter, type NotificationObject, type NotificationsPage } from '../../../shared/schemas/notification.js';
import { deepFreeze } from '../../cache/page-cache.js';
import type { AppContext } from '../../context.js';
import { neededUsers, presentNotification } from './presenter.js';
import type { NotificationRow } from './store.js';

/** NotificationObjects for rows, with their senders loaded in one query (their brief rows: a name and a picture are all it shows). */
export async function presentMany(ctx: Pick<AppContext, 'users'>, rows: NotificationRow[]): Promise<NotificationObject[]> {
  if (!rows.length) return [];
  const users = await ctx.users.briefs(neededUsers(rows));
  return rows.map((r) => presentNotification(r, users));
}

/** The types a filter shows (undefined: all); an unknown filter shows all, as NodeBB's does. */
export function typesOf(filter: string | undefined): string[] | undefined {
  const found = NOTIFICATION_FILTERS.find((f) => f.filter === (filter ?? ''));
  return found && found.types.length ? found.types : undefined;
}

/** One of the notifications page's filters (NOTIFICATION_FILTERS). */
export type FilterDefinition = (typeof NOTIFICATION_FILTERS)[number];

/**
 * What a member's notifications page (one filter, one page) shows, deeply frozen: the same
 * objects for each of their requests while it is kept (NotificationsService.pageParts), so
 * the page's JSON encodes each once (http/page-json.ts).
 */
export interface NotificationsPageParts {
  pageCount: number;
  notifications: NotificationsPage['notifications'];
  unreadNids: string[];
  selectedFilter: NotificationFilter;
  regularFilters: NotificationFilter[];
  moderatorFilters: NotificationFilter[];
  /** The regular filters then the moderators' (a moderator's `filters`). */
  allFilters: NotificationFilter[];
}

/** The notifications page's parts for a page of rows and the member's unread counts per type (frozen). */
export async function pageParts(
  ctx: Pick<AppContext, 'users'>,
  chosen: FilterDefinition,
  perPage: number,
  data: { rows: NotificationRow[]; total: number; unreadByType: ReadonlyMap<string, number> },
): Promise<NotificationsPageParts> {
  const { rows, total, unreadByType } = data;
  let all = 0;
  for (const n of unreadByType.values()) all += n;
  const asFilter = (f: FilterDefinition): NotificationFilter => ({
    name: f.name,
    filter: f.filter,
    selected: f === chosen,
    count: f.types.length ? f.types.reduce((n, t) => n + (unreadByType.get(t) ?? 0), 0) : all,
  });
  const regularFilters = NOTIFICATION_FILTERS.filter((f) => !f.moderator).map(asFilter);
  const moderatorFilters = NOTIFICATION_FILTERS.filter((f) => f.moderator).map(asFilter);
  // NodeBB's page lists fewer fields than its NotificationObject (read/notifications.yaml).
  const notifications = (await presentMany(ctx, rows)).map(({ type: _t, mergeId: _m, pid: _p, tid: _i, subject: _s, ...n }) => n);
  return deepFreeze({
    pageCount: Math.max(1, Math.ceil(total / perPage)),
    notifications,
    unreadNids: notifications.filter((n) => !n.read).map((n) => n.nid),
    selectedFilter: asFilter(chosen),
    regularFilters,
    moderatorFilters,
    allFilters: [...regularFilters, ...moderatorFilters],
  });
}
