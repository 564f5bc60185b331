import { accountPages } from './account-pages.js';
import { NOTIFICATION_FILTERS, type NotificationsPage } from '../../../shared/schemas/notification.js';
import { deepFreeze } from '../../cache/page-cache.js';
import { notFound } from '../../http/errors.js';
import { definePage } from '../../http/pages.js';
import { pageNumber, pagination } from '../../http/pagination.js';

const PER_PAGE = 20;
// Frozen: the router translates them once (http/pages.ts buildPage).
const BREADCRUMBS = deepFreeze([{ text: '[[pages:notifications]]' }]);

const notificationsPage = definePage<NotificationsPage>({
  path: '/notifications',
  template: 'notifications',
  requireLogin: true,
  async load({ ctx, viewer, query }) {
    const page = pageNumber(query.page);
    const chosen = NOTIFICATION_FILTERS.find((f) => f.filter === (query.filter ?? '')) ?? NOTIFICATION_FILTERS[0]!;
    // The member's page, presented and frozen, kept until their notifications change (service.ts pageParts).
    const parts = await ctx.notifications.pageParts(viewer, chosen, page, PER_PAGE);
    if (page > parts.pageCount) throw notFound();
    const moderator = viewer.isAdmin || viewer.isGlobalMod;
    return {
      title: '[[pages:notifications]]',
      breadcrumbs: BREADCRUMBS,
      notifications: parts.notifications,
      unreadNids: parts.unreadNids,
      filters: moderator ? parts.allFilters : parts.regularFilters,
      regularFilters: parts.regularFilters,
      moderatorFilters: moderator ? parts.moderatorFilters : [],
      selectedFilter: parts.selectedFilter,
      pagination: pagination(page, parts.pageCount, query),
    };
  },
});

/** The notifications page and the account pages about notifications and watching (members only). */
export const notificationPages = [notificationsPage, ...accountPages];
