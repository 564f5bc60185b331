/**
 * The chat shapes the client reads, after NodeBB's documents (read.yaml `/api/chats/{roomid}`,
 * write.yaml `/chats/...`). Every field the client does not need to render is optional, so the
 * page works with the server's presenters as they grow.
 */
import type { PageBase } from '../../../shared/types';

/** A member as chat lists and messages show them. */
export interface ChatUser {
  uid: number;
  username: string;
  userslug?: string;
  displayname?: string;
  picture: string | null;
  'icon:text': string;
  'icon:bgColor': string;
  status?: string;
  isOwner?: boolean;
  canKick?: boolean;
  canToggleOwner?: boolean;
  online?: boolean;
}

/** The message a reply quotes (NodeBB's `parent`). */
export interface ChatParent {
  mid: number;
  content: string;
  fromuid?: number;
  fromUser?: ChatUser;
  deleted?: number | boolean;
}

/** A chat message (NodeBB's MessageObject). `content` is sanitised HTML from the server. */
export interface ChatMessage {
  mid: number;
  messageId?: number;
  roomId: number | string;
  fromuid: number;
  content: string;
  timestamp: number;
  timestampISO?: string;
  edited?: number;
  editedISO?: string;
  deleted?: number | boolean;
  system?: number | boolean;
  pinned?: number | boolean;
  self?: number;
  newSet?: boolean;
  index?: number;
  isOwner?: boolean;
  fromUser?: ChatUser;
  toMid?: number | null;
  parent?: ChatParent | null;
}

/** A room's last message, as the room list shows it. */
export interface ChatTeaser {
  fromuid?: number;
  content: string;
  timestamp: number;
  user?: ChatUser;
}

/** A room in the member's list (NodeBB's RoomObject with the reader's state). */
export interface ChatRoomSummary {
  roomId: number;
  roomName?: string;
  groupChat?: boolean;
  public?: boolean;
  userCount?: number;
  users?: ChatUser[];
  unread?: boolean;
  unreadCount?: number;
  teaser?: ChatTeaser | null;
  lastUser?: ChatUser;
  usernames?: string;
  timestamp?: number;
  lastActivity?: number;
  notificationSetting?: number;
}

/** Page data of template `chats` (NodeBB's `/api/chats/{roomid}`; no room: the list only). */
export interface ChatsPage extends PageBase {
  rooms?: ChatRoomSummary[];
  publicRooms?: ChatRoomSummary[];
  nextStart?: number;
  uid?: number;
  userslug?: string;
  roomId?: number;
  roomName?: string;
  public?: boolean;
  groupChat?: boolean;
  isOwner?: boolean;
  isAdminOrGlobalMod?: boolean;
  isAdmin?: boolean;
  users?: ChatUser[];
  userCount?: number;
  usernames?: string;
  messages?: ChatMessage[];
  messageCount?: number;
  scrollToIndex?: number | null;
  canReply?: boolean;
  notificationSetting?: number;
  maximumChatMessageLength?: number;
  showUserInput?: boolean;
}

/** NodeBB's room notification settings: 0 none, 1 @mentions only, 2 all messages. */
export const NOTIFICATION_SETTINGS = [
  { value: 2, label: 'modules:chat.notification-setting-all-messages' },
  { value: 1, label: 'modules:chat.notification-setting-at-mention-only' },
  { value: 0, label: 'modules:chat.notification-setting-none' },
] as const;
