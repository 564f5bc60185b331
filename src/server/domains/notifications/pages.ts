import { accountPages } from './account-pages.js';
import { NOTIFICATION_FILTERS, type NotificationFilter, type NotificationsPage } from '../../../shared/schemas/notification.js';
import { notFound } from '../../http/errors.js';
import { definePage } from '../../http/pages.js';
import { pageNumber, pagination } from '../../http/pagination.js';
import { presentMany, typesOf } from './view.js';

const PER_PAGE = 20;

const notificationsPage = definePage<NotificationsPage>({
  path: '/notifications',
  template: 'notifications',
  requireLogin: true,
  async load({ ctx, viewer, query }) {
    const page = pageNumber(query.page);
    const chosen = NOTIFICATION_FILTERS.find((f) => f.filter === (query.filter ?? '')) ?? NOTIFICATION_FILTERS[0]!;
    const types = typesOf(chosen.filter);
    const { rows, total, unreadByType } = await ctx.notifications.page(viewer, { types, page, perPage: PER_PAGE });
    const pageCount = Math.max(1, Math.ceil(total / PER_PAGE));
    if (page > pageCount) throw notFound();
    const moderator = viewer.isAdmin || viewer.isGlobalMod;
    const asFilter = (f: (typeof NOTIFICATION_FILTERS)[number]): NotificationFilter => ({
      name: f.name,
      filter: f.filter,
      selected: f === chosen,
      count: f.types.length ? f.types.reduce((n, t) => n + (unreadByType.get(t) ?? 0), 0) : [...unreadByType.values()].reduce((a, b) => a + b, 0),
    });
    const regularFilters = NOTIFICATION_FILTERS.filter((f) => !f.moderator).map(asFilter);
    const moderatorFilters = moderator ? NOTIFICATION_FILTERS.filter((f) => f.moderator).map(asFilter) : [];
    // NodeBB's page lists fewer fields than its NotificationObject (read/notifications.yaml).
    const notifications = (await presentMany(ctx, rows)).map(({ type: _t, mergeId: _m, pid: _p, tid: _i, subject: _s, ...n }) => n);
    return {
      title: '[[pages:notifications]]',
      breadcrumbs: [{ text: '[[pages:notifications]]' }],
      notifications,
      unreadNids: notifications.filter((n) => !n.read).map((n) => n.nid),
      filters: [...regularFilters, ...moderatorFilters],
      regularFilters,
      moderatorFilters,
      selectedFilter: asFilter(chosen),
      pagination: pagination(page, pageCount, query),
    };
  },
});

/** The notifications page and the account pages about notifications and watching (members only). */
export const notificationPages = [notificationsPage, ...accountPages];
