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
  /** Profile fields (0015): cover photo URL and CSS position, website, location, birthday (as given), signature and its HTML. */
  cover_url: Generated<string>;
  cover_position: Generated<string>;
  website: Generated<string>;
  location: Generated<string>;
  birthday: Generated<string>;
  signature: Generated<string>;
  signature_html: Generated<string>;
}

/** A member's value of an admin-defined profile field (0015); the definitions are the setting `customUserFields`. */
export interface UserFieldsTable {
  uid: number;
  field_key: string;
  value: string;
}

export interface SessionsTable {
  id_hash: string;
  uid: number;
  created: number;
  expires: number;
  last_seen: number;
  ip: Generated<string>;
  user_agent: Generated<string>;
  /** Until when this session may enter the admin area without passing /login/2fa again (0016). */
  reauth_until: Generated<number>;
}

/** A member's TOTP key (0016): unconfirmed while enrolling; the last time step used refuses replays. */
export interface TwoFactorTable {
  uid: number;
  secret: string;
  confirmed: Generated<number>;
  last_step: Generated<number>;
  created: number;
}

/** A member's two-factor backup code, by hash (0016); used once. */
export interface TwoFactorBackupTable {
  uid: number;
  code_hash: string;
  used_at: Generated<number>;
}

/** A member's WebAuthn security key (0034): id and COSE public key in base64url, transports as JSON. */
export interface WebauthnCredentialsTable {
  id: string;
  uid: number;
  public_key: string;
  counter: Generated<number>;
  transports: Generated<string>;
  label: Generated<string>;
  created: number;
  last_used: Generated<number>;
}

/** A WebAuthn challenge handed out and not yet answered (0034): one session's, used once, expiring. */
export interface WebauthnChallengesTable {
  challenge: string;
  owner: string;
  purpose: string;
  uid: number;
  expires: number;
}

/** A name a member had before changing it (0016). */
export interface UsernameHistoryTable {
  uid: number;
  username: string;
  changed: number;
  /** Who made the change (0: before migration 0033). */
  by_uid: Generated<number>;
}

/** A reward rule (0027): a member whose `condition` counter reaches `value` joins `group_name`. */
export interface RewardsTable {
  id: Generated<number>;
  condition: string;
  value: number;
  group_name: string;
  disabled: Generated<number>;
  created: number;
}

/** Who got each reward (0027): a rule rewards a member once. */
export interface RewardClaimsTable {
  rid: number;
  uid: number;
  claimed: number;
}

/** A widget placed in an area of a template (migration 0030). */
export interface WidgetsTable {
  id: Generated<number>;
  template: string;
  area: string;
  type: string;
  title: string;
  container: string;
  /** JSON: the type's own fields. */
  data: string;
  /** JSON list of group names that see it; empty: everyone. */
  groups: string;
  hide_mobile: number;
  sort: number;
  created: number;
}

/** 404s and 500s seen, per status and path (migration 0030). */
export interface ErrorLogTable {
  status: number;
  path: string;
  count: number;
  last_seen: number;
}

/** Each address a member's account was given (migration 0033). */
export interface EmailHistoryTable {
  id: Generated<number>;
  uid: number;
  email: string;
  by_uid: number;
  changed: number;
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
  /** The badge and switches of a group (0018): label text, icon, colours, NodeBB's join/leave switches, cover. */
  user_title: Generated<string>;
  user_title_enabled: Generated<number>;
  icon: Generated<string>;
  label_color: Generated<string>;
  text_color: Generated<string>;
  disable_join_requests: Generated<number>;
  disable_leave: Generated<number>;
  description_parsed: Generated<string>;
  cover_url: Generated<string>;
  cover_thumb_url: Generated<string>;
  cover_position: Generated<string>;
  /** A stable integer id (0035), kept across renames: the group's cover is referenced by it in upload_refs. */
  gid: Generated<number>;
}

export interface GroupMembersTable {
  group_name: string;
  uid: number;
  joined: number;
  /** 1 for the group's owners (0018). */
  is_owner: Generated<number>;
  /** 0: the member does not show this group's badge; n > 0: shown, in that order (0018). */
  badge: Generated<number>;
}

/** A membership request or invitation waiting for an answer (0018). */
export interface GroupWaitingTable {
  group_name: string;
  uid: number;
  by_uid: Generated<number>;
  created: number;
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
  /** When a pin is lifted (0: never; 0021). */
  pin_expiry: Generated<number>;
}

/** An event in a topic's timeline (0021): pin, lock, move, merge, fork…; `data` is JSON. */
export interface TopicEventsTable {
  id: Generated<number>;
  tid: number;
  type: string;
  uid: Generated<number>;
  data: Generated<string>;
  created: number;
}

