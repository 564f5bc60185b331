import { describe, expect, it, vi } from 'vitest';
import type { ChatMessage, ChatRoom, ChatRoomFull, ChatRoomListItem } from '../../../shared/schemas/chat.js';
import { ADMINISTRATORS } from '../groups/service.js';
import { useChatsForum, type Member } from './testing.js';

const kit = useChatsForum();
const { member, room, send, rooms, unread, messageCount } = kit;

describe('rooms', () => {
  it('creates a direct message room, reuses it, and lists it with unread counts and a teaser', async () => {
    const [alice, bob] = [await member(), await member()];
    const r = await room(alice, bob);
    expect(r).toMatchObject({ roomName: '', public: false, groupChat: false, userCount: 2, notificationSetting: 2 });
    // The second "chat with" (from either side) answers the same room.
    expect((await room(bob, alice)).roomId).toBe(r.roomId);
    expect((await bob.client.get(`/api/v3/users/${alice.user.uid}/chat`)).body.response).toEqual({ roomId: r.roomId });

    const m1 = await send(alice, r.roomId, 'Hello **bob**');
    expect(m1).toMatchObject({ roomId: r.roomId, fromuid: alice.user.uid, self: 1, deleted: 0, system: 0, edited: 0, newSet: true, isOwner: true });
    // NodeBB's MessageObject exactly: reply and pin fields only when set.
    expect(Object.keys(m1).sort()).toEqual(['content', 'deleted', 'edited', 'editedISO', 'fromUser', 'fromuid', 'isOwner', 'messageId', 'mid', 'newSet', 'roomId', 'self', 'system', 'timestamp', 'timestampISO']);
    expect(m1.content).toContain('<strong>bob</strong>');
    expect(m1.fromUser.username).toBe(alice.user.username);
    await send(alice, r.roomId, 'Are you there?');
    expect(await unread(bob)).toBe(1);
    expect(await unread(alice)).toBe(0);
    const [item] = await rooms(bob);
    expect(item).toMatchObject({ roomId: r.roomId, unread: true, unreadCount: 2, usernames: alice.user.username });
    expect(item!.teaser).toMatchObject({ fromuid: alice.user.uid, content: 'Are you there?' });

    // Reading marks it read; marking unread brings it back.
    expect((await bob.client.del(`/api/v3/chats/${r.roomId}/state`)).status).toBe(200);
    expect(await unread(bob)).toBe(0);
    expect((await bob.client.put(`/api/v3/chats/${r.roomId}/state`)).status).toBe(200);
    expect(await unread(bob)).toBe(1);
  });

  it('sorts the list by last activity', async () => {
    const [alice, bob, carol] = [await member(), await member(), await member()];
    const withBob = await room(alice, bob);
    const withCarol = await room(alice, carol);
    await send(alice, withCarol.roomId, 'first');
    // The second message must carry a later millisecond than the first.
    const first = Date.now();
    await vi.waitFor(() => expect(Date.now()).toBeGreaterThan(first), { interval: 1 });
    await send(alice, withBob.roomId, 'second');
    expect((await rooms(alice)).map((x) => x.roomId)).toEqual([withBob.roomId, withCarol.roomId]);
  });

  it("puts the member's unread room count in every HTML page's data (unreadChatCount), not in /api page data", async () => {
    const [alice, bob, carol] = [await member(), await member(), await member()];
    const withBob = await room(alice, bob);
    const withCarol = await room(carol, bob);
    // The page data embedded in the HTML document: the first render, before any socket.
    const pageCount = async (m: { client: Member['client'] }, path: string) => {
      const res = await m.client.get(path);
      expect(res.status).toBe(200);
      return JSON.parse(res.text.match(/<script id="page-data" type="application\/json">(.*?)<\/script>/s)![1]!).unreadChatCount as number | undefined;
    };
    expect(await pageCount(bob, '/recent')).toBe(0);
    await send(alice, withBob.roomId, 'one');
    await send(alice, withBob.roomId, 'two');
    await send(carol, withCarol.roomId, 'three');
    // Rooms, not messages: two rooms with unread messages.
    expect(await pageCount(bob, '/recent')).toBe(2);
    expect(await pageCount(bob, '/categories')).toBe(2);
    // In-page navigation's page data leaves it out (NodeBB's page data has no such field).
    expect((await bob.client.get('/api/recent')).body.unreadChatCount).toBeUndefined();
    // The sender's own message leaves their count alone; reading a room lowers it.
    expect(await pageCount(alice, '/recent')).toBe(0);
    expect((await bob.client.del(`/api/v3/chats/${withBob.roomId}/state`)).status).toBe(200);
    expect(await pageCount(bob, '/recent')).toBe(1);
    // A visitor's page has none.
    expect(await pageCount({ client: kit.forum.client() }, '/recent')).toBeUndefined();
  });

  it('renames (owners only), adds and removes members with system messages', async () => {
    const [alice, bob, carol] = [await member(), await member(), await member()];
    const r = await room(alice, bob);
    expect((await bob.client.put(`/api/v3/chats/${r.roomId}`, { name: 'Plans' })).body.status.key).toBe('error:no-privileges');
    const renamed = await alice.client.put(`/api/v3/chats/${r.roomId}`, { name: 'Plans' });
    expect(renamed.status).toBe(200);
    expect((renamed.body.response as ChatRoomFull).roomName).toBe('Plans');
    const added = await alice.client.post(`/api/v3/chats/${r.roomId}/users`, { uids: [carol.user.uid] });
    expect(added.status).toBe(200);
    expect(added.body.response.users.map((u: { uid: number }) => u.uid).sort()).toEqual([alice.user.uid, bob.user.uid, carol.user.uid].sort());
    const full = (await carol.client.get(`/api/v3/chats/${r.roomId}`)).body.response as ChatRoomFull;
    expect(full.groupChat).toBe(true);
    // Carol joined after the rename: she sees only her own join message.
    expect(full.messages.map((m) => m.content)).toEqual([`[[modules:chat.system.user-join, ${carol.user.username}]]`]);
    const all = (await alice.client.get(`/api/v3/chats/${r.roomId}`)).body.response as ChatRoomFull;
    expect(all.messages.map((m) => m.system)).toEqual([1, 1]);
    expect(all.messages[0]!.content).toBe(`[[modules:chat.system.room-rename, Plans, ${alice.user.username}]]`);
    // Kick (owner), then bob leaves by himself.
    expect((await bob.client.del(`/api/v3/chats/${r.roomId}/users/${carol.user.uid}`)).status).toBe(403);
    expect((await alice.client.del(`/api/v3/chats/${r.roomId}/users/${carol.user.uid}`)).status).toBe(200);
    expect((await carol.client.get(`/api/v3/chats/${r.roomId}`)).status).toBe(403);
    expect((await bob.client.del(`/api/v3/chats/${r.roomId}/users`, { uids: [bob.user.uid] })).status).toBe(200);
    expect((await alice.client.get(`/api/v3/chats/${r.roomId}/users`)).body.response.users.map((u: { uid: number }) => u.uid)).toEqual([alice.user.uid]);
  });

  it('toggles owners and the notification setting', async () => {
    const [alice, bob] = [await member(), await member()];
    const r = await room(alice, bob);
    expect((await bob.client.put(`/api/v3/chats/${r.roomId}/owners/${bob.user.uid}`)).status).toBe(403);
    expect((await alice.client.put(`/api/v3/chats/${r.roomId}/owners/${bob.user.uid}`)).status).toBe(200);
    const users = (await alice.client.get(`/api/v3/chats/${r.roomId}/users`)).body.response.users as { uid: number; isOwner: boolean }[];
    expect(users.find((u) => u.uid === bob.user.uid)?.isOwner).toBe(true);
    expect((await bob.client.put(`/api/v3/chats/${r.roomId}/watch`, { value: 1 })).status).toBe(200);
    expect(((await bob.client.get(`/api/v3/chats/${r.roomId}`)).body.response as ChatRoomFull).notificationSetting).toBe(1);
    expect((await bob.client.del(`/api/v3/chats/${r.roomId}/watch`)).status).toBe(200);
    expect(((await bob.client.get(`/api/v3/chats/${r.roomId}`)).body.response as ChatRoomFull).notificationSetting).toBe(2);
    expect((await bob.client.put(`/api/v3/chats/${r.roomId}/watch`, { value: 7 })).status).toBe(400);
  });
});

