import { useEffect, useState } from 'react';
import type { PageBase } from '../../shared/types';
import { useT, useUser } from '../app/hooks';
import { useRuntime } from '../app/runtime';
import { ChatRoomRow } from '../components/chats/ChatRoomRow';
import { chatsOf, receiveChatCount, setRooms } from '../components/chats/store';
import { Icon } from '../components/Icon';
import { chatLink } from '../realtime/chats';
import { useStore } from '../state/store';
import { NewChat } from './chats/NewChat';
import { Room } from './chats/Room';
import type { ChatsPage } from './chats/types';

/**
 * The chats page (`/chats`, `/chats/:roomid`, `/chats/:roomid/:index`, `/user/:userslug/chats`):
 * the room list beside the open room on large screens, one of them at a time on phones.
 */
export default function Chats({ page }: { page: PageBase }) {
  const { t } = useT();
  const rt = useRuntime();
  const user = useUser();
  const data = page as ChatsPage;
  const uid = user?.uid ?? 0;
  const [newChat, setNewChat] = useState(false);
  const store = useStore(chatsOf(rt));
  // The page's rooms seed the shared list (sidebar dropdown); live changes come from the store.
  useEffect(() => {
    if (data.rooms) setRooms(rt, data.rooms);
    if (typeof data.unreadCount === 'number') receiveChatCount(rt, data.unreadCount);
  }, [rt, data.rooms, data.unreadCount]);
  // Public rooms' new messages mark them unread here (spec §7 modules.chats.enterPublic).
  const publicIds = (data.publicRooms ?? []).map((r) => r.roomId).join(',');
  useEffect(() => {
    const ids = publicIds ? publicIds.split(',').map(Number) : [];
    chatLink(rt).enterPublic(ids);
    return () => chatLink(rt).leavePublic(ids);
  }, [rt, publicIds]);
  const [publicUnread, setPublicUnread] = useState<number[]>([]);
  useEffect(
    () =>
      rt.live.on('event:chats.public.unread', (d) => {
        const id = Number((d as { roomId?: unknown } | null)?.roomId);
        if (id && id !== data.roomId) setPublicUnread((l) => (l.includes(id) ? l : [...l, id]));
      }),
    [rt, data.roomId],
  );
  const publicRooms = data.publicRooms ?? [];
  // Public rooms have their own section (the member's list holds those they joined too).
  const rooms = (store.rooms ?? data.rooms ?? []).filter((r) => !r.public && !publicRooms.some((p) => p.roomId === r.roomId));
  const roomId = data.roomId;
  return (
    <div className={`chats-page card${roomId ? ' has-room' : ''}`} data-testid="chats-page">
      <aside className="chats-list d-flex flex-column" aria-label={t('modules:chat.recent-chats')}>
        <div className="d-flex align-items-center gap-2 px-3 py-2 border-bottom">
          <h1 className="h5 mb-0 flex-grow-1">{t('global:header.chats')}</h1>
          <button type="button" className="btn btn-sm btn-primary" onClick={() => setNewChat(true)} data-testid="chat-new">
            <Icon name="plus" /> {t('modules:chat.new-chat')}
          </button>
        </div>
        <div className="chats-list-scroll flex-grow-1">
          {publicRooms.length > 0 && (
            <>
              <div className="px-3 pt-2 small fw-semibold text-body-secondary">{t('modules:chat.public-rooms', publicRooms.length)}</div>
              {publicRooms.map((r) => <ChatRoomRow key={`p${r.roomId}`} room={{ ...r, public: true, unread: r.roomId !== roomId && (r.unread || publicUnread.includes(r.roomId)) }} uid={uid} active={r.roomId === roomId} />)}
              <div className="px-3 pt-2 small fw-semibold text-body-secondary">{t('modules:chat.private-rooms', rooms.length)}</div>
            </>
          )}
          {rooms.length === 0 && <div className="px-3 py-4 text-body-secondary small text-center" data-testid="chats-empty">{t('modules:chat.no_active')}</div>}
          {rooms.map((r) => <ChatRoomRow key={r.roomId} room={r} uid={uid} active={r.roomId === roomId} />)}
        </div>
      </aside>
      <section className="chats-main" aria-label={t('modules:chat.room')}>
        {roomId ? (
          <Room key={roomId} data={data} />
        ) : (
          <div className="h-100 d-flex flex-column align-items-center justify-content-center text-body-secondary p-4 text-center">
            <Icon name="chat" size={40} />
            <p className="mt-2 mb-3">{t('modules:chat.select-room')}</p>
            <button type="button" className="btn btn-outline-primary" onClick={() => setNewChat(true)}>{t('modules:chat.new-chat')}</button>
          </div>
        )}
      </section>
      <NewChat show={newChat} onHide={() => setNewChat(false)} uid={uid} />
    </div>
  );
}
