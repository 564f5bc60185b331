import { CHAT_LIMITS, type ChatsPage } from '../../../shared/schemas/chat.js';
import { forbidden, notFound } from '../../http/errors.js';
import { pathId } from '../../http/input.js';
import { definePage, type PageRequest } from '../../http/pages.js';

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
  const base = {
    rooms: list.rooms,
    publicRooms,
    privateRoomCount: list.rooms.filter((r) => !r.public).length,
    nextStart: list.nextStart,
    uid: slugOwner.uid,
    userslug: slugOwner.userslug,
    canViewInfo: viewer.isAdmin || viewer.isGlobalMod,
    unreadCount,
  };
  if (roomId === undefined) {
    return { ...base, title: '[[pages:chats]]', breadcrumbs: [{ text: '[[pages:chats]]' }] };
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
  return {
    ...base,
    ...room,
    unreadCount: await ctx.chats.unreadCount(subject),
    rooms: base.rooms,
    title,
    breadcrumbs: [{ text: '[[pages:chats]]', url: '/chats' }, { text: title }],
  };
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
