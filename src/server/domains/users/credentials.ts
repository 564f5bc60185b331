import { checkPassword } from './legacy-password.js';
import { slugify } from '../../../shared/slug.js';
import { emailError, usernameError } from '../../../shared/validation.js';
import type { AppContext } from '../../context.js';
import type { Writer } from '../../core/action.js';
import type { Queryable } from '../../db/index.js';
import { badRequest, forbidden, notFound } from '../../http/errors.js';
import type { Viewer } from '../privileges/service.js';
import * as store from './store.js';
import type { UserRow } from './store.js';

type Deps = Pick<AppContext, 'actions' | 'db' | 'events' | 'hooks' | 'settings' | 'users' | 'mail'>;

const DAY_MS = 86_400_000;

/**
 * Slugs no member may take: they name the forum's own pages and system groups, so a member
 * called "Administrators" could pass for staff.
 */
export const RESERVED_SLUGS = new Set(['administrators', 'global-moderators', 'registered-users', 'guests', 'spiders', 'banned-users', 'verified-users', 'unverified-users', 'anonymous', 'guest', 'system', 'me', 'uid', 'email']);

/** True when the password is the member's (argon2, or an imported forum's bcrypt; false for accounts without one). */
export async function verifyPassword(user: Pick<UserRow, 'password_hash'>, password: unknown): Promise<boolean> {
  if (typeof password !== 'string' || !password || !user.password_hash) return false;
  return checkPassword(user.password_hash, password);
}

/** Throws 400 user:change-password-error-wrong-current unless the password is the member's. */
export async function assertPassword(user: UserRow, password: unknown): Promise<void> {
  if (!(await verifyPassword(user, password))) throw badRequest('user:change-password-error-wrong-current');
}

async function target(ctx: Deps, actor: Viewer, uid: number): Promise<UserRow> {
  const user = await ctx.users.get(uid);
  if (!user || user.deleted === 1) throw notFound('error:no-user');
  if (actor.uid !== uid && !actor.isAdmin) throw forbidden();
  return user;
}

/** The names a member had before, newest first. */
export async function usernameHistory(db: Queryable, uid: number): Promise<{ username: string; changed: number }[]> {
  // username_history belongs to the credentials part of the users domain: queried only here.
  return db.selectFrom('username_history').select(['username', 'changed']).where('uid', '=', uid).orderBy('changed', 'desc').limit(50).execute();
}

/**
 * The names and addresses a member's account has had, newest first (NodeBB's `usernames` and
 * `emails` of the info page): each value with when it was set and by whom. A name's history
 * row keeps the name it replaced, so the name set at that time is the next newer one (the
 * current name for the newest row); the first name dates from joining. An address never
 * changed since joining is listed from then.
 */
export async function identityHistory(db: Queryable, user: UserRow): Promise<{ usernames: HistoryValue[]; emails: HistoryValue[] }> {
  const [names, emails] = await Promise.all([
    db.selectFrom('username_history').select(['username', 'changed', 'by_uid']).where('uid', '=', user.uid).orderBy('changed', 'desc').limit(50).execute(),
    db.selectFrom('email_history').select(['email', 'changed', 'by_uid']).where('uid', '=', user.uid).orderBy('changed', 'desc').orderBy('id', 'desc').limit(50).execute(),
  ]);
  const usernames: HistoryValue[] = names.map((row, i) => ({ value: i === 0 ? user.username : names[i - 1]!.username, byUid: Number(row.by_uid), timestamp: Number(row.changed) }));
  usernames.push({ value: names.length ? names[names.length - 1]!.username : user.username, byUid: user.uid, timestamp: Number(user.joindate) });
  const addresses: HistoryValue[] = emails.map((row) => ({ value: row.email, byUid: Number(row.by_uid), timestamp: Number(row.changed) }));
  if (!emails.length && user.email) addresses.push({ value: user.email, byUid: user.uid, timestamp: Number(user.joindate) });
  return { usernames, emails: addresses };
}

