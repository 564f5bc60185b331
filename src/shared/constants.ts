/** Constants and limits named as the client spec (§9) names them. */
export const ALERT_TIMEOUT_MS = 5000;
export const ALERT_ERROR_TIMEOUT_MS = 10000;
export const TIMEAGO_REFRESH_MS = 60000;
export const DAY_MS = 86400000;
export const SOCKET_CONNECT_TIMEOUT_MS = 20000;
export const SOCKET_RECONNECTION_DELAY_MS = 1000;
export const SOCKET_RECONNECTION_DELAY_MAX_MS = 5000;
export const SOCKET_RANDOMIZATION_FACTOR = 0.5;
export const DUPLICATE_NAVIGATION_WINDOW_MS = 500;
export const CONNECTION_INDICATOR_DELAY_MS = 2000;
export const CONNECTION_RECOVERED_HIDE_MS = 3000;
export const MAX_PASSWORD_LENGTH = 512;
export const DEFAULT_TAG_LENGTH = 15;
export const DEFAULT_LANGUAGE = 'en-GB';
export const EARLY_CLICK_RETRY_MS = 50;
export const BOTTOM_BAR_THRESHOLD_PX = 10;
export const BOTTOM_BAR_THROTTLE_MS = 250;
export const BOTTOM_BAR_REENABLE_MS = 250;
/** Spec §9: how long the mention search's error alert stays (the composer's mention strategy). */
export const MENTION_ALERT_MS = 5000;
export const CHUNK_LOAD_TIMEOUT_MS = 120000;
export const ASSETS_PATH = '/assets/';

