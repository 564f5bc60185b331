import { Type, type Static } from 'typebox';
import type { PageBase, Pagination, UserSummary } from '../types.js';
import { UserObjectSlimSchema, type UserObjectSlim } from './user.js';

/** NodeBB's GroupDataObject: a group's own fields (components/schemas/GroupObject.yaml). */
export const GroupDataSchema = Type.Object({
  name: Type.String(),
  slug: Type.String(),
  createtime: Type.Number(),
  userTitle: Type.String(),
  userTitleEscaped: Type.String(),
  userTitleEnabled: Type.Number(),
  description: Type.String(),
  memberCount: Type.Number(),
  hidden: Type.Number(),
  system: Type.Number(),
  private: Type.Number(),
  disableJoinRequests: Type.Number(),
  disableLeave: Type.Number(),
  'cover:url': Type.String(),
  'cover:thumb:url': Type.String(),
  'cover:position': Type.String(),
  nameEncoded: Type.String(),
  displayName: Type.String(),
  labelColor: Type.String(),
  textColor: Type.String(),
  icon: Type.String(),
  createtimeISO: Type.String(),
  memberPostCids: Type.String(),
  memberPostCidsArray: Type.Array(Type.Number()),
});
export type GroupData = Static<typeof GroupDataSchema>;

/** A member in a group's preview and lists (NodeBB's slim member fields). */
export const GroupMemberSchema = Type.Object({
  uid: Type.Number(),
  username: Type.String(),
  userslug: Type.String(),
  displayname: Type.String(),
  picture: Type.Union([Type.String(), Type.Null()]),
  'icon:text': Type.String(),
  'icon:bgColor': Type.String(),
});
export type GroupMember = Static<typeof GroupMemberSchema>;

/** GET /api/v3/groups: a group with its first members (NodeBB's write document lists no picture). */
export const GroupListItemSchema = Type.Object({
  ...GroupDataSchema.properties,
  members: Type.Array(Type.Omit(GroupMemberSchema, ['picture'])),
  truncated: Type.Boolean(),
});
/** The groups page's items: NodeBB's read document lists the members' picture and no displayname. */
export type GroupListItem = GroupData & { members: Omit<GroupMember, 'displayname'>[]; truncated: boolean };

/** GET /api/v3/groups/{slug}/members: one page of members, owners marked. */
export const GroupMembersSchema = Type.Object({
  users: Type.Array(Type.Object({ ...UserObjectSlimSchema.properties, isOwner: Type.Boolean() })),
  matchCount: Type.Union([Type.Number(), Type.Null()]),
  timing: Type.Union([Type.String(), Type.Null()]),
  nextStart: Type.Number(),
});

/** A group's badge beside a member's name: NodeBB's `selectedGroups` items. */
export interface GroupBadge {
  name: string;
  slug: string;
  userTitle: string;
  icon: string;
  labelColor: string;
  textColor: string;
}

/** NodeBB's GroupFullObject: the details page's `group`. */
export type GroupFull = GroupData & {
  descriptionParsed: string;
  members: (UserObjectSlim & { isOwner: boolean })[];
  membersNextStart: number;
  pending: GroupMember[];
  invited: GroupMember[];
  isMember: boolean;
  isPending: boolean;
  isInvited: boolean;
  isOwner: boolean;
};

/** Page data of /groups (template `groups/list`). */
export interface GroupsListPage extends PageBase {
  groups: GroupListItem[];
  allowGroupCreation: boolean;
  sort: string;
  /** NodeBB's groups page gives prev, next, first and last without their query strings. */
  pagination: Omit<Pagination, 'prev' | 'next' | 'first' | 'last'> & Record<'prev' | 'next' | 'first' | 'last', { page: number; active: boolean }>;
}

/** Page data of /groups/:slug (template `groups/details`). */
export interface GroupDetailsPage extends PageBase {
  group: GroupFull;
  posts: import('../types.js').UserProfilePage['posts'];
  isAdmin: boolean;
  isGlobalMod: boolean;
  allowPrivateGroups: number;
}

/** Page data of /groups/:slug/members (template `groups/members`). */
export interface GroupMembersPage extends PageBase {
  group: GroupData;
  users: (GroupMember & { isOwner: boolean })[];
  query: string;
  isOwner: boolean;
  pagination: Pagination;
}

/** Page data of /user/:userslug/groups (template `account/groups`). */
export interface AccountGroupsPage extends PageBase, UserSummary {
  groups: (GroupData & { badge: number; isOwner: boolean })[];
  invites: GroupData[];
  isSelf: boolean;
}
