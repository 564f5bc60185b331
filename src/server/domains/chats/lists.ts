import { CHAT_NOTIFY, type ChatPublicRoom, type ChatRoomList, type ChatRoomListItem, type ChatUser } from '../../../shared/schemas/chat.js';
import { deepFreeze } from '../../cache/page-cache.js';
import { notAuthorised } from '../../http/errors.js';
import type { Viewer } from '../privileges/service.js';
import { VARIANTS_PER_PART, type Chats, type ListPart } from './core.js';
import * as messages from './message-store.js';
import { presentChatUser, presentRoom, teaserText } from './presenter.js';
import { mayEnterPublic } from './rules.js';
import * as store from './store.js';
import type { MemberRow, RoomRow } from './store.js';

// Members shown per room in the room list.
const LIST_PREVIEW_USERS = 4;
/** Room arrays kept (see roomsArray) before starting again. */
const ROOM_ARRAYS_MAX = 10_000;

/** The public rooms' items, made from the room list's (see publicRooms). */
const publicItems = new WeakMap<ChatRoomListItem, Map<string, ChatPublicRoom>>();

/**
 * The viewer's rooms, most recent first, with unread counts and teasers: the viewer's rows
 * and unread counts in one statement, the rooms' shared parts (listParts) laid under them.
 * `read`: a room the viewer is opening, listed as read (the chats page of a room).
 */
export async function listRooms(c: Chats, viewer: Viewer, start: number, perPage: number, opts: { read?: number } = {}): Promise<ChatRoomList> {
  if (viewer.uid <= 0) throw notAuthorised();
  const slice = `${viewer.uid}:${start}:${perPage}`;
  const rows = await c.caches.memberRooms.get(slice, async () => Object.freeze(await store.myRooms(c.ctx.db, viewer.uid, start, perPage + 1)));
  const more = rows.length > perPage;
  const page = rows.slice(0, perPage);
  const parts = await listPartsOf(c, page.map((r) => r.room_id));
  const rooms: ChatRoomListItem[] = [];
  for (const r of page) {
    const part = parts.get(r.room_id);
    // (A room deleted since the first read.)
    if (part) rooms.push(listItem(part, viewer.uid, r.notify, r.room_id === opts.read ? 0 : r.unread));
  }
  return { rooms: roomsArray(c, `${slice}:${opts.read ?? ''}`, rooms), nextStart: more ? start + perPage : -1 };
}

/**
 * The list's items as a frozen array, the same array while they are the same items: a page's
 * JSON then encodes it once (http/page-json.ts), one piece rather than one per room.
 */
function roomsArray(c: Chats, key: string, rooms: ChatRoomListItem[]): ChatRoomListItem[] {
  const arrays = c.caches.roomArrays;
  const kept = arrays.get(key);
  if (kept && kept.length === rooms.length && kept.every((r, i) => r === rooms[i])) return kept;
  const frozen = Object.freeze(rooms) as ChatRoomListItem[];
  if (arrays.size >= ROOM_ARRAYS_MAX) arrays.clear();
  arrays.set(key, frozen);
  return frozen;
}

/** What room lists show of these rooms, from the shared parts, those missing built in one batch. */
async function listPartsOf(c: Chats, ids: number[]): Promise<Map<number, ListPart>> {
  if (!ids.length) return new Map();
  const { db, users } = c.ctx;
  return c.caches.listParts.getMany(ids, async (missing) => {
    const rows = await store.roomsByIds(db, missing);
    const [preview, teasers] = await Promise.all([store.previewMembers(db, missing, LIST_PREVIEW_USERS + 1), messages.lastMessages(db, rows.map((r) => r.last_mid))]);
    const briefs = await users.briefs([...new Set([...preview.map((m) => m.uid), ...teasers.map((t) => t.uid)])]);
    const views = new Map<number, ChatUser>();
    const viewOf = (uid: number) => {
      let v = views.get(uid);
      if (!v) views.set(uid, (v = deepFreeze(presentChatUser(briefs.get(uid), uid))));
      return v;
    };
    const teaserOf = new Map(teasers.map((t) => [t.room_id, t]));
    const byRoom = new Map<number, MemberRow[]>();
    for (const m of preview) {
      const list = byRoom.get(m.room_id);
      if (list) list.push(m);
      else byRoom.set(m.room_id, [m]);
    }
    const out = new Map<number, ListPart>();
    for (const room of rows) {
      // previewMembers' rows come in no set order: owners first, then by join time, as it ranks them.
      const members = (byRoom.get(room.room_id) ?? []).sort((a, b) => b.is_owner - a.is_owner || Number(a.joined) - Number(b.joined) || a.uid - b.uid);
      const t = teaserOf.get(room.room_id);
      const teaserUser = t ? viewOf(t.uid) : null;
      out.set(room.room_id, {
        room,
        preview: members.map((m) => ({ uid: m.uid, isOwner: m.is_owner === 1, view: viewOf(m.uid) })),
        owners: members.filter((m) => m.is_owner).map((m) => m.uid),
        teaser:
          t && teaserUser
            ? deepFreeze({ roomId: room.room_id, mid: t.mid, fromuid: t.uid, content: t.deleted ? '' : teaserText(t.content_html), timestamp: Number(t.created), timestampISO: new Date(Number(t.created)).toISOString(), user: teaserUser })
            : null,
        teaserUser,
        items: new Map(),
      });
    }
    return out;
  });
}

