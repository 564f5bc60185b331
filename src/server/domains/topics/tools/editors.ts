import type { UserSummary } from '../../../../shared/types.js';
import { badRequest, forbidden, notFound } from '../../../http/errors.js';
import type { Viewer } from '../../privileges/service.js';
import { presentUser } from '../../users/presenter.js';
import { assertReadable, loadTopic, member } from '../access.js';
import * as store from '../store.js';
import type { TopicToolsDeps as TopicsDeps } from '../service.js';
import { recordEvent } from './events.js';

/** The most editors a topic may list. */
export const EDITORS_MAX = 50;

/** Whether the viewer manages a topic's editors: its starter, or a moderator of its category. */
async function mayManage(ctx: TopicsDeps, viewer: Viewer, topic: { uid: number; cid: number }): Promise<boolean> {
  return (viewer.uid > 0 && topic.uid === viewer.uid) || (await ctx.privileges.isModerator(viewer, topic.cid));
}

/** A topic's editors (members besides its starter who may edit its first post): its starter and moderators. */
export async function listEditors(ctx: TopicsDeps, viewer: Viewer, tid: number): Promise<UserSummary[]> {
  member(viewer);
  const topic = await loadTopic(ctx, tid);
  await assertReadable(ctx, viewer, topic);
  if (!(await mayManage(ctx, viewer, topic))) throw forbidden();
  const uids = await store.editorsOf(ctx.db, tid);
  const users = await ctx.users.getMany(uids);
  return uids.map((uid) => presentUser(users.get(uid), uid));
}

/** Replaces a topic's editors (its starter or a moderator); every uid must be a member. */
export async function setEditors(ctx: TopicsDeps, viewer: Viewer, tid: number, uids: number[], ip = ''): Promise<UserSummary[]> {
  member(viewer);
  const topic = await loadTopic(ctx, tid);
  await assertReadable(ctx, viewer, topic);
  if (!(await mayManage(ctx, viewer, topic))) throw forbidden();
  const unique = [...new Set(uids)].filter((uid) => uid !== topic.uid);
  if (unique.length > EDITORS_MAX) throw badRequest('error:too-many-editors', EDITORS_MAX);
  const users = await ctx.users.getMany(unique);
  if (unique.some((uid) => !users.get(uid) || users.get(uid)!.deleted === 1)) throw notFound('error:no-user');
  await ctx.actions.run('topic.editors', async (w) => {
    await store.setEditors(w, tid, unique);
    await recordEvent(ctx, w, tid, 'editors', viewer.uid, { count: unique.length }, ip);
    await w.fire('action:topic.tools', { tids: [tid], uid: viewer.uid, tool: 'editors' });
  });
  return unique.map((uid) => presentUser(users.get(uid), uid));
}

/** Whether a member is one of a topic's editors. */
export async function isEditor(ctx: Pick<TopicsDeps, 'db'>, tid: number, uid: number): Promise<boolean> {
  return uid > 0 && isAmongEditors(await store.editorsOf(ctx.db, tid), uid);
}

/** Whether a member is among a topic's editors, already read (a guest never is). */
export function isAmongEditors(editors: readonly number[], uid: number): boolean {
  return uid > 0 && editors.includes(uid);
}
