import type { NotificationObject, NotificationType } from '../../../shared/schemas/notification.js';
import { presentUser } from '../users/presenter.js';
import type { UserBrief } from '../users/store.js';
import type { NotificationRow } from './store.js';
import { settingName } from './schemas.js';

/** The merged senders of a notification, newest first. */
export function senders(row: Pick<NotificationRow, 'from_uids'>): number[] {
  return row.from_uids.split(',').filter(Boolean).map(Number);
}

// A parameter inside [[key, a, b]] must not carry the separators: NodeBB escapes them the same way.
export const escapeParam = (p: string | number): string => String(p).replace(/,/g, '&#44;').replace(/\[/g, '&#91;').replace(/\]/g, '&#93;');

/**
 * The translatable text: one sender `[[key, alice, …]]`, two `[[key-dual, alice, bob, …]]`,
 * more `[[key-multiple, alice, 3, …]]` (alice and 3 others); names as they are today.
 */
export function bodyShort(row: NotificationRow, users: ReadonlyMap<number, UserBrief>): string {
  const params = (JSON.parse(row.body_params) as (string | number)[]).map(escapeParam);
  const uids = senders(row);
  const name = (uid: number | undefined) => escapeParam(uid !== undefined && users.get(uid) ? users.get(uid)!.username : '[[global:former-user]]');
  let key = row.body_key;
  let names: string[] = [];
  if (row.from_count === 1 || (row.from_count > 0 && uids.length === 1)) names = [name(uids[0])];
  else if (row.from_count === 2) [key, names] = [`${key}-dual`, [name(uids[0]), name(uids[1])]];
  else if (row.from_count > 2) [key, names] = [`${key}-multiple`, [name(uids[0]), String(row.from_count - 1)]];
  const all = [...names, ...params];
  return `[[${key}${all.length ? `, ${all.join(', ')}` : ''}]]`;
}

/** The uids a list of notifications needs loaded to be shown (the two newest senders each). */
export function neededUsers(rows: NotificationRow[]): number[] {
  return [...new Set(rows.flatMap((r) => senders(r).slice(0, 2)))];
}

/** NodeBB's NotificationObject for a stored row. */
export function presentNotification(row: NotificationRow, users: ReadonlyMap<number, UserBrief>): NotificationObject {
  const sender = row.from_uid > 0 ? presentUser(users.get(row.from_uid), row.from_uid) : undefined;
  return {
    nid: String(row.id),
    // NodeBB's name of the type (a group request is its `group-request-membership`).
    type: settingName(row.type as NotificationType),
    importance: row.importance,
    datetime: row.created,
    datetimeISO: new Date(row.created).toISOString(),
    path: row.path,
    bodyShort: bodyShort(row, users),
    read: row.read === 1,
    readClass: row.read === 1 ? '' : 'unread',
    mergeId: row.merge_key,
    from: row.from_uid,
    ...(row.pid > 0 ? { pid: row.pid } : {}),
    ...(row.tid > 0 ? { tid: row.tid } : {}),
    ...(sender
      ? {
          user: {
            uid: sender.uid,
            username: sender.username,
            displayname: sender.displayname,
            userslug: sender.userslug,
            picture: sender.picture || null,
            isLocal: true,
            'icon:text': sender['icon:text'],
            'icon:bgColor': sender['icon:bgColor'],
          },
        }
      : {}),
    image: null,
    subject: '[[notifications:new-notification]]',
  };
}

/** How a notification row stores a sender (the importer writes NodeBB's senders this way). */
export { senderToken } from './store.js';
