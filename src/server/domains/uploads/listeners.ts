import type { AppContext } from '../../context.js';
import { CLEAN_JOB } from './service.js';

const PLUGIN = 'uploads';

/**
 * Keeps `upload_refs` (which stored files each post, chat message and profile picture uses)
 * from the action hooks, fills topic lists' thumbnails, and declares the hourly clean-up job.
 *
 * Why references this way: a save or an edit already has the text in hand, so finding the
 * upload URLs in it costs a regular expression, and the clean-up job then finds unused files
 * with two indexed NOT EXISTS instead of searching every post. A listener lost to a crash is
 * covered by the job's last check (the member's posts since the upload).
 */
export function registerUploadListeners(ctx: Pick<AppContext, 'hooks' | 'jobs' | 'uploads'>): void {
  const uploads = ctx.uploads;
  // fresh: a new post has no references to replace.
  const post = (fresh: boolean) => async ({ post: p, topic }: { post: { pid: number; content: string }; topic: { tid: number; main_pid: number } }) => {
    await uploads.setRefs('post', p.pid, p.content, { fresh });
    if (p.pid === topic.main_pid) await uploads.setFirstImage(topic.tid, p.content);
  };
  ctx.hooks.action('action:post.save', PLUGIN, post(true));
  ctx.hooks.action('action:post.edit', PLUGIN, post(false));
  ctx.hooks.action('action:topic.save', PLUGIN, post(true));
  ctx.hooks.action('action:post.purge', PLUGIN, async ({ post: p }) => uploads.setRefs('post', p.pid, ''));
  ctx.hooks.action('action:topic.purge', PLUGIN, async ({ topic }) => uploads.setFirstImage(topic.tid, ''));
  ctx.hooks.action('action:chat.sent', PLUGIN, async ({ message }) => uploads.setRefs('chat', message.mid, message.content, { fresh: true }));
  ctx.hooks.action('action:chat.changed', PLUGIN, async ({ message, change }) => {
    if (change === 'edit') await uploads.setRefs('chat', message.mid, message.content);
  });
  ctx.hooks.action('action:user.update', PLUGIN, async ({ user, fields }) => {
    if (fields.includes('picture') || fields.includes('uploadedpicture')) await uploads.setRefs('picture', user.uid, user.picture);
    if (fields.includes('cover:url')) await uploads.setRefs('cover', user.uid, user.cover_url);
  });
  ctx.hooks.action('action:group.cover', PLUGIN, async ({ gid, url }) => uploads.setRefs('group-cover', gid, url));
  ctx.hooks.filter('filter:topics.thumbs', PLUGIN, async (data) => {
    for (const [tid, list] of await uploads.thumbsFor(data.tids)) data.thumbs.set(tid, list);
    return data;
  });
  ctx.jobs.define(CLEAN_JOB, async () => void (await uploads.clean()), { every: 3600_000, leaseMs: 10 * 60_000 });
}
