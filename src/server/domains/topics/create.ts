import { slugify } from '../../../shared/slug.js';
import { badRequest, forbidden, notAuthorised, notFound } from '../../http/errors.js';
import { checkContent, checkFlood, checkTitle, render } from '../posts/rules.js';

/** The title rule topic tools share with a new topic's (a forked topic's title). */
export { checkTitle };
import type { PostRow } from '../posts/store.js';
import type { Viewer } from '../privileges/service.js';
import { userSettings } from '../users/presenter.js';
import { scheduleTime, writeScheduled } from './schedule.js';
import * as store from './store.js';
import type { TopicRow } from './store.js';
import type { TopicsDeps } from './service.js';

export interface NewTopic {
  cid: number;
  title: unknown;
  content: unknown;
  tags?: unknown[];
  /** A future publication time (NodeBB's `timestamp`; needs topics:schedule). */
  timestamp?: number;
}

/** How a topic reaches the create path: `fromQueue` when a moderator accepts it (no flood check). */
export interface CreateOptions {
  fromQueue?: boolean;
}

/** Loads a category that accepts content, or throws 404 / 403. */
export async function writableCategory(ctx: TopicsDeps, cid: number) {
  const category = Number.isInteger(cid) && cid > 0 ? await ctx.categories.get(cid) : null;
  if (!category) throw notFound('error:no-category');
  if (category.disabled) throw forbidden('error:category-disabled');
  return category;
}

/** Creates a topic with its main post: checks, one transaction for the writes and counters, then hooks. */
export async function createTopic(ctx: TopicsDeps, viewer: Viewer, data: NewTopic, ip: string, opts: CreateOptions = {}): Promise<{ topic: TopicRow; post: PostRow }> {
  const prepared = await prepareTopic(ctx, viewer, data, opts);
  // A scheduled topic is written hidden; its counters and hooks wait for the publishing job.
  return prepared.publishAt !== null ? writeScheduled(ctx, viewer, prepared, ip) : writeNow(ctx, viewer, prepared, ip);
}

/** A topic checked and ready to write (title, content, tags filtered and rendered). */
export type PreparedTopic = Awaited<ReturnType<typeof prepareTopic>>;

/** Checks a new topic (input, category, privileges, schedule, flood, filters) without writing it: the create path and the post queue share it. */
export async function prepareTopic(ctx: TopicsDeps, viewer: Viewer, data: NewTopic, opts: CreateOptions = {}) {
  if (viewer.uid <= 0) throw notAuthorised();
  const s = await ctx.settings.get();
  checkTitle(data.title, s);
  checkContent(data.content, s);
  const tags = ctx.tags.validate(data.tags ?? [], s);

  const category = await writableCategory(ctx, data.cid);
  await ctx.privileges.assert(viewer, 'topics:create', category.cid);
  if (tags.length) await ctx.privileges.assert(viewer, 'topics:tag', category.cid);
  const publishAt = await scheduleTime(ctx, viewer, data.timestamp, category.cid);
  if (!opts.fromQueue) await checkFlood(ctx, viewer, category.cid);

  // Plugins may change or refuse the topic; what they return is checked again.
  const filtered = await ctx.hooks.runFilter('filter:topic.create', {
    uid: viewer.uid,
    cid: category.cid,
    title: data.title as string,
    content: data.content as string,
    tags,
  });
  const title = checkTitle(filtered.title, s);
  const content = checkContent(filtered.content, s);
  const finalTags = filtered.tags === tags ? tags : ctx.tags.validate(filtered.tags, s);
  await ctx.tags.checkForCategory(finalTags, category.cid, s);
  const html = await render(ctx, content, viewer.uid);
  const author = await ctx.users.ofViewer(viewer);
  if (!author) throw badRequest('error:no-user');
  const follow = userSettings(author).followTopicsOnCreate;
  return { category, title, content, html, finalTags, follow, publishAt };
}

/** Writes a checked topic now, with its counters, then fires action:topic.save. */
async function writeNow(ctx: TopicsDeps, viewer: Viewer, p: PreparedTopic, ip: string): Promise<{ topic: TopicRow; post: PostRow }> {
  const { category, title, content, html, finalTags, follow } = p;
  const now = Date.now();
  return ctx.actions.run('topic.create', async (w) => {
    const inserted = await store.insertTopic(w, {
      cid: category.cid,
      uid: viewer.uid,
      title,
      slug: slugify(title),
      created: now,
      last_post_time: now,
      post_count: 1,
    });
    const post = await ctx.posts.insert(w, { tid: inserted.tid, uid: viewer.uid, content, content_html: html, created: now, ip });
    await store.updateTopic(w, inserted.tid, { main_pid: post.pid, teaser_pid: post.pid });
    await ctx.tags.setForTopic(w, inserted.tid, finalTags, false);
    await ctx.categories.bumpCounters(w, category.cid, 1, 1);
    await ctx.users.bump(w.tx, viewer.uid, 'topiccount', 1);
    await ctx.users.recordPost(w, viewer.uid, now);
    if (follow) await store.setFollowState(w, viewer.uid, inserted.tid, 'follow');
    await store.markRead(w, viewer.uid, inserted.tid, now);
    const result = { topic: (await store.byTid(w.tx, inserted.tid))!, post };
    await w.fire('action:topic.save', { topic: result.topic, post: result.post, uid: viewer.uid });
    return result;
  });
}
