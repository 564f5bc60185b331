/** Room names, as NodeBB names them, so a room is always spelled by one function (rule 9). */

/** Everyone reading a topic. */
export const topicRoom = (tid: number): string => `topic_${tid}`;
/** Everyone looking at a category's topic list. */
export const categoryRoom = (cid: number): string => `category_${cid}`;
/** Every socket of one member (all tabs, all processes). */
export const userRoom = (uid: number): string => `uid_${uid}`;
/** Every socket of one login session, keyed by the session id's hash (never the id itself). */
export const sessionRoom = (sessionHash: string): string => `sess_${sessionHash}`;
/** A private chat room's members. */
export const chatRoom = (roomId: number): string => `chat_room_${roomId}`;
/** Readers of a public chat room. */
export const publicChatRoom = (roomId: number): string => `chat_room_public_${roomId}`;
/** Everyone on the recent topics list. */
export const RECENT_TOPICS = 'recent_topics';
/** The unread list's room: new topics are unread for every reader but their author. */
export const UNREAD_TOPICS = 'unread_topics';
/** Every connected member's sockets: the audience of presence changes. */
export const ONLINE_USERS = 'online_users';
/** Administrators' sockets (live reload). */
export const ADMINS = 'admins';

/** The page rooms a member may enter with meta.rooms.enter, parsed from their name. */
export type PageRoom = { kind: 'topic'; id: number } | { kind: 'category'; id: number } | { kind: 'user'; id: number } | { kind: 'list'; name: string };

// Lists whose pages carry live updates; anything else is refused rather than silently joined.
const LIST_ROOMS = new Set([RECENT_TOPICS, UNREAD_TOPICS, 'popular_topics', 'top_topics', 'categories']);

/** Parses a room name a client asked to enter; null when it is not one a page may enter. */
export function parsePageRoom(name: string): PageRoom | null {
  if (LIST_ROOMS.has(name)) return { kind: 'list', name };
  const m = /^(topic|category|uid)_([1-9]\d{0,15})$/.exec(name);
  if (!m) return null;
  const id = Number(m[2]);
  if (!Number.isSafeInteger(id)) return null;
  return { kind: m[1] === 'uid' ? 'user' : (m[1] as 'topic' | 'category'), id };
}
