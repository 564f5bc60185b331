import path from 'node:path';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { LogController, type FastifyError, type FastifyInstance, type FastifyServerOptions, type RouteOptions } from 'fastify';
import type { Config } from './config.js';
import { createContext, type AppContext } from './context.js';
import { type DatabaseHandle } from './db/index.js';
import { registerAuthRoutes } from './domains/auth/routes.js';
import { securityPages } from './domains/auth/pages.js';
import { registerAdminReauth } from './domains/auth/second-factor.js';
import { registerSecurityRoutes } from './domains/auth/security-routes.js';
import { registerCategoryRoutes } from './domains/categories/routes.js';
import { categoryPages } from './domains/categories/pages.js';
import { registerWatchListeners } from './domains/categories/watch-listeners.js';
import { registerNotificationListeners } from './domains/notifications/listeners.js';
import { notificationPages } from './domains/notifications/pages.js';
import { registerNotificationRoutes } from './domains/notifications/routes.js';
import { registerPostRoutes } from './domains/posts/routes.js';
import { registerSettingsRoutes } from './domains/settings/routes.js';
import { registerTopicRoutes } from './domains/topics/routes.js';
import { registerTagRoutes } from './domains/tags/routes.js';
import { tagPages } from './domains/tags/pages.js';
import { topicPages } from './domains/topics/pages.js';
import { postPages } from './domains/posts/pages.js';
import { registerUserRoutes } from './domains/users/routes.js';
import { registerBlacklistGuard, registerModerationRoutes } from './domains/moderation/routes.js';
import { moderationPages } from './domains/moderation/pages.js';
import { registerModerationListeners } from './domains/moderation/listeners.js';
import { userPages } from './domains/users/pages.js';
import { sharesPages } from './domains/users/shares-page.js';
import { messagePages } from './domains/chats/message-page.js';
import { apiTokenPages } from './domains/settings/api-tokens-page.js';
import { registerDeletionRoutes } from './domains/users/delete-routes.js';
import { blockPages } from './domains/users/blocks-page.js';
import { exportPages, registerExportRoutes } from './domains/exports/routes.js';
import { backupPages, registerBackupRoutes } from './domains/backups/routes.js';
import { registerMailRoutes } from './domains/mail/routes.js';
import { mailPages } from './domains/mail/pages.js';
import { registerPostQueueRoutes } from './domains/postqueue/routes.js';
import { postQueuePages } from './domains/postqueue/pages.js';
import { registerPushRoutes } from './domains/push/routes.js';
import { pushPages } from './domains/push/pages.js';
import { registerUploadRoutes } from './domains/uploads/routes.js';
import { uploadPages } from './domains/uploads/pages.js';
import { registerChatRoutes } from './domains/chats/routes.js';
import { chatPages } from './domains/chats/pages.js';
import { registerRegistrationRoutes } from './domains/registration/routes.js';
import { registrationPages } from './domains/registration/pages.js';
import { registerCaptchaRoutes } from './plugins/captcha/routes.js';
import { registerFlagRoutes } from './domains/flags/routes.js';
import { flagPages } from './domains/flags/pages.js';
import { eventPages } from './domains/events/pages.js';
import { registerGroupRoutes } from './domains/groups/routes.js';
import { groupPages } from './domains/groups/pages.js';
import { registerSearchRoutes } from './domains/search/routes.js';
import { searchPages } from './domains/search/pages.js';
import { registerFeedRoutes } from './domains/feeds/routes.js';
import { registerWidgetRoutes } from './domains/widgets/routes.js';
import { widgetPages } from './domains/widgets/pages.js';
import { registerAdvancedRoutes } from './domains/admin/advanced-routes.js';
import { registerAppearanceRoutes } from './domains/admin/appearance-routes.js';
import { registerPluginRoutes } from './domains/admin/plugins-routes.js';
import { registerMaintenance } from './http/maintenance.js';
import { registerFederationRoutes } from './domains/federation/routes.js';
import { registerFirstRun } from './domains/admin/setup-routes.js';
import { logRing } from './domains/admin/advanced-logs.js';
import { feedPages } from './domains/feeds/pages.js';
import { adminPages } from './domains/admin/pages.js';
import { adminCategoryPages } from './domains/categories/admin-pages.js';
import { registerAdminCategoryRoutes } from './domains/categories/admin-routes.js';
import { dashboardPages } from './domains/analytics/pages.js';
import { registerAnalyticsRoutes } from './domains/analytics/routes.js';
import { settingsAdminPages } from './domains/settings/admin-pages.js';
import { adminUserPages } from './domains/users/admin-pages.js';
import { registerAdminUserRoutes } from './domains/users/admin-routes.js';
import { adminTagPages } from './domains/tags/admin-pages.js';
import { registerAdminTagRoutes } from './domains/tags/admin-routes.js';
import { adminUploadPages } from './domains/uploads/admin-pages.js';
import { digestAdminPages, registerDigestAdminRoutes } from './domains/notifications/digest-admin-routes.js';
import { registerAuth } from './http/auth.js';
import { errorEnvelope } from './http/envelope.js';
import { requestLanguage } from './http/language.js';
import { requestLoggerFactory } from './http/request-logger.js';
import { registerEdgeGuards } from './http/edge-guard.js';
import { AppError, badRequest } from './http/errors.js';
import { errorPage, registerPages, sendPageError } from './http/pages.js';
import { registerAdminPrivilegeRoutes } from './domains/privileges/admin-routes.js';
import { adminPrivilegePages } from './domains/privileges/admin-pages.js';
import { registerAdminGroupRoutes } from './domains/groups/admin-routes.js';
import { adminGroupPages } from './domains/groups/admin-pages.js';
import { registerRewardRoutes } from './domains/rewards/routes.js';
import { rewardPages } from './domains/rewards/pages.js';
import { loadClientBuild } from './http/render.js';
import { registerMeta } from './http/meta.js';
import { registerPublicFiles } from './http/public-files.js';
import { registerSecurityHeaders } from './http/security-headers.js';
import { lazyCompilers, type LazyCompilers } from './http/lazy-compilers.js';
import { registerEmojiRoutes } from './plugins/emoji/routes.js';
import { loadBuiltinPlugins } from './plugins/index.js';
import { registerRealtime } from './realtime/index.js';
import { publicDir } from './i18n.js';

