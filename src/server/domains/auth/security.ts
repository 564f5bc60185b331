import type { AppContext } from '../../context.js';
import { badRequest, forbidden, notFound } from '../../http/errors.js';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { securityKeys, type SecurityKeyInfo } from '../../plugins/two-factor/authn.js';
import { twoFactor, type Enrolment, type TwoFactorStatus } from '../../plugins/two-factor/service.js';
import type { Viewer } from '../privileges/service.js';
import type { UserRow } from '../users/store.js';
import { enforce } from '../../http/ratelimit.js';
import type { AccountSession, AccountToken } from '../../../shared/security.js';

/** What these functions use of the application. */
type Deps = Pick<AppContext, 'actions' | 'auth' | 'config' | 'db' | 'events' | 'hooks' | 'limiter' | 'privileges' | 'settings' | 'users'>;

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
  await ctx.auth.destroySession(hash, uid);
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
  if (!(await twoFactor(ctx).hasTotp(uid))) throw badRequest('error:two-factor-not-enabled');
  await twoFactor(ctx).disable(uid);
  await ctx.events.log('two-factor-disable', actor.uid, { targetUid: uid });
}

/** A member's security keys: themself, or an admin (who may remove one for a member who lost it). */
export async function listSecurityKeys(ctx: Deps, actor: Viewer, uid: number): Promise<SecurityKeyInfo[]> {
  await securityTarget(ctx, actor, uid);
  return securityKeys(ctx).list(uid);
}

/** Starts adding a security key: only the member themself. `owner` is the session asking. */
export async function securityKeyOptions(ctx: Deps, actor: Viewer, uid: number, owner: string): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const user = await securityTarget(ctx, actor, uid, true);
  return securityKeys(ctx).registrationOptions(uid, owner, user.username);
}

/** Adds the key the browser made; backup codes come with a member's first second factor. */
export async function addSecurityKey(
  ctx: Deps,
  actor: Viewer,
  uid: number,
  owner: string,
  response: RegistrationResponseJSON,
  label: string,
): Promise<{ key: SecurityKeyInfo; backupCodes: string[] | null }> {
  await securityTarget(ctx, actor, uid, true);
  const out = await securityKeys(ctx).register(uid, owner, response, label);
  await ctx.events.log('two-factor-authn-add', actor.uid, { targetUid: uid, label: out.key.label });
  return out;
}

/** Renames a key: only the member themself. */
export async function renameSecurityKey(ctx: Deps, actor: Viewer, uid: number, id: string, label: string): Promise<void> {
  await securityTarget(ctx, actor, uid, true);
  await securityKeys(ctx).rename(uid, id, label);
}

/** Removes a key: the member with their password, or an admin for a member who lost it. */
export async function removeSecurityKey(ctx: Deps, actor: Viewer, uid: number, id: string, password: string | undefined): Promise<void> {
  const user = await securityTarget(ctx, actor, uid);
  if (actor.uid === uid) await ctx.users.assertCurrentPassword(user, password);
  await securityKeys(ctx).remove(uid, id);
  await ctx.events.log('two-factor-authn-remove', actor.uid, { targetUid: uid });
}

/** Options for proving a key at login or re-authentication (`owner`: the waiting login or the session). */
export async function securityKeyChallenge(ctx: Deps, uid: number, owner: string): Promise<PublicKeyCredentialRequestOptionsJSON> {
  return securityKeys(ctx).authenticationOptions(uid, owner);
}

/** Checks a key's answer at login or re-authentication. */
export async function verifySecurityKey(ctx: Deps, uid: number, owner: string, response: AuthenticationResponseJSON): Promise<void> {
  await securityKeys(ctx).authenticate(uid, owner, response);
}

/**
 * NodeBB's GET /users/{uid}/emails/{email}: true when the address is the member's (compared
 * without case), asked by the member themself or an admin (securityTarget).
 */
export async function hasEmail(ctx: Deps, actor: Viewer, uid: number, email: string): Promise<boolean> {
  const user = await securityTarget(ctx, actor, uid);
  return !!user.email && user.email.toLowerCase() === email.trim().toLowerCase();
}

// A wrong password here is a password guess like a login: the same budget per account.
const REAUTH_WINDOW_S = 60;

/**
 * NodeBB's POST /users/reauth/verify: the member confirms it is them with their password
 * (rate-limited like a login). A wrong one is 403 error:invalid-password; a member without a
 * password (an imported account) cannot confirm this way.
 */
export async function verifyReauth(ctx: Deps, actor: Viewer, password: string): Promise<boolean> {
  const user = await securityTarget(ctx, actor, actor.uid);
  if (!user.password_hash) throw badRequest('error:invalid-password');
  await enforce(ctx.limiter, `reauth:uid:${user.uid}`, ctx.config.rateLimits.login, REAUTH_WINDOW_S, 'error:too-many-login-attempts');
  if (!(await ctx.users.passwordMatches(user, password))) throw forbidden('error:invalid-password');
  return true;
}
