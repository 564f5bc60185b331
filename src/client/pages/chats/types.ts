/**
 * The chat shapes the client reads, after NodeBB's documents (read.yaml `/api/chats/{roomid}`,
 * write.yaml `/chats/...`). Every field the client does not need to render is optional, so the
 * page works with the server's presenters as they grow.
 */
import type {
  ChatMessage as SharedMessage, ChatParent as SharedParent, ChatRoomListItem, ChatTeaser as SharedTeaser, ChatUser as SharedUser,
} from '../../../shared/schemas/chat';
import type { PageBase } from '../../../shared/types';

type Loose<T, K extends keyof T> = Pick<T, K> & Partial<Omit<T, K>>;

/** A member as chats show them (the shared ChatUser; list answers may leave fields out). */
export type ChatUser = Loose<SharedUser, 'uid' | 'username' | 'picture' | 'icon:text' | 'icon:bgColor'>;

/** The message a reply quotes (NodeBB's `parent`). */
export type ChatParent = Omit<Loose<SharedParent, 'mid' | 'content'>, 'fromUser'> & { fromUser?: ChatUser };

/** A chat message (NodeBB's MessageObject). `content` is sanitised HTML from the server. */
export type ChatMessage = Omit<Loose<SharedMessage, 'mid' | 'roomId' | 'fromuid' | 'content' | 'timestamp'>, 'fromUser' | 'parent' | 'roomId'> & {
  roomId: number | string;
  fromUser?: ChatUser;
  parent?: ChatParent | null;
};

/** A room's last message, as the room list shows it (plain text). */
export type ChatTeaser = Omit<Loose<SharedTeaser, 'content' | 'timestamp'>, 'user'> & { user?: ChatUser };

/** A room in the member's list (NodeBB's RoomObject with the reader's state). */
export type ChatRoomSummary = Omit<Loose<ChatRoomListItem, 'roomId'>, 'teaser' | 'users' | 'lastUser'> & {
  teaser?: ChatTeaser | null;
  users?: ChatUser[];
  lastUser?: ChatUser | null;
};

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
  /** The unread room count the sidebar shows. */
  unreadCount?: number;
}

/** NodeBB's room notification settings: 0 none, 1 @mentions only, 2 all messages. */
export const NOTIFICATION_SETTINGS = [
  { value: 2, label: 'modules:chat.notification-setting-all-messages' },
  { value: 1, label: 'modules:chat.notification-setting-at-mention-only' },
  { value: 0, label: 'modules:chat.notification-setting-none' },
] as const;
