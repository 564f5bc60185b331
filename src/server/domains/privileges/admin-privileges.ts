import type { AppContext } from '../../context.js';
import { badRequest, notFound } from '../../http/errors.js';
import type { PrivilegeLabel, PrivilegeMatrix } from '../../../shared/schemas/admin-privileges.js';
import { escapeHtml } from '../../http/render.js';
import { ADMINISTRATORS, GLOBAL_MODS, GUESTS, REGISTERED } from '../groups/service.js';
import { presentUser } from '../users/presenter.js';
import {
  assertAdmin,
  CATEGORY_PRIVILEGES,
  GLOBAL_MEMBER_DEFAULTS,
  GLOBAL_PRIVILEGES,
  MEMBER_DEFAULTS,
  type Privilege,
  type Viewer,
} from './service.js';

/** What the privileges admin uses of the application. */
export type PrivilegesAdminDeps = Pick<AppContext, 'categories' | 'events' | 'groups' | 'privileges' | 'users'>;

/** NodeBB's per-group presets of the privileges page. */
export const PRESETS = ['none', 'read-only', 'member', 'moderator'] as const;
export type Preset = (typeof PRESETS)[number];

const TYPE_OF: Record<string, PrivilegeLabel['type']> = {
  find: 'viewing', read: 'viewing', 'topics:read': 'viewing', 'posts:history': 'viewing', 'view:users': 'viewing', 'view:tags': 'viewing', 'view:groups': 'viewing', 'view:users:info': 'moderation',
  'topics:create': 'posting', 'topics:reply': 'posting', 'topics:tag': 'posting', 'posts:edit': 'posting', 'posts:delete': 'posting', 'posts:upvote': 'posting', 'posts:downvote': 'posting', 'topics:delete': 'posting', 'topics:schedule': 'posting',
  chat: 'posting', 'chat:privileged': 'posting', 'upload:post:image': 'posting', 'upload:post:file': 'posting', signature: 'posting',
  'posts:view_deleted': 'moderation', purge: 'moderation', moderate: 'moderation', ban: 'moderation', mute: 'moderation',
};

// Groups always listed (an admin ticks their first box without adding a row).
const LISTED = [REGISTERED, GUESTS, GLOBAL_MODS];
const SYSTEM = new Set([REGISTERED, GUESTS, GLOBAL_MODS, ADMINISTRATORS]);

/** The privileges of a category (cid > 0) or the global ones (cid 0). */
export function privilegeKeys(cid: number): readonly string[] {
  return cid > 0 ? CATEGORY_PRIVILEGES : GLOBAL_PRIVILEGES;
}

async function checkCid(deps: PrivilegesAdminDeps, cid: number): Promise<void> {
  if (cid !== 0 && !(await deps.categories.get(cid))) throw notFound('error:no-category');
}

/** The matrix groups × privileges (and members with a grant of their own), admins only. */
export async function privilegeMatrix(deps: PrivilegesAdminDeps, actor: Viewer, cid: number, extraGroups: string[] = [], extraUids: number[] = []): Promise<PrivilegeMatrix> {
  assertAdmin(actor);
  await checkCid(deps, cid);
  const keys = privilegeKeys(cid);
  const grants = await deps.privileges.list(cid);
  const subjects = new Set(Object.entries(grants).filter(([k]) => keys.includes(k)).flatMap(([, s]) => s));
  const flags = (subject: string) => Object.fromEntries(keys.map((k) => [k, (grants[k] ?? []).includes(subject)]));
  const rows = new Map((await deps.groups.adminList(actor)).map((g) => [g.name, g]));
  const named = [...subjects].filter((s) => !s.startsWith('uid:') && rows.has(s));
  const extra = extraGroups.filter((g) => rows.has(g));
  const groupNames = [...LISTED, ...[...new Set([...named, ...extra])].filter((s) => !LISTED.includes(s)).sort()];
  const uids = [...new Set([...[...subjects].filter((s) => s.startsWith('uid:')).map((s) => Number(s.slice(4))), ...extraUids])].sort((a, b) => a - b);
  const users = await deps.users.getMany(uids);
  return {
    cid,
    labelData: keys.map((name) => ({ name, label: `[[admin-privileges:priv.${name}]]`, type: TYPE_OF[name] ?? 'other' })),
    keys: { groups: keys.map((k) => `groups:${k}`), users: [...keys] },
    groups: groupNames.map((name) => ({
      name,
      nameEscaped: escapeHtml(name),
      isSystem: SYSTEM.has(name) || rows.get(name)?.system === 1,
      isPrivate: rows.get(name)?.private === 1,
      privileges: flags(name),
    })),
    users: uids.flatMap((uid) => {
      const row = users.get(uid);
      if (!row) return [];
      const u = presentUser(row, uid);
      return [{ uid, name: u.username, nameEscaped: escapeHtml(u.username), picture: u.picture ?? '', 'icon:text': u['icon:text'], 'icon:bgColor': u['icon:bgColor'], privileges: flags(`uid:${uid}`) }];
    }),
  };
}

/** NodeBB prefixes group privileges with "groups:"; both spellings name the same privilege. */
function privilegeName(cid: number, raw: string): Privilege {
  const name = raw.replace(/^groups:/, '');
  if (!privilegeKeys(cid).includes(name)) throw badRequest('error:invalid-privilege');
  return name as Privilege;
}

