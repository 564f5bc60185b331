import { CHAT_LIMITS, CHAT_NOTIFY, type ChatMessage } from '../../../shared/schemas/chat.js';
import { badRequest, forbidden, notFound } from '../../http/errors.js';
import type { Viewer } from '../privileges/service.js';
import type { Chats, ChatsDeps } from './core.js';
import * as messages from './message-store.js';
import type { MessageRow } from './message-store.js';
import { presentMessages, type MessageContext } from './presenter.js';
import { presentFor } from './room-view.js';
import { access, assertCanChat, assertCanMessage, assertMayChange, checkContent, rateLimit, render, type Access } from './rules.js';
import * as store from './store.js';
import type { MemberState, RoomRow } from './store.js';

/** The delayed notification of a message: members who have not read it by then are told. */
export interface NotifyJob {
  roomId: number;
  mid: number;
  uid: number;
  uids: number[];
}
export const NOTIFY_JOB = 'chats.notify';

// Search answers at most this many messages.
const SEARCH_LIMIT = 50;

/**
 * After notificationSendDelay: of the members to tell, those who still have not read the
 * message (a member with the room open reads it at once) hear of it through action:chat.message.
 */
export async function notifyUnread(ctx: ChatsDeps, job: NotifyJob): Promise<void> {
  const [room, message, members, sender] = await Promise.all([
    store.roomById(ctx.db, job.roomId),
    messages.messageById(ctx.db, job.mid),
    store.membersAmong(ctx.db, job.roomId, job.uids),
    ctx.users.get(job.uid),
  ]);
  if (!room || !message || message.deleted) return;
  const uids = members.filter((m) => m.last_read_mid < job.mid).map((m) => m.uid);
  if (!uids.length) return;
  await ctx.actions.run('chat.notify', (w) => w.fire('action:chat.message', { roomId: job.roomId, mid: job.mid, uid: job.uid, roomName: room.name || sender?.username || '', uids }));
}

/** Sends a message (NodeBB's POST /chats/:roomId); `toMid` replies to a message of the room. */
export async function send(c: Chats, viewer: Viewer, roomId: number, content: string, opts: { toMid?: number; ip?: string } = {}): Promise<ChatMessage> {
  const { ctx } = c;
  await assertCanChat(ctx, viewer);
  // A muted member reads their rooms but writes nothing.
  await ctx.moderation.assertNotMuted(viewer.uid);
  const { room, member } = await access(ctx, viewer, roomId, { joinPublic: true });
  if (!member) throw forbidden('error:no-privileges');
  const text = await checkContent(ctx, content);
  let parent: MessageRow | undefined;
  if (opts.toMid) {
    parent = await messages.messageById(ctx.db, opts.toMid);
    if (!parent || parent.room_id !== roomId || parent.mid <= member.joined_mid) throw badRequest('error:invalid-mid');
  }
  // A direct message obeys the other member's blocks and chat restriction.
  if (!room.public && room.user_count === 2) {
    const others = (await store.memberUids(ctx.db, roomId)).filter((u) => u !== viewer.uid);
    if (others.length === 1) await assertCanMessage(ctx, viewer, others);
  }
  await rateLimit(ctx, viewer);
  const html = await render(ctx, text, viewer.uid);
  const { notificationSendDelay: delay } = await ctx.settings.get();
  // Who the message shows (its sender, the author of the message it answers), read before the transaction.
  const users = await ctx.users.briefs(parent ? [viewer.uid, parent.uid] : [viewer.uid]);
  const now = Date.now();
  // The members are read inside the transaction, on the writer: its pages are warm, where the
  // read connection re-reads what the last commits changed (in the chat bench, 120 µs for a
  // one-row read on the reader against 14 µs on the writer), and the room's last message
  // then cannot move between the read and the write.
  const { message, notify } = await ctx.actions.run('chat.send', async (w) => {
    const { idx, lastMid } = await store.claimIndex(w, roomId, now);
    // Every member's uid, and the state of the owners and of those for whom the room becomes unread.
    const { uids, states } = await store.sendStates(w.tx, roomId, lastMid);
    // Members who had read everything: for them the room has just become unread (their badge
    // changes, and they hear of it). Those with unread messages already have the notification.
    const caughtUp = new Set(states.filter((m) => m.uid !== viewer.uid && m.last_read_mid >= lastMid).map((m) => m.uid));
    const notify = await toNotify(ctx, viewer, room, states, text, caughtUp);
    // The message before (whether this one starts a new set), by its index.
    const before = idx > 0 ? await messages.messageAt(w.tx, roomId, idx - 1) : undefined;
    const row = await messages.insertMessage(w, { room_id: roomId, uid: viewer.uid, idx, content: text, content_html: html, system: 0, created: now, to_mid: parent?.mid ?? null, ip: opts.ip ?? '' });
    await store.setLastMid(w, roomId, row.mid);
    await store.updateMember(w, roomId, viewer.uid, { last_read_mid: row.mid });
    // Members reading the room meanwhile are not told (notificationSendDelay, NodeBB's): the
    // delayed notification is a job written with the message, so neither exists without the other.
    if (notify.length && delay > 0) await ctx.jobs.enqueue<NotifyJob>(NOTIFY_JOB, { roomId, mid: row.mid, uid: viewer.uid, uids: notify }, { runAt: now + delay * 1000 });
    const context: MessageContext = {
      reader: viewer.uid,
      readerIsAdmin: viewer.isAdmin,
      users,
      owners: new Set(states.filter((m) => m.is_owner).map((m) => m.uid)),
      parents: new Map(parent ? [[parent.mid, parent]] : []),
    };
    const [message] = presentMessages([row], context, before && before.mid > member.joined_mid ? before : null);
    await w.fire('action:chat.sent', { roomId, public: room.public === 1, message: { ...message!, self: 0 }, uids, newlyUnread: [...caughtUp] });
    return { message: message!, notify };
  });
  if (notify.length && delay <= 0) await notifyUnread(ctx, { roomId, mid: message.mid, uid: viewer.uid, uids: notify });
  return message;
}