/** The app with its context and the list of every route it registered. */
export type App = FastifyInstance & { ctx: AppContext; routeList: RouteOptions[]; schemas: LazyCompilers };

// Only the body parsers' own errors mean "your JSON is malformed"; a SyntaxError thrown by
// our code (a bad JSON.parse of a stored value, say) is a server fault and must show as one.
const INVALID_BODY_CODES = new Set(['FST_ERR_CTP_INVALID_JSON_BODY', 'FST_ERR_CTP_EMPTY_JSON_BODY']);

/** The failing parameter of a schema error as "body/cid", "params/tid" or "querystring/page". */
export function validationField(context: string | undefined, first: { instancePath?: string; params?: unknown } | undefined): string {
  if (!first) return '';
  const missing = (first.params as { missingProperty?: string } | undefined)?.missingProperty;
  const path = [...(first.instancePath ?? '').split('/'), missing ?? ''].filter(Boolean);
  return [context ?? 'body', ...path].join('/');
}

/** Turns any thrown error into a typed AppError; unknown errors become 500s. */
export function toAppError(err: FastifyError | Error, log: FastifyInstance['log']): AppError {
  if (err instanceof AppError) return err;
  const fe = err as FastifyError;
  if (fe.validation) return badRequest('error:invalid-data', validationField(fe.validationContext, fe.validation[0]));
  if (fe.code && INVALID_BODY_CODES.has(fe.code)) return badRequest('error:invalid-json');
  if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) return new AppError(`error:api.${fe.statusCode}`, fe.statusCode);
  log.error({ err }, 'unexpected error');
  return new AppError('error:api.500', 500);
}

