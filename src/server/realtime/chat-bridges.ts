import type { ChatAccess } from './chats.js';
import { coalesceWebSocketWrites, writeTogether } from './coalesce.js';
import { bridge, type Hub } from './hub.js';
import { chatRoom, publicChatRoom, userRoom } from './rooms.js';

/**
 * Chat events reach every socket following the room (chat_room_<id>, joined only through the
 * chats domain's access rule) and, for new messages in private rooms and renames, every socket
 * of every member (uid_<uid>) so their room list updates without the room open. socket.io sends one copy to a
 * socket that is in several of the rooms; with the Redis adapter, every process's sockets.
 */
export function registerChatBridges(hub: Hub & { setChatAccess(access: ChatAccess): void }): void {
  const { io, ctx } = hub;
  // New messages go out at the end of the event loop's turn, together: a socket that several
  // of them reach gets them in one write (coalesce.ts) instead of one write each.
  coalesceWebSocketWrites();
  let batch: { rooms: string[]; emit: () => void; done: () => void }[] = [];
  const flush = () => {
    const items = batch;
    batch = [];
    const emitAll = () => items.forEach((i) => i.emit());
    try {
      if (items.length > 1) writeTogether(io, new Set(items.flatMap((i) => i.rooms)), emitAll);
      else emitAll();
    } finally {
      items.forEach((i) => i.done());
    }
  };
  const soon = (rooms: string[], emit: () => void) =>
    new Promise<void>((done) => {
      if (!batch.length) setImmediate(flush);
      batch.push({ rooms, emit, done });
    });

  // Inline: the message is queued for the end of this turn at commit. Queued behind the request
  // (a setImmediate of the hook bus, then `soon`'s own), it went out a whole turn later, after
  // every request that had arrived meanwhile: 10 senders at once in a 200-member room waited
  // ~19 ms more for the first member's copy (bench/chat.mjs).
  bridge(hub, 'action:chat.sent', async ({ roomId, public: isPublic, message, uids, newlyUnread }) => {
    // A public room's messages go to the sockets on it only (as NodeBB): it may hold the whole forum.
    const to = isPublic ? [chatRoom(roomId)] : [chatRoom(roomId), ...uids.map(userRoom)];
    await soon(to, () => io.to(to).emit('event:chats.receive', { roomId, fromUid: message.fromuid, message, public: isPublic }));
    if (message.system) return;
    if (isPublic) {
      io.to(publicChatRoom(roomId)).emit('event:chats.public.unread', { roomId, fromUid: message.fromuid, public: true });
      return;
    }
    // The badge of members for whom the room has just become unread: their count of unread rooms,
    // in one query for all of them (the others' counts did not change).
    if (!newlyUnread.length) return;
    const counts = await ctx.chats.unreadCounts(newlyUnread);
    for (const uid of newlyUnread) {
      io.to(userRoom(uid)).emit('event:unread.updateChatCount', { count: counts.get(uid) ?? 0, roomId, fromUid: message.fromuid, public: false });
    }
  }, { inline: true });

  bridge(hub, 'action:chat.changed', async ({ roomId, mid, change, message }) => {
    const to = io.to(chatRoom(roomId));
    if (change === 'edit') to.emit('event:chats.edit', { messages: [message] });
    else if (change === 'delete') to.emit('event:chats.delete', mid);
    else if (change === 'restore') to.emit('event:chats.restore', message);
    else to.emit('event:chats.pin', { roomId, mid, pinned: change === 'pin', message });
  });

  bridge(hub, 'action:chat.typing', async (data) => {
    io.to(chatRoom(data.roomId)).emit('event:chats.typing', data);
  });

  bridge(hub, 'action:chat.read', async ({ roomId, uid, state }) => {
    const to = io.to(userRoom(uid));
    if (state === 0) to.emit('event:chats.markedAsRead', { roomId });
    to.emit('event:chats.mark', { roomId, state });
    const count = (await ctx.chats.unreadCounts([uid])).get(uid) ?? 0;
    to.emit('event:unread.updateChatCount', { count, roomId });
  });

  bridge(hub, 'action:chat.renamed', async ({ roomId, newName, uids }) => {
    io.to([chatRoom(roomId), ...uids.map(userRoom)]).emit('event:chats.roomRename', { roomId, newName, chatWithMessage: '' });
  });

  bridge(hub, 'action:chat.left', async ({ roomId, uids }) => {
    if (!uids.length) return;
    const rooms = uids.map(userRoom);
    // Sockets of members who left stop following the room, on every process.
    io.in(rooms).socketsLeave([chatRoom(roomId), publicChatRoom(roomId)]);
    io.to(rooms).emit('event:chats.left', { roomId });
    const counts = await ctx.chats.unreadCounts(uids);
    for (const uid of uids) io.to(userRoom(uid)).emit('event:unread.updateChatCount', { count: counts.get(uid) ?? 0, roomId });
  });

  hub.setChatAccess(async (viewer, roomIds, publicRoom) => ctx.chats.liveAccess(viewer, roomIds, publicRoom));
}