/** One value of a member's identity history. */
export interface HistoryValue {
  value: string;
  byUid: number;
  timestamp: number;
}

/**
 * Changes a member's username (themself or an admin): the forum's length and character rules,
 * reserved and taken names, and the cool-down between two changes (members only). The old
 * name is kept in the history; the old profile address answers 404, as NodeBB's does. Two
 * renames racing to one name: the unique index lets one through and the action runner answers
 * the other error:username-taken (core/unique.ts).
 */
export async function changeUsername(ctx: Deps, actor: Viewer, uid: number, username: unknown): Promise<UserRow> {
  const user = await target(ctx, actor, uid);
  const s = await ctx.settings.get();
  const key = usernameError(username, s);
  if (key) throw badRequest(key);
  const name = (username as string).trim();
  if (name === user.username) return user;
  const slug = slugify(name);
  if (RESERVED_SLUGS.has(slug)) throw badRequest('error:username-reserved');
  if (!actor.isAdmin && s.usernameChangeCooldownDays > 0) {
    const last = (await usernameHistory(ctx.db, uid))[0]?.changed ?? 0;
    const wait = last + s.usernameChangeCooldownDays * DAY_MS - Date.now();
    if (wait > 0) throw badRequest('error:username-change-cooldown', Math.ceil(wait / DAY_MS));
  }
  return ctx.actions.run('user.rename', async (w) => {
    const byName = await store.byUsername(w.tx, name);
    const bySlug = await store.bySlug(w.tx, slug);
    if ((byName && byName.uid !== uid) || (bySlug && bySlug.uid !== uid)) throw badRequest('error:username-taken');
    await store.addUsernameHistory(w, { uid, username: user.username, changed: Date.now(), by_uid: actor.uid });
    await store.writeUser(w, uid, { username: name, userslug: slug });
    await ctx.events.log('username-change', actor.uid, { targetUid: uid, oldUsername: user.username, newUsername: name }, '', w);
    const updated = (await store.byUid(w.tx, uid))!;
    await w.fire('action:user.update', { user: updated, fields: ['username'] });
    return updated;
  });
}

/**
 * A change of address needs the member's current password when they change their own (an
 * admin's own too), as NodeBB's isPrivilegedOrSelfAndPasswordMatch: a stolen session must not
 * become an account takeover through a password reset mailed to a new address. An admin
 * changing another member's needs none; an account without a password (single sign-on) has
 * none to give.
 */
async function assertMayChangeEmail(actor: Viewer, user: UserRow, password: unknown): Promise<void> {
  if (actor.uid === user.uid && user.password_hash) await assertPassword(user, password);
}

/**
 * Asks to change a member's address: the new one gets a confirmation link (at most one every
 * few minutes, mail domain) and the old one a notice, and the old one stays the account's
 * (login, mail) until that link is followed. A member gives their password; an admin may skip
 * the confirmation (NodeBB's skipConfirmation).
 */
export async function requestEmailChange(
  ctx: Deps,
  actor: Viewer,
  uid: number,
  body: { email: string; password?: string; skipConfirmation?: boolean | number | string },
): Promise<{ pending: string | null; email: string | null }> {
  const user = await target(ctx, actor, uid);
  if (emailError(body.email)) throw badRequest('error:invalid-email');
  await assertMayChangeEmail(actor, user, body.password);
  const email = body.email.trim().toLowerCase();
  if (email === (user.email ?? '').toLowerCase()) throw badRequest('error:email-same');
  const owner = await store.byEmail(ctx.db, email);
  if (owner && owner.uid !== uid) throw badRequest('error:email-taken');
  const skip = actor.isAdmin && (body.skipConfirmation === true || body.skipConfirmation === 1 || body.skipConfirmation === '1' || body.skipConfirmation === 'true');
  if (skip) {
    // Another account taking the address meanwhile: the unique index decides (error:email-taken).
    await ctx.actions.run('user.setEmail', async (w) => {
      await store.writeMember(w, uid, { email, email_confirmed: 1 });
      await store.addEmailHistory(w, { uid, email, by_uid: actor.uid, changed: Date.now() });
      await ctx.events.log('email-change', actor.uid, { targetUid: uid, confirmed: 'skipped' }, '', w);
      await w.fire('action:user.update', { user: (await store.byUid(w.tx, uid))!, fields: ['email'] });
    });
    return { pending: null, email };
  }
  await ctx.mail.assertConfirmationAllowed(user);
  await ctx.actions.run('user.requestEmailChange', async (w) => {
    await ctx.mail.sendChangeConfirmation(w, user, email);
    await ctx.events.log('email-change-requested', actor.uid, { targetUid: uid }, '', w);
  });
  return { pending: email, email: user.email };
}