describe('bad input', () => {
  it('answers 403/404/400 with a key and writes nothing', async () => {
    const [alice, bob, eve] = [await member(), await member(), await member()];
    const r = await room(alice, bob);
    const m = await send(alice, r.roomId, 'mine');
    const before = await messageCount();
    const notMember = await eve.client.post(`/api/v3/chats/${r.roomId}`, { message: 'hi' });
    expect([notMember.status, notMember.body.status.key]).toEqual([403, 'error:no-privileges']);
    expect((await eve.client.get(`/api/v3/chats/${r.roomId}`)).status).toBe(403);
    expect((await eve.client.get(`/api/v3/chats/${r.roomId}/messages`)).status).toBe(403);
    const unknown = await alice.client.post('/api/v3/chats/999999', { message: 'hi' });
    expect([unknown.status, unknown.body.status.key]).toEqual([404, 'error:no-chat-room']);
    const empty = await alice.client.post(`/api/v3/chats/${r.roomId}`, { message: '   ' });
    expect([empty.status, empty.body.status.key]).toEqual([400, 'error:invalid-chat-message']);
    const long = await alice.client.post(`/api/v3/chats/${r.roomId}`, { message: 'x'.repeat(1001) });
    expect([long.status, long.body.status.key, long.body.status.params]).toEqual([400, 'error:chat-message-too-long', [1000]]);
    const others = await bob.client.put(`/api/v3/chats/${r.roomId}/messages/${m.mid}`, { message: 'not mine' });
    expect([others.status, others.body.status.key]).toEqual([403, 'error:cant-edit-chat-message']);
    expect((await bob.client.del(`/api/v3/chats/${r.roomId}/messages/${m.mid}`)).status).toBe(403);
    expect((await alice.client.post(`/api/v3/chats/${r.roomId}`, {})).status).toBe(400);
    expect((await alice.client.post('/api/v3/chats', { uids: [] })).body.status.key).toBe('error:no-users-selected');
    expect((await alice.client.post('/api/v3/chats', { uids: [987654] })).status).toBe(404);
    expect(await messageCount()).toBe(before);
    expect((await kit.forum.client().get(`/api/v3/chats/${r.roomId}`)).status).toBe(401);
  });
});

