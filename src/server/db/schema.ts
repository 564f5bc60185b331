import type { Generated } from 'kysely';

/**
 * Table types. Timestamps are integer milliseconds since the epoch; flags are 0/1 integers
 * so SQLite and PostgreSQL store them alike.
 */
export interface UsersTable {
  uid: Generated<number>;
  username: string;
  userslug: string;
  email: string | null;
  email_confirmed: number;
  password_hash: string | null;
  fullname: string;
  picture: string;
  about: string;
  status: string;
  reputation: number;
  postcount: number;
  topiccount: number;
  joindate: number;
  lastonline: number;
  lastposttime: number;
  banned: number;
  banned_until: number;
  ban_reason: string;
  deleted: number;
  settings: string;
}

export interface SessionsTable {
  id_hash: string;
  uid: number;
  created: number;
  expires: number;
  last_seen: number;
  ip: string;
  user_agent: string;
}

export interface GroupsTable {
  name: string;
  slug: string;
  description: string;
  system: number;
  hidden: number;
  private: number;
  member_count: number;
  created: number;
}

export interface GroupMembersTable {
  group_name: string;
  uid: number;
  joined: number;
}

export interface CategoriesTable {
  cid: Generated<number>;
  parent_cid: number;
  name: string;
  handle: string;
  slug: string;
  description: string;
  description_parsed: string;
  icon: string;
  bg_color: string;
  color: string;
  position: number;
  disabled: number;
  link: string;
  topic_count: number;
  post_count: number;
  created: number;
}

export interface TopicsTable {
  tid: Generated<number>;
  cid: number;
  uid: number;
  title: string;
  slug: string;
  main_pid: number;
  teaser_pid: number;
  post_count: number;
  view_count: number;
  created: number;
  last_post_time: number;
  locked: number;
  pinned: number;
  deleted: number;
  deleter_uid: number;
  upvotes: number;
  downvotes: number;
}

export interface PostsTable {
  pid: Generated<number>;
  tid: number;
  uid: number;
  to_pid: number;
  content: string;
  content_html: string;
  created: number;
  edited: number;
  editor_uid: number;
  deleted: number;
  deleter_uid: number;
  upvotes: number;
  downvotes: number;
  bookmarks: number;
  ip: string;
}

export interface PostEditsTable {
  id: Generated<number>;
  pid: number;
  uid: number;
  content: string;
  title: string | null;
  edited: number;
}

export interface VotesTable {
  pid: number;
  uid: number;
  value: number;
  created: number;
}

export interface BookmarksTable {
  pid: number;
  uid: number;
  created: number;
}

export interface TagsTable {
  tag: string;
  topic_count: number;
}

export interface TopicTagsTable {
  tid: number;
  tag: string;
}

export interface TopicFollowsTable {
  tid: number;
  uid: number;
  state: string;
}

export interface TopicReadsTable {
  uid: number;
  tid: number;
  read_at: number;
}

export interface SettingsTable {
  key: string;
  value: string;
}

export interface ApiTokensTable {
  token_hash: string;
  uid: number;
  description: string;
  created: number;
  last_seen: number;
}

export interface PrivilegesTable {
  cid: number;
  privilege: string;
  /** A group name, or `uid:<n>` for a single member (category moderators). */
  subject: string;
}

export interface EventsTable {
  id: Generated<number>;
  type: string;
  uid: number;
  ip: string;
  data: string;
  created: number;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  groups: GroupsTable;
  group_members: GroupMembersTable;
  categories: CategoriesTable;
  topics: TopicsTable;
  posts: PostsTable;
  post_edits: PostEditsTable;
  votes: VotesTable;
  bookmarks: BookmarksTable;
  tags: TagsTable;
  topic_tags: TopicTagsTable;
  topic_follows: TopicFollowsTable;
  topic_reads: TopicReadsTable;
  settings: SettingsTable;
  api_tokens: ApiTokensTable;
  privileges: PrivilegesTable;
  events: EventsTable;
}
