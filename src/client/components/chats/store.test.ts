import { describe, expect, it } from 'vitest';
import type { Runtime } from '../../app/runtime';
import { setDocumentTitle, watchTitleCount } from '../../navigation/title-count';
import { notificationsOf } from '../../state/notifications';
import { applyRoomMark, applyRoomRead, chatsOf, dropRoom, receiveChatCount, receiveChatMessage, roomsOf, setRoomOpen, setRooms } from './store';

const rt = () => ({}) as Runtime;
const message = (roomId: number, fromuid: number, mid: number) => ({ mid, roomId, fromuid, content: '<p>hi</p>', timestamp: 1000 + mid });

describe('chats store', () => {
  it('moves a room with a new message to the top and marks it unread unless it is own or open', () => {
    const r = rt();
    setRooms(r, [{ roomId: 1, teaser: null, timestamp: 5 }, { roomId: 2, timestamp: 2 }]);
    receiveChatMessage(r, message(2, 5, 10), 7);
    expect(chatsOf(r).get().rooms!.map((x) => [x.roomId, x.unread])).toEqual([[2, true], [1, undefined]]);
    receiveChatMessage(r, message(1, 7, 11), 7);
    expect(chatsOf(r).get().rooms!.map((x) => [x.roomId, x.unread])).toEqual([[1, false], [2, true]]);
    setRoomOpen(r, 2, true);
    receiveChatMessage(r, message(2, 5, 12), 7);
    expect(chatsOf(r).get().rooms![0]).toMatchObject({ roomId: 2, unread: false });
    applyRoomMark(r, 1, true);
    expect(chatsOf(r).get().rooms!.find((x) => x.roomId === 1)!.unread).toBe(true);
    dropRoom(r, 1);
    expect(chatsOf(r).get().rooms!.map((x) => x.roomId)).toEqual([2]);
  });
  it("starts the badge at the page data's unreadChatCount (first render, before the socket)", async () => {
    const { createStore } = await import('../../state/store');
    const withPage = (unreadChatCount?: number) => ({ page: createStore({ page: { unreadChatCount } }) }) as unknown as Runtime;
    expect(chatsOf(withPage(3)).get().unread).toBe(3);
    expect(chatsOf(withPage()).get().unread).toBe(0);
    expect(chatsOf(rt()).get().unread).toBe(0);
  });
  it('takes the unread count the server pushes, and drops it when a room is read here', () => {
    const r = rt();
    setRooms(r, [{ roomId: 1, unread: true }]);
    receiveChatCount(r, { count: 2, roomId: 1 });
    expect(chatsOf(r).get().unread).toBe(2);
    receiveChatCount(r, { count: -1 });
    receiveChatCount(r, 'x');
    expect(chatsOf(r).get().unread).toBe(2);
    applyRoomRead(r, 1);
    expect(chatsOf(r).get().unread).toBe(1);
  });
  it('reads NodeBB\'s room list answer', () => {
    expect(roomsOf({ rooms: [{ roomId: 3 }], nextStart: 20 })).toEqual([{ roomId: 3 }]);
    expect(roomsOf([{ roomId: 4 }])).toEqual([{ roomId: 4 }]);
    expect(roomsOf(null)).toEqual([]);
  });
  it('adds unread chats to the "(n)" of the document title', () => {
    const r = rt();
    const doc = { title: '' };
    setDocumentTitle(r, 'Chats | Palaver', doc);
    const stop = watchTitleCount(r, doc);
    chatsOf(r).set((s) => ({ ...s, unread: 2 }));
    expect(doc.title).toBe('(2) Chats | Palaver');
    notificationsOf(r).set((s) => ({ ...s, unread: 1 }));
    expect(doc.title).toBe('(3) Chats | Palaver');
    chatsOf(r).set((s) => ({ ...s, unread: 0 }));
    expect(doc.title).toBe('(1) Chats | Palaver');
    stop();
  });
});