describe('messages', () => {
  it('edits within the window, deletes, restores, pins, answers raw and replies', async () => {
    const [alice, bob] = [await member(), await member()];
    const r = await room(alice, bob);
    const m = await send(alice, r.roomId, 'first draft');
    const edited = await alice.client.put(`/api/v3/chats/${r.roomId}/messages/${m.mid}`, { message: 'final _text_' });
    expect(edited.status).toBe(200);
    expect(edited.body.response.content).toContain('<em>text</em>');
    expect(edited.body.response.edited).toBeGreaterThan(0);
    expect((await bob.client.get(`/api/v3/chats/${r.roomId}/messages/${m.mid}/raw`)).body.response).toEqual({ content: 'final _text_' });

    const reply = await send(bob, r.roomId, 'a reply', { toMid: m.mid });
    expect(reply.toMid).toBe(m.mid);
    expect(reply.parent).toMatchObject({ mid: m.mid, fromuid: alice.user.uid });

    expect((await alice.client.del(`/api/v3/chats/${r.roomId}/messages/${m.mid}`)).status).toBe(200);
    expect((await bob.client.get(`/api/v3/chats/${r.roomId}/messages/${m.mid}`)).body.response).toMatchObject({ deleted: 1, content: '' });
    expect((await alice.client.get(`/api/v3/chats/${r.roomId}/messages/${m.mid}`)).body.response.content).toContain('text');
    expect((await alice.client.del(`/api/v3/chats/${r.roomId}/messages/${m.mid}`)).body.status.key).toBe('error:chat-deleted-already');
    expect((await alice.client.post(`/api/v3/chats/${r.roomId}/messages/${m.mid}`)).status).toBe(200);

    // Pins: room owners.
    expect((await bob.client.put(`/api/v3/chats/${r.roomId}/messages/${reply.mid}/pin`)).status).toBe(403);
    expect((await alice.client.put(`/api/v3/chats/${r.roomId}/messages/${reply.mid}/pin`)).status).toBe(200);
    expect((await bob.client.get(`/api/v3/chats/${r.roomId}/messages/pinned`)).body.response.messages.map((x: ChatMessage) => x.mid)).toEqual([reply.mid]);
    expect((await alice.client.del(`/api/v3/chats/${r.roomId}/messages/${reply.mid}/pin`)).status).toBe(200);
    expect((await bob.client.get(`/api/v3/chats/${r.roomId}/messages/pinned`)).body.response.messages).toEqual([]);

    // The edit window.
    await kit.forum.ctx.settings.set({ chatEditDuration: 60, chatDeleteDuration: 60 });
    await kit.forum.ctx.db.updateTable('chat_messages').set({ created: Date.now() - 120_000 }).where('mid', '=', reply.mid).execute();
    const late = await bob.client.put(`/api/v3/chats/${r.roomId}/messages/${reply.mid}`, { message: 'too late' });
    expect([late.status, late.body.status.key, late.body.status.params]).toEqual([400, 'error:chat-edit-duration-expired', [60]]);
    expect((await bob.client.del(`/api/v3/chats/${r.roomId}/messages/${reply.mid}`)).body.status.key).toBe('error:chat-delete-duration-expired');
    await kit.forum.ctx.settings.set({ chatEditDuration: 0, chatDeleteDuration: 0 });
  });

  it('pages backwards, jumps to an index, and searches', async () => {
    const [alice, bob] = [await member(), await member()];
    const r = await room(alice, bob);
    for (let i = 0; i < 60; i++) await send(i % 2 ? bob : alice, r.roomId, `message number ${i}${i === 7 ? ' with a Needle' : ''}`);
    const newest = (await alice.client.get(`/api/v3/chats/${r.roomId}/messages`)).body.response.messages as ChatMessage[];
    expect(newest).toHaveLength(50);
    expect(newest.at(-1)!.index).toBe(59);
    expect(newest[0]!.index).toBe(10);
    const older = (await alice.client.get(`/api/v3/chats/${r.roomId}/messages?start=50`)).body.response.messages as ChatMessage[];
    expect(older.map((m) => m.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const page = await alice.client.get(`/api/chats/${r.roomId}/8`);
    expect(page.status).toBe(200);
    expect(page.body.template.name).toBe('chats');
    expect(page.body.scrollToIndex).toBe(7);
    expect(page.body.messages.some((m: ChatMessage) => m.index === 7)).toBe(true);
    expect(page.body.rooms.map((x: ChatRoomListItem) => x.roomId)).toContain(r.roomId);
    const found = await bob.client.get(`/api/v3/search/chats/${r.roomId}/messages?query=needle`);
    expect(found.body.response.messages.map((m: ChatMessage) => m.index)).toEqual([7]);
    expect((await bob.client.get(`/api/v3/search/chats/${r.roomId}/messages?query=%25`)).body.response.messages).toEqual([]);
  });
});

describe('rules', () => {
  it('refuses members who blocked you, and followed-only members unless they follow you', async () => {
    const [alice, bob, carol] = [await member(), await member(), await member()];
    expect((await bob.client.put(`/api/v3/users/${bob.user.uid}/block`)).body.status.key).toBe('error:cannot-block-self');
    expect((await bob.client.put(`/api/v3/users/${alice.user.uid}/block`)).status).toBe(200);
    expect((await bob.client.put(`/api/v3/users/${alice.user.uid}/block`)).body.status.key).toBe('error:already-blocked');
    const blocked = await alice.client.post('/api/v3/chats', { uids: [bob.user.uid] });
    expect([blocked.status, blocked.body.status.key]).toEqual([400, 'error:chat-user-blocked']);
    // An existing direct room stops taking alice's messages too.
    expect((await bob.client.del(`/api/v3/users/${alice.user.uid}/block`)).status).toBe(200);
    const r = await room(alice, bob);
    await bob.client.put(`/api/v3/users/${alice.user.uid}/block`);
    expect((await alice.client.post(`/api/v3/chats/${r.roomId}`, { message: 'hello?' })).body.status.key).toBe('error:chat-user-blocked');

    await kit.forum.ctx.users.saveSettings(await kit.forum.ctx.privileges.viewer(carol.user.uid), carol.user.uid, { disableIncomingChats: true });
    expect((await alice.client.post('/api/v3/chats', { uids: [carol.user.uid] })).body.status.key).toBe('error:chat-restricted');
    expect((await carol.client.put(`/api/v3/users/${alice.user.uid}/follow`)).status).toBe(200);
    expect((await alice.client.post('/api/v3/chats', { uids: [carol.user.uid] })).status).toBe(200);
  });

  it('limits the message rate across the forum (chatMessageDelay)', async () => {
    const [alice, bob] = [await member(), await member()];
    const r = await room(alice, bob);
    await kit.forum.ctx.settings.set({ chatMessageDelay: 5000 });
    try {
      expect((await alice.client.post(`/api/v3/chats/${r.roomId}`, { message: 'one' })).status).toBe(200);
      expect((await alice.client.post(`/api/v3/chats/${r.roomId}`, { message: 'two' })).status).toBe(200);
      const third = await alice.client.post(`/api/v3/chats/${r.roomId}`, { message: 'three' });
      expect([third.status, third.body.status.key]).toEqual([429, 'error:too-many-messages']);
    } finally {
      await kit.forum.ctx.settings.set({ chatMessageDelay: 0 });
    }
  });

  it('needs the chat privilege, and chat turned on', async () => {
    const [alice, bob] = [await member(), await member()];
    await kit.forum.ctx.settings.set({ disableChat: true });
    expect((await alice.client.post('/api/v3/chats', { uids: [bob.user.uid] })).body.status.key).toBe('error:chat-disabled');
    await kit.forum.ctx.settings.set({ disableChat: false });
  });

  it('lets an administrator read any room, logged as an event', async () => {
    const [alice, bob, admin] = [await member(), await member(), await member({ admin: true })];
    const r = await room(alice, bob);
    await send(alice, r.roomId, 'private words');
    expect((await bob.client.get(`/api/v3/admin/chats/${r.roomId}`)).status).toBe(403);
    const res = await admin.client.get(`/api/v3/admin/chats/${r.roomId}`);
    expect(res.status).toBe(200);
    expect(res.body.response.messages.map((m: ChatMessage) => m.content)).toEqual([expect.stringContaining('private words')]);
    const events = await kit.forum.ctx.db.selectFrom('events').selectAll().where('type', '=', 'chat-room-read').execute();
    expect(events.map((e) => [e.uid, JSON.parse(e.data).roomId])).toContainEqual([admin.user.uid, r.roomId]);
    // NodeBB's /user/:userslug/chats: another member's page is for administrators only.
    expect((await bob.client.get(`/api/user/${alice.user.userslug}/chats`)).status).toBe(403);
    const page = await admin.client.get(`/api/user/${alice.user.userslug}/chats/${r.roomId}`);
    expect(page.status).toBe(200);
    expect(page.body.rooms.map((x: ChatRoomListItem) => x.roomId)).toContain(r.roomId);
    expect(page.body.messages.map((m: ChatMessage) => m.content)).toEqual([expect.stringContaining('private words')]);
    expect((await alice.client.get(`/api/user/${alice.user.userslug}/chats/${r.roomId}`)).status).toBe(200);
    // NodeBB's DELETE /admin/chats/{roomId}: the room and its messages go (logged).
    expect((await alice.client.del(`/api/v3/admin/chats/${r.roomId}`)).status).toBe(403);
    expect((await admin.client.del(`/api/v3/admin/chats/${r.roomId}`)).status).toBe(200);
    expect((await alice.client.get(`/api/v3/chats/${r.roomId}`)).status).toBe(404);
    expect(await kit.forum.ctx.db.selectFrom('chat_messages').select('mid').where('room_id', '=', r.roomId).execute()).toEqual([]);
    expect((await kit.forum.ctx.db.selectFrom('events').select('uid').where('type', '=', 'chat-room-delete').execute()).map((e) => e.uid)).toEqual([admin.user.uid]);
  });

  it('lets an administrator open a public room to a group; its members join it', async () => {
    const [admin, alice] = [await member({ admin: true }), await member()];
    await kit.forum.ctx.groups.join(ADMINISTRATORS, admin.user.uid).catch(() => undefined);
    const res = await admin.client.post('/api/v3/chats', { uids: [], roomName: 'Lobby', type: 'public', groups: ['registered-users'] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const lobby = res.body.response as ChatRoom;
    expect(lobby).toMatchObject({ public: true, groups: ['registered-users'] });
    expect((await alice.client.post('/api/v3/chats', { uids: [], roomName: 'Mine', type: 'public' })).status).toBe(403);
    const page = await alice.client.get('/api/chats');
    expect(page.body.publicRooms.map((x: { roomId: number }) => x.roomId)).toContain(lobby.roomId);
    expect((await alice.client.get(`/api/v3/chats/${lobby.roomId}`)).status).toBe(200);
    await send(alice, lobby.roomId, 'hello lobby');
  });
});

describe('search and sort', () => {
  it("finds room members as NodeBB's UserObjectSlim with isOwner and canKick (GET /search/chats/{roomId}/users)", async () => {
    const [alice, bob, carol] = [await member(), await member(), await member()];
    const r = await room(alice, bob, carol);
    const search = async (m: Member, query = '') => {
      const res = await m.client.get(`/api/v3/search/chats/${r.roomId}/users?query=${encodeURIComponent(query)}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.response.users as Record<string, unknown>[];
    };
    const all = await search(alice);
    expect(all.map((u) => u.uid)).toEqual([alice.user.uid, bob.user.uid, carol.user.uid]);
    for (const u of all) {
      expect(Object.keys(u).sort()).toEqual(
        ['banned', 'banned:expire', 'banned_until', 'banned_until_readable', 'canKick', 'displayname', 'email:confirmed', 'flags', 'icon:bgColor', 'icon:text', 'isLocal', 'isOwner', 'joindate', 'joindateISO', 'lastonline', 'lastonlineISO', 'picture', 'postcount', 'reputation', 'status', 'uid', 'username', 'userslug'],
      );
    }
    expect(all[1]).toMatchObject({ uid: bob.user.uid, username: bob.user.username, userslug: bob.user.userslug, isLocal: true, postcount: 0, reputation: 0, banned: false, isOwner: false, canKick: true });
    // The owner kicks anyone but themselves; a plain member kicks no one.
    expect(all.map((u) => [u.isOwner, u.canKick])).toEqual([[true, false], [false, true], [false, true]]);
    expect((await search(bob)).map((u) => u.canKick)).toEqual([false, false, false]);
    expect((await search(bob, carol.user.username.toUpperCase())).map((u) => u.uid)).toEqual([carol.user.uid]);
    const outsider = await member();
    expect((await outsider.client.get(`/api/v3/search/chats/${r.roomId}/users`)).status).toBe(403);
  });

  it('lets an administrator order the public rooms (PUT /chats/sort); the chats page lists them in that order', async () => {
    const [admin, alice] = [await member({ admin: true }), await member()];
    const open = async (roomName: string) => {
      const res = await admin.client.post('/api/v3/chats', { uids: [], roomName, type: 'public' });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return (res.body.response as ChatRoom).roomId;
    };
    const [first, second] = [await open('First'), await open('Second')];
    const listed = async () => ((await alice.client.get('/api/chats')).body.publicRooms as { roomId: number }[]).map((x) => x.roomId).filter((id) => id === first || id === second);
    expect(await listed()).toEqual([first, second]);

    const res = await admin.client.put('/api/v3/chats/sort', { roomIds: [first, second], scores: [2, 1] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ status: { code: 'ok', message: 'OK' }, response: {} });
    expect(await listed()).toEqual([second, first]);
    const events = await kit.forum.ctx.db.selectFrom('events').selectAll().where('type', '=', 'chat-rooms-sort').execute();
    expect(events.map((e) => [e.uid, JSON.parse(e.data)])).toEqual([[admin.user.uid, { roomIds: [first, second], scores: [2, 1] }]]);

    // A member may not; a private room, an unknown room and mismatched lists are refused, and nothing moves.
    const denied = await alice.client.put('/api/v3/chats/sort', { roomIds: [first, second], scores: [0, 5] });
    expect(denied.status).toBe(403);
    expect(denied.body.status.key).toBe('error:no-privileges');
    const dm = await room(admin, alice);
    for (const [body, key] of [
      [{ roomIds: [first, dm.roomId], scores: [0, 1] }, 'error:not-a-public-chat-room'],
      [{ roomIds: [first, 999_999], scores: [0, 1] }, 'error:not-a-public-chat-room'],
      [{ roomIds: [first, second], scores: [0] }, 'error:invalid-data'],
    ] as const) {
      const bad = await admin.client.put('/api/v3/chats/sort', body);
      expect(bad.status, JSON.stringify(bad.body)).toBe(400);
      expect(bad.body.status.key).toBe(key);
    }
    expect((await admin.client.put('/api/v3/chats/sort', { roomIds: [first], scores: [1.5] })).status).toBe(400);
    expect((await admin.client.put('/api/v3/chats/sort', { roomIds: Array.from({ length: 101 }, (_, i) => i + 1), scores: Array.from({ length: 101 }, () => 0) })).status).toBe(400);
    expect(await listed()).toEqual([second, first]);
  });
});
