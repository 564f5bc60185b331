import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { ChatMessage, ChatRoom, ChatRoomListItem } from '../../../shared/schemas/chat.js';
import { startTestForum, type TestForum } from '../../test/harness.js';
import type { HttpClient } from '../../test/http-client.js';
import { connectLive, type LiveClient } from '../../test/live-client.js';
import type { UserRow } from '../users/store.js';

/** A signed-in member with their HTTP client. */
export interface Member {
  client: HttpClient;
  user: UserRow;
}

/**
 * The chats tests' forum and helpers: a forum started before the file's tests (no flood control,
 * no notification delay), its sockets closed after each test, and the steps tests take through
 * the API (members, rooms, messages, lists, unread counts).
 */
export function useChatsForum() {
  let forum: TestForum | undefined;
  const sockets: LiveClient[] = [];
  beforeAll(async () => {
    forum = await startTestForum();
    // No flood control except in the rate limit test.
    await forum.ctx.settings.set({ chatMessageDelay: 0, notificationSendDelay: 0 });
  });
  afterEach(() => {
    for (const s of sockets.splice(0)) s.disconnect();
  });
  afterAll(async () => {
    await forum?.close();
  });
  const kit = {
    /** The forum (started before the tests). */
    get forum(): TestForum {
      if (!forum) throw new Error('the chats test forum is not started');
      return forum;
    },
    /** A new signed-in member. */
    member: async (opts: { admin?: boolean } = {}): Promise<Member> => kit.forum.loginAs(opts),
    /** A socket of the member, closed after the test. */
    live: async (m: Member): Promise<LiveClient> => {
      const socket = await connectLive(m.client);
      sockets.push(socket);
      return socket;
    },
    /** A room the owner makes with the others (POST /api/v3/chats). */
    room: async (owner: Member, ...others: Member[]): Promise<ChatRoom> => {
      const res = await owner.client.post('/api/v3/chats', { uids: others.map((o) => o.user.uid) });
      expect(res.status).toBe(200);
      return res.body.response as ChatRoom;
    },
    /** A message the member sends. */
    send: async (m: Member, roomId: number, message: string, extra: Record<string, unknown> = {}): Promise<ChatMessage> => {
      const res = await m.client.post(`/api/v3/chats/${roomId}`, { message, ...extra });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.response as ChatMessage;
    },
    /** The member's room list. */
    rooms: async (m: Member): Promise<ChatRoomListItem[]> => {
      const res = await m.client.get('/api/v3/chats');
      expect(res.status).toBe(200);
      return res.body.response.rooms;
    },
    /** The member's count of rooms with unread messages. */
    unread: async (m: Member): Promise<number> => {
      const res = await m.client.get('/api/v3/chats/unread');
      expect(res.status).toBe(200);
      return res.body.response.count;
    },
    /** How many chat messages the forum holds. */
    messageCount: async (): Promise<number> => {
      const row = await kit.forum.ctx.db.selectFrom('chat_messages').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
      return Number(row?.n ?? 0);
    },
  };
  return kit;
}
