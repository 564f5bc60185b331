import { Type, type Static, type TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { DEFAULT_SETTINGS, MAX_PASSWORD_LENGTH, type ForumSettings } from '../../../shared/constants.js';
import { badRequest } from '../../http/errors.js';
import { BOOTSWATCH_SKINS } from '../../../shared/skins.js';
import { parseNavigation } from '../../../shared/navigation.js';

const int = (minimum: number, maximum: number) => Type.Integer({ minimum, maximum });
const text = (maxLength: number) => Type.String({ maxLength });
const DAY_SECONDS = 86400;
const YEAR_SECONDS = 365 * DAY_SECONDS;

/**
 * Every forum setting an admin can change, with its type and range. The API
 * (`PUT /api/v3/admin/settings/{setting}`), `palaver config set` and `ctx.settings.set()`
 * all validate by this one schema.
 */
export const SettingsSchema = Type.Object(
  {
    siteTitle: text(255),
    browserTitle: text(255),
    titleLayout: text(255),
    description: text(1000),
    minimumPasswordLength: int(1, MAX_PASSWORD_LENGTH),
    // zxcvbn's scores run from 0 (anything) to 4 (very strong).
    minimumPasswordStrength: int(0, 4),
    minimumUsernameLength: int(1, 255),
    maximumUsernameLength: int(1, 255),
    minimumTitleLength: int(0, 1024),
    maximumTitleLength: int(1, 1024),
    minimumPostLength: int(0, 500000),
    maximumPostLength: int(1, 500000),
    minimumTagsPerTopic: int(0, 100),
    maximumTagsPerTopic: int(0, 100),
    minimumTagLength: int(1, 255),
    maximumTagLength: int(1, 255),
    // Members may choose up to 100 themselves (users service); the forum's default keeps to the same bound.
    topicsPerPage: int(1, 100),
    postsPerPage: int(1, 100),
    usersPerPage: int(1, 200),
    'robots:txt': text(20000),
    disableRSSFeeds: Type.Boolean(),
    searchDefaultIn: Type.Union([Type.Literal('titles'), Type.Literal('posts'), Type.Literal('titlesposts')]),
    searchDefaultInQuick: Type.Union([Type.Literal('titles'), Type.Literal('posts'), Type.Literal('titlesposts')]),
    searchDefaultSortBy: Type.Union(['relevance', 'timestamp', 'votes', 'topic.timestamp', 'topic.lastposttime', 'topic.postcount', 'topic.votes', 'topic.viewcount', 'topic.title'].map((v) => Type.Literal(v))),
    postDelay: int(0, DAY_SECONDS),
    newbiePostDelay: int(0, DAY_SECONDS),
    newbieReputationThreshold: int(-1000000, 1000000),
    initialPostDelay: int(0, DAY_SECONDS),
    // Days after which dates show in full; -1 shows relative dates always (NodeBB's meaning).
    timeagoCutoff: int(-1, 3650),
    maxReconnectionAttempts: int(0, 1000),
    reconnectionDelay: int(0, 600000),
    composeRouteEnabled: Type.Boolean(),
    openOutgoingLinksInNewTab: Type.Boolean(),
    useOutgoingLinksPage: Type.Boolean(),
    outgoingLinksWhitelist: text(10000),
    maintenanceMode: Type.Boolean(),
    activitypubEnabled: Type.Boolean(),
    activitypubDenyList: text(100_000),
    registrationEmailBlacklist: text(100_000),
    maintenanceModeMessage: text(5000),
    groupsExemptFromMaintenanceMode: text(2000),
    allowRegistration: Type.Boolean(),
    defaultLang: Type.String({ pattern: '^[a-z]{2,3}(-[A-Za-z]{2,4})?$' }),
    postEditDuration: int(0, 10 * YEAR_SECONDS),
    postDeleteDuration: int(0, 10 * YEAR_SECONDS),
    sessionDays: int(1, 3650),
    usernameChangeCooldownDays: int(0, 3650),
    adminReloginDuration: int(1, 24 * 60),
    allowTopicsThumbnail: Type.Boolean(),
    upvoteNotificationThreshold: int(0, 1_000_000),
    dailyDigestFreq: Type.String({ pattern: '^(off|day|week|month)$' }),
    postQueue: Type.Boolean(),
    postQueueReputationThreshold: int(-1_000_000, 1_000_000),
    postQueuePostCountThreshold: int(0, 1_000_000),
    groupsExemptFromPostQueue: text(2000),
    'flags:reasons': text(4000),
    'flags:postFlagsPerDay': int(0, 100_000),
    'flags:userFlagsPerDay': int(0, 100_000),
    'flags:autoHideThreshold': int(0, 100_000),
    smtpHost: Type.String({ maxLength: 255, pattern: '^[A-Za-z0-9.:\\[\\]_-]*$' }),
    smtpPort: int(1, 65535),
    smtpSecurity: Type.String({ pattern: '^(none|starttls|tls)$' }),
    smtpUser: text(255),
    smtpPassword: text(1024),
    smtpFrom: text(255),
    resetExpiryMinutes: int(1, 7 * 24 * 60),
    emailConfirmExpiryHours: int(1, 24 * 365),
    disableChat: Type.Boolean(),
    chatEditDuration: int(0, 10 * YEAR_SECONDS),
    chatDeleteDuration: int(0, 10 * YEAR_SECONDS),
    maximumChatMessageLength: int(1, 100000),
    chatMessageDelay: int(0, 3600_000),
    maximumUsersInChatRoom: int(0, 100000),
    maximumChatRoomNameLength: int(1, 255),
    notificationSendDelay: int(0, DAY_SECONDS),
    maximumFileSize: int(1, 1024 * 1024),
    allowedFileExtensions: Type.String({ maxLength: 1000, pattern: '^[A-Za-z0-9,. ]*$' }),
    resizeImageWidth: int(16, 10000),
    maximumImagePixels: int(1, 268_402_689),
    registrationType: Type.String({ pattern: '^(normal|invite-only|admin-invite-only|disabled)$' }),
    registrationApprovalType: Type.String({ pattern: '^(normal|admin-approval|admin-approval-ip)$' }),
    inviteExpiration: int(1, 3650),
    maximumInvites: int(0, 1_000_000),
    termsOfUse: text(100_000),
    gdpr_enabled: Type.Boolean(),
    'captcha:register': Type.Boolean(),
    'captcha:loginFailures': int(0, 1000),
    'captcha:provider': Type.Union([Type.Literal('altcha'), Type.Literal('recaptcha'), Type.Literal('hcaptcha')]),
    'captcha:siteKey': Type.String({ maxLength: 200, pattern: '^[A-Za-z0-9_-]*$' }),
    'captcha:secretKey': text(500),
    'captcha:recaptchaVerifyUrl': Type.String({ maxLength: 500, pattern: '^https?://[^\\s]+$' }),
    'captcha:hcaptchaVerifyUrl': Type.String({ maxLength: 500, pattern: '^https?://[^\\s]+$' }),
    allowAccountDelete: Type.Boolean(),
    exportExpiryDays: int(1, 365),
    uploadsSignedUrls: Type.Boolean(),
    backupSchedule: Type.Union([Type.Literal('off'), Type.Literal('daily'), Type.Literal('weekly')]),
    backupKeep: int(1, 100),
    maximumAboutMeLength: int(0, 100_000),
    maximumSignatureLength: int(0, 100_000),
    disableSignatures: Type.Boolean(),
    // Checked as a list of field definitions by the users domain (profile.ts) when read.
    customUserFields: text(20_000),
    // The main navigation (the admin's navigation editor): a JSON list, checked by parseNavigation.
    navigation: text(20_000),
    banReasons: text(5000),
    maximumLinksForNewMembers: int(0, 1000),
    newMemberPostCount: int(0, 1_000_000),
    stopForumSpamEnabled: Type.Boolean(),
    stopForumSpamUrl: Type.String({ maxLength: 500, pattern: '^https?://[^\\s]+$' }),
    cookieConsentEnabled: Type.Boolean(),
    cookieConsentMessage: text(1000),
    cookieConsentDismiss: text(100),
    cookieConsentLink: text(100),
    // A path inside the forum or an http(s) address: never javascript: or data:.
    cookieConsentLinkUrl: Type.String({ maxLength: 500, pattern: '^((https?://|/)[^\\s<>"]*)?$' }),
    bootswatchSkin: Type.String({ pattern: '^(|' + BOOTSWATCH_SKINS.join('|') + ')$' }),
    allowedSkins: Type.String({ maxLength: 500, pattern: '^((' + BOOTSWATCH_SKINS.join('|') + ')(,(' + BOOTSWATCH_SKINS.join('|') + '))*)?$' }),
    useCustomCSS: Type.Boolean(),
    customCSS: text(100_000),
    useCustomHTML: Type.Boolean(),
    customHTML: text(20_000),
    useCustomJS: Type.Boolean(),
    customJS: text(100_000),
    // Set by the brand uploads (admin appearance): a path under the upload URL, or ''.
    'brand:logo': Type.String({ maxLength: 255, pattern: '^(/[A-Za-z0-9/_.-]+)?$' }),
    'brand:favicon': Type.String({ maxLength: 255, pattern: '^(/[A-Za-z0-9/_.-]+)?$' }),
    'brand:touchIcon': Type.String({ maxLength: 255, pattern: '^(/[A-Za-z0-9/_.-]+)?$' }),
    'og:image': Type.String({ maxLength: 255, pattern: '^(/[A-Za-z0-9/_.-]+)?$' }),
    'plugins:disabled': Type.String({ maxLength: 100, pattern: '^((emoji|mentions)(,(emoji|mentions))*)?$' }),
    'harmony:openSidebars': Type.Boolean(),
    'harmony:autohideBottombar': Type.Boolean(),
  },
  { additionalProperties: false },
);

export type SettingsValues = Static<typeof SettingsSchema>;

// The schema and the defaults must name the same settings (a compile error otherwise).
const _sameKeys: [keyof SettingsValues, keyof ForumSettings] extends [keyof ForumSettings, keyof SettingsValues] ? true : never = true;
void _sameKeys;

const PROPERTIES = SettingsSchema.properties as Record<string, TSchema & { type?: string }>;
const CHECKS = new Map(Object.entries(PROPERTIES).map(([key, schema]) => [key, Compile(schema)]));

/** Pairs whose minimum may not exceed their maximum. */
const MIN_MAX: [keyof ForumSettings, keyof ForumSettings][] = [
  ['minimumUsernameLength', 'maximumUsernameLength'],
  ['minimumTitleLength', 'maximumTitleLength'],
  ['minimumPostLength', 'maximumPostLength'],
  ['minimumTagsPerTopic', 'maximumTagsPerTopic'],
  ['minimumTagLength', 'maximumTagLength'],
];

/** The names of every setting, in the schema's order. */
export function settingKeys(): (keyof ForumSettings)[] {
  return Object.keys(PROPERTIES) as (keyof ForumSettings)[];
}

/** True when `key` names a forum setting. */
export function isSettingKey(key: string): key is keyof ForumSettings {
  return Object.hasOwn(PROPERTIES, key);
}

/**
 * NodeBB's config keys for the settings Palaver names otherwise (meta.config in NodeBB): the
 * admin API and `palaver config` accept either name. The settings NodeBB and Palaver name alike
 * need no entry.
 */
export const NODEBB_SETTING_NAMES: Readonly<Record<string, keyof ForumSettings>> = {
  title: 'siteTitle',
  userSearchResultsPerPage: 'usersPerPage',
  'outgoingLinks:whitelist': 'outgoingLinksWhitelist',
  loginDays: 'sessionDays',
  emailConfirmExpiry: 'emailConfirmExpiryHours',
  'email:from': 'smtpFrom',
  'email:smtpTransport:host': 'smtpHost',
  'email:smtpTransport:port': 'smtpPort',
  'email:smtpTransport:security': 'smtpSecurity',
  'email:smtpTransport:user': 'smtpUser',
  'email:smtpTransport:pass': 'smtpPassword',
};

/** NodeBB's values of a setting whose values Palaver names otherwise, by NodeBB key. */
const NODEBB_SETTING_VALUES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  'email:smtpTransport:security': { NONE: 'none', STARTTLS: 'starttls', ENCRYPTED: 'tls' },
};

