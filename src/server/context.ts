import type { FastifyBaseLogger } from 'fastify';
import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';
import { GROUPS } from './core/tags.js';
import { ActionRunner } from './core/action.js';
import { CacheRegistry } from './core/cache.js';
import { ChangeBus } from './core/changes.js';
import { Outbox } from './core/outbox.js';
import { onAfterCommitError } from './db/reentrant.js';
import type { Config } from './config.js';
import { openDatabase, type DatabaseHandle, type Db, type Dialect } from './db/index.js';
import type { TableWrites } from './db/table-writes.js';
import { HookBus } from './hooks/bus.js';
import { MemoryRateLimiter, RedisRateLimiter, type RateLimiter } from './http/ratelimit.js';
import { AuthService } from './domains/auth/service.js';
import { CategoriesService } from './domains/categories/service.js';
import { EventsService } from './domains/events/service.js';
import { GroupsService } from './domains/groups/service.js';
import { registerGroupListeners } from './domains/groups/listeners.js';
import { NotificationsService } from './domains/notifications/service.js';
import { PostsService } from './domains/posts/service.js';
import { PrivilegesService } from './domains/privileges/service.js';
import { SettingsService } from './domains/settings/service.js';
import { TagsService } from './domains/tags/service.js';
import { TopicsService } from './domains/topics/service.js';
import { UsersService } from './domains/users/service.js';
import { MailService } from './domains/mail/service.js';
import { PostQueueService } from './domains/postqueue/service.js';
import { registerMail } from './domains/mail/listeners.js';
import { PushService } from './domains/push/service.js';
import { registerPush } from './domains/push/listeners.js';
import { UploadsService } from './domains/uploads/service.js';
import { registerUploadListeners } from './domains/uploads/listeners.js';
import { ViewCounter } from './domains/topics/views.js';
import { ActivityRecorder } from './domains/users/activity.js';
import { SearchService } from './domains/search/service.js';
import { AnalyticsService } from './domains/analytics/service.js';
import { FeedsService } from './domains/feeds/service.js';
import { ChatsService } from './domains/chats/service.js';
import { RegistrationService } from './domains/registration/service.js';
import { FlagsService } from './domains/flags/service.js';
import { ModerationService } from './domains/moderation/service.js';
import { JobRunner } from './jobs/runner.js';
import { FederationService } from './domains/federation/service.js';
import { registerFederationListeners } from './domains/federation/listeners.js';
import { registerCoreJobs } from './jobs/core.js';
import { registerNotificationLive } from './domains/notifications/live.js';
import { registerChatsLive } from './domains/chats/live.js';
import { registerPostsLive } from './domains/posts/live.js';
import { registerTopicsLive } from './domains/topics/live.js';
import { LiveBus } from './realtime/live-bus.js';
import { openStorage, type FileStore } from './storage/index.js';
import { OutgoingGuard } from './http/outgoing.js';
import { reportRedisErrors } from './core/redis-errors.js';

/** Everything a service may reach: configuration, database, hooks and the other services. */
export interface AppContext {
  config: Config;
  db: Db;
  dialect: Dialect;
  /** Committed writes per table, for a cache of a table's rows (db/table-writes.ts). */
  writes: TableWrites;
  log: FastifyBaseLogger;
  hooks: HookBus;
  redis: Redis | null;
  /** Committed changes' tags, to this process's listeners and (Redis) every other process's. */
  changes: ChangeBus;
  /** Every cache of the process (core/cache.ts): the catalogue, the off switch, the drops on change. */
  cacheRegistry: CacheRegistry;
  /** The one way to write: a transaction, then its change tags, after-commit work and hooks. */
  actions: ActionRunner;
  /** Durable side effects: fired hooks' durable listeners, run from rows written with the action. */
  outbox: Outbox;
  /** Live events published once with their audience; each process delivers to its own sockets. */
  live: LiveBus;
  /** The one way to send a request to another machine: hosts resolved and checked (no private addresses), no redirects. */
  outgoing: OutgoingGuard;
  /** Every file the forum keeps (uploads, exports, backups): the data dir or an S3 bucket (PALAVER_STORAGE). */
  storage: FileStore;
  /** Queued and recurring jobs with database leases; started by `palaver start`. */
  jobs: JobRunner;
  limiter: RateLimiter;
  settings: SettingsService;
  groups: GroupsService;
  privileges: PrivilegesService;
  auth: AuthService;
  users: UsersService;
  categories: CategoriesService;
  topics: TopicsService;
  posts: PostsService;
  tags: TagsService;
  events: EventsService;
  notifications: NotificationsService;
  views: ViewCounter;
  /** Members' activity (last online, sessions' last active), noted per request and written in batches. */
  activity: ActivityRecorder;
  /** Outgoing mail: the outbox, its job, confirmation and reset codes. */
  mail: MailService;
  /** New members' posts waiting for a moderator. */
  postQueue: PostQueueService;
  /** Web push: the VAPID keys, members' browser subscriptions, the push jobs. */
  push: PushService;
  /** Members' uploaded files, topic thumbnails and the unused-file clean-up. */
  uploads: UploadsService;
  /** Chat rooms, members and messages. */
  chats: ChatsService;
  /** Registration: its types, the approval queue, invitations and members' consent. */
  registration: RegistrationService;
  /** Reports of posts, members and chat messages, worked by moderators. */
  flags: FlagsService;
  /** Member moderation: bans, mutes, moderation notes, IP history and blacklist, spam defence. */
  moderation: ModerationService;
  /** Full-text search and the members / tags / categories lookups. */
  search: SearchService;
  /** RSS feeds, sitemaps and robots.txt. */
  feeds: FeedsService;
  /** The dashboard's counters (page views, registrations, posts, topics, logins, searches), flushed in batches. */
  analytics: AnalyticsService;
  /** Federation (ActivityPub with Fedify): actors, inboxes, deliveries; off unless activitypubEnabled. */
  federation: FederationService;
  close(): Promise<void>;
}

