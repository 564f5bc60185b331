import { hostname } from 'node:os';
import { DEFAULT_SETTINGS } from '../../shared/constants.js';
import { DEFAULT_NAVIGATION, parseNavigation } from '../../shared/navigation.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ClientConfig } from '../../shared/types.js';
import type { AppContext } from '../context.js';
import { linksInNewTab, userSettings } from '../domains/users/presenter.js';
import { installedLanguages, translate } from '../i18n.js';
import { intlLocale } from '../../shared/languages.js';
import { forumLanguage, guestLanguage, memberLanguage } from './language.js';
import { csrfToken } from './auth.js';
import { socketOrigins } from '../realtime/origins.js';
import { pageSizes } from './pagination.js';
import { captchaConfig } from '../plugins/captcha/index.js';
import { appearanceConfig, effectiveSkin } from '../domains/admin/appearance-assets.js';
import { mailConfigured } from '../domains/mail/transport.js';

/** NodeBB's `useragent` flags of the client config. */
export function userAgentFlags(ua: string): { isSafari: boolean; isMobile: boolean } {
  return { isSafari: /safari/i.test(ua) && !/chrome|chromium|android/i.test(ua), isMobile: /mobile|android|iphone/i.test(ua) };
}

/**
 * A member's client configs, by settings load (the settings object is replaced on every change
 * and every few seconds), member row (the session's row, replaced likewise: see
 * AuthService.resolveSessionWithUser) and what else the config is made of: the session (its
 * CSRF token), the browser kind and the member's groups. A member's pages then share one frozen
 * config, so its JSON is made once (see page-json.ts) and the server render keys its frame by
 * it once (the client's ssr/frames.ts), instead of building and encoding 3 KB per page.
 */
const memberConfigs = new WeakMap<object, WeakMap<object, Map<string, ClientConfig>>>();

/** The client configuration of spec §3, for this viewer (frozen and reused for a signed-in member). */
export async function clientConfig(ctx: AppContext, req: FastifyRequest, reply: FastifyReply): Promise<ClientConfig> {
  const row = req.viewer.row;
  if (!row || !req.sessionHash) return buildClientConfig(ctx, req, reply);
  const s = await ctx.settings.get();
  const ua = userAgentFlags(req.headers['user-agent'] ?? '');
  const key = `${req.sessionHash}|${ua.isSafari ? 1 : 0}${ua.isMobile ? 1 : 0}|${req.viewer.groups.join(',')}`;
  let byRow = memberConfigs.get(s);
  if (!byRow) memberConfigs.set(s, (byRow = new WeakMap()));
  let byKey = byRow.get(row);
  if (!byKey) byRow.set(row, (byKey = new Map()));
  let config = byKey.get(key);
  if (!config) {
    config = Object.freeze(await buildClientConfig(ctx, req, reply));
    // A member's row is shared by their sessions and browsers: a handful at most.
    if (byKey.size >= 16) byKey.clear();
    byKey.set(key, config);
  }
  return config;
}

