import type { AppContext } from '../../context.js';
import { notFound } from '../../http/errors.js';
import type { Viewer } from '../privileges/service.js';
import { assertReadable, loadTopic } from '../topics/access.js';
import type { TopicRow } from '../topics/store.js';
import * as store from './store.js';
import type { PostRow } from './store.js';

/** A post and its topic, or 404 error:no-post. */
export async function loadPost(ctx: AppContext, pid: number): Promise<{ post: PostRow; topic: TopicRow }> {
  const post = Number.isInteger(pid) && pid > 0 ? await store.byPid(ctx.db, pid) : undefined;
  if (!post) throw notFound('error:no-post');
  return { post, topic: await loadTopic(ctx, post.tid) };
}

/** A post the viewer may read (its topic readable), or 403/404. */
export async function loadReadablePost(ctx: AppContext, viewer: Viewer, pid: number): Promise<{ post: PostRow; topic: TopicRow }> {
  const found = await loadPost(ctx, pid);
  await assertReadable(ctx, viewer, found.topic);
  return found;
}

/** What the viewer may do to a post: edit and delete tools (own posts with the privilege, or moderators). */
export async function postTools(ctx: AppContext, viewer: Viewer, cid: number) {
  if (viewer.uid <= 0) return () => ({ edit: false, delete: false });
  const [isMod, edit, del] = await Promise.all([
    ctx.privileges.isModerator(viewer, cid),
    ctx.privileges.can(viewer, 'posts:edit', cid),
    ctx.privileges.can(viewer, 'posts:delete', cid),
  ]);
  return (post: Pick<PostRow, 'uid'>) => ({
    edit: isMod || (edit && post.uid === viewer.uid),
    delete: isMod || (del && post.uid === viewer.uid),
  });
}
