import { useCallback, useEffect, useRef, useState } from 'react';
import { api } from '../app/api';
import { errorText } from '../i18n';
import type { PageBase } from '../../shared/types';
import { useT, useUser } from '../app/hooks';
import { useRuntime } from '../app/runtime';
import { ChatRoomRow } from '../components/chats/ChatRoomRow';
import { chatsOf, receiveChatCount, roomsOf, setRooms } from '../components/chats/store';
import { Icon } from '../components/Icon';
import { chatLink } from '../realtime/chats';
import { useStore } from '../state/store';
import { NewChat } from './chats/NewChat';
import { Room } from './chats/Room';
import type { ChatRoomSummary, ChatsPage } from './chats/types';

/**
 * The room list past its first page (NodeBB's `nextStart`): the next rooms load when the end of
 * the list comes into view, or with the "load more" button.
 */
function useMoreRooms(first: number) {
  const rt = useRuntime();
  const [nextStart, setNextStart] = useState(first);
  const [busy, setBusy] = useState(false);
  const load = useCallback(async () => {
    if (busy || nextStart < 0) return;
    setBusy(true);
    try {
      const res = await api<{ rooms?: unknown; nextStart?: number }>(rt.config, 'GET', `/chats?start=${nextStart}`);
      const known = chatsOf(rt).get().rooms ?? [];
      const seen = new Set(known.map((r) => r.roomId));
      setRooms(rt, [...known, ...roomsOf(res).filter((r) => !seen.has(r.roomId))]);
      setNextStart(typeof res.nextStart === 'number' ? res.nextStart : -1);
    } catch (err) {
      rt.alert({ type: 'danger', message: errorText(rt.i18n, err) });
    } finally {
      setBusy(false);
    }
  }, [busy, nextStart, rt]);
  const sentinel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (nextStart < 0 || !sentinel.current || typeof IntersectionObserver === 'undefined') return;
    const io = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && void load(), { rootMargin: '200px' });
    io.observe(sentinel.current);
    return () => io.disconnect();
  }, [nextStart, load]);
  return { sentinel, busy, more: nextStart >= 0, load };
}

/** The member's rooms whose name or members match the query (GET /api/v3/chats/search), asked as they type. */
function useRoomSearch(query: string): ChatRoomSummary[] | null {
  const rt = useRuntime();
  const [found, setFound] = useState<ChatRoomSummary[] | null>(null);
  useEffect(() => {
    const q = query.trim();
    if (!q) {
      setFound(null);
      return;
    }
    let live = true;
    const timer = setTimeout(() => {
      api(rt.config, 'GET', `/chats/search?query=${encodeURIComponent(q)}`)
        .then((res) => live && setFound(roomsOf(res)))
        .catch((err: unknown) => live && rt.alert({ type: 'danger', message: errorText(rt.i18n, err) }));
    }, 250);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [query, rt]);
  return found;
}

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
  const [query, setQuery] = useState('');
  const found = useRoomSearch(query);
  const more = useMoreRooms(data.nextStart ?? -1);
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
        <div className="px-3 py-2 border-bottom">
          <input
            type="search"
            className="form-control form-control-sm"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            placeholder={t('modules:chat.search-rooms')}
            aria-label={t('modules:chat.search-rooms')}
            data-testid="chat-room-search"
          />
        </div>
        {found ? (
          <div className="chats-list-scroll flex-grow-1" data-testid="chat-room-results">
            {found.length === 0 && <div className="px-3 py-4 text-body-secondary small text-center">{t('modules:chat.no-rooms-found')}</div>}
            {found.map((r) => <ChatRoomRow key={r.roomId} room={r} uid={uid} active={r.roomId === roomId} />)}
          </div>
        ) : (
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
          {more.more && (
            <div ref={more.sentinel} className="text-center py-2">
              {more.busy ? (
                <div className="spinner-border spinner-border-sm" role="status"><span className="visually-hidden">{t('global:loading')}</span></div>
              ) : (
                <button type="button" className="btn btn-sm btn-outline-secondary" onClick={() => void more.load()} data-testid="chat-rooms-more">{t('modules:chat.load-more-rooms')}</button>
              )}
            </div>
          )}
        </div>
        )}
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
