// Server rendering imports every page statically: no lazy boundary may be pending in renderToString.
import categories from './categories';
import category from './category';
import topic from './topic';
import topicList from './topic-list';
import users from './users';
import tags from './tags';
import search from './search';
import outgoing from './outgoing';
import profile from './account/profile';
import accountSettings from './account/settings';
import accountWatched from './account/watched';
import accountCategories from './account/categories';
import accountTags from './account/tags';
import accountUploads from './account/uploads';
import webPush from './account/web-push';
import login from './login';
import register from './register';
import reset from './reset';
import resetCode from './reset-code';
import mailResult from './mail-result';
import compose from './compose';
import notifications from './notifications';
import postQueue from './post-queue';
import chats from './chats';
import error from './error';
import { moduleFor, type PageComponent } from './registry';

const PAGES: Record<string, PageComponent> = {
  categories, category, topic, 'topic-list': topicList, users, tags, search, outgoing, 'account/profile': profile,
  'account/settings': accountSettings, 'account/watched': accountWatched, 'account/categories': accountCategories, 'account/tags': accountTags, 'account/web-push': webPush, 'account/uploads': accountUploads,
  login, register, reset, 'reset-code': resetCode, 'mail-result': mailResult, compose, notifications, 'post-queue': postQueue, chats, error,
};

/** The component of a template, for server rendering. */
export function getStaticComponent(template: string): PageComponent {
  return PAGES[moduleFor(template)] ?? error;
}
