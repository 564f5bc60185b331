import { verify } from '@node-rs/argon2';
import type { AppContext } from '../../context.js';
import { badRequest, forbidden, notAuthorised, notFound } from '../../http/errors.js';
import { enforce } from '../../http/ratelimit.js';
import { ADMINISTRATORS } from '../groups/service.js';
import type { Viewer } from '../privileges/service.js';
import * as store from './store.js';

/** What an account deletion uses of the application. */
export type DeleteDeps = Pick<
  AppContext,
  'actions' | 'auth' | 'config' | 'db' | 'events' | 'groups' | 'hooks' | 'limiter' | 'posts' | 'settings' | 'topics' | 'uploads' | 'users'
>;

/**
 * NodeBB's deletions of an account: `account` keeps the posts under a former member, `both`
 * also purges what the member wrote (topics, replies, votes, bookmarks, uploads).
 */
export type DeletionKind = 'account' | 'both';

export interface DeletionInput {
  password?: string;
  /** The request came with an API token: the token the member made is the proof, no password is asked. */
  viaToken?: boolean;
  ip?: string;
}

// A wrong password here is a password guess like a login: the same budget per account.
const PASSWORD_WINDOW_S = 60;

/**
 * Deletes a member's account, content or both: the member themself (confirmed by their
 * password) or an administrator (no password). Every row goes in one transaction; files and
 * the hooks follow after commit.
 */
export async function deleteMember(ctx: DeleteDeps, actor: Viewer, uid: number, kind: DeletionKind, input: DeletionInput = {}): Promise<void> {
  if (actor.uid <= 0) throw notAuthorised();
  const user = await ctx.users.get(uid);
  if (!user) throw notFound('error:no-user');
  const self = actor.uid === uid;
  if (!self && !actor.isAdmin) throw forbidden();
  if (self && !actor.isAdmin && !(await ctx.settings.get()).allowAccountDelete) throw forbidden('error:account-deletion-disabled');
  if (await ctx.groups.isAdmin(uid)) {
    // Another admin is never deleted through the API, nor the last one (the forum would lose its owner).
    const admins = await ctx.groups.members(ADMINISTRATORS);
    if (!self || admins.length <= 1) throw forbidden('error:cant-delete-admin');
  }
  if (self && !input.viaToken && user.password_hash) {
    if (!input.password) throw badRequest('error:invalid-password');
    await enforce(ctx.limiter, `delete-account:uid:${uid}`, ctx.config.rateLimits.login, PASSWORD_WINDOW_S, 'error:too-many-login-attempts');
    if (!(await verify(user.password_hash, input.password).catch(() => false))) throw forbidden('error:invalid-password');
  }
  const purge = kind === 'both';
  const uploads = purge ? await allUploadIds(ctx, uid) : [];
  await ctx.actions.run('user.delete', async (w) => {
    const tx = w.tx;
    const topics = purge ? await ctx.topics.purgeTopicsOf(w, uid) : [];
    const replies = purge ? await ctx.posts.purgeContentOf(w, uid) : [];
    // Tokens and sessions also go by the foreign keys' cascade; said here so it does not rest on that alone.
    await ctx.auth.revokeTokensOf(uid, tx);
    await ctx.auth.destroySessionsOf(uid, undefined, tx);
    await store.dropFollowsOf(tx, uid);
    await store.deleteUser(tx, uid);
    await ctx.events.log('user-delete', actor.uid, { targetUid: uid, username: user.username, kind }, input.ip ?? '', w);
    for (const topic of topics) await w.fire('action:topic.purge', { topic, uid: actor.uid });
    if (replies.length) {
      const parents = await ctx.topics.getMany([...new Set(replies.map((p) => p.tid))]);
      for (const post of replies) {
        const topic = parents.get(post.tid);
        if (topic) await w.fire('action:post.purge', { post, topic, uid: actor.uid });
      }
    }
  });
  // The member's files: each goes unless another member's upload row names the same bytes.
  const owner: Viewer = { uid, groups: [], isAdmin: false, isGlobalMod: false };
  for (const id of uploads) await ctx.uploads.remove(owner, id).catch(() => undefined);
  await ctx.hooks.fire('action:user.delete', { uid, by: actor.uid });
}

/**
 * NodeBB's DELETE /api/v3/users: an administrator deletes several members and their content.
 * Every member is checked first (each exists, none is an administrator), so a refusal deletes
 * none of them; then each is deleted as one deletion of its own.
 */
export async function deleteMembers(ctx: DeleteDeps, actor: Viewer, uids: number[], ip = ''): Promise<void> {
  if (actor.uid <= 0) throw notAuthorised();
  if (!actor.isAdmin) throw forbidden();
  const unique = [...new Set(uids)];
  const found = await ctx.users.getMany(unique);
  if (unique.some((uid) => !found.get(uid))) throw notFound('error:no-user');
  for (const uid of unique) if (await ctx.groups.isAdmin(uid)) throw forbidden('error:cant-delete-admin');
  for (const uid of unique) await deleteMember(ctx, actor, uid, 'both', { ip });
}

async function allUploadIds(ctx: DeleteDeps, uid: number): Promise<number[]> {
  const ids: number[] = [];
  for (let page = 1; ; page++) {
    const { uploads } = await ctx.uploads.ofMember(uid, page, 500);
    ids.push(...uploads.map((u) => u.id));
    if (uploads.length < 500) return ids;
  }
}