/** A member given as a uid (or `uid:N`) becomes `uid:N`; anything else must be an existing group. */
async function subjectOf(deps: PrivilegesAdminDeps, member: string): Promise<string> {
  const m = member.trim().replace(/^uid:/, '');
  if (!m) throw badRequest('error:invalid-data');
  if (/^\d+$/.test(m)) {
    if (!(await deps.users.get(Number(m)))) throw badRequest('error:no-user');
    return `uid:${Number(m)}`;
  }
  if (!(await deps.groups.exists(m))) throw badRequest('error:no-group');
  return m;
}

/** Grants or rescinds one privilege (global at cid 0) to a group or member, with its audit row. */
export async function setPrivilege(deps: PrivilegesAdminDeps, actor: Viewer, cid: number, privilege: string, member: string, give: boolean, ip = ''): Promise<PrivilegeMatrix> {
  assertAdmin(actor);
  const name = privilegeName(cid, privilege);
  await checkCid(deps, cid);
  const subject = await subjectOf(deps, member);
  await deps.privileges.change(give, cid, [name], subject, (tx) =>
    deps.events.log(give ? 'privilege-give' : 'privilege-rescind', actor.uid, { cid, privilege: name, subject }, ip, tx),
  );
  return privilegeMatrix(deps, actor, cid);
}

/** The privileges a preset gives in a category (or globally at cid 0). */
export function presetPrivileges(cid: number, preset: Preset): string[] {
  if (preset === 'none') return [];
  if (preset === 'read-only') return cid > 0 ? ['find', 'read', 'topics:read'] : ['view:users', 'view:tags', 'view:groups', 'search:content', 'search:users', 'search:tags'];
  if (preset === 'member') return cid > 0 ? [...MEMBER_DEFAULTS] : [...GLOBAL_MEMBER_DEFAULTS];
  return [...privilegeKeys(cid)];
}

/** Sets a group's (or member's) privileges in the category to one of NodeBB's presets. */
export async function applyPreset(deps: PrivilegesAdminDeps, actor: Viewer, cid: number, member: string, preset: string, ip = ''): Promise<PrivilegeMatrix> {
  assertAdmin(actor);
  if (!(PRESETS as readonly string[]).includes(preset)) throw badRequest('error:invalid-data');
  await checkCid(deps, cid);
  const subject = await subjectOf(deps, member);
  const privileges = presetPrivileges(cid, preset as Preset);
  await deps.privileges.replace([cid], privilegeKeys(cid), new Map([[subject, privileges]]), (tx) =>
    deps.events.log('privilege-preset', actor.uid, { cid, subject, preset }, ip, tx),
  );
  return privilegeMatrix(deps, actor, cid, subject.startsWith('uid:') ? [] : [subject]);
}

/** The grants of a category as subject → privileges (only category privileges). */
async function grantsBySubject(deps: PrivilegesAdminDeps, cid: number, group?: string): Promise<Map<string, string[]>> {
  const grants = await deps.privileges.list(cid);
  const out = new Map<string, string[]>();
  if (group) out.set(group, []);
  for (const p of CATEGORY_PRIVILEGES) {
    for (const s of grants[p] ?? []) {
      if (group && s !== group) continue;
      if (!out.has(s)) out.set(s, []);
      out.get(s)!.push(p);
    }
  }
  return out;
}

async function categoryCid(deps: PrivilegesAdminDeps, cid: number): Promise<void> {
  if (cid <= 0 || !(await deps.categories.get(cid))) throw badRequest('error:no-category');
}

/**
 * NodeBB's "copy to all categories": every other category gets this category's grants (of one
 * group, or of every group and member listed here).
 */
export async function copyToAll(deps: PrivilegesAdminDeps, actor: Viewer, cid: number, group = '', ip = ''): Promise<PrivilegeMatrix> {
  assertAdmin(actor);
  await categoryCid(deps, cid);
  if (group) await subjectOf(deps, group);
  const wanted = await grantsBySubject(deps, cid, group || undefined);
  const targets = (await deps.categories.list(actor)).map((c) => c.cid).filter((c) => c !== cid);
  await deps.privileges.replace(targets, CATEGORY_PRIVILEGES, wanted, (tx) =>
    deps.events.log('privilege-copy', actor.uid, { from: cid, to: 'all', group }, ip, tx),
  );
  return privilegeMatrix(deps, actor, cid);
}

/** NodeBB's "copy from category": this category takes another's grants (of one group, or all). */
export async function copyFrom(deps: PrivilegesAdminDeps, actor: Viewer, cid: number, fromCid: number, group = '', ip = ''): Promise<PrivilegeMatrix> {
  assertAdmin(actor);
  await categoryCid(deps, cid);
  await categoryCid(deps, fromCid);
  if (group) await subjectOf(deps, group);
  const wanted = await grantsBySubject(deps, fromCid, group || undefined);
  if (!group) {
    // Subjects holding grants here but none there lose them.
    for (const s of (await grantsBySubject(deps, cid)).keys()) if (!wanted.has(s)) wanted.set(s, []);
  }
  await deps.privileges.replace([cid], CATEGORY_PRIVILEGES, wanted, (tx) =>
    deps.events.log('privilege-copy', actor.uid, { from: fromCid, to: cid, group }, ip, tx),
  );
  return privilegeMatrix(deps, actor, cid);
}