/**
 * A reader's item of the room list, made from the room's shared part: readers with the same
 * notification setting and unread count, and the same place among the room's first members
 * (the list shows the others), get the same frozen item, so its JSON is made once.
 */
function listItem(part: ListPart, uid: number, notify: number, unreadCount: number): ChatRoomListItem {
  const among = part.preview.some((p) => p.uid === uid);
  const key = `${notify}:${unreadCount}:${among ? uid : 0}`;
  let item = part.items.get(key);
  if (!item) {
    const chatUsers = part.preview.filter((p) => p.uid !== uid).slice(0, LIST_PREVIEW_USERS).map((p) => p.view);
    const usernames = chatUsers.map((u) => u.displayname).join(', ');
    item = deepFreeze({
      ...presentRoom(part.room, notify, part.owners),
      unread: unreadCount > 0,
      unreadCount,
      lastActivity: Number(part.room.last_activity),
      teaser: part.teaser,
      users: chatUsers,
      lastUser: part.teaserUser ?? chatUsers[0] ?? null,
      usernames,
      chatWithMessage: part.room.name ? '' : usernames,
    });
    if (part.items.size >= VARIANTS_PER_PART) part.items.clear();
    part.items.set(key, item);
  }
  return item;
}

/** The viewer's rooms (their 100 most recent) whose name or members' names contain the query. */
export async function searchRooms(c: Chats, viewer: Viewer, query: string): Promise<ChatRoomList> {
  const { rooms } = await listRooms(c, viewer, 0, 100);
  const q = query.trim().toLowerCase();
  return { rooms: q ? rooms.filter((r) => r.roomName.toLowerCase().includes(q) || r.usernames.toLowerCase().includes(q)) : rooms, nextStart: -1 };
}

/** Public rooms the viewer may enter (the chats page's `publicRooms`). */
export async function publicRooms(c: Chats, viewer: Viewer): Promise<ChatPublicRoom[]> {
  if (viewer.uid <= 0) return [];
  const { db } = c.ctx;
  const rooms = await c.caches.publicRows.get('', () => store.publicRooms(db));
  const allowed: RoomRow[] = rooms.filter((r) => mayEnterPublic(viewer, r));
  if (!allowed.length) return [];
  const ids = allowed.map((r) => r.room_id);
  const [memberships, unread, parts] = await Promise.all([store.membershipsOf(db, viewer.uid, ids), store.unreadPerRoom(db, viewer.uid, ids), listPartsOf(c, ids)]);
  const mine = new Map(memberships.map((m) => [m.room_id, m]));
  const out: ChatPublicRoom[] = [];
  for (const r of allowed) {
    const part = parts.get(r.room_id);
    if (!part) continue;
    const it = listItem(part, viewer.uid, mine.get(r.room_id)?.notify ?? CHAT_NOTIFY.mentions, unread.get(r.room_id) ?? 0);
    const shownUnread = mine.has(r.room_id) ? it.unread : false;
    // The public list's item (the list's, with its owner), made once per item and owner.
    const key = `${r.owner}:${shownUnread ? 1 : 0}`;
    let byItem = publicItems.get(it);
    if (!byItem) publicItems.set(it, (byItem = new Map()));
    let pub = byItem.get(key);
    if (!pub) byItem.set(key, (pub = deepFreeze({ ...it, owner: r.owner, unread: shownUnread })));
    out.push(pub);
  }
  return out;
}

/** The count of the viewer's private rooms with unread messages. */
export async function unreadCount(c: Chats, viewer: Viewer): Promise<number> {
  if (viewer.uid <= 0) return 0;
  return c.caches.counts.get(viewer.uid, async () => (await store.unreadRoomCounts(c.ctx.db, [viewer.uid])).get(viewer.uid) ?? 0);
}

/** The viewer's direct message room with a member, if there is one they are in (GET /users/:uid/chat). */
export async function dmRoomWith(c: Chats, viewer: Viewer, uid: number): Promise<number | null> {
  if (viewer.uid <= 0) throw notAuthorised();
  const key = [viewer.uid, uid].sort((a, b) => a - b).join(':');
  const room = await store.roomByDmKey(c.ctx.db, key);
  if (!room) return null;
  return (await store.member(c.ctx.db, room.room_id, viewer.uid)) ? room.room_id : null;
}