/**
 * Members to notify: setting "all" when the room has just become unread for them, or
 * "mentions" (and "all") when named with @; those who blocked the sender are skipped.
 * `states` holds every member for whom the room has just become unread; a message naming
 * someone reads every member's state, as anyone may be named.
 */
async function toNotify(ctx: ChatsDeps, viewer: Viewer, room: RoomRow, states: MemberState[], text: string, caughtUp: Set<number>): Promise<number[]> {
  const names = new Set([...text.matchAll(/@([\p{L}\p{N}_.-]+)/gu)].map((m) => m[1]!.toLowerCase()));
  const members = names.size ? await store.memberStates(ctx.db, room.room_id) : states;
  const candidates = members.filter((m) => m.uid !== viewer.uid && m.notify > 0);
  if (!candidates.length) return [];
  let mentioned = new Set<number>();
  if (names.size) {
    const rows = await ctx.users.briefs(candidates.map((m) => m.uid));
    mentioned = new Set(
      candidates
        .filter((m) => {
          const r = rows.get(m.uid);
          return r && (names.has(r.username.toLowerCase()) || names.has(r.userslug.toLowerCase()));
        })
        .map((m) => m.uid),
    );
  }
  // "All messages": once per unread stretch (the notification merges per room until read); a mention always.
  const uids = candidates.filter((m) => (m.notify === CHAT_NOTIFY.all && caughtUp.has(m.uid)) || mentioned.has(m.uid)).map((m) => m.uid);
  const blockers = await ctx.users.blockersAmong(uids, viewer.uid);
  return uids.filter((u) => !blockers.has(u));
}

/** A page of messages: `start` counts back from the newest (0: the newest 50). */
export async function messagePage(c: Chats, viewer: Viewer, roomId: number, start: number): Promise<{ messages: ChatMessage[] }> {
  const { db } = c.ctx;
  const { room, member } = await access(c.ctx, viewer, roomId);
  const before = Math.max(0, room.message_count - start);
  if (before === 0) return { messages: [] };
  const rows = await messages.messagesPage(db, roomId, member?.joined_mid ?? 0, CHAT_LIMITS.messagesPerPage, before);
  const prev = rows[0] && rows[0].idx > 0 ? (await messages.messagesPage(db, roomId, member?.joined_mid ?? 0, 1, rows[0].idx))[0] : null;
  return { messages: await presentFor(c, viewer, roomId, rows, prev ?? null) };
}

/** A message of the room the viewer may see (404 error:invalid-mid otherwise), with the viewer's access. */
export async function visibleMessage(ctx: ChatsDeps, viewer: Viewer, roomId: number, mid: number): Promise<{ access: Access; row: MessageRow }> {
  const found = await access(ctx, viewer, roomId);
  const row = await messages.messageById(ctx.db, mid);
  if (!row || row.room_id !== roomId || row.mid <= (found.member?.joined_mid ?? 0)) throw notFound('error:invalid-mid');
  return { access: found, row };
}