/** Forum settings an admin can change, with their defaults. */
export const DEFAULT_SETTINGS = {
  siteTitle: 'Palaver',
  browserTitle: 'Palaver',
  titleLayout: '{pageTitle} | {browserTitle}',
  description: 'A community forum powered by Palaver',
  minimumPasswordLength: 6,
  minimumPasswordStrength: 1,
  minimumUsernameLength: 2,
  maximumUsernameLength: 16,
  minimumTitleLength: 3,
  maximumTitleLength: 255,
  minimumPostLength: 8,
  maximumPostLength: 32767,
  minimumTagsPerTopic: 0,
  maximumTagsPerTopic: 5,
  minimumTagLength: 3,
  maximumTagLength: DEFAULT_TAG_LENGTH,
  topicsPerPage: 20,
  postsPerPage: 20,
  usersPerPage: 50,
  /** Where a search looks by default (NodeBB's searchDefaultIn): titles, posts or titlesposts. */
  searchDefaultIn: 'titlesposts',
  /** Where the sidebar's quick search looks (NodeBB's searchDefaultInQuick). */
  searchDefaultInQuick: 'titles',
  /** The default order of search results (NodeBB's searchDefaultSortBy). */
  searchDefaultSortBy: 'relevance',
  /** robots.txt as the admin writes it (NodeBB's robots:txt); empty: Palaver's default naming the sitemap. */
  'robots:txt': '',
  /** Turns off every RSS feed (NodeBB's disableRSSFeeds). */
  disableRSSFeeds: false,
  /** Seconds a member must wait between two posts. */
  postDelay: 10,
  /** Seconds between posts for new members, while their reputation is below newbieReputationThreshold. */
  newbiePostDelay: 120,
  newbieReputationThreshold: 3,
  /** Seconds an account counts as new for the initial post delay. */
  initialPostDelay: 10,
  timeagoCutoff: 30,
  /** 0: no limit (spec §9: unlimited attempts by default). */
  maxReconnectionAttempts: 0,
  /** Milliseconds before the first reconnection attempt (spec §9: 1000). */
  reconnectionDelay: 1000,
  composeRouteEnabled: false,
  openOutgoingLinksInNewTab: false,
  useOutgoingLinksPage: false,
  outgoingLinksWhitelist: '',
  maintenanceMode: false,
  /** Federation (ActivityPub): members, categories and posts on the fediverse; off by default (NodeBB's activitypubEnabled). */
  activitypubEnabled: false,
  /** Federation: instances (host names, one a line) that neither deliver here nor are delivered to. */
  activitypubDenyList: '',
  /** The admin's text on the maintenance page (plain text; empty: the standard text). */
  maintenanceModeMessage: '',
  /** Groups whose members use the forum in maintenance as administrators do, joined by commas (NodeBB's groupsExemptFromMaintenanceMode). */
  groupsExemptFromMaintenanceMode: '',
  allowRegistration: true,
  defaultLang: DEFAULT_LANGUAGE,
  postEditDuration: 0,
  postDeleteDuration: 0,
  sessionDays: 14,
  /** Days a member waits between two username changes; 0: no wait (admins are never held). */
  usernameChangeCooldownDays: 0,
  /** Minutes an admin with a two-factor key may stay in the admin area before passing /login/2fa again (NodeBB's adminReloginDuration). */
  adminReloginDuration: 60,
  allowTopicsThumbnail: false,
  /** Upvotes a post needs before its author is told of them (0: never). */
  upvoteNotificationThreshold: 1,
  /** Digest frequency of members who did not choose one (NodeBB's dailyDigestFreq: off, day, week, month). */
  dailyDigestFreq: 'off',
  /** New members' topics and replies wait for a moderator (NodeBB's postQueue). */
  postQueue: false,
  /** With postQueue: members below this reputation are queued. */
  postQueueReputationThreshold: 0,
  /** With postQueue: members with fewer posts than this are queued (1: a first post waits). */
  postQueuePostCountThreshold: 1,
  /** Groups whose members skip the queue, joined by commas. */
  groupsExemptFromPostQueue: '',
  /** Flags: the preset reasons of the report dialog, one a line (members may also write their own). */
  'flags:reasons': 'Spam\nOffensive\nOff-topic',
  /** Flags: reports of posts and chat messages a member may make a day (NodeBB's flags:postFlagsPerDay; 0: no limit). */
  'flags:postFlagsPerDay': 10,
  /** Flags: reports of members a member may make a day (NodeBB's flags:userFlagsPerDay; 0: no limit). */
  'flags:userFlagsPerDay': 10,
  /** Flags: a post with this many reports is hidden (soft-deleted) until a moderator looks (0: never). */
  'flags:autoHideThreshold': 0,
  /** SMTP server for outgoing mail; empty: mail waits in the outbox (and the log) until one is set. */
  smtpHost: '',
  smtpPort: 587,
  /** 'none' (plain), 'starttls' (upgrade required) or 'tls' (TLS from the start, port 465). */
  smtpSecurity: 'starttls',
  smtpUser: '',
  /** Never logged, never in page data (see SECRET_SETTINGS). */
  smtpPassword: '',
  /** The From address; empty: no-reply@ the forum's host. */
  smtpFrom: '',
  /** Minutes a password-reset code stays valid. */
  resetExpiryMinutes: 120,
  /** Hours an email confirmation link stays valid. */
  emailConfirmExpiryHours: 24,
  /** Chats off for everyone (NodeBB's disableChat). */
  disableChat: false,
  /** Seconds after sending that a chat message may still be edited / deleted (0: always). */
  chatEditDuration: 0,
  chatDeleteDuration: 0,
  maximumChatMessageLength: 1000,
  /** Milliseconds a member should wait between chat messages (counted over 10 s windows; 0: no limit). */
  chatMessageDelay: 2000,
  /** The most members a chat room may have (0: no limit). */
  maximumUsersInChatRoom: 0,
  maximumChatRoomNameLength: 50,
  /** Seconds after a chat message before members who have not read it are notified (NodeBB's notificationSendDelay). */
  notificationSendDelay: 60,
  /** Uploads: the largest file a member may upload, in KiB (NodeBB's maximumFileSize). */
  maximumFileSize: 2048,
  /** Uploads: file extensions members may upload besides images, joined by commas (NodeBB's allowedFileExtensions). */
  allowedFileExtensions: 'png,jpg,jpeg,gif,webp,pdf,txt,zip',
  /** Uploads: wider images are scaled down to this width in pixels (NodeBB's resizeImageWidth). */
  resizeImageWidth: 1920,
  /** Uploads: the most pixels (width x height) an uploaded image may have; bigger ones are refused. */
  maximumImagePixels: 40_000_000,
  /** Accounts: members may delete their own account (NodeBB's allowAccountDelete). */
  allowAccountDelete: true,
  /** Accounts: days a member's data export stays downloadable before the clean-up removes it. */
  exportExpiryDays: 7,
  /** Uploads: with an object store (PALAVER_STORAGE), images are fetched by the browser from the store by a signed URL instead of through the forum. */
  uploadsSignedUrls: false,
  /** Backups: made by themselves every day or week, or only when an admin asks ('off'). */
  backupSchedule: 'off' as 'off' | 'daily' | 'weekly',
  /** Backups: how many scheduled backups are kept (older ones are deleted after a new one is made). */
  backupKeep: 7,
  /** Profiles: the longest about-me, in characters (NodeBB's maximumAboutMeLength). */
  maximumAboutMeLength: 1000,
  /** Profiles: the longest signature, in characters (NodeBB's maximumSignatureLength). */
  maximumSignatureLength: 255,
  /** Profiles: signatures are neither edited nor shown (NodeBB's disableSignatures). */
  disableSignatures: false,
  /**
   * Profiles: the admin-defined fields, a JSON list of { key, name, type: text|url|number|select,
   * options (select: one per line), visibility: all|loggedin|privileged }.
   */
  customUserFields: '[]',
  navigation: '',

  /** Moderation: the preset reasons offered when banning or muting, one per line (free text is allowed too). */
  banReasons: 'Spam\nHarassment\nAdvertising\nRepeated rule breaking',
  /** Spam defence: the most links a new member's post may hold; 0: no limit. */
  maximumLinksForNewMembers: 0,
  /** Spam defence: a member stays new (links limited) below this post count, unless their reputation reached newbieReputationThreshold. */
  newMemberPostCount: 5,
  /** Spam defence: look registrations up in a StopForumSpam-style database (an outside request: off by default). */
  stopForumSpamEnabled: false,
  /** Spam defence: the lookup's address (StopForumSpam's API, or a compatible service). */
  stopForumSpamUrl: 'https://api.stopforumspam.org/api',
  /** Cookies: a consent banner shown to visitors until they dismiss it (NodeBB's cookieConsentEnabled and its texts). */
  cookieConsentEnabled: false,
  cookieConsentMessage: 'This website uses cookies to ensure you get the best experience on our website.',
  cookieConsentDismiss: 'Got it!',
  cookieConsentLink: 'Learn more',
  /** Cookies: where the banner's link leads (a path in the forum or an http(s) address; '' no link). */
  cookieConsentLinkUrl: '',
  /** Registration: normal, invite-only, admin-invite-only or disabled (NodeBB's registrationType). */
  registrationType: 'normal',
  /** Addresses nobody may register with, one a line (a spam report from the registration queue adds one). */
  registrationEmailBlacklist: '',
  /** Registration: normal, admin-approval, or admin-approval-ip (only addresses already used by a member wait) (NodeBB's registrationApprovalType). */
  registrationApprovalType: 'normal',
  /** Registration: days an invitation link works (NodeBB's inviteExpiration). */
  inviteExpiration: 7,
  /** Registration: the most invitations one member may send; 0: no limit (NodeBB's maximumInvites). */
  maximumInvites: 0,
  /** Registration: terms of use (markdown) to accept when registering; empty: no terms step (NodeBB's termsOfUse). */
  termsOfUse: '',
  /** Registration: ask for consent to data processing (GDPR) when registering (NodeBB's gdpr_enabled). */
  gdpr_enabled: true,
  /** Captcha (ALTCHA proof of work, no third party) on the registration form. */
  'captcha:register': true,
  /** Captcha on login after this many failed logins from an address or for a name within an hour; 0: never. */
  'captcha:loginFailures': 3,
  /** Captcha provider: 'altcha' (proof of work made here, no third party), or, as the admin's choice, 'recaptcha' or 'hcaptcha' (their widget loads from their servers). */
  'captcha:provider': 'altcha' as 'altcha' | 'recaptcha' | 'hcaptcha',
  /** reCAPTCHA / hCaptcha: the site key (public, sent to the page). */
  'captcha:siteKey': '',
  /** reCAPTCHA / hCaptcha: the secret key (never sent to the page or logged; see SECRET_SETTINGS). */
  'captcha:secretKey': '',
  /** Where reCAPTCHA tokens are verified (Google's siteverify). */
  'captcha:recaptchaVerifyUrl': 'https://www.google.com/recaptcha/api/siteverify',
  /** Where hCaptcha tokens are verified (hCaptcha's siteverify). */
  'captcha:hcaptchaVerifyUrl': 'https://api.hcaptcha.com/siteverify',
  /** Appearance: the forum's skin for guests and members who chose none ('' plain Bootstrap) (NodeBB's bootswatchSkin). */
  bootswatchSkin: '',
  /** Appearance: the skins members may pick, joined by commas; '' every skin (a member's other choice shows the default). */
  allowedSkins: '',
  /** Appearance: serve customCSS to every public page (NodeBB's useCustomCSS). */
  useCustomCSS: false,
  customCSS: '',
  /** Appearance: show customHTML (sanitised like posts) at the top of public pages (NodeBB's useCustomHTML). */
  useCustomHTML: false,
  customHTML: '',
  /** Appearance: serve customJS to public pages; off by default, it runs with every visitor's rights (NodeBB's useCustomJS). */
  useCustomJS: false,
  customJS: '',
  /** Appearance: uploaded brand images (paths under the upload URL; '' none) (NodeBB's brand:logo, brand:favicon, brand:touchIcon, og:image). */
  'brand:logo': '',
  'brand:favicon': '',
  'brand:touchIcon': '',
  'og:image': '',
  /** Extend: built-in plugins turned off, joined by commas (only those that can be: emoji, mentions). */
  'plugins:disabled': '',
  /** Theme (Harmony): the sidebar starts open for guests and members who did not choose (NodeBB's openSidebars). */
  'harmony:openSidebars': false,
  /** Theme (Harmony): the phone's bottom bar hides while scrolling down (NodeBB's autohideBottombar). */
  'harmony:autohideBottombar': true,
};
/** Settings whose values are never shown or logged (CLI, audit log). */
export const SECRET_SETTINGS: readonly string[] = ['smtpPassword', 'captcha:secretKey'];
export type ForumSettings = typeof DEFAULT_SETTINGS;
