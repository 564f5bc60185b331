import { hostname } from 'node:os';
import { DEFAULT_NAVIGATION, parseNavigation } from '../../shared/navigation.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ClientConfig } from '../../shared/types.js';
import type { AppContext } from '../context.js';
import { userSettings } from '../domains/users/presenter.js';
import { csrfToken } from './auth.js';
import { pageSizes } from './pagination.js';
import { captchaConfig } from '../plugins/captcha/index.js';
import { appearanceConfig, effectiveSkin } from '../domains/admin/appearance-assets.js';

/** NodeBB's `useragent` flags of the client config. */
export function userAgentFlags(ua: string): { isSafari: boolean; isMobile: boolean } {
  return { isSafari: /safari/i.test(ua) && !/chrome|chromium|android/i.test(ua), isMobile: /mobile|android|iphone/i.test(ua) };
}

/** The client configuration of spec §3, for this viewer. */
export async function clientConfig(ctx: AppContext, req: FastifyRequest, reply: FastifyReply): Promise<ClientConfig> {
  const s = await ctx.settings.get();
  const rel = ctx.config.relativePath;
  const ua = req.headers['user-agent'] ?? '';
  const user = await ctx.users.ofViewer(req.viewer);
  const us = user ? userSettings(user) : null;
  const sizes = await pageSizes(ctx, req.viewer);
  return {
    asset_base_url: `${rel}/assets`,
    'cache-buster': ctx.config.cacheBuster,
    relative_path: rel,
    upload_url: `${rel}/assets/uploads`,
    useragent: userAgentFlags(ua),
    maintenanceMode: s.maintenanceMode,
    userLang: us?.userLang ?? s.defaultLang,
    defaultLang: s.defaultLang,
    timeagoCodes: { 'en-GB': 'en', 'en-US': 'en' },
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
    websocketAddress: '',
    maxReconnectionAttempts: s.maxReconnectionAttempts,
    reconnectionDelay: s.reconnectionDelay,
    socketioTransports: ctx.config.socketTransports,
    socketioOrigins: `${new URL(ctx.config.url).origin}:*`,
    openOutgoingLinksInNewTab: s.openOutgoingLinksInNewTab,
    useOutgoingLinksPage: s.useOutgoingLinksPage,
    searchEnabled: true,
    searchDefaultInQuick: s.searchDefaultInQuick,
    outgoingLinksWhitelist: s.outgoingLinksWhitelist,
    activitypub: { probe: false },
    navigation: (parseNavigation(s.navigation) ?? DEFAULT_NAVIGATION).filter((e) => e.enabled),
    cookies: { enabled: s.cookieConsentEnabled, message: s.cookieConsentMessage, dismiss: s.cookieConsentDismiss, link: s.cookieConsentLink, link_url: s.cookieConsentLinkUrl },
    composeRouteEnabled: s.composeRouteEnabled,
    postQueue: user ? await ctx.postQueue.appliesTo(req.viewer, user) : false,
    allowRegistration: s.allowRegistration,
    captcha: await captchaConfig(ctx, us?.userLang ?? s.defaultLang),
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

/** This server's host name, sent to sockets on reconnect. */
export const serverHostname = hostname();
