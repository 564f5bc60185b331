import { describe, expect, it } from 'vitest';
import {
  chatRows, GROUP_GAP_MS, lastOwnMessage, mergeMessages, patchMessage, roomsAfterMessage, roomTitle, sortRooms, systemMessage, teaserText, typingText,
} from './messages';
import type { ChatMessage, ChatRoomSummary } from './types';

const DAY1 = Date.UTC(2026, 10, 22, 10, 0);
const DAY2 = Date.UTC(2026, 10, 23, 9, 0);
let next = 1;
const msg = (fromuid: number, timestamp: number, extra: Partial<ChatMessage> = {}): ChatMessage => ({
  mid: next++, roomId: 1, fromuid, content: '<p>hi</p>', timestamp, ...extra,
});

describe('chatRows', () => {
  it('puts a separator before the first message of each day', () => {
    const rows = chatRows([msg(1, DAY1), msg(1, DAY1 + 1000), msg(2, DAY2)], 'UTC');
    expect(rows.map((r) => r.kind)).toEqual(['day', 'message', 'message', 'day', 'message']);
    expect(rows[0]).toMatchObject({ day: '2026-11-22' });
    expect(rows[3]).toMatchObject({ day: '2026-11-23' });
  });
  it('groups consecutive messages of one sender within five minutes', () => {
    const rows = chatRows([msg(1, DAY1), msg(1, DAY1 + 60_000), msg(2, DAY1 + 120_000), msg(2, DAY1 + 120_000 + GROUP_GAP_MS + 1)], 'UTC');
    const firsts = rows.flatMap((r) => (r.kind === 'message' ? [r.first] : []));
    expect(firsts).toEqual([true, false, true, true]);
  });
  it('starts a group at a new day, a reply and around system messages', () => {
    const late = Date.UTC(2026, 10, 22, 23, 59);
    const rows = chatRows(
      [msg(1, late), msg(1, late + 120_000), msg(1, late + 180_000, { toMid: 1 }), msg(1, late + 200_000, { system: 1, content: 'user-join' }), msg(1, late + 210_000)],
      'UTC',
    );
    expect(rows.flatMap((r) => (r.kind === 'message' ? [r.first] : []))).toEqual([true, true, true, true, true]);
  });
  it('is empty for no messages', () => {
    expect(chatRows([])).toEqual([]);
  });
});

describe('message lists', () => {
  it('merges by mid (a live echo of an own message appears once) in time order', () => {
    const a = msg(1, DAY1);
    const b = msg(2, DAY1 + 10);
    const merged = mergeMessages([b], [a, { ...b, content: '<p>echo</p>' }]);
    expect(merged.map((m) => m.mid)).toEqual([a.mid, b.mid]);
    expect(merged[1]!.content).toBe('<p>echo</p>');
  });
  it('patches one message and keeps the list when the mid is unknown', () => {
    const list = [msg(1, DAY1), msg(1, DAY1 + 1)];
    expect(patchMessage(list, list[1]!.mid, { deleted: 1 })[1]!.deleted).toBe(1);
    expect(patchMessage(list, 99999, { deleted: 1 })).toBe(list);
  });
  it('finds the last own message that can be edited', () => {
    const list = [msg(1, DAY1), msg(1, DAY1 + 1, { deleted: 1 }), msg(2, DAY1 + 2)];
    expect(lastOwnMessage(list, 1)?.mid).toBe(list[0]!.mid);
    expect(lastOwnMessage(list, 3)).toBeNull();
  });
});

describe('room list', () => {
  const room = (roomId: number, ts: number, extra: Partial<ChatRoomSummary> = {}): ChatRoomSummary => ({ roomId, teaser: { content: 'x', timestamp: ts }, ...extra });
  it('sorts by last activity', () => {
    expect(sortRooms([room(1, 10), room(2, 30), room(3, 20)]).map((r) => r.roomId)).toEqual([2, 3, 1]);
  });
  it('moves a room with a new message to the top, unread unless it is open or the message is own', () => {
    const rooms = [room(1, 30), room(2, 10)];
    const m = msg(5, 40, { roomId: 2, content: '<p>Hello <b>there</b></p>' });
    const after = roomsAfterMessage(rooms, m, { uid: 1 });
    expect(after.map((r) => r.roomId)).toEqual([2, 1]);
    expect(after[0]).toMatchObject({ unread: true, unreadCount: 1, teaser: { content: 'Hello there' } });
    expect(roomsAfterMessage(rooms, m, { uid: 1, openRoomId: 2 })[0]!.unread).toBe(false);
    expect(roomsAfterMessage(rooms, { ...m, fromuid: 1 }, { uid: 1 })[0]!.unread).toBe(false);
    expect(roomsAfterMessage(rooms, { ...m, roomId: 9 }, { uid: 1 })).toBe(rooms);
  });
  it('titles a room by name, else by the other members', () => {
    const users = [{ uid: 1, username: 'me' }, { uid: 2, username: 'bob' }, { uid: 3, username: 'carol', displayname: 'Carol' }].map((u) => ({ picture: null, 'icon:text': 'X', 'icon:bgColor': '#000', ...u }));
    expect(roomTitle({ roomName: 'Team', users }, 1)).toBe('Team');
    expect(roomTitle({ users }, 1)).toBe('bob, Carol');
  });
});

describe('texts', () => {
  it('makes a one-line teaser from HTML', () => {
    expect(teaserText('<p>a &amp; b</p>\n<p>c</p>')).toBe('a & b c');
    expect(teaserText('x'.repeat(200), 10)).toHaveLength(10);
  });
  it('says who is typing', () => {
    const t = (key: string, ...args: (string | number)[]) => `${key}|${args.join(',')}`;
    expect(typingText([], t)).toBe('');
    expect(typingText(['alice'], t)).toBe('modules:chat.user-typing-1|alice');
    expect(typingText(['alice', 'bob'], t)).toBe('modules:chat.user-typing-2|alice,bob');
    expect(typingText(['a', 'b', 'c'], t)).toBe('modules:chat.user-typing-n|a,2');
  });
  it('reads system messages', () => {
    expect(systemMessage('user-join')).toEqual({ key: 'modules:chat.system.user-join', arg: undefined });
    expect(systemMessage('<p>room-rename, New name</p>')).toEqual({ key: 'modules:chat.system.room-rename', arg: 'New name' });
    expect(systemMessage('hello')).toBeNull();
  });
});