/** A member besides the author who may edit a topic's first post (0021). */
export interface TopicEditorsTable {
  tid: number;
  uid: number;
}

/** A topic merged into another: its address leads to `to_tid` (0021). */
export interface TopicRedirectsTable {
  tid: number;
  to_tid: number;
  created: number;
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
  /** What the event acted on, as 'post:12', 'user:4'… ('' when nothing in particular) (0020). */
  target: Generated<string>;
}

/** One flagged target gathering every report (0020); `assignee` 0 is nobody, `cid` 0 for members and chat messages. */
export interface FlagsTable {
  flag_id: Generated<number>;
  type: string;
  target_id: number;
  target_uid: Generated<number>;
  cid: Generated<number>;
  room_id: Generated<number>;
  state: Generated<string>;
  assignee: Generated<number>;
  created: number;
  last_report: number;
}

/** One member's report of a flagged target (0020). */
export interface FlagReportsTable {
  flag_id: number;
  reporter_uid: number;
  reason: string;
  created: number;
}

/** A moderator's note on a flag (0020). */
export interface FlagNotesTable {
  id: Generated<number>;
  flag_id: number;
  uid: number;
  content: string;
  datetime: number;
}

/** One change of a flag (0020): the changed fields as JSON. */
export interface FlagHistoryTable {
  id: Generated<number>;
  flag_id: number;
  uid: Generated<number>;
  fields: Generated<string>;
  datetime: number;
}

