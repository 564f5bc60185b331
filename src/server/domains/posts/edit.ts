import { slugify } from '../../../shared/slug.js';
import { badRequest, forbidden } from '../../http/errors.js';
import type { Viewer } from '../privileges/service.js';
import { member } from '../topics/access.js';
import type { TopicRow } from '../topics/store.js';
import { loadReadablePost } from './access.js';
import { checkContent, checkTitle, render } from './rules.js';
import * as store from './store.js';
import type { PostRow } from './store.js';
import type { PostsDeps } from './service.js';

export interface PostEdit {
  content: unknown;
  /** Only for the main post: the topic's new title. */
  title?: unknown;
  /** Only for the main post: the topic's new tags. */
  tags?: unknown[];
}

/**
 * Edits a post (its author with posts:edit, or a moderator), keeping the previous version in
 * post_edits; editing the main post may also change the topic's title and tags.
 */
export async function editPost(ctx: PostsDeps, viewer: Viewer, pid: number, data: PostEdit): Promise<{ post: PostRow; topic: TopicRow }> {
  member(viewer);
  const s = await ctx.settings.get();
  checkContent(data.content, s);

  const { post, topic } = await loadReadablePost(ctx, viewer, pid);
  const isMain = topic.main_pid === post.pid;
  if (isMain && data.title !== undefined) checkTitle(data.title, s);
  const tags = isMain && data.tags !== undefined ? ctx.tags.validate(data.tags, s) : undefined;

  const isMod = await ctx.privileges.isModerator(viewer, topic.cid);
  // A topic's editors (manage editors) may edit its first post as its author may.
  const editor = isMain && post.uid !== viewer.uid && (await ctx.topics.isEditor(topic.tid, viewer.uid));
  if (!isMod) {
    if ((post.uid !== viewer.uid && !editor) || !(await ctx.privileges.can(viewer, 'posts:edit', topic.cid))) throw forbidden();
    if (post.deleted === 1) throw forbidden('error:post-deleted');
    if (topic.locked === 1) throw forbidden('error:topic-locked');
    if (s.postEditDuration > 0 && Date.now() - Number(post.created) > s.postEditDuration * 1000) {
      throw forbidden('error:post-edit-duration-expired', s.postEditDuration);
    }
  }
  if (tags !== undefined) await ctx.privileges.assert(viewer, 'topics:tag', topic.cid);

  const filtered = await ctx.hooks.runFilter('filter:post.edit', {
    uid: viewer.uid,
    pid,
    content: data.content as string,
    ...(isMain && data.title !== undefined ? { title: data.title as string } : {}),
    ...(tags !== undefined ? { tags } : {}),
  });
  const content = checkContent(filtered.content, s);
  const title = isMain && filtered.title !== undefined ? checkTitle(filtered.title, s) : undefined;
  const finalTags = filtered.tags === undefined || filtered.tags === tags ? tags : ctx.tags.validate(filtered.tags, s);
  if (finalTags !== undefined) await ctx.tags.checkForCategory(finalTags, topic.cid, s);
  if (typeof content !== 'string') throw badRequest('error:invalid-data');
  const html = await render(ctx, content, post.uid);

  const now = Date.now();
  return ctx.actions.run('post.edit', async (w) => {
    const tx = w.tx;
    // The row keeps the version being replaced, with who wrote it and when.
    await store.insertEdit(w, {
      pid,
      uid: post.editor_uid || post.uid,
      content: post.content,
      title: isMain ? topic.title : null,
      edited: Number(post.edited) || Number(post.created),
    });
    await store.updatePost(w, pid, { content, content_html: html, edited: now, editor_uid: viewer.uid });
    if (title !== undefined && title !== topic.title) await ctx.topics.setTitle(w, topic.tid, title, slugify(title));
    if (finalTags !== undefined) await ctx.tags.setForTopic(w, topic.tid, finalTags, topic.deleted === 1);
    const result = { post: (await store.byPid(tx, pid))!, topic: (await ctx.topics.get(topic.tid, tx))! };
    await w.fire('action:post.edit', { post: result.post, topic: result.topic, uid: viewer.uid });
    return result;
  });
}
