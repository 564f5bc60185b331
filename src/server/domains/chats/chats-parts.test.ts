import { describe, expect, it } from 'vitest';
import type { ChatMessage, ChatRoomListItem } from '../../../shared/schemas/chat.js';
import { useChatsForum, type Member } from './testing.js';

const kit = useChatsForum();
const { member, room, send, unread } = kit;

describe('the chats pages’ shared parts', () => {
  const page = async (m: Member, path: string) => {
    const res = await m.client.get(path);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as { rooms: ChatRoomListItem[]; unreadCount: number; messages: ChatMessage[]; users: { uid: number; canKick: boolean }[]; userCount: number; lastReadMid: number };
  };

  it('shows at once a new message, an edit, a deletion and a member added, in the room and in the list', async () => {
    const [alice, bob, carol] = [await member(), await member(), await member()];
    const r = await room(alice, bob);
    await send(alice, r.roomId, 'first');
    // Both pages read (and kept) before each change.
    expect((await page(bob, `/api/chats/${r.roomId}`)).messages.map((m) => m.content)).toEqual([expect.stringContaining('first')]);
    expect((await page(bob, '/api/chats')).rooms.find((x) => x.roomId === r.roomId)).toMatchObject({ unread: false, unreadCount: 0 });

    const second = await send(alice, r.roomId, 'second');
    const list = (await page(bob, '/api/chats')).rooms.find((x) => x.roomId === r.roomId)!;
    expect(list).toMatchObject({ unread: true, unreadCount: 1, messageCount: 2 });
    expect(list.teaser?.content).toContain('second');
    expect((await page(bob, `/api/chats/${r.roomId}`)).messages.map((m) => m.mid)).toContain(second.mid);

    await alice.client.put(`/api/v3/chats/${r.roomId}/messages/${second.mid}`, { message: 'second, edited' });
    expect((await page(bob, `/api/chats/${r.roomId}`)).messages.at(-1)!.content).toContain('second, edited');
    await alice.client.del(`/api/v3/chats/${r.roomId}/messages/${second.mid}`);
    // Others no longer see a deleted message's content; its sender still does.
    expect((await page(bob, `/api/chats/${r.roomId}`)).messages.at(-1)).toMatchObject({ deleted: 1, content: '' });
    expect((await page(alice, `/api/chats/${r.roomId}`)).messages.at(-1)).toMatchObject({ deleted: 1, self: 1, content: expect.stringContaining('edited') });

    await alice.client.post(`/api/v3/chats/${r.roomId}/users`, { uids: [carol.user.uid] });
    const opened = await page(bob, `/api/chats/${r.roomId}`);
    expect(opened.users.map((u) => u.uid)).toContain(carol.user.uid);
    expect(opened.userCount).toBe(3);
    expect((await page(carol, '/api/chats')).rooms.map((x) => x.roomId)).toContain(r.roomId);
  });

  it("drops only what a write touched: a message keeps other rooms' parts, a read keeps other members' counts", async () => {
    const registry = kit.forum.ctx.cacheRegistry;
    if (!registry.enabled) return; // PALAVER_CACHE=off: nothing is kept, nothing to drop.
    const hits = (name: string) => registry.byName(name)!.hits;
    const [alice, bob, carol] = [await member(), await member(), await member()];
    const [busy, quiet] = [await room(alice, bob), await room(alice, bob, carol)];
    await send(alice, quiet.roomId, 'in the quiet room');
    await page(bob, `/api/chats/${busy.roomId}`);
    await page(bob, `/api/chats/${quiet.roomId}`);
    expect(await unread(carol)).toBe(1);

    const sent = await send(alice, busy.roomId, 'in the busy room');
    // The busy room shows the message at once; the quiet room's part is still the one kept.
    expect((await page(bob, `/api/chats/${busy.roomId}`)).messages.map((m) => m.mid)).toContain(sent.mid);
    const before = hits('chat-rooms');
    expect((await page(bob, `/api/chats/${quiet.roomId}`)).messages.map((m) => m.content)).toEqual([expect.stringContaining('in the quiet room')]);
    expect(hits('chat-rooms')).toBe(before + 1);

    // Carol's count is kept while bob reads; her own read drops it.
    expect(await unread(carol)).toBe(1);
    await kit.forum.ctx.chats.markRead(await kit.forum.ctx.privileges.viewer(bob.user.uid), busy.roomId);
    const counted = hits('chat-unread-counts');
    expect(await unread(carol)).toBe(1);
    expect(hits('chat-unread-counts')).toBe(counted + 1);
    await kit.forum.ctx.chats.markRead(await kit.forum.ctx.privileges.viewer(carol.user.uid), quiet.roomId);
    expect(await unread(carol)).toBe(0);
  });

  it('gives each reader their own flags over the shared messages and members', async () => {
    const [alice, bob] = [await member(), await member()];
    const r = await room(alice, bob);
    await send(alice, r.roomId, 'from alice');
    await send(bob, r.roomId, 'from bob');
    const [a, b] = [await page(alice, `/api/chats/${r.roomId}`), await page(bob, `/api/chats/${r.roomId}`)];
    expect(a.messages.map((m) => m.self)).toEqual([1, 0]);
    expect(b.messages.map((m) => m.self)).toEqual([0, 1]);
    // The owner may remove the other member; the other member may remove no one.
    expect(a.users.map((u) => [u.uid, u.canKick])).toEqual([[alice.user.uid, false], [bob.user.uid, true]]);
    expect(b.users.map((u) => u.canKick)).toEqual([false, false]);
  });

  it('marks a room read on opening it only when it has unread messages (no write otherwise)', async () => {
    const [alice, bob] = [await member(), await member()];
    const r = await room(alice, bob);
    const sent = await send(alice, r.roomId, 'hello');
    let writes = 0;
    const stop = kit.forum.ctx.writes.on('chat_room_members', () => writes++);
    try {
      expect(await unread(bob)).toBe(1);
      const first = await page(bob, `/api/chats/${r.roomId}`);
      // The page answers the read state it found, lists the room as read, and marks it read.
      expect(first.lastReadMid).toBeLessThan(sent.mid);
      expect(first.rooms.find((x) => x.roomId === r.roomId)).toMatchObject({ unread: false, unreadCount: 0 });
      expect(first.unreadCount).toBe(0);
      expect(writes).toBe(1);
      expect((await page(bob, `/api/chats/${r.roomId}`)).lastReadMid).toBe(sent.mid);
      await page(bob, `/api/chats/${r.roomId}`);
      expect(writes).toBe(1);
      expect(await unread(bob)).toBe(0);
    } finally {
      stop();
    }
  });
});
