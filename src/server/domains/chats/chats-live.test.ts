import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../shared/schemas/chat.js';
import { call, delivered, nextEvent } from '../../test/live-client.js';
import { useChatsForum, type Member } from './testing.js';

const kit = useChatsForum();
const { member, live, room, send } = kit;

describe('notifications', () => {
  it('notifies members by their room setting (all, mentions only, none), merged per room', async () => {
    const [alice, bob, carol, dave] = [await member(), await member(), await member(), await member()];
    const r = await room(alice, bob, carol, dave);
    await carol.client.put(`/api/v3/chats/${r.roomId}/watch`, { value: 1 });
    await dave.client.put(`/api/v3/chats/${r.roomId}/watch`, { value: 0 });
    await send(alice, r.roomId, 'one');
    await send(alice, r.roomId, `two for @${carol.user.username}`);
    await kit.forum.ctx.hooks.idle();
    const list = async (m: Member) => (await m.client.get('/api/v3/notifications')).body.response.unread as { type: string; path: string }[];
    expect((await list(bob)).filter((n) => n.type === 'new-chat')).toHaveLength(1);
    expect((await list(carol)).filter((n) => n.type === 'new-chat')).toHaveLength(1);
    expect((await list(dave)).filter((n) => n.type === 'new-chat')).toHaveLength(0);
    expect((await list(alice)).filter((n) => n.type === 'new-chat')).toHaveLength(0);
    // Opening the room reads its chat notification too: one message never counts twice.
    const unreadBefore = (await bob.client.get('/api/v3/notifications/count')).body.response.unread as number;
    expect((await bob.client.get(`/api/chats/${r.roomId}`)).status).toBe(200);
    await kit.forum.ctx.hooks.idle();
    expect((await list(bob)).filter((n) => n.type === 'new-chat')).toHaveLength(0);
    expect((await bob.client.get('/api/v3/notifications/count')).body.response.unread).toBe(unreadBefore - 1);
    expect((await list(carol)).filter((n) => n.type === 'new-chat')).toHaveLength(1);
  });
});

describe('delayed notifications', () => {
  it('tells, after notificationSendDelay, only the members who have not read the message by then', async () => {
    const [alice, bob, carol] = [await member(), await member(), await member()];
    const r = await room(alice, bob, carol);
    await kit.forum.ctx.settings.set({ notificationSendDelay: 60 });
    try {
      await send(alice, r.roomId, 'are you both there?');
      // Bob has the room open: he reads it before the delay is over.
      expect((await bob.client.del(`/api/v3/chats/${r.roomId}/state`)).status).toBe(200);
      const later = Date.now() + 61_000;
      // Other tests' jobs (mail) are due too: run them all.
      while ((await kit.forum.ctx.jobs.runDue(later)) > 0);
      await kit.forum.ctx.hooks.idle();
      const chats = async (m: Member) => ((await m.client.get('/api/v3/notifications')).body.response.unread as { type: string; path: string }[]).filter((n) => n.type === 'new-chat');
      expect(await chats(bob)).toEqual([]);
      expect((await chats(carol)).map((n) => n.path)).toEqual([`/chats/${r.roomId}`]);
    } finally {
      await kit.forum.ctx.settings.set({ notificationSendDelay: 0 });
    }
  });
});

describe('live', () => {
  it('delivers messages, edits, deletes, typing and read markers to every socket of every member', async () => {
    const [alice, bob, eve] = [await member(), await member(), await member()];
    const r = await room(alice, bob);
    const [bob1, bob2, aliceTab, eveTab] = [await live(bob), await live(bob), await live(alice), await live(eve)];
    await call(bob1, 'modules.chats.enter', r.roomId);
    await call(aliceTab, 'modules.chats.enter', r.roomId);
    await call(eveTab, 'modules.chats.enter', r.roomId);
    const eveGot: unknown[] = [];
    eveTab.on('event:chats.receive', (d: unknown) => eveGot.push(d));
    const got = [nextEvent<{ message: ChatMessage }>(bob1, 'event:chats.receive'), nextEvent<{ message: ChatMessage }>(bob2, 'event:chats.receive')];
    const badge = nextEvent<{ count: number; roomId: number }>(bob2, 'event:unread.updateChatCount');
    const m = await send(alice, r.roomId, 'live hello');
    for (const d of await Promise.all(got)) expect(d).toMatchObject({ roomId: r.roomId, fromUid: alice.user.uid, public: false, message: { mid: m.mid, content: expect.stringContaining('live hello') } });
    expect(await badge).toMatchObject({ count: 1, roomId: r.roomId });

    const typing = nextEvent<{ uid: number; typing: boolean }>(bob1, 'event:chats.typing');
    await alice.client.put(`/api/v3/chats/${r.roomId}/typing`, { typing: true });
    expect(await typing).toMatchObject({ roomId: r.roomId, uid: alice.user.uid, username: alice.user.username, typing: true });

    const edit = nextEvent<{ messages: ChatMessage[] }>(bob1, 'event:chats.edit');
    await alice.client.put(`/api/v3/chats/${r.roomId}/messages/${m.mid}`, { message: 'live edited' });
    expect((await edit).messages[0]!.content).toContain('live edited');
    const del = nextEvent<number>(bob1, 'event:chats.delete');
    await alice.client.del(`/api/v3/chats/${r.roomId}/messages/${m.mid}`);
    expect(await del).toBe(m.mid);

    const read = [nextEvent(bob1, 'event:chats.markedAsRead'), nextEvent<{ count: number }>(bob2, 'event:unread.updateChatCount')];
    await bob.client.del(`/api/v3/chats/${r.roomId}/state`);
    const [marked, count] = await Promise.all(read);
    expect(marked).toEqual({ roomId: r.roomId });
    expect(count).toMatchObject({ count: 0 });
    expect(eveGot).toEqual([]);

    // A member removed stops following the room.
    const carol = await member();
    await alice.client.post(`/api/v3/chats/${r.roomId}/users`, { uids: [carol.user.uid] });
    const carolTab = await live(carol);
    await call(carolTab, 'modules.chats.enter', r.roomId);
    await alice.client.del(`/api/v3/chats/${r.roomId}/users/${carol.user.uid}`);
    await delivered(kit.forum, carolTab);
    const carolGot: unknown[] = [];
    carolTab.on('event:chats.receive', (d: unknown) => carolGot.push(d));
    const toBob = nextEvent(bob1, 'event:chats.receive');
    await send(alice, r.roomId, 'after carol left');
    await toBob;
    await delivered(kit.forum, carolTab);
    expect(carolGot).toEqual([]);
  });
});
