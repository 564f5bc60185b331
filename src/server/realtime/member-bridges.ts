import { bridge, type Hub } from './hub.js';
import { sessionRoom, userRoom } from './rooms.js';

/** Bans, logouts, deletions and status changes reach the member's sockets on every process. */
export function registerMemberBridges(hub: Hub): void {
  const { io, presence } = hub;

  // The event is sent before the sockets are closed; a closing socket flushes what it was sent.
  bridge(hub, 'action:user.banned', async ({ uid, until, reason }) => {
    io.to(userRoom(uid)).emit('event:banned', { reason, ...(until > 0 ? { until } : {}) });
    io.in(userRoom(uid)).disconnectSockets(true);
  });
  bridge(hub, 'action:user.unbanned', async ({ uid }) => {
    io.to(userRoom(uid)).emit('event:unbanned');
  });
  // A muted member keeps reading: told at once, not on their next refused post.
  bridge(hub, 'action:user.muted', async ({ uid, until, reason }) => {
    io.to(userRoom(uid)).emit('event:muted', { reason, ...(until > 0 ? { until } : {}) });
  });
  bridge(hub, 'action:user.unmuted', async ({ uid }) => {
    io.to(userRoom(uid)).emit('event:unmuted');
  });
  // Only the sockets of the session that logged out: the member's other devices stay.
  bridge(hub, 'action:user.loggedOut', async ({ sessionId }) => {
    io.to(sessionRoom(sessionId)).emit('event:logout');
    io.in(sessionRoom(sessionId)).disconnectSockets(true);
  });
  bridge(hub, 'action:user.delete', async ({ uid }) => {
    io.to(userRoom(uid)).emit('event:invalid_session');
    io.in(userRoom(uid)).disconnectSockets(true);
  });
  bridge(hub, 'action:user.update', async ({ user, fields }) => {
    if (fields.includes('status')) await presence.changed(user.uid, user.status);
  });
}