/** Opens the database (and Redis when configured) and builds every service. */
export function createContext(config: Config, log: FastifyBaseLogger, handle: DatabaseHandle = openDatabase(config, log)): AppContext {
  // ioredis is loaded only when Redis is configured: most forums never need it.
  const redis = config.redisUrl ? new (createRequire(import.meta.url)('ioredis') as typeof import('ioredis')).Redis(config.redisUrl, { maxRetriesPerRequest: 2 }) : null;
  if (redis) reportRedisErrors(redis, log, 'main');
  const hooks = new HookBus(log);
  const changes = new ChangeBus(redis, config.redisPrefix, log);
  onAfterCommitError((err) => log.error({ err }, 'after-commit work failed'));
  const ctx = {
    config,
    db: handle.db,
    dialect: handle.dialect,
    writes: handle.writes,
    log,
    hooks,
    redis,
    changes,
    cacheRegistry: new CacheRegistry(config.cache !== 'off', changes),
    actions: new ActionRunner({ db: handle.db, changes, hooks, log }),
    outbox: new Outbox(handle.db, hooks, log, { leaseMs: config.outboxLeaseMs }),
    limiter: redis ? new RedisRateLimiter(redis, `${config.redisPrefix}rl:`) : new MemoryRateLimiter(),
    storage: openStorage(config),
    outgoing: new OutgoingGuard(config.outgoingAllow),
  } as unknown as AppContext;
  ctx.jobs = new JobRunner(ctx.db, log);
  ctx.settings = new SettingsService(ctx.db, ctx.actions, ctx.cacheRegistry);
  ctx.groups = new GroupsService(ctx.db, ctx.actions);
  ctx.privileges = new PrivilegesService({ db: ctx.db, groups: ctx.groups, actions: ctx.actions, cacheRegistry: ctx.cacheRegistry, settings: ctx.settings });
  ctx.auth = new AuthService(ctx.db, config.secret, { writes: ctx.writes, changes, cacheRegistry: ctx.cacheRegistry });
  ctx.events = new EventsService(ctx.db, ctx.actions);
  ctx.users = new UsersService(ctx);
  ctx.categories = new CategoriesService(ctx);
  ctx.topics = new TopicsService(ctx);
  ctx.posts = new PostsService(ctx);
  ctx.tags = new TagsService(ctx);
  ctx.notifications = new NotificationsService(ctx);
  ctx.views = new ViewCounter(ctx);
  ctx.activity = new ActivityRecorder(ctx);
  ctx.auth.onActivity((note) => ctx.activity.note(note));
  ctx.mail = new MailService(ctx);
  ctx.postQueue = new PostQueueService(ctx);
  ctx.push = new PushService(ctx);
  ctx.uploads = new UploadsService(ctx);
  ctx.chats = new ChatsService(ctx);
  ctx.registration = new RegistrationService(ctx);
  ctx.flags = new FlagsService(ctx);
  ctx.moderation = new ModerationService(ctx);
  ctx.search = new SearchService(ctx);
  ctx.feeds = new FeedsService(ctx);
  ctx.analytics = new AnalyticsService(ctx);
  ctx.federation = new FederationService(ctx);
  ctx.live = new LiveBus(
    redis,
    config.redisPrefix,
    async (uid, audience) => (await ctx.privileges.guardian(await ctx.privileges.viewer(uid))).admits(audience),
    log,
    (work) => hooks.track(work),
  );
  registerPostsLive(ctx);
  registerTopicsLive(ctx);
  registerChatsLive(ctx);
  registerNotificationLive(ctx);
  registerCoreJobs(ctx);
  registerMail(ctx);
  registerPush(ctx);
  registerUploadListeners(ctx);
  registerFederationListeners(ctx);
  ctx.groups.wire(ctx);
  registerGroupListeners(ctx);
  // Who a member is is cached per process (the privileges' viewers): a deletion or a ban drops
  // it everywhere, as a change of groups does.
  for (const name of ['action:user.delete', 'action:user.banned', 'action:user.unbanned'] as const) {
    ctx.hooks.action(name, 'core', () => changes.publish([GROUPS]), { inline: true });
  }
  ctx.close = async () => {
    await ctx.jobs.stop();
    ctx.federation.stop();
    await ctx.outbox.stop();
    // Listeners already queued finish (10 s at most) before the database closes under them.
    await ctx.hooks.idle(10_000);
    await ctx.views.flush().catch((err: unknown) => log.error({ err }, 'view flush failed'));
    ctx.views.stop();
    await ctx.activity.flush().catch((err: unknown) => log.error({ err }, 'activity flush failed'));
    ctx.activity.stop();
    await ctx.search.flush().catch((err: unknown) => log.error({ err }, 'search count flush failed'));
    ctx.search.stop();
    await ctx.analytics.flush().catch((err: unknown) => log.error({ err }, 'analytics flush failed'));
    ctx.analytics.stop();
    await ctx.live.close();
    await ctx.changes.close();
    // QUIT answers after the commands already sent, so none in flight is cut off; 2 s at most.
    if (redis) {
      await Promise.race([redis.quit().catch(() => undefined), new Promise((r) => setTimeout(r, 2000).unref())]);
      redis.disconnect();
    }
    ctx.storage.close();
    await handle.close();
  };
  return ctx;
}
