import {
  CHAT_LIMITS,
  CHAT_NOTIFY,
  type ChatMessage,
  type ChatPublicRoom,
  type ChatRoom,
  type ChatRoomFull,
  type ChatRoomList,
  type ChatRoomListItem,
  type ChatUser,
} from '../../../shared/schemas/chat.js';
import { BatchedParts, deepFreeze, SharedPageCache, Variants } from '../../cache/page-cache.js';
import type { AppContext } from '../../context.js';
import { runAction } from '../../hooks/action.js';
import { badRequest, forbidden, notAuthorised, notFound, tooMany } from '../../http/errors.js';
import type { Viewer } from '../privileges/service.js';
import { presentUserSlim, userSettings } from '../users/presenter.js';
import type { UserBrief, UserRow } from '../users/store.js';
import { presentChatUser, presentMessage, presentMessages, presentRoom, roomGroups, teaserText, usernamesOf, type MessageContext } from './presenter.js';
import type { RoomUserSearch } from './schemas.js';
import * as store from './store.js';
import type { MemberRow, MemberState, MessageRow, RoomRow } from './store.js';

/** What the chats service uses of the application. */
export type ChatsDeps = Pick<AppContext, 'db' | 'events' | 'groups' | 'hooks' | 'jobs' | 'limiter' | 'log' | 'moderation' | 'privileges' | 'settings' | 'users' | 'writes' | 'caches'>;

/**
 * How long a process keeps a member's count of rooms with unread messages (every member's HTML
 * page shows it). Any committed write to the rooms or their members drops them in every process
 * (`chatCounts` shared cache); the TTL bounds what a process that missed the message keeps.
 */
const UNREAD_COUNT_TTL_MS = 5000;
const UNREAD_COUNT_MAX = 10_000;

/**
 * How long a process keeps the chats' shared parts (a room's row, members and newest messages;
 * what a room list shows of a room; the public rooms). Any committed write to the chat tables
 * drops them in every process (with the counts, the `chatCounts` shared cache); the TTL bounds
 * what a process that missed the message keeps, and how old the members' names and pictures
 * they show may be (as a topic page's authors).
 */
const PART_TTL_MS = 5000;
const PART_MAX = 5000;
/** Readers' variants kept per shared part (list items), message pages per room part, before starting again. */
const VARIANTS_PER_PART = 64;

/** What a room list shows of a room, alike for every member (see listParts). */
interface ListPart {
  room: RoomRow;
  /** The room's first members (owners first, then by join time), one more than a list shows. */
  preview: { uid: number; isOwner: boolean; view: ChatUser }[];
  /** The owners among them (NodeBB's list shows those). */
  owners: number[];
  teaser: ChatRoomListItem['teaser'];
  teaserUser: ChatUser | null;
  /** Readers' frozen items, by what makes one theirs (listItem). */
  items: Map<string, ChatRoomListItem>;
}

/** A room as every reader of it sees it (see roomPart): its row, members, and pages of messages. */
interface RoomPart {
  room: RoomRow;
  /** Owners first, then by join time (at most 500). */
  members: MemberRow[];
  briefs: Map<number, UserBrief>;
  /** Each member's chat user view, frozen (in `members`' order). */
  views: ChatUser[];
  owners: number[];
  /** Pages of messages, by the reader's first visible message and the page's first index. */
  pages: Map<string, Promise<MessagePart>>;
  /** Readers' member lists, frozen, by what differs between readers (see partUsers). */
  lists: Map<string, ChatUser[]>;
  /** "alice, bob" of the members other than a reader, by reader. */
  usernames: Map<number, string>;
}

/** A page of a room's messages, each with its view for a reader who neither sent it nor administers (frozen). */
interface MessagePart {
  entries: { row: MessageRow; prev: MessageRow | null; base: ChatMessage; parent: MessageRow | undefined }[];
  context: Omit<MessageContext, 'reader' | 'readerIsAdmin'>;
  /** Readers' pages, frozen, by which messages are theirs (see pageMessages). */
  lists: Map<string, ChatMessage[]>;
}

/** Readers' versions of a shared message (sent by them, or a deleted one shown to its sender or an administrator). */
const messageVariants = new Variants<ChatMessage>();
/** The public rooms' items, made from the room list's (see publicRooms). */
const publicItems = new WeakMap<ChatRoomListItem, Map<string, ChatPublicRoom>>();
/** Readers' versions of a room member (whether they may remove them, whether they are online). */
const userVariants = new Variants<ChatUser>();

/** The delayed notification of a message: members who have not read it by then are told. */
interface NotifyJob {
  roomId: number;
  mid: number;
  uid: number;
  uids: number[];
}
const NOTIFY_JOB = 'chats.notify';

// Rate limit window: chatMessageDelay (ms) becomes a count of messages per 10 s, shared across processes.
const RATE_WINDOW_SEC = 10;
// Members shown per room in the room list.
const LIST_PREVIEW_USERS = 4;
// Search answers at most this many messages.
const SEARCH_LIMIT = 50;

/** A room the viewer may read, with their member row (absent for an administrator's read of a room they are not in). */
interface Access {
  room: RoomRow;
  member: MemberRow | undefined;
}

/** Chats: rooms, members, messages, read state and the rules of who may message whom. */
export class ChatsService {
  /** Members' unread room counts, by uid (see UNREAD_COUNT_TTL_MS); a count read across a clear is not kept. */
  private keptCounts = new SharedPageCache<number>(UNREAD_COUNT_TTL_MS, UNREAD_COUNT_MAX);
  /** What room lists show of each room (see PART_TTL_MS). */
  private listParts = new BatchedParts<ListPart>(PART_TTL_MS, PART_MAX);
  /** Each room with its members and pages of messages, by room id (null: no such room). */
  private roomParts = new SharedPageCache<RoomPart | null>(PART_TTL_MS, PART_MAX);
  /** The public rooms, in the administrators' order. */
  private publicRows = new SharedPageCache<RoomRow[]>(PART_TTL_MS, 1);
  /**
   * Each member's own part, kept as their unread count is (UNREAD_COUNT_TTL_MS, dropped by any
   * chat write): their rooms with their unread counts, by uid and slice; their row in a room,
   * by room and uid (null: not a member).
   */
  private memberRooms = new SharedPageCache<readonly store.MyRoom[]>(UNREAD_COUNT_TTL_MS, UNREAD_COUNT_MAX);
  private memberRows = new SharedPageCache<Readonly<MemberRow & { room_last_mid: number }> | null>(UNREAD_COUNT_TTL_MS, UNREAD_COUNT_MAX);
  /** A member's list of rooms as one frozen array, while its items stand (by uid and slice; see roomsArray). */
  private roomArrays = new Map<string, ChatRoomListItem[]>();

  constructor(private readonly ctx: ChatsDeps) {
    ctx.jobs.define<NotifyJob>(NOTIFY_JOB, async ({ payload }) => this.notifyUnread(payload), { leaseMs: 60_000 });
    // A message (the room's last message moves), a read, a join or leave, a new or deleted room.
    // The shared parts go with the counts: a message edited, deleted or pinned too.
    ctx.caches.register('chatCounts', () => {
      this.keptCounts.clear();
      this.listParts.clear();
      this.roomParts.clear();
      this.publicRows.clear();
      this.memberRooms.clear();
      this.memberRows.clear();
      this.roomArrays.clear();
    });
    const changed = () => ctx.caches.clear('chatCounts');
    ctx.writes.on('chat_rooms', changed);
    ctx.writes.on('chat_room_members', changed);
    ctx.writes.on('chat_messages', changed);
  }

