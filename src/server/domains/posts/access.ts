import { badRequest, notFound } from '../../http/errors.js';
import type { ViewerPrivileges } from '../../../shared/types.js';
import type { Viewer } from '../privileges/service.js';
import { assertModerator, assertReadable, loadTopic } from '../topics/access.js';
import type { TopicRow } from '../topics/store.js';
import * as store from './store.js';
import type { PostRow } from './store.js';
import type { PostsDeps } from './service.js';

/** A post and its topic, or 404 error:no-post. */
export async function loadPost(ctx: PostsDeps, pid: number): Promise<{ post: PostRow; topic: TopicRow }> {
  const post = Number.isInteger(pid) && pid > 0 ? await store.byPid(ctx.db, pid) : undefined;
  if (!post) throw notFound('error:no-post');
  return { post, topic: await loadTopic(ctx, post.tid) };
}

/** A post the viewer may read (its topic readable), or 403/404. */
export async function loadReadablePost(ctx: PostsDeps, viewer: Viewer, pid: number): Promise<{ post: PostRow; topic: TopicRow }> {
  const found = await loadPost(ctx, pid);
  await assertReadable(ctx, viewer, found.topic);
  return found;
}

/**
 * What the viewer may do to each post of one topic, as NodeBB's display_*_tools flags: the
 * same rules the edit and delete services apply (moderators always; authors with the
 * privilege, within the forum's edit/delete durations, not on a deleted post or in a locked
 * topic for edits; never deleting the main post). Privileges and settings are read once for
 * the page, never per post.
 */
export async function postTools(ctx: PostsDeps, viewer: Viewer, topic: Pick<TopicRow, 'cid' | 'main_pid' | 'locked'>, privileges?: Readonly<ViewerPrivileges>) {
  if (viewer.uid <= 0) return () => ({ edit: false, delete: false, moderate: false });
  // The viewer's privileges in the category (forCategory: moderator, posts:edit, posts:delete),
  // given by a page that has them already.
  const [p, s] = await Promise.all([privileges ?? ctx.privileges.forCategory(viewer, topic.cid), ctx.settings.get()]);
  const isMod = p.isAdminOrMod;
  const edit = p['posts:edit'];
  const del = p['posts:delete'];
  const within = (post: Pick<PostRow, 'created'>, seconds: number) => seconds <= 0 || Date.now() - Number(post.created) <= seconds * 1000;
  return (post: Pick<PostRow, 'pid' | 'uid' | 'created' | 'deleted' | 'deleter_uid'>) => {
    const own = post.uid === viewer.uid;
    // Deleting toggles: an author restores only what they deleted themselves.
    const ownDelete = own && del && (post.deleted === 1 ? post.deleter_uid === viewer.uid : within(post, s.postDeleteDuration));
    return {
      edit: isMod || (own && edit && post.deleted !== 1 && topic.locked !== 1 && within(post, s.postEditDuration)),
      delete: post.pid !== topic.main_pid && (isMod || ownDelete),
      moderate: isMod,
    };
  };
}

/**
 * Posts a moderator selected in one topic (topic tools): every pid must exist, share one topic
 * the viewer moderates, and none be its main post. Sorted oldest first.
 */
export async function loadSelection(ctx: PostsDeps, viewer: Viewer, pids: number[]): Promise<{ posts: PostRow[]; from: TopicRow }> {
  const unique = [...new Set(pids)];
  if (!unique.length) throw badRequest('error:invalid-pid');
  const posts = await store.byPids(ctx.db, unique);
  if (posts.length !== unique.length) throw notFound('error:no-post');
  if (new Set(posts.map((p) => p.tid)).size !== 1) throw badRequest('error:posts-from-several-topics');
  const from = await loadTopic(ctx, posts[0]!.tid);
  await assertReadable(ctx, viewer, from);
  await assertModerator(ctx, viewer, from.cid);
  if (posts.some((p) => p.pid === from.main_pid)) throw badRequest('error:cant-move-mainpost');
  posts.sort((a, b) => Number(a.created) - Number(b.created) || a.pid - b.pid);
  return { posts, from };
}

/**
 * A topic posts may be moved into (topic tools): readable and moderated by the viewer (403/404),
 * neither locked nor deleted (400: a moderator unlocks or restores it first).
 */
export async function loadMoveTarget(ctx: PostsDeps, viewer: Viewer, tid: number): Promise<TopicRow> {
  const to = await loadTopic(ctx, tid);
  await assertReadable(ctx, viewer, to);
  if (to.scheduled === 1) throw notFound('error:no-topic');
  if (to.deleted === 1) throw badRequest('error:cant-move-to-deleted-topic');
  if (to.locked === 1) throw badRequest('error:cant-move-to-locked-topic');
  await assertModerator(ctx, viewer, to.cid);
  return to;
}

/** Refuses (403/404) a viewer who may not read and moderate each of these topics (topic tools). */
export async function assertModerates(ctx: PostsDeps, viewer: Viewer, topics: Iterable<TopicRow>): Promise<void> {
  for (const topic of topics) {
    await assertReadable(ctx, viewer, topic);
    await assertModerator(ctx, viewer, topic.cid);
  }
}
