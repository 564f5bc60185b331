import { Type, type Static } from 'typebox';
import { ChatMessageSchema, ChatParentSchema, ChatRoomSchema, ChatUserSchema } from '../../../shared/schemas/chat.js';
import { UserObjectSlimSchema } from '../../../shared/schemas/user.js';

/**
 * The /api/v3/chats answers with NodeBB's exact fields (write.yaml, components/schemas/Chats.yaml).
 * Each place lists its own member fields; the response serialiser leaves out what a schema does
 * not name, so one presenter serves the page data, the live events and these answers.
 */

const pick = <K extends keyof typeof ChatUserSchema.properties>(keys: K[]) => Type.Pick(ChatUserSchema, keys);

/** A message's `fromUser` (MessageObject). */
export const MessageUserSchema = pick(['uid', 'isLocal', 'username', 'userslug', 'picture', 'status', 'banned', 'displayname', 'icon:text', 'icon:bgColor', 'banned_until', 'banned_until_readable', 'deleted']);

const { index: _index, fromUser: _fromUser, parent: _parent, ...messageFields } = ChatMessageSchema.properties;

/** NodeBB's MessageObject (+ Palaver's `pinned`, `toMid`, `parent`, present only when set). */
export const MessageObjectSchema = Type.Object({
  ...messageFields,
  fromUser: MessageUserSchema,
  parent: Type.Optional(Type.Object({ ...ChatParentSchema.properties, fromUser: MessageUserSchema })),
});

/** A message of a list (GET .../messages): NodeBB adds its index. */
export const ListedMessageSchema = Type.Object({ ...MessageObjectSchema.properties, index: Type.Number() });

export const MessageListSchema = Type.Object({ messages: Type.Array(ListedMessageSchema) });

const { owners: _owners, ...roomFields } = ChatRoomSchema.properties;

/** NodeBB's RoomObject. */
export const RoomObjectSchema = Type.Object(roomFields);

/** A member in a room's member list (RoomUserList). */
export const RoomUserSchema = pick(['uid', 'isLocal', 'username', 'picture', 'status', 'displayname', 'icon:text', 'icon:bgColor', 'isOwner', 'canKick', 'canToggleOwner', 'index', 'online']);
export const RoomUserListSchema = Type.Object({ users: Type.Array(RoomUserSchema) });

/** A member found by GET /search/chats/{roomId}/users: NodeBB's UserObjectSlim with the viewer's rights over them. */
export const RoomUserFoundSchema = Type.Object({ ...UserObjectSlimSchema.properties, isOwner: Type.Boolean(), canKick: Type.Boolean() });
export const RoomUserSearchSchema = Type.Object({ users: Type.Array(RoomUserFoundSchema) });
export type RoomUserSearch = Static<typeof RoomUserSearchSchema>;

/** A room's member list in loadRoom (RoomObjectFull `users`). */
const FullRoomUserSchema = pick(['uid', 'username', 'picture', 'status', 'displayname', 'icon:text', 'icon:bgColor', 'isOwner']);

/**
 * NodeBB's RoomObjectFull (Messaging.loadRoom): the room, the reader's view of it, and its
 * newest messages (`messages`, which NodeBB's loadRoom answers though its document omits them).
 */
export const RoomObjectFullSchema = Type.Object({
  ...roomFields,
  isOwner: Type.Boolean(),
  users: Type.Array(FullRoomUserSchema),
  canReply: Type.Boolean(),
  groupChat: Type.Boolean(),
  usernames: Type.String(),
  maximumUsersInChatRoom: Type.Number(),
  maximumChatMessageLength: Type.Number(),
  showUserInput: Type.Boolean(),
  isAdminOrGlobalMod: Type.Boolean(),
  messages: Type.Array(ListedMessageSchema),
  scrollToIndex: Type.Union([Type.Number(), Type.Null()]),
});

/** A member in the room list (teaser author, `users`, `lastUser`). */
const ListUserSchema = pick(['uid', 'username', 'displayname', 'userslug', 'picture', 'status', 'lastonline', 'icon:text', 'icon:bgColor', 'lastonlineISO']);

/** One room of GET /api/v3/chats: RoomObject with the reader's state, members and teaser. */
export const RoomListItemSchema = Type.Object({
  ...roomFields,
  unread: Type.Boolean(),
  teaser: Type.Union([
    Type.Object({ fromuid: Type.Number(), content: Type.String(), timestamp: Type.Number(), timestampISO: Type.String(), user: ListUserSchema }),
    Type.Null(),
  ]),
  users: Type.Array(ListUserSchema),
  lastUser: Type.Union([ListUserSchema, Type.Null()]),
  usernames: Type.String(),
  unreadCount: Type.Number(),
  lastActivity: Type.Number(),
});

/** GET /api/v3/chats as NodeBB answers it: `{ rooms, nextStart }`. */
export const RoomListSchema = Type.Object({ rooms: Type.Array(RoomListItemSchema), nextStart: Type.Number() });