  /**
   * After notificationSendDelay: of the members to tell, those who still have not read the
   * message (a member with the room open reads it at once) hear of it through action:chat.message.
   */
  private async notifyUnread(job: NotifyJob): Promise<void> {
    const [room, message, members, sender] = await Promise.all([
      store.roomById(this.ctx.db, job.roomId),
      store.messageById(this.ctx.db, job.mid),
      store.membersAmong(this.ctx.db, job.roomId, job.uids),
      this.ctx.users.get(job.uid),
    ]);
    if (!room || !message || message.deleted) return;
    const uids = members.filter((m) => m.last_read_mid < job.mid).map((m) => m.uid);
    if (!uids.length) return;
    void this.ctx.hooks.fire('action:chat.message', { roomId: job.roomId, mid: job.mid, uid: job.uid, roomName: room.name || sender?.username || '', uids });
  }

  // ---------------------------------------------------------------- rules

  /** Chat is on, the viewer is a member and holds the `chat` privilege. */
  async assertCanChat(viewer: Viewer): Promise<void> {
    if (viewer.uid <= 0) throw notAuthorised();
    const s = await this.ctx.settings.get();
    if (s.disableChat) throw badRequest('error:chat-disabled');
    if (!(await this.ctx.privileges.can(viewer, 'chat'))) throw forbidden('error:no-privileges');
  }

  private async privileged(viewer: Viewer): Promise<boolean> {
    return viewer.isAdmin || viewer.isGlobalMod || (await this.ctx.privileges.can(viewer, 'chat:privileged'));
  }

  /**
   * The viewer may message each of these members: they exist, have not blocked the viewer, and
   * accept chats from the viewer (disableIncomingChats: only from members they follow, unless the viewer
   * is an administrator, a global moderator or holds `chat:privileged`).
   */
  async assertCanMessage(viewer: Viewer, uids: number[]): Promise<Map<number, UserRow>> {
    const rows = await this.ctx.users.getMany(uids);
    for (const uid of uids) {
      const row = rows.get(uid);
      if (!row || row.deleted) throw notFound('error:no-user');
    }
    const blockers = await this.ctx.users.blockersAmong(uids, viewer.uid);
    if (blockers.size) throw badRequest('error:chat-user-blocked');
    const restricted = uids.filter((uid) => userSettings(rows.get(uid)!).disableIncomingChats);
    if (restricted.length && !(await this.privileged(viewer))) {
      const followers = await this.ctx.users.followersAmong(restricted, viewer.uid);
      if (restricted.some((uid) => !followers.has(uid))) throw badRequest('error:chat-restricted');
    }
    return rows;
  }

  private async rateLimit(viewer: Viewer): Promise<void> {
    if (viewer.master || viewer.isAdmin) return;
    const delay = (await this.ctx.settings.get()).chatMessageDelay;
    if (delay <= 0) return;
    const limit = Math.max(1, Math.floor((RATE_WINDOW_SEC * 1000) / delay));
    const wait = await this.ctx.limiter.hit(`chat:${viewer.uid}`, limit, RATE_WINDOW_SEC);
    if (wait > 0) throw tooMany('error:too-many-messages', wait);
  }

  /** The room and the viewer's place in it; 404 for an unknown room, 403 when not a member. */
  private async access(viewer: Viewer, roomId: number, opts: { joinPublic?: boolean } = {}): Promise<Access> {
    if (viewer.uid <= 0) throw notAuthorised();
    const room = await store.roomById(this.ctx.db, roomId);
    if (!room) throw notFound('error:no-chat-room');
    let member = await store.member(this.ctx.db, roomId, viewer.uid);
    if (!member && room.public && (await this.mayEnterPublic(viewer, room))) {
      if (!opts.joinPublic) return { room, member: undefined };
      member = await this.joinPublic(viewer, room);
    }
    if (!member) throw forbidden('error:no-privileges');
    return { room, member };
  }

  private async mayEnterPublic(viewer: Viewer, room: RoomRow): Promise<boolean> {
    if (!room.public || viewer.uid <= 0) return false;
    if (viewer.isAdmin) return true;
    const groups = roomGroups(room);
    return groups.length === 0 || groups.some((g) => viewer.groups.includes(g));
  }

  private async joinPublic(viewer: Viewer, room: RoomRow): Promise<MemberRow> {
    await runAction(this.ctx.db, {
      write: async (tx) => {
        await store.addMembers(tx, room.room_id, [viewer.uid], { owner: false, joinedMid: 0, notify: CHAT_NOTIFY.mentions, now: Date.now() });
        await store.recountUsers(tx, room.room_id);
      },
    });
    return (await store.member(this.ctx.db, room.room_id, viewer.uid))!;
  }

  /** Which of these rooms the viewer may follow live (modules.chats.enter / enterPublic). */
  async liveAccess(viewer: Viewer, roomIds: number[], publicOnly: boolean): Promise<boolean[]> {
    if (viewer.uid <= 0) return roomIds.map(() => false);
    const [rooms, members] = await Promise.all([store.roomsByIds(this.ctx.db, roomIds), store.membershipsOf(this.ctx.db, viewer.uid, roomIds)]);
    const byId = new Map(rooms.map((r) => [r.room_id, r]));
    const mine = new Set(members.map((m) => m.room_id));
    return Promise.all(
      roomIds.map(async (id) => {
        const room = byId.get(id);
        if (!room) return false;
        if (publicOnly) return room.public === 1 && (await this.mayEnterPublic(viewer, room));
        return mine.has(id) || (room.public === 1 && (await this.mayEnterPublic(viewer, room)));
      }),
    );
  }

  // ---------------------------------------------------------------- rooms

  /**
   * NodeBB's POST /chats: a room with these members. With one other member and no name it is
   * their direct message room, reused when it exists. `type: 'public'` (administrators) opens a
   * room to `groups` (none: every member).
   */
  async create(viewer: Viewer, input: { uids: number[]; roomName?: string; type?: 'public' | 'private'; groups?: string[] }): Promise<ChatRoom> {
    await this.assertCanChat(viewer);
    const s = await this.ctx.settings.get();
    const isPublic = input.type === 'public';
    const name = (input.roomName ?? '').trim();
    if (name.length > s.maximumChatRoomNameLength) throw badRequest('error:chat-room-name-too-long', s.maximumChatRoomNameLength);
    const uids = [...new Set(input.uids)].filter((u) => u !== viewer.uid);
    if (isPublic) {
      if (!viewer.isAdmin) throw forbidden('error:no-privileges');
      if (!name) throw badRequest('error:invalid-chat-room-name');
    } else if (!uids.length) {
      throw badRequest('error:no-users-selected');
    }
    if (s.maximumUsersInChatRoom > 0 && uids.length + 1 > s.maximumUsersInChatRoom) throw badRequest('error:cant-add-more-users-to-chat-room');
    await this.rateLimit(viewer);
    await this.assertCanMessage(viewer, uids);
    const groups = isPublic ? [...new Set(input.groups ?? [])] : [];
    for (const g of groups) if (!(await this.ctx.groups.exists(g))) throw notFound('error:no-group');
    const dmKey = !isPublic && uids.length === 1 && !name ? [viewer.uid, uids[0]!].sort((a, b) => a - b).join(':') : null;
    const now = Date.now();
    const room = await runAction(this.ctx.db, {
      write: async (tx) => {
        if (dmKey) {
          const existing = await store.roomByDmKey(tx, dmKey);
          if (existing) {
            // The viewer may have left their direct message room: they come back into it.
            await store.addMembers(tx, existing.room_id, [viewer.uid], { owner: false, joinedMid: await store.maxMid(tx, existing.room_id), notify: CHAT_NOTIFY.all, now });
            await store.recountUsers(tx, existing.room_id);
            return (await store.roomById(tx, existing.room_id))!;
          }
        }
        const created = await store.insertRoom(tx, { owner: viewer.uid, name, public: isPublic ? 1 : 0, groups: JSON.stringify(groups), dm_key: dmKey, created: now });
        await store.addMembers(tx, created.room_id, [viewer.uid], { owner: true, joinedMid: 0, notify: isPublic ? CHAT_NOTIFY.mentions : CHAT_NOTIFY.all, now });
        await store.addMembers(tx, created.room_id, uids, { owner: false, joinedMid: 0, notify: CHAT_NOTIFY.all, now });
        await store.recountUsers(tx, created.room_id);
        return (await store.roomById(tx, created.room_id))!;
      },
    });
    const member = await store.member(this.ctx.db, room.room_id, viewer.uid);
    return presentRoom(room, member?.notify ?? CHAT_NOTIFY.all, await this.ownersOf(room.room_id));
  }

