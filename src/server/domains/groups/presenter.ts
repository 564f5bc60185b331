import type { GroupBadge, GroupData, GroupMember } from '../../../shared/schemas/group.js';
import type { UserSummary } from '../../../shared/types.js';
import type { GroupRow } from './store.js';

/** The badge text: the group's label, its name when none is set (as NodeBB). */
export const titleOf = (g: Pick<GroupRow, 'user_title' | 'name'>) => g.user_title || g.name;

// NodeBB escapes translation brackets so a label is shown as typed, not translated.
const escapeTokens = (s: string) => s.replace(/\[/g, '&#91;').replace(/\]/g, '&#93;');

/** NodeBB's GroupDataObject from a stored group. */
export function presentGroup(g: GroupRow): GroupData {
  const created = Number(g.created);
  return {
    name: g.name,
    slug: g.slug,
    createtime: created,
    userTitle: titleOf(g),
    userTitleEscaped: escapeTokens(titleOf(g)),
    userTitleEnabled: g.user_title_enabled,
    description: g.description,
    memberCount: g.member_count,
    hidden: g.hidden,
    system: g.system,
    private: g.private,
    disableJoinRequests: g.disable_join_requests,
    disableLeave: g.disable_leave,
    'cover:url': g.cover_url,
    'cover:thumb:url': g.cover_thumb_url || g.cover_url,
    'cover:position': g.cover_position,
    nameEncoded: encodeURIComponent(g.name),
    displayName: g.name,
    labelColor: g.label_color,
    textColor: g.text_color,
    icon: g.icon,
    createtimeISO: new Date(created).toISOString(),
    memberPostCids: '',
    memberPostCidsArray: [],
  };
}

/** A group's badge as shown beside a member's name. */
export function presentBadge(g: GroupRow): GroupBadge {
  return { name: g.name, slug: g.slug, userTitle: titleOf(g), icon: g.icon, labelColor: g.label_color, textColor: g.text_color };
}

/** A member in group lists. */
export function presentMember(u: UserSummary): GroupMember {
  return { uid: u.uid, username: u.username, userslug: u.userslug, displayname: u.displayname, picture: u.picture || null, 'icon:text': u['icon:text'], 'icon:bgColor': u['icon:bgColor'] };
}
