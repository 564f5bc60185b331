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
  email_confirmed: Generated<number>;
  password_hash: string | null;
  fullname: Generated<string>;
  picture: Generated<string>;
  about: Generated<string>;
  /** The about-me rendered to HTML when written (empty for rows written before 0004). */
  about_html: Generated<string>;
  status: Generated<string>;
  reputation: Generated<number>;
  postcount: Generated<number>;
  topiccount: Generated<number>;
  joindate: number;
  lastonline: Generated<number>;
  lastposttime: Generated<number>;
  banned: Generated<number>;
  banned_until: Generated<number>;
  ban_reason: Generated<string>;
  deleted: Generated<number>;
  settings: Generated<string>;
  /** Members following this one (0007); kept by the users domain in the follow's transaction. */
  follower_count: Generated<number>;
  /** Members this one follows (0007). */
  following_count: Generated<number>;
}

export interface SessionsTable {
  id_hash: string;
  uid: number;
  created: number;
  expires: number;
  last_seen: number;
  ip: Generated<string>;
  user_agent: Generated<string>;
}

export interface GroupsTable {
  name: string;
  slug: string;
  description: Generated<string>;
  system: Generated<number>;
  hidden: Generated<number>;
  private: Generated<number>;
  member_count: Generated<number>;
  created: number;
}

export interface GroupMembersTable {
  group_name: string;
  uid: number;
  joined: number;
}

export interface CategoriesTable {
  cid: Generated<number>;
  parent_cid: Generated<number>;
  name: string;
  handle: string;
  slug: string;
  description: Generated<string>;
  description_parsed: Generated<string>;
  icon: Generated<string>;
  bg_color: Generated<string>;
  color: Generated<string>;
  position: Generated<number>;
  disabled: Generated<number>;
  link: Generated<string>;
  topic_count: Generated<number>;
  post_count: Generated<number>;
  created: number;
  /** Allowed tags joined by commas, empty for any (0012). */
  tag_whitelist: Generated<string>;
  /** Tags a topic needs at least / at most here; null follows the forum's setting (0012). */
  min_tags: Generated<number | null>;
  max_tags: Generated<number | null>;
  /** 1: the forum's post queue applies in this category (NodeBB's postQueue; 0013). */
  post_queue: Generated<number>;
}

export interface TopicsTable {
  tid: Generated<number>;
  cid: number;
  uid: number;
  title: string;
  slug: string;
  main_pid: Generated<number>;
  teaser_pid: Generated<number>;
  post_count: Generated<number>;
  view_count: Generated<number>;
  created: number;
  last_post_time: number;
  locked: Generated<number>;
  pinned: Generated<number>;
  deleted: Generated<number>;
  deleter_uid: Generated<number>;
  upvotes: Generated<number>;
  downvotes: Generated<number>;
  /** 1 while the topic waits for its publication time (`created`); 0013. */
  scheduled: Generated<number>;
}

