import type { ComposePage } from '../../../shared/types.js';
import { deepFreeze } from '../../cache/page-cache.js';
import { forbidden, notFound } from '../../http/errors.js';
import { pathId } from '../../http/input.js';
import { definePage } from '../../http/pages.js';
import { loadReadablePost } from './access.js';

// Frozen: the router translates them once (http/pages.ts buildPage).
const BREADCRUMBS = deepFreeze([{ text: '[[pages:compose]]' }]);

/** A query id: the number, 0 when absent or not an id. */
const queryId = (raw: string | undefined) => pathId(raw) ?? 0;

/**
 * /compose (composeRouteEnabled, spec routes table): the composer as a page. Its query says
 * what to compose: `pid` an edit; `tid` (with `toPid`, `quoted=1`, `username`) a reply or a
 * quote; else `cid` (with `title`, `body`) a new topic. The server checks the member may do it
 * (403 or 404 page otherwise) and gives the composer what it needs; the client fills the text.
 */
const composePage = definePage<ComposePage>({
  path: '/compose',
  template: 'compose',
  requireLogin: true,
  async load({ ctx, viewer, query }) {
    const guardian = await ctx.privileges.guardian(viewer);
    const base = { title: '[[pages:compose]]', breadcrumbs: BREADCRUMBS, cid: 0, tid: 0, pid: 0, toPid: 0, topicTitle: '', isMain: false };
    const pid = queryId(query.pid);
    if (pid) {
      const { post, topic } = await loadReadablePost(ctx, viewer, pid);
      const own = post.uid === viewer.uid && guardian.can('posts:edit', topic.cid);
      const editor = topic.main_pid === pid && (await ctx.topics.isEditor(topic.tid, viewer.uid));
      if (!own && !editor && !guardian.isModerator(topic.cid)) throw forbidden();
      return { ...base, action: 'posts.edit', cid: topic.cid, tid: topic.tid, pid, topicTitle: topic.title, isMain: topic.main_pid === pid };
    }
    const tid = queryId(query.tid);
    if (tid) {
      const topic = await ctx.topics.get(tid);
      if (!topic) throw notFound('error:no-topic');
      guardian.assertReply(topic);
      const toPid = queryId(query.toPid);
      // The post answered (or quoted) must be one of the topic's that the member may read.
      if (toPid) {
        const { topic: of } = await loadReadablePost(ctx, viewer, toPid);
        if (of.tid !== tid) throw forbidden('error:invalid-pid');
      }
      return { ...base, action: 'posts.reply', cid: topic.cid, tid, toPid, topicTitle: topic.title };
    }
    const cid = queryId(query.cid);
    // A new topic: in the category asked for when the member may post there (else the composer's list chooses).
    if (cid && !guardian.can('topics:create', cid)) throw forbidden();
    return { ...base, action: 'topics.post', cid };
  },
});

/** The compose page. */
export const composePages = [composePage];
