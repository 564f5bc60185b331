import type { AppContext } from '../../context.js';
import type { LiveMessage } from '../../realtime/live-bus.js';
import { chatRoom, publicChatRoom, userRoom } from '../../realtime/rooms.js';

/** What the chats' live events use. */
export type ChatsLiveDeps = Pick<AppContext, 'chats' | 'hooks' | 'live'>;

const PLUGIN = 'chats-live';
/** Chat events reach sockets only in rooms the chats domain let them join, or a member's own: everyone there may have them. */
const ANYONE = { kind: 'any' } as const;

/**
 * Chats' live events, published once through the live bus (realtime/live-bus.ts). They go to
 * the sockets following a room (chat_room_<id>, joined only through the chats domain's access
 * rule, ChatsService.liveAccess) and, for new messages in private rooms and renames, to every
 * socket of every member (uid_<uid>), so their room list updates without the room open.
 */
export function registerChatsLive(ctx: ChatsLiveDeps): void {
  const { hooks, live } = ctx;

  // New messages go out at the end of the event loop's turn, together: a socket that several of
  // them reach gets them in one write (LiveBus.publishAll). The listener is inline: the message
  // is queued at commit, not behind the request (queued behind it, it went out a whole turn
  // later, after every request that had arrived meanwhile: bench/chat.mjs).
  let batch: LiveMessage[] = [];
  const flush = () => {
    const messages = batch;
    batch = [];
    live.publishAll(messages);
  };
  const soon = (message: LiveMessage) => {
    if (!batch.length) setImmediate(flush);
    batch.push(message);
  };

  hooks.action(
    'action:chat.sent',
    PLUGIN,
    async ({ roomId, public: isPublic, message, uids, newlyUnread }) => {
      // A public room's messages go to the sockets on it only (as NodeBB): it may hold the whole forum.
      const rooms = isPublic ? [chatRoom(roomId)] : [chatRoom(roomId), ...uids.map(userRoom)];
      soon({ rooms, audience: ANYONE, event: 'event:chats.receive', args: [{ roomId, fromUid: message.fromuid, message, public: isPublic }] });
      if (message.system) return;
      if (isPublic) {
        soon({ rooms: [publicChatRoom(roomId)], audience: ANYONE, event: 'event:chats.public.unread', args: [{ roomId, fromUid: message.fromuid, public: true }] });
        return;
      }
      // The badge of members for whom the room has just become unread: their count of unread
      // rooms, in one query for all of them (the others' counts did not change).
      if (!newlyUnread.length) return;
      const counts = await ctx.chats.unreadCounts(newlyUnread);
      for (const uid of newlyUnread) {
        live.publish({ rooms: [userRoom(uid)], audience: ANYONE, event: 'event:unread.updateChatCount', args: [{ count: counts.get(uid) ?? 0, roomId, fromUid: message.fromuid, public: false }] });
      }
    },
    { inline: true },
  );

  hooks.action('action:chat.changed', PLUGIN, ({ roomId, mid, change, message }) => {
    const rooms = [chatRoom(roomId)];
    if (change === 'edit') live.publish({ rooms, audience: ANYONE, event: 'event:chats.edit', args: [{ messages: [message] }] });
    else if (change === 'delete') live.publish({ rooms, audience: ANYONE, event: 'event:chats.delete', args: [mid] });
    else if (change === 'restore') live.publish({ rooms, audience: ANYONE, event: 'event:chats.restore', args: [message] });
    else live.publish({ rooms, audience: ANYONE, event: 'event:chats.pin', args: [{ roomId, mid, pinned: change === 'pin', message }] });
  });

  hooks.action('action:chat.typing', PLUGIN, (data) => {
    live.publish({ rooms: [chatRoom(data.roomId)], audience: ANYONE, event: 'event:chats.typing', args: [data] });
  });

  hooks.action('action:chat.read', PLUGIN, async ({ roomId, uid, state }) => {
    const rooms = [userRoom(uid)];
    if (state === 0) live.publish({ rooms, audience: ANYONE, event: 'event:chats.markedAsRead', args: [{ roomId }] });
    live.publish({ rooms, audience: ANYONE, event: 'event:chats.mark', args: [{ roomId, state }] });
    const count = (await ctx.chats.unreadCounts([uid])).get(uid) ?? 0;
    live.publish({ rooms, audience: ANYONE, event: 'event:unread.updateChatCount', args: [{ count, roomId }] });
  });

  hooks.action('action:chat.renamed', PLUGIN, ({ roomId, newName, uids }) => {
    live.publish({ rooms: [chatRoom(roomId), ...uids.map(userRoom)], audience: ANYONE, event: 'event:chats.roomRename', args: [{ roomId, newName, chatWithMessage: '' }] });
  });

  hooks.action('action:chat.left', PLUGIN, async ({ roomId, uids }) => {
    if (!uids.length) return;
    const rooms = uids.map(userRoom);
    // Sockets of members who left stop following the room, in every process.
    live.leave({ from: rooms, rooms: [chatRoom(roomId), publicChatRoom(roomId)] });
    live.publish({ rooms, audience: ANYONE, event: 'event:chats.left', args: [{ roomId }] });
    const counts = await ctx.chats.unreadCounts(uids);
    for (const uid of uids) live.publish({ rooms: [userRoom(uid)], audience: ANYONE, event: 'event:unread.updateChatCount', args: [{ count: counts.get(uid) ?? 0, roomId }] });
  });
}
