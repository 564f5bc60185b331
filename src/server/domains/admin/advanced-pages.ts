import type { AdminCachePage, AdminDatabasePage, AdminErrorEntry, AdminErrorsPage, AdminLogsPage } from '../../../shared/schemas/admin-advanced.js';
import { definePage } from '../../http/pages.js';
import { assertAdmin } from '../privileges/service.js';
import { errorCounterOf, type ErrorEntry } from './advanced-errors.js';
import { logRing } from './advanced-logs.js';
import { cacheInfo, databaseInfo, redisInfo } from './advanced-stats.js';

const present = (e: ErrorEntry): AdminErrorEntry => ({ value: e.path, score: e.count, lastSeen: e.lastSeen, lastSeenISO: new Date(e.lastSeen).toISOString() });

const cachePage = definePage<AdminCachePage>({
  path: '/admin/advanced/cache',
  template: 'admin/advanced/cache',
  access: 'admin',
  async load({ ctx, viewer }) {
    assertAdmin(viewer);
    return { title: '[[admin-advanced:cache.title]]', caches: cacheInfo(ctx) };
  },
});

const errorsPage = definePage<AdminErrorsPage>({
  path: '/admin/advanced/errors',
  template: 'admin/advanced/errors',
  access: 'admin',
  async load({ ctx, viewer }) {
    assertAdmin(viewer);
    const counter = errorCounterOf(ctx);
    const [notFound, serverError] = await Promise.all([counter.list('not-found'), counter.list('server-error')]);
    return { title: '[[admin-advanced:errors.title]]', 'not-found': notFound.map(present), 'server-error': serverError.map(present) };
  },
});

const logsPage = definePage<AdminLogsPage>({
  path: '/admin/advanced/logs',
  template: 'admin/advanced/logs',
  access: 'admin',
  async load({ viewer }) {
    assertAdmin(viewer);
    const lines = logRing.tail();
    return { title: '[[admin-advanced:logs.title]]', data: lines.join('\n'), lines: lines.length };
  },
});

const databasePage = definePage<AdminDatabasePage>({
  path: '/admin/advanced/database',
  template: 'admin/advanced/database',
  access: 'admin',
  async load({ ctx, viewer }) {
    assertAdmin(viewer);
    const [database, redis] = await Promise.all([databaseInfo(ctx), redisInfo(ctx).catch(() => null)]);
    return { title: '[[admin-advanced:database.title]]', database, redis };
  },
});

/** The advanced section's pages (cache, errors, logs, database); the events page data lives with the events domain. */
export const advancedPages = [cachePage, errorsPage, logsPage, databasePage];
