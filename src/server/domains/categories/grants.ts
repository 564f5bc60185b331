import { badRequest, forbidden, notFound } from '../../http/errors.js';
import { GLOBAL_MODS, GUESTS, REGISTERED } from '../groups/service.js';
import { CATEGORY_PRIVILEGES, type CategoryPrivilege, type Viewer } from '../privileges/service.js';
import { presentUser } from '../users/presenter.js';
import * as store from './store.js';
import type { CategoriesDeps } from './service.js';

/** Who holds what in a category, as the admin privileges table shows it. */
export interface PrivilegeSet {
  cid: number;
  keys: string[];
  groups: { name: string; privileges: Record<string, boolean> }[];
  users: {
    uid: number;
    username: string;
    displayname: string;
    picture: string;
    'icon:text': string;
    'icon:bgColor': string;
    banned: boolean;
    banned_until: number;
    privileges: Record<string, boolean>;
  }[];
}

// Groups always listed, even without a grant, so an admin can tick their first box.
const LISTED_GROUPS = [REGISTERED, GUESTS, GLOBAL_MODS];

async function loadForAdmin(ctx: CategoriesDeps, actor: Viewer, cid: number): Promise<void> {
  const row = await store.byCid(ctx.db, cid);
  if (!row) throw notFound('error:no-category');
  if (actor.isAdmin) return;
  if (!(await ctx.privileges.can(actor, 'find', cid))) throw notFound('error:no-category');
  throw forbidden();
}

/** The category's grants by group and by member (admins). */
export async function privilegeSet(ctx: CategoriesDeps, actor: Viewer, cid: number): Promise<PrivilegeSet> {
  await loadForAdmin(ctx, actor, cid);
  const grants = await ctx.privileges.list(cid);
  const keys = [...CATEGORY_PRIVILEGES] as string[];
  const subjects = new Set(Object.values(grants).flat());
  const flags = (subject: string) => Object.fromEntries(keys.map((k) => [k, (grants[k] ?? []).includes(subject)]));
  const groupNames = [...LISTED_GROUPS, ...[...subjects].filter((s) => !s.startsWith('uid:') && !LISTED_GROUPS.includes(s)).sort()];
  const uids = [...subjects].filter((s) => s.startsWith('uid:')).map((s) => Number(s.slice(4)));
  const users = await ctx.users.getMany(uids);
  return {
    cid,
    keys,
    groups: groupNames.map((name) => ({ name, privileges: flags(name) })),
    users: uids
      .sort((a, b) => a - b)
      .map((uid) => {
        const u = presentUser(users.get(uid), uid);
        const bannedUntil = u.banned ? (users.get(uid)?.banned_until ?? 0) : 0;
        const icon = { 'icon:text': u['icon:text'], 'icon:bgColor': u['icon:bgColor'] };
        return { uid, username: u.username, displayname: u.displayname, picture: u.picture, ...icon, banned: u.banned, banned_until: bannedUntil, privileges: flags(`uid:${uid}`) };
      }),
  };
}

/** NodeBB prefixes group privileges with "groups:"; both spellings name the same privilege. */
function privilegeName(raw: string): CategoryPrivilege {
  const name = raw.replace(/^groups:/, '');
  if (!(CATEGORY_PRIVILEGES as readonly string[]).includes(name)) throw badRequest('error:invalid-privilege');
  return name as CategoryPrivilege;
}

/** A member given as a uid becomes `uid:N`; anything else must be an existing group. */
async function subjectOf(ctx: CategoriesDeps, member: string): Promise<string> {
  const m = member.trim();
  if (!m) throw badRequest('error:invalid-data');
  if (/^\d+$/.test(m)) {
    if (!(await ctx.users.get(Number(m)))) throw badRequest('error:no-user');
    return `uid:${Number(m)}`;
  }
  if (!(await ctx.groups.exists(m))) throw badRequest('error:no-group');
  return m;
}

/** Grants (or rescinds) one category privilege to a group or member (admins). */
export async function changePrivilege(ctx: CategoriesDeps, actor: Viewer, cid: number, privilege: string, member: string, give: boolean, ip = ''): Promise<PrivilegeSet> {
  const name = privilegeName(privilege);
  await loadForAdmin(ctx, actor, cid);
  const subject = await subjectOf(ctx, member);
  // The grant and its audit row in one transaction; grant caches clear after the commit.
  await ctx.privileges.change(give, cid, [name], subject, (tx) =>
    ctx.events.log(give ? 'privilege-give' : 'privilege-rescind', actor.uid, { cid, privilege: name, subject }, ip, tx),
  );
  return privilegeSet(ctx, actor, cid);
}

/** Makes a member a moderator of the category, or stops them being one (admins). */
export async function setModerator(ctx: CategoriesDeps, actor: Viewer, cid: number, uid: number, on: boolean, ip = ''): Promise<PrivilegeSet> {
  return changePrivilege(ctx, actor, cid, 'moderate', String(uid), on, ip);
}
