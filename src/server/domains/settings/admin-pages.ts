import { installedLanguages } from '../../i18n.js';
import type { TSchema } from 'typebox';
import { SECRET_SETTINGS, type ForumSettings } from '../../../shared/constants.js';
import type { AdminNavigationPage, AdminSettingsPage, SettingField, SettingSection } from '../../../shared/schemas/admin-settings.js';
import { DEFAULT_NAVIGATION, parseNavigation } from '../../../shared/navigation.js';
import { definePage, type PageDef } from '../../http/pages.js';
import { assertAdmin } from '../privileges/service.js';
import { listMasterTokens } from './admin.js';
import { SettingsSchema } from './schema.js';

type Key = keyof ForumSettings;
/** A field as the layout below names it: a key, or a key with a control that is not the schema's default. */
type FieldSpec = Key | { key: Key; control: SettingField['control']; href?: string };

/**
 * The admin settings pages (NodeBB's /admin/settings/{page}), each a list of sections of
 * settings grouped as NodeBB groups them. Every setting is on exactly one page (a test
 * checks it); the controls and their limits come from the settings schema.
 */
export const SETTINGS_LAYOUT: Record<string, Record<string, FieldSpec[]>> = {
  general: {
    'site-info': ['siteTitle', 'browserTitle', 'titleLayout', 'description'],
    language: ['defaultLang'],
    'outgoing-links': ['useOutgoingLinksPage', 'openOutgoingLinksInNewTab', 'outgoingLinksWhitelist'],
    search: ['searchDefaultIn', 'searchDefaultInQuick', 'searchDefaultSortBy'],
  },
  user: {
    authentication: ['sessionDays', 'adminReloginDuration'],
    account: ['usernameChangeCooldownDays', 'allowAccountDelete', 'exportExpiryDays'],
    'account-protection': ['minimumUsernameLength', 'maximumUsernameLength', 'minimumPasswordLength', 'minimumPasswordStrength', 'captcha:register', 'captcha:loginFailures', 'captcha:provider', 'captcha:siteKey', 'captcha:secretKey', 'captcha:recaptchaVerifyUrl', 'captcha:hcaptchaVerifyUrl', 'stopForumSpamEnabled', 'stopForumSpamUrl'],
    registration: ['allowRegistration', 'registrationType', 'registrationApprovalType', 'inviteExpiration', 'maximumInvites', 'gdpr_enabled', 'termsOfUse', 'registrationEmailBlacklist'],
    profile: ['maximumAboutMeLength', 'maximumSignatureLength', 'disableSignatures', { key: 'customUserFields', control: 'link', href: '/admin/manage/users/custom-fields' }],
    moderation: ['banReasons'],
    defaults: ['dailyDigestFreq'],
  },
  post: {
    restrictions: ['postDelay', 'newbiePostDelay', 'newbieReputationThreshold', 'initialPostDelay', 'postEditDuration', 'postDeleteDuration', 'minimumTitleLength', 'maximumTitleLength', 'minimumPostLength', 'maximumPostLength'],
    'post-queue': ['postQueue', 'postQueueReputationThreshold', 'postQueuePostCountThreshold', 'groupsExemptFromPostQueue'],
    'new-members': ['maximumLinksForNewMembers', 'newMemberPostCount'],
    timestamp: ['timeagoCutoff'],
    composer: ['composeRouteEnabled'],
  },
  chat: {
    chat: ['disableChat', 'chatEditDuration', 'chatDeleteDuration', 'maximumChatMessageLength', 'chatMessageDelay', 'maximumUsersInChatRoom', 'maximumChatRoomNameLength', 'notificationSendDelay'],
  },
  email: {
    smtp: ['smtpHost', 'smtpPort', 'smtpSecurity', 'smtpUser', 'smtpPassword', 'smtpFrom'],
    links: ['emailConfirmExpiryHours', 'resetExpiryMinutes'],
  },
  notifications: {
    notifications: ['upvoteNotificationThreshold'],
  },
  uploads: {
    uploads: ['maximumFileSize', 'allowedFileExtensions', 'resizeImageWidth', 'maximumImagePixels', 'allowTopicsThumbnail', 'uploadsSignedUrls'],
  },
  tags: {
    tags: ['minimumTagsPerTopic', 'maximumTagsPerTopic', 'minimumTagLength', 'maximumTagLength'],
  },
  reputation: {
    flags: ['flags:reasons', 'flags:postFlagsPerDay', 'flags:userFlagsPerDay', 'flags:autoHideThreshold'],
  },
  group: {},
  // The API page lists master tokens (below) rather than settings.
  api: {},
  pagination: {
    pagination: ['topicsPerPage', 'postsPerPage', 'usersPerPage'],
  },
  guest: {},
  cookies: {
    consent: ['cookieConsentEnabled', 'cookieConsentMessage', 'cookieConsentDismiss', 'cookieConsentLink', 'cookieConsentLinkUrl'],
  },
  'web-crawler': {
    crawlability: ['robots:txt'],
    rss: ['disableRSSFeeds'],
  },
  advanced: {
    maintenance: ['maintenanceMode', 'maintenanceModeMessage', 'groupsExemptFromMaintenanceMode'],
    sockets: ['maxReconnectionAttempts', 'reconnectionDelay'],
    federation: ['activitypubEnabled', 'activitypubDenyList'],
  },
};

/**
 * Settings edited on other admin pages than these (appearance, extend): their own page is
 * where they make sense (an upload, a code editor, a theme's options).
 */