/**
 * Palaver's key and value for a setting named by either name: a NodeBB key becomes ours (its
 * value too, where NodeBB spells values otherwise); any other key is returned as given.
 */
export function fromNodebbSetting(key: string, value: unknown): { key: string; value: unknown } {
  if (!Object.hasOwn(NODEBB_SETTING_NAMES, key)) return { key, value };
  const values = NODEBB_SETTING_VALUES[key];
  const mapped = values && typeof value === 'string' && Object.hasOwn(values, value) ? values[value] : value;
  return { key: NODEBB_SETTING_NAMES[key]!, value: mapped };
}

/** 400 error:unknown-setting unless `key` names a setting. */
export function assertSettingKey(key: string): asserts key is keyof ForumSettings {
  if (!isSettingKey(key)) throw badRequest('error:unknown-setting', key);
}

/**
 * Reads a value given as text (the command line, or NodeBB's string-valued API body) or as
 * JSON into the setting's type: "1"/"0"/"true"/"false"/"on"/"off" for switches, decimal
 * integers for numbers. Anything else is left for the schema to refuse.
 */
export function coerceSetting(key: keyof ForumSettings, raw: unknown): unknown {
  const type = PROPERTIES[key]!.type;
  if (typeof raw !== 'string') return raw;
  const s = raw.trim();
  if (type === 'boolean') {
    if (['1', 'true', 'on', 'yes'].includes(s.toLowerCase())) return true;
    if (['0', 'false', 'off', 'no', ''].includes(s.toLowerCase())) return false;
    return raw;
  }
  if (type === 'integer') return /^-?\d{1,15}$/.test(s) ? Number(s) : raw;
  return raw;
}

