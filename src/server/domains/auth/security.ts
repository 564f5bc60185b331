import type { AppContext } from '../../context.js';
import { badRequest, forbidden, notFound } from '../../http/errors.js';
import { twoFactor, type Enrolment, type TwoFactorStatus } from '../../plugins/two-factor/service.js';
import type { Viewer } from '../privileges/service.js';
import type { UserRow } from '../users/store.js';
import type { AccountSession, AccountToken } from '../../../shared/security.js';

/** What these functions use of the application. */
type Deps = Pick<AppContext, 'auth' | 'config' | 'db' | 'events' | 'hooks' | 'limiter' | 'privileges' | 'settings' | 'users'>;

/** The member an account-security action is about: themself, or anyone for an admin. */
export async function securityTarget(ctx: Deps, actor: Viewer, uid: number, selfOnly = false): Promise<UserRow> {
  if (actor.uid <= 0) throw forbidden();
  const user = await ctx.users.get(uid);
  if (!user || user.deleted === 1) throw notFound('error:no-user');
  if (actor.uid !== uid && (selfOnly || !actor.isAdmin)) throw forbidden();
  return user;
}

/** A member's sessions as their sessions page shows them (NodeBB's fields and ours). */
export async function listSessions(ctx: Deps, uid: number, currentHash: string | null): Promise<AccountSession[]> {
  return ctx.auth.describeSessions(uid, currentHash);
}

/** Ends one of a member's sessions (themself or an admin): its next request is a guest's, its sockets close. */
export async function revokeSession(ctx: Deps, actor: Viewer, uid: number, uuid: string): Promise<void> {
  await securityTarget(ctx, actor, uid);
  const hash = await ctx.auth.sessionByUuid(uid, uuid);
  if (!hash) throw notFound('error:no-session-found');
  await ctx.auth.destroySession(hash);
  await ctx.events.log('session-revoke', actor.uid, { targetUid: uid });
  await ctx.hooks.fire('action:user.loggedOut', { uid, sessionId: hash });
}

/** Ends every session of a member but the one given (the page that asked). Returns how many ended. */
export async function revokeOtherSessions(ctx: Deps, actor: Viewer, uid: number, keepHash: string | null): Promise<number> {
  await securityTarget(ctx, actor, uid);
  const others = (await ctx.auth.sessionsOf(uid)).filter((s) => s.id_hash !== keepHash);
  await ctx.auth.destroySessionsOf(uid, keepHash ?? undefined);
  await ctx.events.log('session-revoke-others', actor.uid, { targetUid: uid, count: others.length });
  for (const s of others) await ctx.hooks.fire('action:user.loggedOut', { uid, sessionId: s.id_hash });
  return others.length;
}

/** A member's API tokens as the tokens page lists them (the token itself is shown only when made). */
export async function listTokens(ctx: Deps, uid: number): Promise<AccountToken[]> {
  return (await ctx.auth.tokensOf(uid)).map((t) => ({
    id: t.id,
    description: t.description,
    timestamp: t.created,
    timestampISO: new Date(t.created).toISOString(),
    lastSeen: t.last_seen,
    lastSeenISO: t.last_seen ? new Date(t.last_seen).toISOString() : '',
  }));
}

/** Revokes one of a member's tokens by its id or the token itself (themself or an admin). */
export async function revokeToken(ctx: Deps, actor: Viewer, uid: number, idOrToken: string): Promise<void> {
  await securityTarget(ctx, actor, uid);
  if (!(await ctx.auth.revokeTokenOf(uid, idOrToken))) throw notFound('error:no-token');
  await ctx.events.log('token-revoke', actor.uid, { targetUid: uid });
}

/** The member's two-factor state (their 2factor page). */
export async function twoFactorStatus(ctx: Deps, uid: number): Promise<TwoFactorStatus> {
  return twoFactor(ctx).status(uid);
}

/** Starts enrolling a key: only the member themself (the secret is theirs alone). */
export async function beginTwoFactor(ctx: Deps, actor: Viewer, uid: number): Promise<Enrolment> {
  const user = await securityTarget(ctx, actor, uid, true);
  return twoFactor(ctx).begin(uid, user.email || user.username);
}

/** Confirms the key with a code; returns the backup codes (shown once). */
export async function confirmTwoFactor(ctx: Deps, actor: Viewer, uid: number, code: string): Promise<string[]> {
  await securityTarget(ctx, actor, uid, true);
  const codes = await twoFactor(ctx).confirm(uid, code);
  await ctx.events.log('two-factor-enable', actor.uid, { targetUid: uid });
  return codes;
}

/** New backup codes, with the member's password. */
export async function regenerateBackupCodes(ctx: Deps, actor: Viewer, uid: number, password: string | undefined): Promise<string[]> {
  const user = await securityTarget(ctx, actor, uid, true);
  await ctx.users.assertCurrentPassword(user, password);
  return twoFactor(ctx).regenerateBackupCodes(uid);
}

/** Turns two-factor off: the member with their password, or an admin for a member who lost their device. */
export async function disableTwoFactor(ctx: Deps, actor: Viewer, uid: number, password: string | undefined): Promise<void> {
  const user = await securityTarget(ctx, actor, uid);
  if (actor.uid === uid) await ctx.users.assertCurrentPassword(user, password);
  if (!(await twoFactor(ctx).hasKey(uid))) throw badRequest('error:two-factor-not-enabled');
  await twoFactor(ctx).disable(uid);
  await ctx.events.log('two-factor-disable', actor.uid, { targetUid: uid });
}
