import { badRequest, forbidden, notFound } from '../../http/errors.js';
import type { Viewer } from '../privileges/service.js';
import { editPost } from './edit.js';
import { postDiffs, postVersions } from './read.js';
import * as store from './store.js';
import type { PostsDeps } from './service.js';

/**
 * Restores the version of a post written at or before `since` (NodeBB's PUT
 * /posts/{pid}/diffs/{since}): an ordinary edit under the edit rules, so the version it
 * replaces is kept and the restore shows in the history as a new edit.
 */
export async function restoreVersion(ctx: PostsDeps, viewer: Viewer, pid: number, since: number) {
  const { versions, topic } = await postVersions(ctx, viewer, pid);
  const version = versions.find((v) => v.timestamp <= since) ?? versions[versions.length - 1]!;
  const isMain = topic.main_pid === pid;
  return editPost(ctx, viewer, pid, { content: version.content, ...(isMain && version.title !== null ? { title: version.title } : {}) });
}

/**
 * Deletes one previous version from a post's history (NodeBB's DELETE
 * /posts/{pid}/diffs/{timestamp}; moderators only). The current version is the post itself
 * and cannot be deleted. Answers the history that remains.
 */
export async function deleteVersion(ctx: PostsDeps, viewer: Viewer, pid: number, timestamp: number) {
  const { topic, versions } = await postVersions(ctx, viewer, pid);
  if (!(await ctx.privileges.isModerator(viewer, topic.cid))) throw forbidden();
  if (versions[0]!.timestamp === timestamp && !versions.slice(1).some((v) => v.timestamp === timestamp)) throw badRequest('error:cant-delete-current-version');
  if (!(await ctx.actions.run('post.delete-version', (w) => store.deleteEdit(w, pid, timestamp)))) throw notFound('error:no-diff');
  return postDiffs(ctx, viewer, pid);
}