/** 400 error:invalid-setting-value (with the key) unless the value fits the setting's schema. */
export function assertSettingValue(key: string, value: unknown): void {
  assertSettingKey(key);
  if (!CHECKS.get(key)!.Check(value)) throw badRequest('error:invalid-setting-value', key);
  if (key === 'navigation' && parseNavigation(value as string) === null) throw badRequest('error:invalid-navigation', key);
}

/**
 * Validates a change against the schema and against the settings it will sit beside
 * (a minimum may not exceed its maximum); throws a 400 with the offending key.
 */
export function assertSettingsChange(values: Record<string, unknown>, current: ForumSettings = DEFAULT_SETTINGS): void {
  for (const [key, value] of Object.entries(values)) assertSettingValue(key, value);
  const next = { ...current, ...values } as Record<string, unknown>;
  for (const [min, max] of MIN_MAX) {
    if ((next[min] as number) > (next[max] as number)) throw badRequest('error:setting-min-above-max', min, max);
  }
}

/** What a setting accepts, in words, for the command line's error messages ("an integer from 1 to 100"). */
export function describeSetting(key: keyof ForumSettings): string {
  const s = PROPERTIES[key] as TSchema & { type?: string; minimum?: number; maximum?: number; maxLength?: number; pattern?: string };
  if (s.type === 'boolean') return 'true or false (1/0, on/off)';
  if (s.type === 'integer') return `an integer from ${s.minimum} to ${s.maximum}`;
  if (s.pattern) return `a language code such as ${DEFAULT_SETTINGS.defaultLang}`;
  return `text of at most ${s.maxLength} characters`;
}
