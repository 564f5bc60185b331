/** Page data of the admin area's privileges, groups and rewards pages (issue 16 §5, §7). */
import type { PageBase } from '../types.js';

/** One privilege column: NodeBB's name, its label key and its kind. */
export interface PrivilegeLabel {
  name: string;
  label: string;
  type: 'viewing' | 'posting' | 'moderation' | 'other';
}

export interface PrivilegeMatrixGroup {
  name: string;
  nameEscaped: string;
  isSystem: boolean;
  isPrivate: boolean;
  privileges: Record<string, boolean>;
}

export interface PrivilegeMatrixUser {
  uid: number;
  name: string;
  nameEscaped: string;
  picture: string;
  'icon:text': string;
  'icon:bgColor': string;
  privileges: Record<string, boolean>;
}

/** The matrix of one category (cid 0: the global privileges). */
export interface PrivilegeMatrix {
  cid: number;
  labelData: PrivilegeLabel[];
  keys: { groups: string[]; users: string[] };
  groups: PrivilegeMatrixGroup[];
  users: PrivilegeMatrixUser[];
}

/** /admin/manage/privileges and /admin/manage/privileges/:cid. */
export interface AdminPrivilegesPage extends PageBase {
  cid: number;
  privileges: PrivilegeMatrix;
  categories: { cid: number; name: string; level: number }[];
  /** Groups not yet in the matrix, which an admin may add a row for. */
  otherGroups: string[];
  presets: string[];
}

export interface AdminGroupItem {
  name: string;
  slug: string;
  description: string;
  memberCount: number;
  system: boolean;
  hidden: boolean;
  private: boolean;
  icon: string;
  labelColor: string;
  textColor: string;
  createtime: number;
}

/** /admin/manage/groups. */
export interface AdminGroupsPage extends PageBase {
  groups: AdminGroupItem[];
  query: string;
}

export interface AdminGroupMember {
  uid: number;
  username: string;
  userslug: string;
  picture: string;
  'icon:text': string;
  'icon:bgColor': string;
  isOwner: boolean;
}

/** /admin/manage/groups/:slug. */
export interface AdminGroupPage extends PageBase {
  group: AdminGroupItem & {
    userTitle: string;
    userTitleEnabled: boolean;
    disableJoinRequests: boolean;
    disableLeave: boolean;
  };
  members: AdminGroupMember[];
  memberCount: number;
}

export type RewardCondition = 'postcount' | 'reputation' | 'topiccount' | 'days';

export interface RewardRule {
  id: number;
  condition: RewardCondition;
  value: number;
  group: string;
  disabled: boolean;
  awarded: number;
}

/** /admin/extend/rewards. */
export interface AdminRewardsPage extends PageBase {
  active: RewardRule[];
  conditions: { condition: RewardCondition; name: string }[];
  groups: string[];
}
