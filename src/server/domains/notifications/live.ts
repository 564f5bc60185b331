import type { HookBus } from '../../hooks/bus.js';
import type { LiveBus } from '../../realtime/live-bus.js';
import { userRoom } from '../../realtime/rooms.js';
import type { UsersService } from '../users/service.js';
import { neededUsers, presentNotification } from './presenter.js';
import type { NotificationsService } from './service.js';

/** What the live delivery uses: the hooks it hears, the live bus, counts, and the senders' names. */
export interface NotificationLiveDeps {
  hooks: HookBus;
  live: LiveBus;
  notifications: Pick<NotificationsService, 'unreadCounts'>;
  users: Pick<UsersService, 'getMany'>;
}

const PLUGIN = 'notifications-live';
/** A member's own room: only their sockets are in it, and every one of them may have their notifications. */
const ANYONE = { kind: 'any' } as const;

/**
 * Pushes each stored notification, and the reader's new unread count, to every open tab of
 * the reader (their user room), as NodeBB does: `event:new_notification` with the
 * NotificationObject, `event:notifications.updateCount`. A read or a deletion pushes the count
 * alone. Published once through the live bus (realtime/live-bus.ts), which every process
 * delivers to its own sockets, like the other domains' live events.
 */
export function registerNotificationLive(ctx: NotificationLiveDeps): void {
  const { hooks, live } = ctx;
  hooks.action('action:notifications.stored', PLUGIN, async ({ rows }) => {
    if (!rows.length) return;
    // Three queries for any number of readers: the rows came with the event.
    const [users, counts] = await Promise.all([ctx.users.getMany(neededUsers(rows)), ctx.notifications.unreadCounts(rows.map((r) => r.uid))]);
    live.publishAll(
      rows.flatMap((row) => {
        const rooms = [userRoom(row.uid)];
        return [
          { rooms, audience: ANYONE, event: 'event:new_notification' as const, args: [presentNotification(row, users)] },
          { rooms, audience: ANYONE, event: 'event:notifications.updateCount' as const, args: [counts.get(row.uid) ?? 0] },
        ];
      }),
    );
  });
  hooks.action('action:notifications.count', PLUGIN, async ({ uid, unread }) => {
    live.publish({ rooms: [userRoom(uid)], audience: ANYONE, event: 'event:notifications.updateCount', args: [unread] });
  });
}
