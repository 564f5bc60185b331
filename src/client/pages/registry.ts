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
  'admin/plugins/dbsearch': 'admin-dbsearch',
  outgoing: 'outgoing',
  users: 'users',
  'account/profile': 'account/profile',
  'account/settings': 'account/settings',
  'account/watched': 'account/watched',
  'account/categories': 'account/categories',
  'account/tags': 'account/tags',
  'account/web-push': 'account/web-push',
  'account/uploads': 'account/uploads',
  'account/groups': 'account/groups',
  'groups/list': 'groups/list',
  'groups/details': 'groups/details',
  'groups/members': 'groups/members',
  'account/consent': 'account/consent',
  'admin/manage/registration': 'registration-queue',
  'admin/manage/users': 'admin/users/manage',
  'admin/manage/users/custom-fields': 'admin/users/custom-fields',
  'admin/manage/tags': 'admin/tags',
  'admin/manage/privileges': 'admin/privileges/index',
  'admin/manage/groups': 'admin/groups/list',
  'admin/manage/group': 'admin/groups/edit',
  'admin/manage/uploads': 'admin/uploads',
  'admin/manage/digest': 'admin/digest',
  'registration-queue': 'registration-queue',
  'account/blocks': 'account/blocks',
  'account/data': 'account/data',
  'account/edit': 'account/edit',
  'account/theme': 'account/theme',
  'account/posts': 'account/posts',
  'account/best': 'account/posts',
  'account/controversial': 'account/posts',
  'account/upvoted': 'account/posts',
  'account/downvoted': 'account/posts',
  'account/bookmarks': 'account/posts',
  'account/topics': 'account/topics',
  'account/ignored': 'account/topics',
  'account/read': 'account/topics',
  'account/followers': 'account/follows',
  'account/following': 'account/follows',
  'account/info': 'account/info',
  'ip-blacklist': 'ip-blacklist',
  login: 'login',
  'login-2fa': 'login-2fa',
  'account/sessions': 'account/sessions',
  'account/2factor': 'account/2factor',
  'account/tokens': 'account/tokens',
  'account/edit/password': 'account/edit-password',
  'account/edit/username': 'account/edit-username',
  'account/edit/email': 'account/edit-email',
  register: 'register',
  reset: 'reset',
  reset_code: 'reset-code',
  confirm: 'mail-result',
  unsubscribe: 'mail-result',
  compose: 'compose',
  notifications: 'notifications',
  'post-queue': 'post-queue',
  'flags/list': 'flags/list',
  'flags/detail': 'flags/detail',
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
