import { CHAT_LIMITS, type ChatRoomFull, type ChatsPage } from '../../../shared/schemas/chat.js';
import { forbidden, notFound } from '../../http/errors.js';
import { pathId } from '../../http/input.js';
import { definePage, type PageRequest } from '../../http/pages.js';
import type { PageBase } from '../../../shared/types.js';

/**
 * The chats page (template `chats`): the member's rooms, the public rooms they may enter and,
 * with a room id, that room (members only) opened at the newest messages or at `index`.
 * Opening a room marks it read.
 */
async function loadChats({ ctx, viewer, params }: PageRequest, slugOwner: { uid: number; userslug: string }) {
  await ctx.chats.assertCanChat(viewer);
  // An administrator on another member's chats page sees that member's rooms (reading one is logged).
  const other = slugOwner.uid !== viewer.uid;
  const subject = other ? await ctx.privileges.viewer(slugOwner.uid) : viewer;
  let roomId: number | undefined;
  if (params.roomid !== undefined) {
    const id = pathId(params.roomid);
    if (id === null) throw notFound('error:no-chat-room');
    roomId = id;
  }
  const [list, publicRooms, unreadCount] = await Promise.all([
    // The room being opened is listed as read (opening it marks it read).
    ctx.chats.list(subject, 0, CHAT_LIMITS.roomsPerPage, { read: roomId }),
    ctx.chats.publicRooms(subject),
    ctx.chats.unreadCount(subject),
  ]);
  const rooms = list.rooms;
  const privateRoomCount = rooms.filter((r) => !r.public).length;
  const canViewInfo = viewer.isAdmin || viewer.isGlobalMod;
  // Each page is one object literal, every field written out in the order the page always had:
  // spreading the room into the page and adding fields after it made V8 build new hidden
  // classes for every request (some 24 KB of a room read's allocation).
  if (roomId === undefined) {
    return {
      rooms,
      publicRooms,
      privateRoomCount,
      nextStart: list.nextStart,
      uid: slugOwner.uid,
      userslug: slugOwner.userslug,
      canViewInfo,
      unreadCount,
      title: '[[pages:chats]]',
      breadcrumbs: [{ text: '[[pages:chats]]' }],
    };
  }
  let index: number | undefined;
  if (params.index !== undefined) {
    const n = pathId(params.index);
    // NodeBB's index in the path is 1-based.
    index = n === null ? undefined : n - 1;
  }
  // The viewer's own room is marked read as it opens (a write only when it has unread messages).
  const room = other ? await ctx.chats.adminRead(viewer, roomId, '', { index }) : await ctx.chats.open(viewer, roomId, { index });
  const title = room.roomName || room.usernames || '[[pages:chats]]';
  const after = await ctx.chats.unreadCount(subject);
  return {
    rooms,
    publicRooms,
    privateRoomCount,
    nextStart: list.nextStart,
    uid: slugOwner.uid,
    userslug: slugOwner.userslug,
    canViewInfo,
    unreadCount: after,
    roomId: room.roomId,
    roomName: room.roomName,
    groupChat: room.groupChat,
    public: room.public,
    userCount: room.userCount,
    messageCount: room.messageCount,
    groups: room.groups,
    timestamp: room.timestamp,
    notificationSetting: room.notificationSetting,
    joinLeaveMessages: room.joinLeaveMessages,
    owners: room.owners,
    isOwner: room.isOwner,
    users: room.users,
    messages: room.messages,
    canReply: room.canReply,
    usernames: room.usernames,
    chatWithMessage: room.chatWithMessage,
    maximumUsersInChatRoom: room.maximumUsersInChatRoom,
    maximumChatMessageLength: room.maximumChatMessageLength,
    showUserInput: room.showUserInput,
    isAdminOrGlobalMod: room.isAdminOrGlobalMod,
    isAdmin: room.isAdmin,
    lastReadMid: room.lastReadMid,
    scrollToIndex: room.scrollToIndex,
    title,
    breadcrumbs: [{ text: '[[pages:chats]]', url: '/chats' }, { text: title }],
    // (Every field of the room: the type says so when one is added.)
  } satisfies ChatRoomFull & Omit<ChatsPage, keyof PageBase | keyof ChatRoomFull> & Pick<PageBase, 'title' | 'breadcrumbs'>;
}

const chatsPage = definePage<ChatsPage>({
  path: '/chats/:roomid?/:index?',
  template: 'chats',
  requireLogin: true,
  async load(req) {
    const row = await req.ctx.users.ofViewer(req.viewer);
    return loadChats(req, { uid: req.viewer.uid, userslug: row?.userslug ?? '' });
  },
});

// NodeBB's /user/:userslug/chats: a member's own chats; administrators may read another's (logged).
const userChatsPage = definePage<ChatsPage>({
  path: '/user/:userslug/chats/:roomid?/:index?',
  template: 'chats',
  requireLogin: true,
  async load(req) {
    const owner = await req.ctx.users.bySlug(req.params.userslug ?? '');
    if (!owner) throw notFound('error:no-user');
    if (owner.uid !== req.viewer.uid && !req.viewer.isAdmin) throw forbidden('error:no-privileges');
    return loadChats(req, { uid: owner.uid, userslug: owner.userslug });
  },
});

/** The chats pages (members only). */
export const chatPages = [chatsPage, userChatsPage];
