import type { PageBase } from '../../../shared/types.js';
import { notFound } from '../../http/errors.js';
import { pathId } from '../../http/input.js';
import { definePage } from '../../http/pages.js';
import { loadReadablePost } from './access.js';
import { composePages } from './compose-page.js';
import * as store from './store.js';

/** /post/:pid: sends to the post's place in its topic (quotes and notifications link here). */
const postRedirect = definePage<PageBase>({
  path: '/post/:pid',
  template: 'topic',
  async load({ ctx, viewer, params }) {
    const pid = pathId(params.pid);
    if (pid === null) throw notFound('error:no-post');
    const { post, topic } = await loadReadablePost(ctx, viewer, pid);
    // Page data counts posts from 0; the URL's index counts from 1.
    const index = (await store.indexOf(ctx.db, post)) + 1;
    return { redirect: `/topic/${topic.tid}/${topic.slug}/${index}` };
  },
});

/** Post pages. */
export const postPages = [postRedirect, ...composePages];
