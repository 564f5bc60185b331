import type { AppContext } from '../../context.js';
import type { Io } from '../../realtime/server.js';
import { userRoom } from '../../realtime/rooms.js';
import { neededUsers, presentNotification } from './presenter.js';

/** What the live delivery uses: the hooks it hears, counts, and the senders' names. */
export type NotificationLiveDeps = Pick<AppContext, 'hooks' | 'notifications' | 'users'>;

/**
 * Pushes each stored notification, and the reader's new unread count, to every open tab of
 * the reader (their user room, on every process through the adapter), as NodeBB does:
 * `event:new_notification` with the NotificationObject, `event:notifications.updateCount`.
 * A read or a deletion pushes the count alone.
 */
export function registerNotificationLive(io: Io, ctx: NotificationLiveDeps): void {
  ctx.hooks.action('action:notifications.stored', 'notifications-live', async ({ rows }) => {
    if (!rows.length) return;
    // Three queries for any number of readers: the rows came with the event.
    const [users, counts] = await Promise.all([ctx.users.getMany(neededUsers(rows)), ctx.notifications.unreadCounts(rows.map((r) => r.uid))]);
    for (const row of rows) {
      const room = io.to(userRoom(row.uid));
      room.emit('event:new_notification', presentNotification(row, users));
      room.emit('event:notifications.updateCount', counts.get(row.uid) ?? 0);
    }
  });
  ctx.hooks.action('action:notifications.count', 'notifications-live', async ({ uid, unread }) => {
    io.to(userRoom(uid)).emit('event:notifications.updateCount', unread);
  });
}
