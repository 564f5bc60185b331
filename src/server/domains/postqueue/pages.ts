import type { PostQueuePage } from '../../../shared/schemas/post-queue.js';
import { notFound } from '../../http/errors.js';
import { pathId } from '../../http/input.js';
import { definePage } from '../../http/pages.js';
import { pageNumber, pagination } from '../../http/pagination.js';
import { presentQueued } from './presenter.js';

const PER_PAGE = 20;

const queuePage = definePage<PostQueuePage>({
  path: '/post-queue/:id?',
  template: 'post-queue',
  requireLogin: true,
  async load({ ctx, viewer, query, params }) {
    const id = params.id !== undefined ? (pathId(params.id) ?? undefined) : undefined;
    if (params.id !== undefined && id === undefined) throw notFound();
    const page = pageNumber(query.page);
    const [{ rows, count, moderated }, settings] = await Promise.all([ctx.postQueue.list(viewer, { page, perPage: PER_PAGE, id }), ctx.settings.get()]);
    if (id !== undefined && !rows.length) throw notFound('error:no-queued-post');
    const pageCount = Math.max(1, Math.ceil(count / PER_PAGE));
    if (page > pageCount) throw notFound();
    return {
      title: '[[pages:post-queue]]',
      breadcrumbs: [{ text: '[[pages:post-queue]]' }],
      posts: await presentQueued(ctx, rows, moderated),
      isAdmin: viewer.isAdmin,
      canAccept: moderated === null || moderated.length > 0,
      enabled: settings.postQueue ? 1 : 0,
      singlePost: id !== undefined,
      allCategoriesUrl: '/post-queue',
      selectedCategory: null,
      selectedCids: [],
      privileges: { 'admin:settings': viewer.isAdmin },
      pagination: pagination(page, pageCount, query),
    };
  },
});

/** The post-queue page: moderators' work list; a member sees their own waiting posts. */
export const postQueuePages = [queuePage];