/** Edits a message (its sender within chatEditDuration, administrators); the room hears of it. */
export async function edit(c: Chats, viewer: Viewer, roomId: number, mid: number, content: string): Promise<ChatMessage> {
  const { ctx } = c;
  await assertCanChat(ctx, viewer);
  await ctx.moderation.assertNotMuted(viewer.uid);
  const { row } = await visibleMessage(ctx, viewer, roomId, mid);
  await assertMayChange(ctx, viewer, row, 'edit');
  if (row.deleted) throw badRequest('error:cant-edit-chat-message');
  const text = await checkContent(ctx, content);
  const html = await render(ctx, text, row.uid);
  const edited = Date.now();
  return change(c, viewer, { ...row, content: text, content_html: html, edited }, 'edit', { content: text, content_html: html, edited });
}

/** Deletes or restores a message (its sender within chatDeleteDuration, administrators). */
export async function setDeleted(c: Chats, viewer: Viewer, roomId: number, mid: number, deleted: boolean): Promise<void> {
  const { row } = await visibleMessage(c.ctx, viewer, roomId, mid);
  await assertMayChange(c.ctx, viewer, row, 'delete');
  if (!!row.deleted === deleted) throw badRequest(deleted ? 'error:chat-deleted-already' : 'error:chat-restored-already');
  const flag = deleted ? 1 : 0;
  await change(c, viewer, { ...row, deleted: flag }, deleted ? 'delete' : 'restore', { deleted: flag });
}

/** Pins or unpins (room owners and administrators, as NodeBB). */
export async function setPinned(c: Chats, viewer: Viewer, roomId: number, mid: number, pinned: boolean): Promise<void> {
  const { row, access: found } = await visibleMessage(c.ctx, viewer, roomId, mid);
  if (!found.member?.is_owner && !viewer.isAdmin) throw forbidden('error:no-privileges');
  if (row.system || row.deleted) throw badRequest('error:invalid-mid');
  const at = pinned ? Date.now() : 0;
  await change(c, viewer, { ...row, pinned: at }, pinned ? 'pin' : 'unpin', { pinned: at });
}

/**
 * Writes a change of a message and tells the room in the same action (action:chat.changed);
 * the message as it will be is presented before the transaction. Answers the viewer's view.
 */
async function change(c: Chats, viewer: Viewer, after: MessageRow, kind: 'edit' | 'delete' | 'restore' | 'pin' | 'unpin', patch: Parameters<typeof messages.updateMessage>[2]): Promise<ChatMessage> {
  const [message] = await presentFor(c, viewer, after.room_id, [after]);
  // Live readers get what any member sees: a deleted message's content stays with its sender.
  const announced = { ...message!, self: 0, content: after.deleted ? '' : message!.content };
  await c.ctx.actions.run(`chat.${kind}`, async (w) => {
    await messages.updateMessage(w, after.mid, patch);
    await w.fire('action:chat.changed', { roomId: after.room_id, mid: after.mid, change: kind, message: announced });
  });
  return message!;
}

/** The room's pinned messages, newest pin first. */
export async function pinnedMessages(c: Chats, viewer: Viewer, roomId: number, start: number): Promise<{ messages: ChatMessage[] }> {
  const { member } = await access(c.ctx, viewer, roomId);
  const rows = await messages.pinnedMessages(c.ctx.db, roomId, member?.joined_mid ?? 0, start, CHAT_LIMITS.messagesPerPage);
  return { messages: await presentFor(c, viewer, roomId, rows) };
}

/** Messages of the room containing the words, newest first. */
export async function searchMessages(c: Chats, viewer: Viewer, roomId: number, query: string): Promise<{ messages: ChatMessage[] }> {
  const { member } = await access(c.ctx, viewer, roomId);
  const q = query.trim();
  if (!q) return { messages: [] };
  const rows = await messages.searchMessages(c.ctx.db, roomId, member?.joined_mid ?? 0, q, SEARCH_LIMIT);
  return { messages: await presentFor(c, viewer, roomId, rows) };
}

/** One message row by id, unchecked (the caller checks the viewer). */
export async function messageRow(ctx: ChatsDeps, mid: number): Promise<MessageRow | undefined> {
  return messages.messageById(ctx.db, mid);
}