  private async ownersOf(roomId: number): Promise<number[]> {
    return (await store.members(this.ctx.db, roomId)).filter((m) => m.is_owner).map((m) => m.uid);
  }

  /** The viewer's direct message room with a member, if there is one they are in (GET /users/:uid/chat). */
  async dmRoomWith(viewer: Viewer, uid: number): Promise<number | null> {
    if (viewer.uid <= 0) throw notAuthorised();
    const key = [viewer.uid, uid].sort((a, b) => a - b).join(':');
    const room = await store.roomByDmKey(this.ctx.db, key);
    if (!room) return null;
    return (await store.member(this.ctx.db, room.room_id, viewer.uid)) ? room.room_id : null;
  }

  /**
   * The viewer's rooms, most recent first, with unread counts and teasers: the viewer's rows
   * and unread counts in one statement, the rooms' shared parts (listParts) laid under them.
   * `read`: a room the viewer is opening, listed as read (the chats page of a room).
   */
  async list(viewer: Viewer, start: number, perPage: number, opts: { read?: number } = {}): Promise<ChatRoomList> {
    if (viewer.uid <= 0) throw notAuthorised();
    const slice = `${viewer.uid}:${start}:${perPage}`;
    const rows = await this.memberRooms.get(slice, async () => Object.freeze(await store.myRooms(this.ctx.db, viewer.uid, start, perPage + 1)));
    const more = rows.length > perPage;
    const page = rows.slice(0, perPage);
    const parts = await this.listPartsOf(page.map((r) => r.room_id));
    const rooms: ChatRoomListItem[] = [];
    for (const r of page) {
      const part = parts.get(r.room_id);
      // (A room deleted since the first read.)
      if (part) rooms.push(this.listItem(part, viewer.uid, r.notify, r.room_id === opts.read ? 0 : r.unread));
    }
    return { rooms: this.roomsArray(`${slice}:${opts.read ?? ''}`, rooms), nextStart: more ? start + perPage : -1 };
  }

  /**
   * The list's items as a frozen array, the same array while they are the same items: a page's
   * JSON then encodes it once (http/page-json.ts), one piece rather than one per room.
   */
  private roomsArray(key: string, rooms: ChatRoomListItem[]): ChatRoomListItem[] {
    const kept = this.roomArrays.get(key);
    if (kept && kept.length === rooms.length && kept.every((r, i) => r === rooms[i])) return kept;
    const frozen = Object.freeze(rooms) as ChatRoomListItem[];
    if (this.roomArrays.size >= UNREAD_COUNT_MAX) this.roomArrays.clear();
    this.roomArrays.set(key, frozen);
    return frozen;
  }