/**
 * Removes a member's address (NodeBB's profile form with the address emptied): at once, as
 * there is nothing to confirm, with the member's password (admins changing another member's
 * excepted); the address removed is told. Any link still open for a new address stays valid.
 */
export async function clearEmail(ctx: Deps, actor: Viewer, uid: number, password: unknown): Promise<UserRow> {
  const user = await target(ctx, actor, uid);
  await assertMayChangeEmail(actor, user, password);
  if (!user.email) return user;
  const old = user.email;
  return ctx.actions.run('user.clearEmail', async (w) => {
    await store.writeMember(w, uid, { email: null, email_confirmed: 0 });
    await ctx.events.log('email-change', actor.uid, { targetUid: uid, removed: true }, '', w);
    await ctx.mail.sendRemovedNotice(w, user, old);
    const updated = (await store.byUid(w.tx, uid))!;
    await w.fire('action:user.update', { user: updated, fields: ['email'] });
    return updated;
  });
}

/**
 * The address of a profile form (PUT /api/v3/users/:uid {email}): empty removes it, the same
 * one changes nothing, another one is a change to confirm (requestEmailChange).
 */
export async function changeEmailFromProfile(ctx: Deps, actor: Viewer, uid: number, email: string, password: string | undefined): Promise<void> {
  if (email.trim() === '') {
    await clearEmail(ctx, actor, uid, password);
    return;
  }
  const user = await target(ctx, actor, uid);
  if (email.trim().toLowerCase() === (user.email ?? '').toLowerCase()) return;
  await requestEmailChange(ctx, actor, uid, { email, ...(password !== undefined ? { password } : {}) });
}

/**
 * Confirms an address from a confirmation link: the member's current one is marked confirmed,
 * a new one (an email change) replaces the old, unless someone took it meanwhile (checked, and
 * on a race the unique index decides: error:email-taken). `claim` uses the link's code in the
 * same action. Says which happened; false when the member is gone.
 */
export async function confirmAddress(ctx: Deps, uid: number, email: string, claim: (w: Writer) => Promise<void>): Promise<'confirmed' | 'changed' | false> {
  return ctx.actions.run('user.confirmEmail', async (w): Promise<'confirmed' | 'changed' | false> => {
    const user = await store.byUid(w.tx, uid);
    if (!user || user.deleted === 1) return false;
    const lower = email.toLowerCase();
    if ((user.email ?? '').toLowerCase() === lower) {
      await claim(w);
      await store.writeMember(w, uid, { email_confirmed: 1 });
      return 'confirmed';
    }
    const owner = await store.byEmail(w.tx, lower);
    if (owner && owner.uid !== uid) throw badRequest('error:email-taken');
    await claim(w);
    await store.writeMember(w, uid, { email: lower, email_confirmed: 1 });
    await store.addEmailHistory(w, { uid, email: lower, by_uid: uid, changed: Date.now() });
    await ctx.events.log('email-change', uid, { targetUid: uid }, '', w);
    await w.fire('action:user.update', { user: (await store.byUid(w.tx, uid))!, fields: ['email'] });
    return 'changed';
  });
}
