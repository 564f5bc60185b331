import type { ComponentType } from 'react';
import type { PageBase } from '../../shared/types';

/** A page component renders the page data of one template. */
export type PageComponent = ComponentType<{ page: PageBase }>;

const MODULE_OF: Record<string, string> = {
  categories: 'categories',
  category: 'category',
  topic: 'topic',
  recent: 'topic-list',
  popular: 'topic-list',
  top: 'topic-list',
  unread: 'topic-list',
  tag: 'topic-list',
  tags: 'tags',
  search: 'search',
  outgoing: 'outgoing',
  users: 'users',
  'account/profile': 'account/profile',
  'account/settings': 'account/settings',
  'account/watched': 'account/watched',
  'account/categories': 'account/categories',
  'account/tags': 'account/tags',
  'account/web-push': 'account/web-push',
  'account/uploads': 'account/uploads',
  login: 'login',
  register: 'register',
  reset: 'reset',
  reset_code: 'reset-code',
  confirm: 'mail-result',
  unsubscribe: 'mail-result',
  compose: 'compose',
  notifications: 'notifications',
  'post-queue': 'post-queue',
  chats: 'chats',
  '400': 'error',
  '403': 'error',
  '404': 'error',
  '500': 'error',
};

/** The template a page renders: templateToRender when given, else template.name. */
export function templateName(page: Pick<PageBase, 'template' | 'templateToRender'>): string {
  return page.templateToRender || page.template?.name || '404';
}

/** Which page module renders a template; unknown templates render the error page. */
export function moduleFor(template: string): string {
  return MODULE_OF[template] ?? 'error';
}
