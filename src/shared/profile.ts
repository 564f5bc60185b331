import type { CategoryRef, TopicSummary, PostView, UserSummary, PageBase, Pagination } from './types.js';
import type { AccountUser } from './account.js';

/** One admin-defined profile field with the member's value, as the profile and edit pages show it. */
export interface CustomFieldView {
  key: string;
  name: string;
  type: 'text' | 'url' | 'number' | 'select';
  options: string[];
  visibility: 'all' | 'loggedin' | 'privileged';
  value: string;
}

/** The member a profile list page is about (a part of NodeBB's UserObjectFull) and what the viewer may do. */
export interface ProfileListBase extends PageBase, AccountUser {
  pagination: Pagination;
  nextStart: number;
  noItemsFoundKey: string;
  showSort: boolean;
  sortOptions: { url: string; name: string; selected: boolean }[];
}

/** A post of a profile list: the post, its topic and category. */
export type ProfilePost = PostView & {
  topic: { tid: number; title: string; slug: string };
  category: CategoryRef;
  isMainPost: boolean;
  /** The post's own words as plain text, quotes left out, cut at PROFILE_EXCERPT_CHARS: what the list shows. */
  excerpt?: string;
};

/** How long an excerpt of a post in a profile's post lists is, in characters. */
export const PROFILE_EXCERPT_CHARS = 280;

/** Page data of /user/:userslug/{posts,best,upvoted,downvoted,bookmarks} (NodeBB's posts.yaml and siblings). */
export interface ProfilePostsPage extends ProfileListBase {
  posts: ProfilePost[];
}

/** Page data of /user/:userslug/{topics,ignored,read}. */
export interface ProfileTopicsPage extends ProfileListBase {
  topics: TopicSummary[];
}

/** A member of a followers / following list (NodeBB's fields). */
export type FollowUser = UserSummary & {
  'email:confirmed': number;
  lastonline: number;
  lastonlineISO: string;
  joindate: number;
  joindateISO: string;
  'banned:expire': number;
  banned_until: number;
  banned_until_readable: string;
  flags: number;
};

/** Page data of /user/:userslug/followers and /following (NodeBB's: no nextStart, empty-list key or sort options). */
export interface ProfileUsersPage extends Omit<ProfileListBase, 'nextStart' | 'noItemsFoundKey' | 'showSort' | 'sortOptions'> {
  users: FollowUser[];
}

/** Page data of /user/:userslug/edit (NodeBB's edit.yaml: the fields Palaver has). */
export interface ProfileEditPage extends PageBase, UserSummary {
  isSelf: boolean;
  aboutme: string;
  website: string;
  location: string;
  birthday: string;
  signature: string;
  'cover:url': string;
  'cover:position': string;
  /** The member's uploaded picture (an upload path), '' for the letter avatar. */
  uploadedpicture: string;
  allowAboutMe: boolean;
  allowSignature: boolean;
  allowProfilePicture: boolean;
  allowCoverPicture: boolean;
  maximumAboutMeLength: number;
  maximumSignatureLength: number;
  maximumProfileFieldLength: number;
  maximumFileSize: number;
  customUserFields: CustomFieldView[];
  groups: { name: string; slug: string }[];
}

/** Page data of /user/:userslug/theme: the skins a member may pick, the chosen one selected. */
export interface ProfileThemePage extends PageBase, UserSummary {
  isSelf: boolean;
  bootswatchSkinOptions: { name: string; value: string; selected: boolean }[];
}