export interface Database {
  users: UsersTable;
  user_fields: UserFieldsTable;
  sessions: SessionsTable;
  groups: GroupsTable;
  group_members: GroupMembersTable;
  group_pending: GroupWaitingTable;
  group_invites: GroupWaitingTable;
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
  two_factor: TwoFactorTable;
  two_factor_backup: TwoFactorBackupTable;
  webauthn_credentials: WebauthnCredentialsTable;
  webauthn_challenges: WebauthnChallengesTable;
  username_history: UsernameHistoryTable;
  email_history: EmailHistoryTable;
  privileges: PrivilegesTable;
  events: EventsTable;
  jobs: JobsTable;
  outbox: OutboxTable;
  federation_kv: FederationKvTable;
  federation_keys: FederationKeysTable;
  federation_followers: FederationFollowersTable;
  federation_received: FederationReceivedTable;
  notifications: NotificationsTable;
  mail_outbox: MailOutboxTable;
  mail_codes: MailCodesTable;
  mail_unsubscribes: MailUnsubscribesTable;
  notification_mail_marks: NotificationMailMarksTable;
  notification_receipts: NotificationReceiptsTable;
  digest_sends: DigestSendsTable;
  push_vapid: PushVapidTable;
  push_subscriptions: PushSubscriptionsTable;
  post_queue: PostQueueTable;
  flags: FlagsTable;
  flag_reports: FlagReportsTable;
  flag_notes: FlagNotesTable;
  flag_history: FlagHistoryTable;
  chat_rooms: ChatRoomsTable;
  chat_room_members: ChatRoomMembersTable;
  chat_messages: ChatMessagesTable;
  user_blocks: UserBlocksTable;
  uploads: UploadsTable;
  upload_refs: UploadRefsTable;
  topic_thumbs: TopicThumbsTable;
  topic_events: TopicEventsTable;
  topic_editors: TopicEditorsTable;
  topic_redirects: TopicRedirectsTable;
  registration_queue: RegistrationQueueTable;
  invitations: InvitationsTable;
  user_consents: UserConsentsTable;
  registration_ips: RegistrationIpsTable;
  captcha_spent: CaptchaSpentTable;
  login_failures: LoginFailuresTable;
  moderation_actions: ModerationActionsTable;
  member_mutes: MemberMutesTable;
  ip_history: IpHistoryTable;
  moderation_notes: ModerationNotesTable;
  ip_blacklist: IpBlacklistTable;
  ip_blacklist_hits: IpBlacklistHitsTable;
  search_counts: SearchCountsTable;
  analytics_counts: AnalyticsCountsTable;
  widgets: WidgetsTable;
  rewards: RewardsTable;
  reward_claims: RewardClaimsTable;
  error_log: ErrorLogTable;
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

/** Fedify's key-value store (migrations/0061_federation.ts). */
export interface FederationKvTable {
  key: string;
  value: string;
  /** ms since the epoch; 0: kept until deleted. */
  expires: Generated<number>;
}

/** A local actor's key pair (JWK). The private half is never logged nor served. */
export interface FederationKeysTable {
  actor: string;
  algorithm: string;
  private_jwk: string;
  public_jwk: string;
  created: number;
}

/** A remote actor following a local actor (a member, a category, the forum). */
export interface FederationFollowersTable {
  actor: string;
  follower: string;
  inbox: string;
  shared_inbox: Generated<string>;
  follow_id: Generated<string>;
  created: number;
}

/** An activity received in an inbox, its signature verified. */
export interface FederationReceivedTable {
  id: Generated<number>;
  activity_id: string;
  type: string;
  actor: string;
  recipient: Generated<string>;
  body: string;
  received: number;
}

/** A durable side effect waiting to run, or failed for good (see migrations/0050_outbox.ts). */
export interface OutboxTable {
  id: Generated<number>;
  /** The action hook it carries (`action:post.save`). */
  hook: string;
  /** The hook's data, as JSON. */
  payload: string;
  /** JSON array of the ids of the durable listeners still to run. */
  pending: string;
  /** 'queued' (waiting or running) or 'failed' (out of attempts, kept for the admin). */
  state: Generated<string>;
  attempts: Generated<number>;
  run_at: number;
  lease_owner: string | null;
  lease_until: Generated<number>;
  last_error: Generated<string>;
  created: number;
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
  /** Set by a durable listener (its outbox row's key): the unique index keeps one copy. */
  dedupe_key: string | null;
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

/** A reader told of an event, so an event told twice tells nobody twice (migrations/0055_durable_receipts.ts). */
export interface NotificationReceiptsTable {
  event_key: string;
  uid: number;
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

/** A ban, unban, mute or unmute of a member (0022): the history the info page lists. */
export interface ModerationActionsTable {
  id: Generated<number>;
  uid: number;
  kind: 'ban' | 'unban' | 'mute' | 'unmute';
  by_uid: number;
  reason: Generated<string>;
  /** When a ban or mute ends (0: no end). */
  until: Generated<number>;
  created: number;
}

/** A mute in force (0022): the member reads but cannot post, edit or chat until `until` (0: no end). */
export interface MemberMutesTable {
  uid: number;
  until: number;
  reason: string;
  by_uid: number;
  created: number;
}

/** An address a member logged in or posted from (0022), one row per member, address and UTC day. */
export interface IpHistoryTable {
  uid: number;
  ip: string;
  day: number;
  first_seen: number;
  last_seen: number;
  hits: Generated<number>;
}

/** A moderator's note on a member (0022). */
export interface ModerationNotesTable {
  id: Generated<number>;
  uid: number;
  by_uid: number;
  note: string;
  created: number;
}

/** The IP blacklist's text, as the admin wrote it (0022; one row, id 1). */
export interface IpBlacklistTable {
  id: number;
  rules: string;
  updated: number;
}

/** How often a blacklist rule refused a request (0022). */
export interface IpBlacklistHitsTable {
  rule: string;
  hits: number;
  last_hit: number;
}

/** An address a member registered from (0017): admin-approval-ip queues a registration from a known one. */
export interface RegistrationIpsTable {
  ip: string;
  uid: number;
  created: number;
}

/** A registration waiting for an admin's approval (0017); the password only as its hash. */
export interface RegistrationQueueTable {
  id: Generated<number>;
  username: string;
  userslug: string;
  email: string;
  password_hash: string;
  ip: Generated<string>;
  gdpr_consent: Generated<number>;
  tos_accepted: Generated<number>;
  created: number;
}

/** An invitation by mail (0017): the token only as its hash; used once, until `expires`. `groups` is a JSON list of group names. */
export interface InvitationsTable {
  token_hash: string;
  inviter: number;
  email: string;
  groups: Generated<string>;
  created: number;
  expires: number;
  used_at: Generated<number>;
  used_by: Generated<number>;
}

/** A member's consent (0017): to data processing (GDPR) and to the terms of use, with when (0: not given). */
export interface UserConsentsTable {
  uid: number;
  gdpr_consent: Generated<number>;
  gdpr_at: Generated<number>;
  tos_at: Generated<number>;
}

/** A captcha challenge already solved and used (0017): refused again until it expires. */
export interface CaptchaSpentTable {
  challenge: string;
  expires: number;
}

/** Failed logins per address or name (0017), counted until `reset_at`. */
export interface LoginFailuresTable {
  key: string;
  count: number;
  reset_at: number;
}

/** Searches made per day (0023): `day` is the UTC midnight in ms. */
/** The dashboard's counters per metric and UTC hour (0025). */
export interface AnalyticsCountsTable {
  metric: string;
  hour: number;
  count: number;
}

export interface SearchCountsTable {
  day: number;
  count: Generated<number>;
}