/** Builds the Fastify application with every domain wired in; the caller listens. */
export async function buildApp(config: Config, opts: { db?: DatabaseHandle; logger?: FastifyServerOptions['logger'] } = {}): Promise<App> {
  // Each route's schemas compile on first use (see lazy-compilers.ts): a faster start-up.
  const schemas = lazyCompilers();
  const app = Fastify({
    schemaController: { compilersFactory: schemas.compilersFactory } as unknown as FastifyServerOptions['schemaController'],
    logger: opts.logger ?? { level: config.logLevel, redact: ['req.headers.authorization', 'req.headers.cookie', 'req.body.password'], stream: logRing },
    trustProxy: config.trustProxy,
    // One line per request costs a third of the throughput; LOG_LEVEL=debug brings them back.
    logController: new LogController({ disableRequestLogging: config.logLevel !== 'debug' && config.logLevel !== 'trace' }),
    // Each request's pino child is made only when it logs (http/request-logger.ts).
    childLoggerFactory: requestLoggerFactory,
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 500 },
    ajv: { customOptions: { coerceTypes: 'array', removeAdditional: true, useDefaults: true, allErrors: false } },
    bodyLimit: 1024 * 1024,
  }).withTypeProvider<TypeBoxTypeProvider>();
  const ctx = createContext(config, app.log, opts.db);
  (app as unknown as App).ctx = ctx;
  const routeList: RouteOptions[] = [];
  (app as unknown as App).routeList = routeList;
  (app as unknown as App).schemas = schemas;
  app.addHook('onRoute', (route) => {
    routeList.push(route as RouteOptions);
  });
  app.addHook('onClose', async () => ctx.close());

  await loadBuiltinPlugins(ctx);
  const distDir = path.resolve(publicDir, '../dist');
  await loadClientBuild(distDir, app.log);
  await app.register(cookie);
  await app.register(formbody);
  app.setErrorHandler(async (err: FastifyError, req, reply) => {
    const appErr = toAppError(err, req.log);
    if (req.routeOptions.config?.page) return sendPageError(ctx, req, reply, appErr);
    // The message in the reader's language (the key and params let a client show its own).
    let lang: string | undefined;
    try {
      lang = requestLanguage(req, await ctx.settings.get());
    } catch {
      // Settings unreadable (the database down): the message stays English.
    }
    return reply.code(appErr.status).type('application/json; charset=utf-8').send(errorEnvelope(appErr, lang));
  });

  registerSecurityHeaders(app, config, ctx.settings);

  await app.register(
    async (scope) => {
      registerAuth(scope, ctx);
      // After authentication (which reads no string from the request): NUL and non-finite numbers never reach the database.
      registerEdgeGuards(scope);
      // Before any admin route is registered: it puts the two-factor re-authentication on each (spec §6).
      registerAdminReauth(scope, ctx);
      // First-run mode (palaver start on an empty database): pages lead to /setup until an administrator exists.
      registerFirstRun(scope, ctx);
      // Maintenance mode (the setting, and a restore while it runs): 503 for all but administrators.
      registerMaintenance(scope, ctx);
      // Fedify in front of the pages: federation URLs, and NodeBB's URLs asked for as ActivityPub JSON.
      registerFederationRoutes(scope, ctx);
      await scope.register(async (files) => registerPublicFiles(files, distDir));
      registerMeta(scope, ctx, routeList);
      // Its onResponse hook counts page views (an in-memory increment) on the pages registered below.
      registerAnalyticsRoutes(scope, ctx);
      registerAuthRoutes(scope, ctx);
      registerSecurityRoutes(scope, ctx);
      registerUserRoutes(scope, ctx);
      registerDeletionRoutes(scope, ctx);
      registerAdminUserRoutes(scope, ctx);
      registerAdminTagRoutes(scope, ctx);
      registerDigestAdminRoutes(scope, ctx);
      registerExportRoutes(scope, ctx);
      registerBackupRoutes(scope, ctx);
      registerModerationRoutes(scope, ctx);
      registerBlacklistGuard(scope, ctx);
      registerModerationListeners(ctx);
      registerCategoryRoutes(scope, ctx);
      registerAdminCategoryRoutes(scope, ctx);
      registerTopicRoutes(scope, ctx);
      registerTagRoutes(scope, ctx);
      registerEmojiRoutes(scope);
      registerWatchListeners(ctx);
      registerPostRoutes(scope, ctx);
      registerSettingsRoutes(scope, ctx);
      registerMailRoutes(scope, ctx);
      registerPostQueueRoutes(scope, ctx);
      registerGroupRoutes(scope, ctx);
      registerAdminPrivilegeRoutes(scope, ctx);
      registerAdminGroupRoutes(scope, ctx);
      registerRewardRoutes(scope, ctx);
      registerNotificationRoutes(scope, ctx);
      registerPushRoutes(scope, ctx);
      registerUploadRoutes(scope, ctx);
      registerChatRoutes(scope, ctx);
      registerRegistrationRoutes(scope, ctx);
      registerCaptchaRoutes(scope, ctx);
      registerFlagRoutes(scope, ctx);
      registerSearchRoutes(scope, ctx);
      registerFeedRoutes(scope, ctx);
      registerWidgetRoutes(scope, ctx);
      registerAdvancedRoutes(scope, ctx);
      registerAppearanceRoutes(scope, ctx);
      registerPluginRoutes(scope, ctx);
      const realtime = registerRealtime(scope, ctx);
      ctx.analytics.setOnlineSource(async () => {
        const [sockets, active] = await Promise.all([realtime.io.fetchSockets(), ctx.users.onlineUids()]);
        // Members with a socket open, and those whose pages or calls were seen in the online window.
        const members = new Set([...active, ...sockets.filter((s) => s.data.uid > 0).map((s) => s.data.uid)]);
        return { members: members.size, guests: sockets.filter((s) => !(s.data.uid > 0)).length };
      });
      registerNotificationListeners(ctx);
      registerPages(scope, ctx, [...categoryPages, ...topicPages, ...tagPages, ...postPages, ...userPages, ...securityPages, ...blockPages, ...exportPages, ...notificationPages, ...mailPages, ...postQueuePages, ...pushPages, ...uploadPages, ...chatPages, ...registrationPages, ...flagPages, ...eventPages, ...moderationPages, ...groupPages, ...searchPages, ...feedPages, ...widgetPages, ...adminPages, ...adminCategoryPages, ...dashboardPages, ...adminUserPages, ...adminTagPages, ...adminUploadPages, ...digestAdminPages, ...adminPrivilegePages, ...adminGroupPages, ...rewardPages, ...settingsAdminPages, ...backupPages, ...sharesPages, ...messagePages, ...apiTokenPages]);

      scope.setNotFoundHandler(async (req, reply) => {
        const inner = req.url.slice(config.relativePath.length);
        if (inner.startsWith('/api/v3/') || inner === '/api/v3') {
          return reply.code(404).send(errorEnvelope(new AppError('error:api.404', 404)));
        }
        const api = inner.startsWith('/api/');
        const err = new AppError('error:not-found', 404);
        if (!api && /\.\w{2,5}$/.test(inner.split('?')[0]!)) return reply.code(404).type('text/plain').send('Not found');
        return sendPageError(ctx, req, reply, err).catch(async () => reply.code(404).send(await errorPage(ctx, req.viewer, 404, inner)));
      });
    },
    { prefix: config.relativePath },
  );

  return app as unknown as App;
}
