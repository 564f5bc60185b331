import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { REGISTERED } from '../domains/groups/service.js';
import { SYSTEM } from '../setup.js';
import { call, connectLive, type LiveClient } from '../test/live-client.js';
import { startTestForum, type TestForum } from '../test/harness.js';
import { realtimeOf } from './index.js';
import { chatRoom, publicChatRoom } from './rooms.js';

let forum: TestForum;
let openCid: number;
let closedCid: number;
let openTid: number;
let closedTid: number;
const open: LiveClient[] = [];

/** The rooms the server holds for a client's socket. */
function roomsOf(socket: LiveClient): Set<string> {
  const server = realtimeOf(forum.ctx)!.io.of('/').sockets.get(socket.id!);
  return new Set(server ? [...server.rooms] : []);
}

async function member(): Promise<{ socket: LiveClient; uid: number }> {
  const { client, user } = await forum.loginAs();
  const socket = await connectLive(client);
  open.push(socket);
  return { socket, uid: user.uid };
}

beforeAll(async () => {
  forum = await startTestForum();
  const admin = await forum.createUser({ admin: true });
  const adminViewer = await forum.ctx.privileges.viewer(admin.uid);
  openCid = (await forum.ctx.categories.create(SYSTEM, { name: 'Open' })).cid;
  closedCid = (await forum.ctx.categories.create(SYSTEM, { name: 'Staff' })).cid;
  await forum.ctx.privileges.take(closedCid, ['find', 'read', 'topics:read'], REGISTERED);
  openTid = (await forum.ctx.topics.create(adminViewer, { cid: openCid, title: 'Open topic', content: 'Hello everyone here' })).topic.tid;
  closedTid = (await forum.ctx.topics.create(adminViewer, { cid: closedCid, title: 'Staff topic', content: 'Staff only content' })).topic.tid;
});
afterEach(() => {
  for (const s of open.splice(0)) s.disconnect();
});
afterAll(async () => {
  await forum.close();
});

describe('meta.rooms.enter and leaveCurrent', () => {
  it('joins a readable topic, category or list, leaving the previous page room', async () => {
    const { socket, uid } = await member();
    await call(socket, 'meta.rooms.enter', { enter: `topic_${openTid}` });
    expect(roomsOf(socket).has(`topic_${openTid}`)).toBe(true);
    await call(socket, 'meta.rooms.enter', { enter: `category_${openCid}` });
    expect(roomsOf(socket).has(`topic_${openTid}`)).toBe(false);
    expect(roomsOf(socket).has(`category_${openCid}`)).toBe(true);
    await call(socket, 'meta.rooms.enter', { enter: 'recent_topics' });
    expect([...roomsOf(socket)].filter((r) => /^(topic|category)_|recent/.test(r))).toEqual(['recent_topics']);
    // The member's own room stays joined whatever page rooms come and go.
    await call(socket, 'meta.rooms.enter', { enter: `uid_${uid}` });
    await call(socket, 'meta.rooms.leaveCurrent');
    expect(roomsOf(socket).has(`uid_${uid}`)).toBe(true);
    expect(roomsOf(socket).has('recent_topics')).toBe(false);
  });

  it('refuses an invalid room name and keeps the current room', async () => {
    const { socket } = await member();
    await call(socket, 'meta.rooms.enter', { enter: `topic_${openTid}` });
    for (const bad of ['topic_abc', 'topic_0', 'chat_room_1', 'sess_x', 'online_users', 'admins', '../etc']) {
      await expect(call(socket, 'meta.rooms.enter', { enter: bad })).rejects.toMatchObject({ key: 'error:invalid-room', params: [bad] });
    }
    expect(roomsOf(socket).has(`topic_${openTid}`)).toBe(true);
  });

  it('refuses a topic or category the member cannot read, and another member’s room', async () => {
    const { socket, uid } = await member();
    await call(socket, 'meta.rooms.enter', { enter: `topic_${openTid}` });
    await expect(call(socket, 'meta.rooms.enter', { enter: `topic_${closedTid}` })).rejects.toMatchObject({ key: 'error:no-topic' });
    await expect(call(socket, 'meta.rooms.enter', { enter: `category_${closedCid}` })).rejects.toMatchObject({ key: 'error:no-category' });
    await expect(call(socket, 'meta.rooms.enter', { enter: 'topic_999999' })).rejects.toMatchObject({ key: 'error:no-topic' });
    await expect(call(socket, 'meta.rooms.enter', { enter: `uid_${uid + 1000}` })).rejects.toMatchObject({ key: 'error:not-allowed' });
    const rooms = roomsOf(socket);
    expect(rooms.has(`topic_${openTid}`)).toBe(true);
    expect(rooms.has(`topic_${closedTid}`)).toBe(false);
    expect(rooms.has(`category_${closedCid}`)).toBe(false);
  });

  it('lets an administrator into the staff topic', async () => {
    const { client } = await forum.loginAs({ admin: true });
    const socket = await connectLive(client);
    open.push(socket);
    await call(socket, 'meta.rooms.enter', { enter: `topic_${closedTid}` });
    expect(roomsOf(socket).has(`topic_${closedTid}`)).toBe(true);
  });
});

describe('modules.chats.enter and enterPublic', () => {
  it('joins only the chat rooms the chats domain allows', async () => {
    const { socket } = await member();
    await call(socket, 'modules.chats.enter', 5);
    await call(socket, 'modules.chats.enterPublic', [6, 7]);
    expect([...roomsOf(socket)].some((r) => r.startsWith('chat_'))).toBe(false);

    realtimeOf(forum.ctx)!.setChatAccess(async (_viewer, ids) => ids.map((id) => id !== 7));
    await call(socket, 'modules.chats.enter', 5);
    await call(socket, 'modules.chats.enterPublic', [6, 7]);
    expect(roomsOf(socket).has(chatRoom(5))).toBe(true);
    expect(roomsOf(socket).has(publicChatRoom(6))).toBe(true);
    expect(roomsOf(socket).has(publicChatRoom(7))).toBe(false);
    await call(socket, 'modules.chats.leave', 5);
    expect(roomsOf(socket).has(chatRoom(5))).toBe(false);
  });
});