export const EDITED_ELSEWHERE: Record<string, string> = {
  navigation: '/admin/settings/navigation',
  backupSchedule: '/admin/advanced/backups',
  backupKeep: '/admin/advanced/backups',
  bootswatchSkin: '/admin/appearance/skins',
  allowedSkins: '/admin/appearance/skins',
  useCustomCSS: '/admin/appearance/customise',
  customCSS: '/admin/appearance/customise',
  useCustomHTML: '/admin/appearance/customise',
  customHTML: '/admin/appearance/customise',
  useCustomJS: '/admin/appearance/customise',
  customJS: '/admin/appearance/customise',
  'brand:logo': '/admin/appearance/customise',
  'brand:favicon': '/admin/appearance/customise',
  'brand:touchIcon': '/admin/appearance/customise',
  'og:image': '/admin/appearance/customise',
  'harmony:openSidebars': '/admin/appearance/themes',
  'harmony:autohideBottombar': '/admin/appearance/themes',
  'plugins:disabled': '/admin/extend/plugins',
};

const PROPERTIES = SettingsSchema.properties as Record<string, TSchema & { type?: string; minimum?: number; maximum?: number; maxLength?: number; pattern?: string; anyOf?: { const?: string }[] }>;
// Text longer than this gets a text area.
const TEXTAREA_FROM = 2000;

/** The choices of a setting whose schema lists them (a union of literals, or a ^(a|b|c)$ pattern). */
function choices(s: (typeof PROPERTIES)[string]): string[] | undefined {
  if (s.anyOf?.every((o) => typeof o.const === 'string')) return s.anyOf.map((o) => o.const!);
  const m = s.pattern ? /^\^\(([a-z|-]+)\)\$$/.exec(s.pattern) : null;
  return m ? m[1]!.split('|') : undefined;
}

/** The field of one setting: its control and limits read from the schema. */
export function settingField(spec: FieldSpec): SettingField {
  const key = typeof spec === 'string' ? spec : spec.key;
  const s = PROPERTIES[key]!;
  if (typeof spec !== 'string') return { key, control: spec.control, ...(spec.href ? { href: spec.href } : {}) };
  if (SECRET_SETTINGS.includes(key)) return { key, control: 'password', maxLength: s.maxLength };
  if (s.type === 'boolean') return { key, control: 'toggle' };
  if (s.type === 'integer') return { key, control: 'number', min: s.minimum, max: s.maximum };
  // The forum's language: one of those it offers (their files present).
  if (key === 'defaultLang') return { key, control: 'select', options: installedLanguages() };
  const options = choices(s);
  if (options) return { key, control: 'select', options };
  return { key, control: (s.maxLength ?? 0) >= TEXTAREA_FROM ? 'textarea' : 'text', maxLength: s.maxLength };
}

/** The sections of a settings page. */
export function settingSections(page: string): SettingSection[] {
  return Object.entries(SETTINGS_LAYOUT[page] ?? {}).map(([id, fields]) => ({ id, fields: fields.map(settingField) }));
}

function settingsPage(id: string): PageDef<AdminSettingsPage> {
  return definePage<AdminSettingsPage>({
    path: `/admin/settings/${id}`,
    template: `admin/settings/${id}`,
    access: 'admin',
    async load({ ctx, viewer }) {
      assertAdmin(viewer);
      const s = (await ctx.settings.get()) as unknown as Record<string, string | number | boolean>;
      const sections = settingSections(id);
      const values: AdminSettingsPage['values'] = {};
      const secretsSet: AdminSettingsPage['secretsSet'] = {};
      for (const f of sections.flatMap((x) => x.fields)) {
        if (f.control === 'link') continue;
        if (SECRET_SETTINGS.includes(f.key)) {
          // Never sent back: the page only learns whether one is stored.
          values[f.key] = '';
          secretsSet[f.key] = Boolean(s[f.key]);
        } else values[f.key] = s[f.key]!;
      }
      return {
        title: `[[admin-settings:page.${id}]]`,
        breadcrumbs: [{ text: '[[admin:nav.settings]]' }, { text: `[[admin-settings:page.${id}]]` }],
        settingsPage: id,
        sections,
        values,
        secretsSet,
        ...(id === 'api' ? { tokens: await listMasterTokens(ctx, viewer) } : {}),
        ...(id === 'email' ? { mail: await ctx.mail.status(viewer) } : {}),
      };
    },
  });
}

/**
 * /admin/settings/navigation (NodeBB's navigation editor): the main navigation's entries as the
 * setting `navigation` holds them (the built-in list while it is empty), and the built-in list
 * to go back to. Saved through PUT /api/v3/admin/settings like every setting.
 */
const navigationPage = definePage<AdminNavigationPage>({
  path: '/admin/settings/navigation',
  template: 'admin/settings/navigation',
  access: 'admin',
  async load({ ctx, viewer }) {
    assertAdmin(viewer);
    const s = await ctx.settings.get();
    return {
      title: '[[admin-settings:page.navigation]]',
      breadcrumbs: [{ text: '[[admin:nav.settings]]' }, { text: '[[admin-settings:page.navigation]]' }],
      navigation: parseNavigation(s.navigation) ?? DEFAULT_NAVIGATION,
      defaults: DEFAULT_NAVIGATION,
      custom: s.navigation.trim() !== '',
    };
  },
});

/** Every /admin/settings/{page} of the layout, and the navigation editor. */
export const settingsAdminPages: PageDef<AdminSettingsPage | AdminNavigationPage>[] = [...Object.keys(SETTINGS_LAYOUT).map(settingsPage), navigationPage];
