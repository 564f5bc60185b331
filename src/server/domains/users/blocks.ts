import type { Writer } from '../../core/action.js';
import { memberTag } from '../../core/tags.js';
import type { Queryable } from '../../db/index.js';
import { badRequest, notAuthorised, notFound } from '../../http/errors.js';
import type { Viewer } from '../privileges/service.js';
import type { UsersDeps } from './service.js';
import * as store from './store.js';

/**
 * Blocks: a member blocks another (NodeBB's user.toggleBlock). A blocked member cannot message
 * the blocker in chats. Administrators and global moderators cannot be blocked (as in NodeBB).
 */
export async function setBlock(ctx: UsersDeps, viewer: Viewer, target: number, on: boolean): Promise<void> {
  if (viewer.uid <= 0) throw notAuthorised();
  if (viewer.uid === target) throw badRequest('error:cannot-block-self');
  const row = await store.byUid(ctx.db, target);
  if (!row || row.deleted) throw notFound('error:no-user');
  if (on) {
    const groups = await ctx.groups.groupsOf(target);
    if (groups.includes('administrators') || groups.includes('Global Moderators')) throw badRequest('error:cannot-block-privileged');
  }
  await ctx.actions.run(on ? 'user.block' : 'user.unblock', async (w) => {
    const exists = await isBlockedBy(w.tx, viewer.uid, target);
    if (on && exists) throw badRequest('error:already-blocked');
    if (!on && !exists) throw badRequest('error:already-unblocked');
    await writeBlock(w, viewer.uid, target, on);
  });
}

/** Records (on) or lifts a block, in the action's transaction: the blocker's own state changed. */
export async function writeBlock(w: Writer, uid: number, target: number, on: boolean): Promise<void> {
  w.changed(memberTag(uid));
  if (on) await w.tx.insertInto('user_blocks').values({ uid, blocked_uid: target, created: Date.now() }).execute();
  else await w.tx.deleteFrom('user_blocks').where('uid', '=', uid).where('blocked_uid', '=', target).execute();
}

/** True when `uid` has blocked `target`. */
export async function isBlockedBy(db: Queryable, uid: number, target: number): Promise<boolean> {
  return !!(await db.selectFrom('user_blocks').select('uid').where('uid', '=', uid).where('blocked_uid', '=', target).executeTakeFirst());
}

/** Of `uids`, those who blocked `target` (one query). */
export async function blockersAmong(db: Queryable, uids: number[], target: number): Promise<Set<number>> {
  if (!uids.length) return new Set();
  const rows = await db.selectFrom('user_blocks').select('uid').where('uid', 'in', uids).where('blocked_uid', '=', target).execute();
  return new Set(rows.map((r) => r.uid));
}

/** The uids `uid` has blocked. */
export async function blockedBy(db: Queryable, uid: number): Promise<number[]> {
  return (await db.selectFrom('user_blocks').select('blocked_uid').where('uid', '=', uid).orderBy('created', 'desc').limit(1000).execute()).map((r) => r.blocked_uid);
}

/** Every member who has blocked anyone (the primary key's leading column: an index scan). */
export async function allBlockers(db: Queryable): Promise<Set<number>> {
  return new Set((await db.selectFrom('user_blocks').select('uid').distinct().execute()).map((r) => r.uid));
}

/** Of `uids`, those `uid` has blocked (one lookup of the primary key per uid). */
export async function blockedAmong(db: Queryable, uid: number, uids: number[]): Promise<Set<number>> {
  if (!uids.length) return new Set();
  const rows = await db.selectFrom('user_blocks').select('blocked_uid').where('uid', '=', uid).where('blocked_uid', 'in', [...new Set(uids)]).execute();
  return new Set(rows.map((r) => r.blocked_uid));
}

/** Of `uids`, those who follow `target` (one query). */
export async function followersAmong(db: Queryable, uids: number[], target: number): Promise<Set<number>> {
  if (!uids.length) return new Set();
  const rows = await db.selectFrom('user_follows').select('uid').where('uid', 'in', uids).where('followee', '=', target).execute();
  return new Set(rows.map((r) => r.uid));
}
