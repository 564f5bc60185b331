import { Type, type Static } from 'typebox';
import type { PageBase, Pagination } from '../types.js';

/** The sender as a notification shows it (NodeBB's UserObjectTiny plus the icon fields). */
export const NotificationUserSchema = Type.Object({
  uid: Type.Number(),
  username: Type.String(),
  displayname: Type.String(),
  userslug: Type.String(),
  picture: Type.Union([Type.String(), Type.Null()]),
  isLocal: Type.Boolean(),
  'icon:text': Type.String(),
  'icon:bgColor': Type.String(),
});

/**
 * NodeBB's NotificationObject (components/schemas/NotificationObject.yaml). `nid` is the
 * reader's notification id (a string, as NodeBB's); `mergeId` what merges events into it;
 * `bodyShort` a `[[notifications:key, params]]` text the reader's client translates.
 */
export const NotificationObjectSchema = Type.Object({
  nid: Type.String(),
  type: Type.String(),
  importance: Type.Number(),
  datetime: Type.Number(),
  datetimeISO: Type.String(),
  path: Type.String(),
  bodyShort: Type.String(),
  read: Type.Boolean(),
  readClass: Type.String(),
  mergeId: Type.String(),
  from: Type.Number(),
  pid: Type.Optional(Type.Number()),
  tid: Type.Optional(Type.Number()),
  user: Type.Optional(NotificationUserSchema),
  image: Type.Union([Type.String(), Type.Null()]),
  subject: Type.String(),
});

/** A notification as the API, the page and the live event carry it. */
export type NotificationObject = Static<typeof NotificationObjectSchema>;

/** One entry of the notifications page's filter list (NotificationFilters.yaml). */
export const NotificationFilterSchema = Type.Object({
  name: Type.String(),
  filter: Type.String(),
  selected: Type.Boolean(),
  count: Type.Optional(Type.Number()),
});

export type NotificationFilter = Static<typeof NotificationFilterSchema>;

/** The notification types Palaver stores (the `type` field). */
export const NOTIFICATION_TYPES = [
  'new-reply', 'new-topic', 'mention', 'quote', 'upvote', 'follow', 'post-edit', 'new-chat', 'new-post-flag',
  'new-user-flag', 'post-queue', 'group-invite', 'group-request', 'data-export', 'my-flags',
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/** Filters of the notifications page and the types each one shows (NodeBB's names). */
export const NOTIFICATION_FILTERS: { filter: string; name: string; types: NotificationType[]; moderator?: true }[] = [
  { filter: '', name: '[[notifications:all]]', types: [] },
  { filter: 'new-topic', name: '[[notifications:topics]]', types: ['new-topic'] },
  { filter: 'new-reply', name: '[[notifications:replies]]', types: ['new-reply'] },
  { filter: 'mention', name: '[[notifications:mentions]]', types: ['mention', 'quote'] },
  { filter: 'new-chat', name: '[[notifications:chat]]', types: ['new-chat'] },
  { filter: 'follow', name: '[[notifications:follows]]', types: ['follow'] },
  { filter: 'upvote', name: '[[notifications:upvote]]', types: ['upvote'] },
  { filter: 'post-edit', name: '[[notifications:edits]]', types: ['post-edit'] },
  { filter: 'group', name: '[[notifications:groups]]', types: ['group-invite', 'group-request'] },
  { filter: 'new-post-flag', name: '[[notifications:flagged-posts]]', types: ['new-post-flag'], moderator: true },
  { filter: 'new-user-flag', name: '[[notifications:flagged-users]]', types: ['new-user-flag'], moderator: true },
  { filter: 'post-queue', name: '[[notifications:post-queue]]', types: ['post-queue'], moderator: true },
];

/** Page data of /notifications (NodeBB's read/notifications.yaml). */
export interface NotificationsPage extends PageBase {
  notifications: Omit<NotificationObject, 'type' | 'mergeId' | 'pid' | 'tid' | 'subject'>[];
  unreadNids: string[];
  filters: NotificationFilter[];
  regularFilters: NotificationFilter[];
  moderatorFilters: NotificationFilter[];
  selectedFilter: NotificationFilter;
  pagination: Pagination;
}
