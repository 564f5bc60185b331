import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { ActionRunner } from '../../core/action.js';
import type { Db } from '../../db/index.js';
import type { OutgoingGuard } from '../../http/outgoing.js';
import type { JobRunner } from '../../jobs/runner.js';
import type { CategoriesService } from '../categories/service.js';
import type { PostsService } from '../posts/service.js';
import type { PrivilegesService } from '../privileges/service.js';
import type { SettingsService } from '../settings/service.js';
import type { TagsService } from '../tags/service.js';
import type { TopicsService } from '../topics/service.js';
import type { UsersService } from '../users/service.js';

/** What federation uses of the application (named where each is declared, not through the context). */
export interface FederationDeps {
  actions: ActionRunner;
  categories: CategoriesService;
  config: Config;
  db: Db;
  jobs: JobRunner;
  log: FastifyBaseLogger;
  outgoing: OutgoingGuard;
  posts: PostsService;
  privileges: PrivilegesService;
  settings: SettingsService;
  tags: TagsService;
  topics: TopicsService;
  users: UsersService;
}
