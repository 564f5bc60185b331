import { describe, expect, it } from 'vitest';
import type { Runtime } from '../../app/runtime';
import { setDocumentTitle, watchTitleCount } from '../../navigation/title-count';
import { notificationsOf } from '../../state/notifications';
import { applyRoomRead, chatsOf, receiveChatMessage, roomsOf, setRooms } from './store';

const rt = () => ({}) as Runtime;
const message = (roomId: number, fromuid: number, mid: number) => ({ mid, roomId, fromuid, content: '<p>hi</p>', timestamp: 1000 + mid });

describe('chats store', () => {
  it('counts a room once however many messages arrive, not own ones or the open room', () => {
    const r = rt();
    setRooms(r, [{ roomId: 1, teaser: null, timestamp: 1 }, { roomId: 2, timestamp: 2 }]);
    receiveChatMessage(r, message(1, 5, 10), 7);
    receiveChatMessage(r, message(1, 5, 11), 7);
    expect(chatsOf(r).get().unread).toBe(1);
    expect(chatsOf(r).get().rooms!.map((x) => x.roomId)).toEqual([1, 2]);
    receiveChatMessage(r, message(2, 7, 12), 7);
    expect(chatsOf(r).get().unread).toBe(1);
    chatsOf(r).set((s) => ({ ...s, openRoomId: 2 }));
    receiveChatMessage(r, message(2, 5, 13), 7);
    expect(chatsOf(r).get().unread).toBe(1);
    applyRoomRead(r, 1);
    expect(chatsOf(r).get().unread).toBe(0);
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