async function buildClientConfig(ctx: AppContext, req: FastifyRequest, reply: FastifyReply): Promise<ClientConfig> {
  const s = await ctx.settings.get();
  const rel = ctx.config.relativePath;
  const ua = req.headers['user-agent'] ?? '';
  const user = await ctx.users.ofViewer(req.viewer);
  const us = user ? userSettings(user) : null;
  const sizes = await pageSizes(ctx, req.viewer);
  const lang = user ? memberLanguage(user, s) : guestLanguage(req, s);
  return {
    asset_base_url: `${rel}/assets`,
    'cache-buster': ctx.config.cacheBuster,
    relative_path: rel,
    upload_url: `${rel}/assets/uploads`,
    useragent: userAgentFlags(ua),
    maintenanceMode: s.maintenanceMode,
    userLang: lang,
    defaultLang: forumLanguage(s),
    timeagoCodes: timeagoCodes(),
    timeagoCutoff: s.timeagoCutoff,
    minimumPasswordLength: s.minimumPasswordLength,
    minimumPasswordStrength: s.minimumPasswordStrength,
    minimumUsernameLength: s.minimumUsernameLength,
    maximumUsernameLength: s.maximumUsernameLength,
    minimumTitleLength: s.minimumTitleLength,
    maximumTitleLength: s.maximumTitleLength,
    minimumPostLength: s.minimumPostLength,
    maximumPostLength: s.maximumPostLength,
    minimumTagsPerTopic: s.minimumTagsPerTopic,
    maximumTagsPerTopic: s.maximumTagsPerTopic,
    minimumTagLength: s.minimumTagLength,
    maximumTagLength: s.maximumTagLength,
    siteTitle: s.siteTitle,
    titleLayout: s.titleLayout,
    browserTitle: s.browserTitle,
    csrf_token: csrfToken(ctx, req, reply),
    websocketAddress: ctx.config.websocketAddress,
    maxReconnectionAttempts: s.maxReconnectionAttempts,
    reconnectionDelay: s.reconnectionDelay,
    socketioTransports: ctx.config.socketTransports,
    socketioOrigins: socketOrigins(ctx.config).join(','),
    // The member's own choice, else the forum's (NodeBB's member setting over the forum's).
    openOutgoingLinksInNewTab: linksInNewTab(user, s),
    useOutgoingLinksPage: s.useOutgoingLinksPage,
    searchEnabled: true,
    searchDefaultInQuick: s.searchDefaultInQuick,
    outgoingLinksWhitelist: s.outgoingLinksWhitelist,
    activitypub: { probe: false },
    navigation: (parseNavigation(s.navigation) ?? DEFAULT_NAVIGATION).filter((e) => e.enabled),
    cookies: {
      enabled: s.cookieConsentEnabled,
      // The banner's built-in texts in the reader's language; an admin's own words as written.
      message: s.cookieConsentMessage === DEFAULT_SETTINGS.cookieConsentMessage ? translate('global:cookies.message', [], lang) : s.cookieConsentMessage,
      dismiss: s.cookieConsentDismiss === DEFAULT_SETTINGS.cookieConsentDismiss ? translate('global:cookies.dismiss', [], lang) : s.cookieConsentDismiss,
      link: s.cookieConsentLink === DEFAULT_SETTINGS.cookieConsentLink ? translate('global:cookies.link', [], lang) : s.cookieConsentLink,
      link_url: s.cookieConsentLinkUrl,
    },
    composeRouteEnabled: s.composeRouteEnabled,
    postQueue: user ? await ctx.postQueue.appliesTo(req.viewer, user) : false,
    allowRegistration: s.allowRegistration,
    // Whether the forum can send mail (an SMTP host is set): pages that would promise a mail say what happens instead.
    mailConfigured: mailConfigured(s),
    captcha: await captchaConfig(ctx, lang),
    topicsPerPage: sizes.topicsPerPage,
    postsPerPage: sizes.postsPerPage,
    uid: req.viewer.uid,
    isAdmin: req.viewer.isAdmin,
    bootswatchSkin: effectiveSkin(s, us?.bootswatchSkin),
    openSidebars: us?.openSidebars ?? (s['harmony:openSidebars'] ? 'on' : 'off'),
    usePagination: us?.usePagination ?? true,
    flagReasons: s['flags:reasons'].split('\n').map((r) => r.trim()).filter(Boolean),
    ...appearanceConfig(s, rel),
    autohideBottombar: s['harmony:autohideBottombar'],
  };
}

let codes: Record<string, string> | null = null;
let codesOf: readonly string[] | null = null;

/** Each offered language's code for relative times: its Intl locale, 'en' for the English ones (spec §6: 'en' loads nothing more). */
function timeagoCodes(): Record<string, string> {
  if (codesOf !== installedLanguages()) {
    codesOf = installedLanguages();
    codes = null;
  }
  codes ??= Object.freeze(Object.fromEntries(installedLanguages().map((code) => [code, code.startsWith('en-') ? 'en' : intlLocale(code)]))) as Record<string, string>;
  return codes;
}

/** This server's host name, sent to sockets on reconnect. */
export const serverHostname = hostname();
