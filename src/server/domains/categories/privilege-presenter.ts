import type { Static } from 'typebox';
import { ADMINISTRATORS, GLOBAL_MODS, GUESTS, REGISTERED } from '../groups/service.js';
import { bannedUntilReadable } from '../users/presenter.js';
import type { PrivilegeSet } from './grants.js';
import type { ModeratorChangeSchema, PrivilegeChangeSchema, PrivilegeListSchema } from './schemas.js';

/**
 * NodeBB's privilege tables. NodeBB documents the members' rows differently per route (by
 * name on GET, `banned` as 0/1 after a grant, as a boolean with `isLocal` after a moderator
 * change), and its conformance rule refuses fields a route does not list, so each route gets
 * its own row shape from the one PrivilegeSet.
 */

// NodeBB's column labels (admin/manage/privileges keys) and kinds, in its column order.
const LABELS: Record<string, [string, string]> = {
  find: ['find-category', 'viewing'],
  read: ['access-category', 'viewing'],
  'topics:read': ['access-topics', 'viewing'],
  'topics:create': ['create-topics', 'posting'],
  'topics:reply': ['reply-to-topics', 'posting'],
  'topics:schedule': ['schedule-topics', 'posting'],
  'topics:tag': ['tag-topics', 'posting'],
  'posts:edit': ['edit-posts', 'posting'],
  'posts:history': ['view-edit-history', 'posting'],
  'posts:delete': ['delete-posts', 'posting'],
  'posts:upvote': ['upvote-posts', 'posting'],
  'posts:downvote': ['downvote-posts', 'posting'],
  'topics:delete': ['delete-topics', 'posting'],
  'posts:view_deleted': ['view_deleted', 'moderation'],
  purge: ['purge', 'moderation'],
  moderate: ['moderate', 'moderation'],
};

const SYSTEM_GROUPS = new Set([GUESTS, REGISTERED, ADMINISTRATORS, GLOBAL_MODS]);

const kind = (key: string) => LABELS[key]?.[1] ?? 'other';

function escape(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

// The part every route shares: labels, group rows (NodeBB keys group privileges `groups:…`), keys.
function table(set: PrivilegeSet) {
  const groupKey = (k: string) => `groups:${k}`;
  const groupTypes = Object.fromEntries(set.keys.map((k) => [groupKey(k), kind(k)]));
  return {
    labelData: set.keys.map((k) => ({ label: `[[admin/manage/privileges:${LABELS[k]?.[0] ?? k}]]`, type: kind(k) })),
    groups: set.groups.map((g) => ({
      name: g.name,
      nameEscaped: escape(g.name),
      privileges: Object.fromEntries(Object.entries(g.privileges).map(([k, v]) => [groupKey(k), v])),
      types: groupTypes,
      isPrivate: false,
      isSystem: SYSTEM_GROUPS.has(g.name),
    })),
    keys: { users: [...set.keys], groups: set.keys.map(groupKey) },
    columnCountUserOther: 0,
    columnCountGroupOther: 0,
  };
}

/** GET /api/v3/categories/{cid}/privileges. */
export function presentPrivilegeList(set: PrivilegeSet): Static<typeof PrivilegeListSchema> {
  const users = set.users.map((u) => ({ name: u.username, nameEscaped: escape(u.username), privileges: u.privileges, isPrivate: false, isSystem: false }));
  return { ...table(set), users };
}

/** PUT/DELETE /api/v3/categories/{cid}/privileges/{privilege}. */
export function presentPrivilegeChange(set: PrivilegeSet): Static<typeof PrivilegeChangeSchema> {
  const users = set.users.map(({ banned, banned_until, ...u }) => ({
    ...u,
    banned: banned ? 1 : 0,
    banned_until_readable: bannedUntilReadable(banned, banned_until),
  }));
  return { ...table(set), users };
}

/** PUT/DELETE /api/v3/categories/{cid}/moderator/{uid}. */
export function presentModeratorChange(set: PrivilegeSet): Static<typeof ModeratorChangeSchema> {
  const types = Object.fromEntries(set.keys.map((k) => [k, kind(k)]));
  const users = set.users.map((u) => ({
    ...u,
    isLocal: true,
    banned_until_readable: bannedUntilReadable(u.banned, u.banned_until),
    types,
  }));
  return { ...table(set), users };
}