export interface PostsTable {
  pid: Generated<number>;
  tid: number;
  uid: number;
  to_pid: Generated<number>;
  content: string;
  content_html: string;
  created: number;
  edited: Generated<number>;
  editor_uid: Generated<number>;
  deleted: Generated<number>;
  deleter_uid: Generated<number>;
  upvotes: Generated<number>;
  downvotes: Generated<number>;
  bookmarks: Generated<number>;
  ip: Generated<string>;
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
  topic_count: Generated<number>;
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

/** A member's chosen watch state of a category (0007): watching, tracking, notwatching, ignoring. */
export interface CategoryWatchesTable {
  cid: number;
  uid: number;
  state: string;
}

/** A tag a member follows (0007). */
export interface TagFollowsTable {
  tag: string;
  uid: number;
  created: number;
}

/** `uid` follows `followee` (0007). */
export interface UserFollowsTable {
  uid: number;
  followee: number;
  created: number;
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
  /** The member the token acts as; NULL for a master token. */
  uid: number | null;
  description: Generated<string>;
  created: number;
  last_seen: Generated<number>;
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
  uid: Generated<number>;
  ip: Generated<string>;
  data: Generated<string>;
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
  category_watches: CategoryWatchesTable;
  tag_follows: TagFollowsTable;
  user_follows: UserFollowsTable;
  topic_reads: TopicReadsTable;
  settings: SettingsTable;
  api_tokens: ApiTokensTable;
  privileges: PrivilegesTable;
  events: EventsTable;
  jobs: JobsTable;
  notifications: NotificationsTable;
  mail_outbox: MailOutboxTable;
  mail_codes: MailCodesTable;
  mail_unsubscribes: MailUnsubscribesTable;
  notification_mail_marks: NotificationMailMarksTable;
  digest_sends: DigestSendsTable;
  push_vapid: PushVapidTable;
  push_subscriptions: PushSubscriptionsTable;
  post_queue: PostQueueTable;
  chat_rooms: ChatRoomsTable;
  chat_room_members: ChatRoomMembersTable;
  chat_messages: ChatMessagesTable;
  user_blocks: UserBlocksTable;
  uploads: UploadsTable;
  upload_refs: UploadRefsTable;
  topic_thumbs: TopicThumbsTable;
  search_counts: SearchCountsTable;
}

/** A chat room (0010). `groups` is a JSON array of group names (public rooms). */
export interface ChatRoomsTable {
  room_id: Generated<number>;
  owner: number;
  name: Generated<string>;
  public: Generated<number>;
  groups: Generated<string>;
  join_leave_messages: Generated<number>;
  /** '<low uid>:<high uid>' while the room is a direct message between two members. */
  dm_key: string | null;
  created: number;
  last_activity: number;
  /** The newest non-system message (0: none). */
  last_mid: Generated<number>;
  message_count: Generated<number>;
  user_count: Generated<number>;
  /** The public rooms' order (0014, PUT /chats/sort): listed by it, then by room id. */
  sort_order: Generated<number>;
}

/** A member of a chat room (0010). `notify`: 0 none, 1 mentions, 2 all. */
export interface ChatRoomMembersTable {
  room_id: number;
  uid: number;
  is_owner: Generated<number>;
  notify: Generated<number>;
  last_read_mid: Generated<number>;
  /** The room's newest message when the member joined: they see only later ones. */
  joined_mid: Generated<number>;
  joined: number;
}

/** A chat message (0010). `pinned` is the pin time (0: not pinned). */
export interface ChatMessagesTable {
  mid: Generated<number>;
  room_id: number;
  uid: number;
  idx: number;
  content: string;
  content_html: string;
  system: Generated<number>;
  created: number;
  edited: Generated<number>;
  deleted: Generated<number>;
  pinned: Generated<number>;
  to_mid: number | null;
  ip: Generated<string>;
}

/** `uid` blocked `blocked_uid` (0010). */
export interface UserBlocksTable {
  uid: number;
  blocked_uid: number;
  created: number;
}

/** A queued run or a recurring schedule of a job (see migrations/0003_jobs.ts). */
export interface JobsTable {
  id: Generated<number>;
  name: string;
  /** Unique per recurring schedule; null for a one-off run. */
  key: string | null;
  payload: Generated<string>;
  /** 'queued' (waiting or running), 'done' or 'failed'. */
  state: Generated<string>;
  run_at: number;
  every_ms: Generated<number>;
  attempts: Generated<number>;
  max_attempts: Generated<number>;
  lease_owner: string | null;
  lease_until: Generated<number>;
  last_error: Generated<string>;
  created: number;
  finished: Generated<number>;
}

/** One notification of one reader; events with the same merge key merge into it (migrations/0005). */
export interface NotificationsTable {
  id: Generated<number>;
  uid: number;
  type: string;
  merge_key: string;
  subject_type: string;
  subject_id: Generated<number>;
  from_uid: Generated<number>;
  /** The merged senders, newest first, as ',0000000007,0000000003,' (the newest 20). */
  from_uids: Generated<string>;
  from_count: Generated<number>;
  path: string;
  body_key: string;
  /** JSON array: the text's parameters after the senders' names. */
  body_params: Generated<string>;
  pid: Generated<number>;
  tid: Generated<number>;
  cid: Generated<number>;
  importance: Generated<number>;
  read: Generated<number>;
  created: number;
}

/** A mail waiting to be sent, being sent, sent or given up on (migrations/0006_mail.ts). */
export interface MailOutboxTable {
  id: Generated<number>;
  uid: Generated<number>;
  to_address: string;
  template: string;
  subject: string;
  text: string;
  html: string;
  /** Extra headers as JSON (List-Unsubscribe). */
  headers: Generated<string>;
  /** 'queued', 'sending' (leased until lease_until), 'sent' or 'failed'. */
  status: Generated<string>;
  attempts: Generated<number>;
  next_attempt: number;
  lease_until: Generated<number>;
  last_error: Generated<string>;
  created: number;
  sent_at: Generated<number>;
}

/** A single-use code of a confirmation or reset link, by its hash (migrations/0006_mail.ts). */
export interface MailCodesTable {
  code_hash: string;
  uid: number;
  /** 'confirm' or 'reset'. */
  kind: string;
  /** The address the code was sent to: a confirmation holds only while it is still the member's. */
  email: string;
  created: number;
  expires: number;
  used_at: Generated<number>;
}

/** A notification type a member no longer wants by email (the signed unsubscribe link). */
export interface MailUnsubscribesTable {
  uid: number;
  type: string;
  created: number;
}

/** When a reader was last mailed about a merge key (migrations/0008_notify_prefs.ts). */
export interface NotificationMailMarksTable {
  uid: number;
  merge_key: string;
  mailed_at: number;
}

/** The time of a member's last digest (migrations/0008_notify_prefs.ts). */
export interface DigestSendsTable {
  uid: number;
  last_sent: number;
}

/** The forum's VAPID key pair for web push (one row, id 1; see migrations/0009_push.ts). */
export interface PushVapidTable {
  id: number;
  public_key: string;
  private_key: string;
  created: number;
}

/** A member's web-push subscription: one per browser (endpoint unique). */
export interface PushSubscriptionsTable {
  id: Generated<number>;
  uid: number;
  endpoint: string;
  p256dh: string;
  auth: string;
  user_agent: Generated<string>;
  created: number;
}

/** A new member's topic or reply waiting for a moderator (migrations/0013). */
export interface PostQueueTable {
  id: Generated<number>;
  uid: number;
  /** 'topic' or 'reply'. */
  type: string;
  cid: number;
  tid: Generated<number>;
  to_pid: Generated<number>;
  title: Generated<string>;
  content: string;
  /** JSON array of the topic's tags. */
  tags: Generated<string>;
  /** A scheduled topic's publication time (0: none). */
  timestamp: Generated<number>;
  ip: Generated<string>;
  created: number;
}

/** A member's uploaded file (0011); `path` is the content-hashed name under the uploads folder. */
export interface UploadsTable {
  id: Generated<number>;
  uid: number;
  path: string;
  name: string;
  mime: string;
  size: number;
  width: Generated<number>;
  height: Generated<number>;
  /** The thumbnail's path ('' for non-images). */
  thumb: Generated<string>;
  created: number;
}

/** Where an uploaded file is used (0011): kind 'post' | 'chat' | 'picture', ref_id the pid, mid or uid. */
export interface UploadRefsTable {
  path: string;
  kind: string;
  ref_id: number;
}

/** A topic's thumbnails in order (0011). */
export interface TopicThumbsTable {
  tid: number;
  path: string;
  name: string;
  sort: Generated<number>;
}

/** Searches made per day (0023): `day` is the UTC midnight in ms. */
export interface SearchCountsTable {
  day: number;
  count: Generated<number>;
}