  /** What room lists show of these rooms, from the shared parts, those missing built in one batch. */
  private async listPartsOf(ids: number[]): Promise<Map<number, ListPart>> {
    if (!ids.length) return new Map();
    return this.listParts.getMany(ids, async (missing) => {
      const rows = await store.roomsByIds(this.ctx.db, missing);
      const [preview, teasers] = await Promise.all([store.previewMembers(this.ctx.db, missing, LIST_PREVIEW_USERS + 1), store.lastMessages(this.ctx.db, rows.map((r) => r.last_mid))]);
      const users = await this.ctx.users.briefs([...new Set([...preview.map((m) => m.uid), ...teasers.map((t) => t.uid)])]);
      const views = new Map<number, ChatUser>();
      const viewOf = (uid: number) => {
        let v = views.get(uid);
        if (!v) views.set(uid, (v = deepFreeze(presentChatUser(users.get(uid), uid))));
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
  private listItem(part: ListPart, uid: number, notify: number, unreadCount: number): ChatRoomListItem {
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
  async searchRooms(viewer: Viewer, query: string): Promise<ChatRoomList> {
    const { rooms } = await this.list(viewer, 0, 100);
    const q = query.trim().toLowerCase();
    return { rooms: q ? rooms.filter((r) => r.roomName.toLowerCase().includes(q) || r.usernames.toLowerCase().includes(q)) : rooms, nextStart: -1 };
  }

  /** Public rooms the viewer may enter (the chats page's `publicRooms`). */
  async publicRooms(viewer: Viewer): Promise<ChatPublicRoom[]> {
    if (viewer.uid <= 0) return [];
    const rooms = await this.publicRows.get('', () => store.publicRooms(this.ctx.db));
    const allowed: RoomRow[] = [];
    for (const r of rooms) if (await this.mayEnterPublic(viewer, r)) allowed.push(r);
    if (!allowed.length) return [];
    const ids = allowed.map((r) => r.room_id);
    const [memberships, unread, parts] = await Promise.all([store.membershipsOf(this.ctx.db, viewer.uid, ids), store.unreadPerRoom(this.ctx.db, viewer.uid, ids), this.listPartsOf(ids)]);
    const mine = new Map(memberships.map((m) => [m.room_id, m]));
    const out: ChatPublicRoom[] = [];
    for (const r of allowed) {
      const part = parts.get(r.room_id);
      if (!part) continue;
      const it = this.listItem(part, viewer.uid, mine.get(r.room_id)?.notify ?? CHAT_NOTIFY.mentions, unread.get(r.room_id) ?? 0);
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
  async unreadCount(viewer: Viewer): Promise<number> {
    if (viewer.uid <= 0) return 0;
    return this.keptCounts.get(String(viewer.uid), async () => (await store.unreadRoomCounts(this.ctx.db, [viewer.uid])).get(viewer.uid) ?? 0);
  }

  /** Unread room counts of several members (the live badge after a message), one query. */
  async unreadCounts(uids: number[]): Promise<Map<number, number>> {
    return store.unreadRoomCounts(this.ctx.db, uids);
  }

  /** Whether the room exists (HEAD /chats/:roomId). */
  async exists(roomId: number): Promise<boolean> {
    return !!(await store.roomById(this.ctx.db, roomId));
  }

  /**
   * NodeBB's loadRoom: the room for the viewer with its members and newest messages (or the
   * messages from `index` on, for /chats/:roomid/:index). A public room the viewer may enter is
   * joined on first load.
   */
  async load(viewer: Viewer, roomId: number, opts: { index?: number } = {}): Promise<ChatRoomFull> {
    return (await this.loadRoom(viewer, roomId, opts)).room;
  }

  /**
   * The chats page's room: load, then marked read for the viewer when it has a message they
   * have not read (no write otherwise), as markRead.
   */
  async open(viewer: Viewer, roomId: number, opts: { index?: number } = {}): Promise<ChatRoomFull> {
    const { room, member } = await this.loadRoom(viewer, roomId, opts);
    if (member.last_read_mid < member.room_last_mid) {
      await store.markRead(this.ctx.db, roomId, viewer.uid);
      void this.ctx.hooks.fire('action:chat.read', { roomId, uid: viewer.uid, state: 0 });
    }
    return room;
  }

  /**
   * The room's shared part (roomPart) and the viewer's row in it (with the room's newest message
   * id now), read together; 404 for an unknown room, 403 when not a member (a public room the
   * viewer may enter is joined).
   */
  private async loadRoom(viewer: Viewer, roomId: number, opts: { index?: number }): Promise<{ room: ChatRoomFull; member: Readonly<MemberRow & { room_last_mid: number }> }> {
    if (viewer.uid <= 0) throw notAuthorised();
    let [part, member] = await Promise.all([this.roomPart(roomId), this.memberRows.get(`${roomId}:${viewer.uid}`, async () => Object.freeze(await store.memberWithLastMid(this.ctx.db, roomId, viewer.uid)) ?? null)]);
    if (!part) throw notFound('error:no-chat-room');
    if (!member && part.room.public && (await this.mayEnterPublic(viewer, part.room))) {
      await this.joinPublic(viewer, part.room);
      // The join changed the room (its members and count): read afresh.
      [part, member] = await Promise.all([this.buildRoomPart(roomId), store.memberWithLastMid(this.ctx.db, roomId, viewer.uid).then((m) => m ?? null)]);
      if (!part) throw notFound('error:no-chat-room');
    }
    if (!member) throw forbidden('error:no-privileges');
    return { room: await this.full(viewer, part, member, opts.index), member };
  }

  /** The room as every reader sees it, kept per room (see PART_TTL_MS); null when there is no such room. */
  private async roomPart(roomId: number): Promise<RoomPart | null> {
    return this.roomParts.get(String(roomId), () => this.buildRoomPart(roomId));
  }

  /** The room's part read now (write paths answer what they have just written). */
  private async buildRoomPart(roomId: number): Promise<RoomPart | null> {
    const [room, members] = await Promise.all([store.roomById(this.ctx.db, roomId), store.members(this.ctx.db, roomId)]);
    if (!room) return null;
    const briefs = await this.ctx.users.briefs(members.map((m) => m.uid));
    return {
      room: Object.freeze(room),
      members,
      briefs,
      views: members.map((m) => deepFreeze(presentChatUser(briefs.get(m.uid), m.uid))),
      owners: members.filter((m) => m.is_owner).map((m) => m.uid),
      pages: new Map(),
      lists: new Map(),
      usernames: new Map(),
    };
  }

  private async full(viewer: Viewer, part: RoomPart, member: MemberRow | undefined, index?: number): Promise<ChatRoomFull> {
    const { room } = part;
    const s = await this.ctx.settings.get();
    const joinedMid = member?.joined_mid ?? 0;
    const per = CHAT_LIMITS.messagesPerPage;
    // A window around the message (some before it, the rest after), or the newest.
    const from = index !== undefined && index >= 0 && index < room.message_count ? Math.max(0, index - Math.floor(per / 2)) : undefined;
    const [page, canChat] = await Promise.all([this.messagePart(part, joinedMid, from), this.ctx.privileges.can(viewer, 'chat')]);
    const users = this.partUsers(viewer, part);
    const isOwner = part.members.some((m) => m.uid === viewer.uid && m.is_owner === 1);
    const usernames = this.usernamesFor(part, viewer.uid);
    // Every field written out (presentRoom's first), not spread: a literal's fields make one
    // hidden class, where a spread and fields added after it allocated new ones per request.
    const notify = member?.notify ?? CHAT_NOTIFY.none;
    return {
      roomId: room.room_id,
      roomName: room.name,
      groupChat: room.public === 1 || room.user_count > 2,
      public: room.public === 1,
      userCount: room.user_count,
      messageCount: room.message_count,
      groups: roomGroups(room),
      timestamp: Number(room.created),
      notificationSetting: notify,
      joinLeaveMessages: room.join_leave_messages,
      owners: part.owners,
      isOwner,
      users,
      messages: this.pageMessages(viewer, page),
      canReply: !!member && canChat && !s.disableChat,
      usernames,
      chatWithMessage: room.name ? '' : usernames,
      maximumUsersInChatRoom: s.maximumUsersInChatRoom,
      maximumChatMessageLength: s.maximumChatMessageLength,
      showUserInput: !!member && canChat && !s.disableChat,
      isAdminOrGlobalMod: viewer.isAdmin || viewer.isGlobalMod,
      isAdmin: viewer.isAdmin,
      lastReadMid: member?.last_read_mid ?? 0,
      scrollToIndex: from === undefined ? null : index!,
    };
  }

  /** "alice, bob" of the members other than the reader (NodeBB's `usernames`), made once per reader and part. */
  private usernamesFor(part: RoomPart, uid: number): string {
    let names = part.usernames.get(uid);
    if (names === undefined) {
      names = usernamesOf(part.views, uid);
      if (part.usernames.size >= VARIANTS_PER_PART) part.usernames.clear();
      part.usernames.set(uid, names);
    }
    return names;
  }

  /** A page of the room's messages (the newest, or from index `from`) the reader may see, kept with the room's part. */
  private messagePart(part: RoomPart, joinedMid: number, from: number | undefined): Promise<MessagePart> {
    const key = `${joinedMid}:${from ?? ''}`;
    let page = part.pages.get(key);
    if (!page) {
      if (part.pages.size >= VARIANTS_PER_PART) part.pages.clear();
      page = this.buildMessagePart(part, joinedMid, from);
      part.pages.set(key, page);
      page.catch(() => {
        if (part.pages.get(key) === page) part.pages.delete(key);
      });
    }
    return page;
  }

  private async buildMessagePart(part: RoomPart, joinedMid: number, from: number | undefined): Promise<MessagePart> {
    const roomId = part.room.room_id;
    const per = CHAT_LIMITS.messagesPerPage;
    const rows = from === undefined ? await store.messagesPage(this.ctx.db, roomId, joinedMid, per) : await store.messagesFrom(this.ctx.db, roomId, joinedMid, from, per);
    const parentIds = [...new Set(rows.map((r) => r.to_mid).filter((m): m is number => !!m))];
    const parents = await store.messagesByIds(this.ctx.db, parentIds);
    const users = await this.ctx.users.briefs([...new Set([...rows.map((r) => r.uid), ...parents.map((p) => p.uid)])]);
    const context = { users, owners: new Set(part.owners), parents: new Map(parents.filter((p) => p.room_id === roomId).map((p) => [p.mid, p])) };
    const shared: MessageContext = { ...context, reader: 0, readerIsAdmin: false };
    let prev: MessageRow | null = null;
    const entries = rows.map((row) => {
      const entry = { row, prev, base: deepFreeze(presentMessage(row, shared, prev)), parent: row.to_mid ? context.parents.get(row.to_mid) : undefined };
      prev = row;
      return entry;
    });
    return { entries, context, lists: new Map() };
  }

  /**
   * The page's messages for the reader: the shared view of each, or the reader's variant of it
   * (theirs; a deleted one shown to its sender or an administrator), made once per kind of
   * reader; the page as one frozen array per set of variants, so that its JSON is made once
   * (http/page-json.ts) and goes out as one piece.
   */
  private pageMessages(viewer: Viewer, page: MessagePart): ChatMessage[] {
    const { entries } = page;
    const codes = new Array<number>(entries.length);
    let key = '';
    for (let i = 0; i < entries.length; i++) {
      const { row, parent } = entries[i]!;
      const self = row.uid === viewer.uid;
      const code = (self ? 1 : 0) | (row.deleted && (self || viewer.isAdmin) ? 2 : 0) | (parent?.deleted && (parent.uid === viewer.uid || viewer.isAdmin) ? 4 : 0);
      codes[i] = code;
      if (code) key += `${i}.${code},`;
    }
    let list = page.lists.get(key);
    if (!list) {
      let c: MessageContext | undefined;
      list = Object.freeze(
        entries.map(({ row, prev, base }, i) => {
          const code = codes[i]!;
          if (!code) return base;
          return messageVariants.of(base, [!!(code & 1), !!(code & 2), !!(code & 4)], () => presentMessage(row, (c ??= { ...page.context, reader: viewer.uid, readerIsAdmin: viewer.isAdmin }), prev));
        }),
      ) as ChatMessage[];
      if (page.lists.size >= VARIANTS_PER_PART) page.lists.clear();
      page.lists.set(key, list);
    }
    return list;
  }

  /**
   * The room's members for the reader: each member's shared view with whether the reader may
   * remove them and whether they are online, frozen, in one frozen array per such set.
   */
  private partUsers(viewer: Viewer, part: RoomPart): ChatUser[] {
    const viewerOwns = viewer.isAdmin || part.members.some((m) => m.uid === viewer.uid && m.is_owner);
    const now = Date.now();
    const { members } = part;
    const flags = new Array<number>(members.length);
    let key = '';
    for (let i = 0; i < members.length; i++) {
      const m = members[i]!;
      const brief = part.briefs.get(m.uid);
      const online = brief?.status !== 'offline' && now - Number(brief?.lastonline ?? 0) < 5 * 60_000;
      const f = (viewerOwns && m.uid !== viewer.uid ? 1 : 0) | (online ? 2 : 0);
      flags[i] = f;
      key += f;
    }
    let list = part.lists.get(key);
    if (!list) {
      list = Object.freeze(
        members.map((m, index) => {
          const kick = !!(flags[index]! & 1);
          const online = !!(flags[index]! & 2);
          const view = part.views[index]!;
          return userVariants.of(view, [kick, online], () => ({ ...view, isOwner: m.is_owner === 1, canKick: kick, canToggleOwner: kick, online, index }));
        }),
      ) as ChatUser[];
      if (part.lists.size >= VARIANTS_PER_PART) part.lists.clear();
      part.lists.set(key, list);
    }
    return list;
  }

  /** Presents message rows for the viewer (users, owners, replied-to messages in batches). */
  private async present(viewer: Viewer, roomId: number, rows: MessageRow[], prev?: MessageRow | null, known?: Pick<MemberRow, 'uid' | 'is_owner'>[]): Promise<ChatMessage[]> {
    if (!rows.length) return [];
    const parentIds = [...new Set(rows.map((r) => r.to_mid).filter((m): m is number => !!m))];
    const [parents, members] = await Promise.all([store.messagesByIds(this.ctx.db, parentIds), known ?? store.members(this.ctx.db, roomId)]);
    const users = await this.ctx.users.briefs([...new Set([...rows.map((r) => r.uid), ...parents.map((p) => p.uid)])]);
    const c: MessageContext = {
      reader: viewer.uid,
      readerIsAdmin: viewer.isAdmin,
      users,
      owners: new Set(members.filter((m) => m.is_owner).map((m) => m.uid)),
      parents: new Map(parents.filter((p) => p.room_id === roomId).map((p) => [p.mid, p])),
    };
    return presentMessages(rows, c, prev);
  }

  /** Renames a room (owners and administrators); a system message tells the room. */
  async rename(viewer: Viewer, roomId: number, name: string): Promise<ChatRoomFull> {
    await this.assertCanChat(viewer);
    const { room, member } = await this.access(viewer, roomId);
    if (!member?.is_owner && !viewer.isAdmin) throw forbidden('error:no-privileges');
    const s = await this.ctx.settings.get();
    const trimmed = name.trim();
    if (!trimmed) throw badRequest('error:invalid-chat-room-name');
    if (trimmed.length > s.maximumChatRoomNameLength) throw badRequest('error:chat-room-name-too-long', s.maximumChatRoomNameLength);
    const uids = await store.memberUids(this.ctx.db, roomId);
    await runAction(this.ctx.db, {
      write: async (tx) => {
        await store.updateRoom(tx, roomId, { name: trimmed, dm_key: null });
        await this.system(tx, viewer.uid, room, 'room-rename', trimmed);
      },
      after: () => void this.ctx.hooks.fire('action:chat.renamed', { roomId, newName: trimmed, uids }),
    });
    return this.full(viewer, (await this.buildRoomPart(roomId))!, member);
  }

  /**
   * Stores a system message (user-join, user-leave, room-rename) in the open transaction and
   * announces it after commit.
   */
  private async system(tx: Parameters<typeof store.insertMessage>[0], uid: number, room: RoomRow, event: 'user-join' | 'user-leave' | 'room-rename', param?: string): Promise<void> {
    if (event !== 'room-rename' && !room.join_leave_messages) return;
    const now = Date.now();
    const { idx } = await store.claimIndex(tx, room.room_id, now);
    const user = await this.ctx.users.get(uid);
    const clean = (v: string) => v.replace(/[[\],]/g, ' ');
    // join/leave: %1 is the member; rename: %1 the new name, %2 who renamed it.
    const params = event === 'room-rename' ? [param ?? '', user?.username ?? ''] : [user?.username ?? ''];
    const text = `[[modules:chat.system.${event}, ${params.map(clean).join(', ')}]]`;
    const row = await store.insertMessage(tx, { room_id: room.room_id, uid, idx, content: text, content_html: text, system: 1, created: now, to_mid: null, ip: '' });
    const uids = await store.memberUids(tx, room.room_id);
    const [message] = presentMessages([row], { reader: 0, readerIsAdmin: false, users: new Map(user ? [[uid, user]] : []), owners: new Set(), parents: new Map() });
    void this.ctx.hooks.fire('action:chat.sent', { roomId: room.room_id, public: room.public === 1, message: message!, uids, newlyUnread: [] });
  }

  /** The room's members (members only). */
  async users(viewer: Viewer, roomId: number): Promise<{ users: ChatUser[] }> {
    await this.access(viewer, roomId);
    return { users: this.partUsers(viewer, (await this.buildRoomPart(roomId))!) };
  }

  /** Adds members (owners and administrators); each must accept the viewer's chats. */
  async addUsers(viewer: Viewer, roomId: number, uids: number[]): Promise<{ users: ChatUser[] }> {
    await this.assertCanChat(viewer);
    const { room, member } = await this.access(viewer, roomId);
    if (room.public) throw forbidden('error:no-privileges');
    if (!member?.is_owner && !viewer.isAdmin) throw forbidden('error:no-privileges');
    const s = await this.ctx.settings.get();
    const fresh = [...new Set(uids)].filter((u) => u !== viewer.uid);
    if (!fresh.length) throw badRequest('error:no-users-selected');
    if (s.maximumUsersInChatRoom > 0 && room.user_count + fresh.length > s.maximumUsersInChatRoom) throw badRequest('error:cant-add-more-users-to-chat-room');
    await this.assertCanMessage(viewer, fresh);
    await runAction(this.ctx.db, {
      write: async (tx) => {
        const added = await store.addMembers(tx, roomId, fresh, { owner: false, joinedMid: await store.maxMid(tx, roomId), notify: CHAT_NOTIFY.all, now: Date.now() });
        await store.recountUsers(tx, roomId);
        // Once a third member is in, it is no longer the two members' direct message room.
        await store.updateRoom(tx, roomId, { dm_key: null });
        for (const uid of added) await this.system(tx, uid, room, 'user-join');
      },
    });
    return this.users(viewer, roomId);
  }

  /** Removes members (owners and administrators), or the viewer leaves when it is only them. */
  async removeUsers(viewer: Viewer, roomId: number, uids: number[]): Promise<{ users: ChatUser[] }> {
    const { room, member } = await this.access(viewer, roomId);
    const targets = [...new Set(uids)];
    if (targets.length === 1 && targets[0] === viewer.uid) {
      await this.leave(viewer, roomId);
      return { users: [] };
    }
    if (!member?.is_owner && !viewer.isAdmin) throw forbidden('error:no-privileges');
    if (targets.includes(viewer.uid)) throw badRequest('error:cant-remove-self');
    const present = (await store.membersAmong(this.ctx.db, roomId, targets)).map((m) => m.uid);
    if (present.length !== targets.length) throw notFound('error:no-user');
    await this.removeMembers(room, present);
    return this.users(viewer, roomId);
  }

  /** The viewer leaves the room. */
  async leave(viewer: Viewer, roomId: number): Promise<void> {
    const { room, member } = await this.access(viewer, roomId);
    if (!member) throw forbidden('error:no-privileges');
    await this.removeMembers(room, [viewer.uid]);
  }

  private async removeMembers(room: RoomRow, uids: number[]): Promise<void> {
    await runAction(this.ctx.db, {
      write: async (tx) => {
        for (const uid of uids) await this.system(tx, uid, room, 'user-leave');
        await store.removeMembers(tx, room.room_id, uids);
        const left = await store.recountUsers(tx, room.room_id);
        // A room nobody owns any more gets its longest-standing member as owner.
        const rest = await store.members(tx, room.room_id, 1);
        if (left > 0 && rest[0] && !rest[0].is_owner) await store.updateMember(tx, room.room_id, rest[0].uid, { is_owner: 1 });
      },
      after: () => void this.ctx.hooks.fire('action:chat.left', { roomId: room.room_id, uids }),
    });
  }

  /** Makes a member an owner (on) or not (owners and administrators). */
  async setOwner(viewer: Viewer, roomId: number, uid: number, on: boolean): Promise<void> {
    const { member } = await this.access(viewer, roomId);
    if (!member?.is_owner && !viewer.isAdmin) throw forbidden('error:no-privileges');
    const target = await store.member(this.ctx.db, roomId, uid);
    if (!target) throw notFound('error:no-user');
    await runAction(this.ctx.db, { write: async (tx) => store.updateMember(tx, roomId, uid, { is_owner: on ? 1 : 0 }) });
  }

  /** The viewer's notification setting for the room (NodeBB: 0 none, 1 mentions, 2 all; -1 the default). */
  async watch(viewer: Viewer, roomId: number, value: number): Promise<void> {
    const { room, member } = await this.access(viewer, roomId);
    if (!member) throw forbidden('error:no-privileges');
    const notify = value === -1 ? (room.public ? CHAT_NOTIFY.mentions : CHAT_NOTIFY.all) : value;
    if (![0, 1, 2].includes(notify)) throw badRequest('error:invalid-data');
    await store.updateMember(this.ctx.db, roomId, viewer.uid, { notify });
  }

  /** Marks the room read (state 0) or unread (1) for the viewer. */
  async mark(viewer: Viewer, roomId: number, state: 0 | 1): Promise<ChatRoomFull> {
    const { room, member } = await this.access(viewer, roomId);
    if (!member) throw forbidden('error:no-privileges');
    if (state === 0) await store.markRead(this.ctx.db, roomId, viewer.uid);
    else if (room.last_mid > 0) await store.markUnread(this.ctx.db, roomId, viewer.uid, await store.previousMid(this.ctx.db, roomId, room.last_mid));
    void this.ctx.hooks.fire('action:chat.read', { roomId, uid: viewer.uid, state });
    const [part, after] = await Promise.all([this.buildRoomPart(roomId), store.member(this.ctx.db, roomId, viewer.uid)]);
    return this.full(viewer, part!, after!);
  }

  /** Marks read without answering the room (the page opening it). */
  async markRead(viewer: Viewer, roomId: number): Promise<void> {
    const member = await store.member(this.ctx.db, roomId, viewer.uid);
    if (!member) return;
    const room = await store.roomById(this.ctx.db, roomId);
    if (!room || member.last_read_mid >= room.last_mid) return;
    await store.markRead(this.ctx.db, roomId, viewer.uid);
    void this.ctx.hooks.fire('action:chat.read', { roomId, uid: viewer.uid, state: 0 });
  }

  /** The viewer is (or stops) typing: members' open rooms show it. */
  async typing(viewer: Viewer, roomId: number, typing: boolean): Promise<void> {
    const { member } = await this.access(viewer, roomId);
    if (!member) throw forbidden('error:no-privileges');
    const user = await this.ctx.users.ofViewer(viewer);
    void this.ctx.hooks.fire('action:chat.typing', { roomId, uid: viewer.uid, username: user?.username ?? '', typing });
  }

  // ---------------------------------------------------------------- messages

  /** Sends a message (NodeBB's POST /chats/:roomId); `toMid` replies to a message of the room. */
  async send(viewer: Viewer, roomId: number, content: string, opts: { toMid?: number; ip?: string } = {}): Promise<ChatMessage> {
    await this.assertCanChat(viewer);
    // A muted member reads their rooms but writes nothing.
    await this.ctx.moderation.assertNotMuted(viewer.uid);
    const { room, member } = await this.access(viewer, roomId, { joinPublic: true });
    if (!member) throw forbidden('error:no-privileges');
    const text = await this.checkContent(content);
    let parent: MessageRow | undefined;
    if (opts.toMid) {
      parent = await store.messageById(this.ctx.db, opts.toMid);
      if (!parent || parent.room_id !== roomId || parent.mid <= member.joined_mid) throw badRequest('error:invalid-mid');
    }
    // A direct message obeys the other member's blocks and chat restriction.
    if (!room.public && room.user_count === 2) {
      const others = (await store.memberUids(this.ctx.db, roomId)).filter((u) => u !== viewer.uid);
      if (others.length === 1) await this.assertCanMessage(viewer, others);
    }
    await this.rateLimit(viewer);
    const html = await this.render(text, viewer.uid);
    const { notificationSendDelay: delay } = await this.ctx.settings.get();
    const now = Date.now();
    // The members are read inside the transaction, on the writer: its pages are warm, where the
    // read connection re-reads what the last commits changed (in the chat bench, 120 µs for a
    // one-row read on the reader against 14 µs on the writer), and the room's last message
    // then cannot move between the read and the write.
    const { row, prev, uids, states, caughtUp, notify } = await runAction(this.ctx.db, {
      write: async (tx) => {
        const { idx, lastMid } = await store.claimIndex(tx, roomId, now);
        // Every member's uid, and the state of the owners and of those for whom the room becomes unread.
        const { uids, states } = await store.sendStates(tx, roomId, lastMid);
        // Members who had read everything: for them the room has just become unread (their badge
        // changes, and they hear of it). Those with unread messages already have the notification.
        const caughtUp = new Set(states.filter((m) => m.uid !== viewer.uid && m.last_read_mid >= lastMid).map((m) => m.uid));
        const notify = await this.toNotify(viewer, room, states, text, caughtUp);
        // The message before (whether this one starts a new set), by its index.
        const before = idx > 0 ? await store.messageAt(tx, roomId, idx - 1) : undefined;
        const inserted = await store.insertMessage(tx, { room_id: roomId, uid: viewer.uid, idx, content: text, content_html: html, system: 0, created: now, to_mid: parent?.mid ?? null, ip: opts.ip ?? '' });
        await store.setLastMid(tx, roomId, inserted.mid);
        await store.updateMember(tx, roomId, viewer.uid, { last_read_mid: inserted.mid });
        // Members reading the room meanwhile are not told (notificationSendDelay, NodeBB's): the
        // delayed notification is a job written with the message, so neither exists without the other.
        if (notify.length && delay > 0) await this.ctx.jobs.enqueue<NotifyJob>(NOTIFY_JOB, { roomId, mid: inserted.mid, uid: viewer.uid, uids: notify }, { runAt: now + delay * 1000 });
        return { row: inserted, prev: before && before.mid > member.joined_mid ? before : null, uids, states, caughtUp, notify };
      },
    });
    const [message] = await this.present(viewer, roomId, [row], prev, states);
    const announced = { ...message!, self: 0 };
    void this.ctx.hooks.fire('action:chat.sent', { roomId, public: room.public === 1, message: announced, uids, newlyUnread: [...caughtUp] });
    if (notify.length && delay <= 0) await this.notifyUnread({ roomId, mid: row.mid, uid: viewer.uid, uids: notify });
    return message!;
  }

  /**
   * Members to notify: setting "all" when the room has just become unread for them, or
   * "mentions" (and "all") when named with @; those who blocked the sender are skipped.
   * `states` holds every member for whom the room has just become unread; a message naming
   * someone reads every member's state, as anyone may be named.
   */
  private async toNotify(viewer: Viewer, room: RoomRow, states: MemberState[], text: string, caughtUp: Set<number>): Promise<number[]> {
    const names = new Set([...text.matchAll(/@([\p{L}\p{N}_.-]+)/gu)].map((m) => m[1]!.toLowerCase()));
    const members = names.size ? await store.memberStates(this.ctx.db, room.room_id) : states;
    const candidates = members.filter((m) => m.uid !== viewer.uid && m.notify > 0);
    if (!candidates.length) return [];
    let mentioned = new Set<number>();
    if (names.size) {
      const rows = await this.ctx.users.briefs(candidates.map((m) => m.uid));
      mentioned = new Set(candidates.filter((m) => {
        const r = rows.get(m.uid);
        return r && (names.has(r.username.toLowerCase()) || names.has(r.userslug.toLowerCase()));
      }).map((m) => m.uid));
    }
    // "All messages": once per unread stretch (the notification merges per room until read); a mention always.
    const uids = candidates.filter((m) => (m.notify === CHAT_NOTIFY.all && caughtUp.has(m.uid)) || mentioned.has(m.uid)).map((m) => m.uid);
    const blockers = await this.ctx.users.blockersAmong(uids, viewer.uid);
    return uids.filter((u) => !blockers.has(u));
  }

  private async checkContent(content: string): Promise<string> {
    const text = typeof content === 'string' ? content.trim() : '';
    if (!text) throw badRequest('error:invalid-chat-message');
    const max = (await this.ctx.settings.get()).maximumChatMessageLength;
    if (text.length > max) throw badRequest('error:chat-message-too-long', max);
    return text;
  }

  private async render(text: string, uid: number): Promise<string> {
    return (await this.ctx.hooks.runFilter('filter:parse.post', { content: text, html: '', kind: 'post', uid })).html;
  }

  /** A page of messages: `start` counts back from the newest (0: the newest 50). */
  async messages(viewer: Viewer, roomId: number, start: number): Promise<{ messages: ChatMessage[] }> {
    const { room, member } = await this.access(viewer, roomId);
    const before = Math.max(0, room.message_count - start);
    if (before === 0) return { messages: [] };
    const rows = await store.messagesPage(this.ctx.db, roomId, member?.joined_mid ?? 0, CHAT_LIMITS.messagesPerPage, before);
    const prev = rows[0] && rows[0].idx > 0 ? (await store.messagesPage(this.ctx.db, roomId, member?.joined_mid ?? 0, 1, rows[0].idx))[0] : null;
    return { messages: await this.present(viewer, roomId, rows, prev ?? null) };
  }

  private async visibleMessage(viewer: Viewer, roomId: number, mid: number): Promise<{ access: Access; row: MessageRow }> {
    const access = await this.access(viewer, roomId);
    const row = await store.messageById(this.ctx.db, mid);
    if (!row || row.room_id !== roomId || row.mid <= (access.member?.joined_mid ?? 0)) throw notFound('error:invalid-mid');
    return { access, row };
  }

  async getMessage(viewer: Viewer, roomId: number, mid: number): Promise<ChatMessage> {
    const { row } = await this.visibleMessage(viewer, roomId, mid);
    return (await this.present(viewer, roomId, [row]))[0]!;
  }

  /** The message's markdown (its sender, or administrators, for a deleted one). */
  async raw(viewer: Viewer, roomId: number, mid: number): Promise<{ content: string }> {
    const { row } = await this.visibleMessage(viewer, roomId, mid);
    if (row.deleted && row.uid !== viewer.uid && !viewer.isAdmin) throw forbidden('error:no-privileges');
    return { content: row.content };
  }

  /** The address a message was sent from (administrators and global moderators). */
  async ip(viewer: Viewer, roomId: number, mid: number): Promise<{ ip: string }> {
    if (!viewer.isAdmin && !viewer.isGlobalMod) throw forbidden('error:no-privileges');
    const row = await store.messageById(this.ctx.db, mid);
    if (!row || row.room_id !== roomId) throw notFound('error:invalid-mid');
    return { ip: row.ip };
  }

  /** Only the sender edits or deletes, within chatEditDuration / chatDeleteDuration; administrators always. */
  private async assertMayChange(viewer: Viewer, row: MessageRow, kind: 'edit' | 'delete'): Promise<void> {
    if (row.system) throw badRequest('error:cant-edit-chat-message');
    if (viewer.isAdmin) return;
    if (row.uid !== viewer.uid) throw forbidden(kind === 'edit' ? 'error:cant-edit-chat-message' : 'error:cant-delete-chat-message');
    const s = await this.ctx.settings.get();
    const seconds = kind === 'edit' ? s.chatEditDuration : s.chatDeleteDuration;
    if (seconds > 0 && Date.now() - Number(row.created) > seconds * 1000) {
      throw badRequest(kind === 'edit' ? 'error:chat-edit-duration-expired' : 'error:chat-delete-duration-expired', seconds);
    }
  }

  async edit(viewer: Viewer, roomId: number, mid: number, content: string): Promise<ChatMessage> {
    await this.assertCanChat(viewer);
    await this.ctx.moderation.assertNotMuted(viewer.uid);
    const { row } = await this.visibleMessage(viewer, roomId, mid);
    await this.assertMayChange(viewer, row, 'edit');
    if (row.deleted) throw badRequest('error:cant-edit-chat-message');
    const text = await this.checkContent(content);
    const html = await this.render(text, row.uid);
    const edited = Date.now();
    await runAction(this.ctx.db, { write: async (tx) => store.updateMessage(tx, mid, { content: text, content_html: html, edited }) });
    return this.changed(viewer, roomId, { ...row, content: text, content_html: html, edited }, 'edit');
  }

  async setDeleted(viewer: Viewer, roomId: number, mid: number, deleted: boolean): Promise<void> {
    const { row } = await this.visibleMessage(viewer, roomId, mid);
    await this.assertMayChange(viewer, row, 'delete');
    if (!!row.deleted === deleted) throw badRequest(deleted ? 'error:chat-deleted-already' : 'error:chat-restored-already');
    await runAction(this.ctx.db, { write: async (tx) => store.updateMessage(tx, mid, { deleted: deleted ? 1 : 0 }) });
    await this.changed(viewer, roomId, { ...row, deleted: deleted ? 1 : 0 }, deleted ? 'delete' : 'restore');
  }

  /** Pins or unpins (room owners and administrators, as NodeBB). */
  async setPinned(viewer: Viewer, roomId: number, mid: number, pinned: boolean): Promise<void> {
    const { row, access } = await this.visibleMessage(viewer, roomId, mid);
    if (!access.member?.is_owner && !viewer.isAdmin) throw forbidden('error:no-privileges');
    if (row.system || row.deleted) throw badRequest('error:invalid-mid');
    const at = pinned ? Date.now() : 0;
    await runAction(this.ctx.db, { write: async (tx) => store.updateMessage(tx, mid, { pinned: at }) });
    await this.changed(viewer, roomId, { ...row, pinned: at }, pinned ? 'pin' : 'unpin');
  }

  private async changed(viewer: Viewer, roomId: number, row: MessageRow, change: 'edit' | 'delete' | 'restore' | 'pin' | 'unpin'): Promise<ChatMessage> {
    const [message] = await this.present(viewer, roomId, [row]);
    // Live readers get what any member sees: a deleted message's content stays with its sender.
    const announced = { ...message!, self: 0, content: row.deleted ? '' : message!.content };
    void this.ctx.hooks.fire('action:chat.changed', { roomId, mid: row.mid, change, message: announced });
    return message!;
  }

  async pinned(viewer: Viewer, roomId: number, start: number): Promise<{ messages: ChatMessage[] }> {
    const { member } = await this.access(viewer, roomId);
    const rows = await store.pinnedMessages(this.ctx.db, roomId, member?.joined_mid ?? 0, start, CHAT_LIMITS.messagesPerPage);
    return { messages: await this.present(viewer, roomId, rows) };
  }

  /** Messages of the room containing the words, newest first. */
  async search(viewer: Viewer, roomId: number, query: string): Promise<{ messages: ChatMessage[] }> {
    const { member } = await this.access(viewer, roomId);
    const q = query.trim();
    if (!q) return { messages: [] };
    const rows = await store.searchMessages(this.ctx.db, roomId, member?.joined_mid ?? 0, q, SEARCH_LIMIT);
    return { messages: await this.present(viewer, roomId, rows) };
  }

  /**
   * Members of the room whose name starts with the query, as NodeBB's UserObjectSlim with
   * `isOwner` and `canKick` (the viewer owns the room or is an administrator, and it is not
   * them). One query for the members, one for their user rows.
   */
  async searchUsers(viewer: Viewer, roomId: number, query: string): Promise<RoomUserSearch> {
    await this.access(viewer, roomId);
    const members = await store.members(this.ctx.db, roomId);
    const rows = await this.ctx.users.getMany(members.map((m) => m.uid));
    const viewerOwns = viewer.isAdmin || members.some((m) => m.uid === viewer.uid && m.is_owner);
    const q = query.trim().toLowerCase();
    const users: RoomUserSearch['users'] = [];
    for (const m of members) {
      const row = rows.get(m.uid);
      if (!row || (q && !row.username.toLowerCase().startsWith(q) && !row.userslug.startsWith(q))) continue;
      users.push({ ...presentUserSlim(row), isOwner: m.is_owner === 1, canKick: viewerOwns && m.uid !== viewer.uid });
    }
    return { users };
  }

  // ---------------------------------------------------------------- administration

  /** An administrator reads any room (logged as the event `chat-room-read`). */
  async adminRead(viewer: Viewer, roomId: number, ip: string, opts: { index?: number } = {}): Promise<ChatRoomFull> {
    if (!viewer.isAdmin) throw forbidden('error:no-privileges');
    const part = await this.roomPart(roomId);
    if (!part) throw notFound('error:no-chat-room');
    await this.ctx.events.log('chat-room-read', viewer.uid, { roomId }, ip);
    const member = await store.member(this.ctx.db, roomId, viewer.uid);
    return this.full(viewer, part, member, opts.index);
  }

  /** An administrator deletes a room and its messages (logged as `chat-room-delete`). */
  async adminDelete(viewer: Viewer, roomId: number, ip: string): Promise<void> {
    if (!viewer.isAdmin) throw forbidden('error:no-privileges');
    const room = await store.roomById(this.ctx.db, roomId);
    if (!room) throw notFound('error:no-chat-room');
    const uids = await store.memberUids(this.ctx.db, roomId);
    await runAction(this.ctx.db, {
      write: async (tx) => {
        await store.deleteRoom(tx, roomId);
        await this.ctx.events.log('chat-room-delete', viewer.uid, { roomId }, ip, tx);
      },
      after: () => void this.ctx.hooks.fire('action:chat.left', { roomId, uids }),
    });
  }

  /**
   * NodeBB's PUT /chats/sort: an administrator orders the public rooms; `scores[i]` is the
   * order of `roomIds[i]` (a room named twice takes its last score). Every id must be a public
   * room. Logged as the event `chat-rooms-sort`.
   */
  async sortPublicRooms(viewer: Viewer, roomIds: number[], scores: number[], ip: string): Promise<void> {
    if (!viewer.isAdmin) throw forbidden('error:no-privileges');
    if (roomIds.length !== scores.length) throw badRequest('error:invalid-data');
    if (!roomIds.length) return;
    const order = new Map(roomIds.map((id, i) => [id, scores[i]!]));
    const rooms = await store.roomsByIds(this.ctx.db, [...order.keys()]);
    if (rooms.length !== order.size || rooms.some((r) => r.public !== 1)) throw badRequest('error:not-a-public-chat-room');
    await runAction(this.ctx.db, {
      write: async (tx) => {
        await store.setSortOrder(tx, order);
        await this.ctx.events.log('chat-rooms-sort', viewer.uid, { roomIds, scores }, ip, tx);
      },
    });
  }

  /** Rooms list size bound (routes). */
  static readonly perPage = CHAT_LIMITS.roomsPerPage;
}
