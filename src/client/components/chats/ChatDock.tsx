import { lazy, Suspense, useCallback, useEffect, useState, type KeyboardEvent } from 'react';
import { api, ApiError } from '../../app/api';
import { useT, useUser } from '../../app/hooks';
import { useRuntime } from '../../app/runtime';
import { errorText } from '../../i18n';
import { roomTitle } from '../../pages/chats/messages';
import type { ChatsPage } from '../../pages/chats/types';
import { useStore } from '../../state/store';
import { Icon } from '../Icon';
import { closeDocked, DOCK_MEDIA, dockOf, loadDock, saveDock, toggleDocked, type DockedRoom } from './dock';
import { chatsOf } from './store';

// The room view (messages, composer, autocomplete) loads with the first window.
const Room = lazy(() => import('../../pages/chats/Room').then((m) => ({ default: m.Room })));

/** Whether the browser window is desktop-wide (the dock is not shown on phones and tablets). */
function useWide(): boolean {
  const [wide, setWide] = useState(false);
  useEffect(() => {
    if (typeof window.matchMedia !== 'function') return;
    const q = window.matchMedia(DOCK_MEDIA);
    setWide(q.matches);
    const on = () => setWide(q.matches);
    q.addEventListener('change', on);
    return () => q.removeEventListener('change', on);
  }, []);
  return wide;
}

/**
 * The height of the topic composer docked at the bottom of the window (0 when there is none),
 * so the chat windows sit above it instead of under it.
 */
function useComposerHeight(): number {
  const rt = useRuntime();
  const composer = useStore(rt.composer);
  const [height, setHeight] = useState(0);
  const open = !!composer;
  useEffect(() => {
    if (!open || typeof ResizeObserver !== 'function') {
      setHeight(0);
      return;
    }
    let observer: ResizeObserver | null = null;
    // The composer mounts in the same render as its state: look for it once that render is done.
    const frame = requestAnimationFrame(() => {
      const el = document.querySelector<HTMLElement>('section.composer');
      if (!el) {
        setHeight(0);
        return;
      }
      observer = new ResizeObserver(() => setHeight(el.offsetHeight));
      observer.observe(el);
      setHeight(el.offsetHeight);
    });
    return () => {
      cancelAnimationFrame(frame);
      observer?.disconnect();
    };
  }, [open, composer?.minimized]);
  return height;
}

/** Brings back the rooms docked before a reload, and keeps the dock in the tab's storage as it changes. */
function useDockPersistence(uid: number): void {
  const rt = useRuntime();
  useEffect(() => {
    if (!uid) return;
    const dock = dockOf(rt);
    if (!dock.get().rooms.length) dock.set({ rooms: loadDock(sessionStorage, uid) });
    return dock.subscribe(() => saveDock(sessionStorage, uid, dock.get().rooms));
  }, [rt, uid]);
}

/**
 * The floating chat windows, docked bottom-right on desktop widths (like NodeBB's chat modal):
 * each open room has a header (name, minimise, open full page, close), its messages and the
 * room page's composer, live; minimised rooms are chips. Lives in the layout, so it survives
 * in-page navigation. Nothing for visitors, on phones or in the server render.
 */
export function ChatDock() {
  const { t } = useT();
  const rt = useRuntime();
  const user = useUser();
  const { rooms } = useStore(dockOf(rt));
  const wide = useWide();
  useDockPersistence(user?.uid ?? 0);
  const above = useComposerHeight();
  if (!user?.uid || !wide || !rooms.length) return null;
  const chips = rooms.filter((r) => r.minimised);
  const open = rooms.filter((r) => !r.minimised);
  return (
    <div className="chat-dock" data-testid="chat-dock" role="region" aria-label={t('modules:chat.open-windows')} style={above ? { ['--chat-dock-bottom' as string]: `${above}px` } : undefined}>
      {chips.length > 0 && (
        <div className="chat-dock-chips d-flex flex-column align-items-end gap-1">
          {chips.map((r) => <DockChip key={r.roomId} room={r} />)}
        </div>
      )}
      {open.map((r) => <ChatWindow key={r.roomId} roomId={r.roomId} />)}
    </div>
  );
}

/** The title of a docked room: from its loaded data, else from the room list, else a plain label. */
function useRoomTitle(roomId: number, data: ChatsPage | null): string {
  const { t } = useT();
  const rt = useRuntime();
  const uid = useUser()?.uid ?? 0;
  const { rooms } = useStore(chatsOf(rt));
  const listed = rooms?.find((r) => r.roomId === roomId);
  const from = data ?? listed;
  return (from && roomTitle(from, uid)) || t('modules:chat.room');
}

function DockChip({ room }: { room: DockedRoom }) {
  const { t } = useT();
  const rt = useRuntime();
  const title = useRoomTitle(room.roomId, null);
  const unread = useStore(chatsOf(rt)).rooms?.find((r) => r.roomId === room.roomId)?.unread === true;
  return (
    <div className="chat-dock-chip btn-group shadow-sm" data-testid="chat-dock-chip" data-roomid={room.roomId}>
      <button type="button" className="btn btn-sm btn-light border text-truncate" onClick={() => toggleDocked(rt, room.roomId)} title={t('modules:chat.restore-window', title)}>
        <Icon name="chat" /> <span className="chat-dock-chip-title">{title}</span>
        {unread && <span className="chat-unread-dot ms-1" title={t('modules:chat.unread')}><span className="visually-hidden">{t('modules:chat.unread')}</span></span>}
      </button>
      <button type="button" className="btn btn-sm btn-light border" onClick={() => closeDocked(rt, room.roomId)} aria-label={t('modules:chat.close')} title={t('modules:chat.close')}>
        <Icon name="x" />
      </button>
    </div>
  );
}

/** One open room in a floating window. */
function ChatWindow({ roomId }: { roomId: number }) {
  const { t } = useT();
  const rt = useRuntime();
  const [data, setData] = useState<ChatsPage | null>(null);
  const [error, setError] = useState<string | null>(null);
  const title = useRoomTitle(roomId, data);

  useEffect(() => {
    let alive = true;
    api<ChatsPage>(rt.config, 'GET', `/chats/${roomId}`).then(
      (room) => alive && setData(room),
      (err: unknown) => {
        if (!alive) return;
        // A room that is gone or no longer the member's (a window brought back after a reload,
        // or one open while they were removed): say so once and close the window.
        if (err instanceof ApiError && (err.status === 403 || err.status === 404)) {
          rt.alert({ type: 'warning', message: errorText(rt.i18n, err), timeout: 5000 });
          closeDocked(rt, roomId);
        } else setError(errorText(rt.i18n, err));
      },
    );
    return () => {
      alive = false;
    };
  }, [rt, roomId]);

  const close = useCallback(() => closeDocked(rt, roomId), [rt, roomId]);
  const full = () => {
    close();
    rt.navigate(`${rt.config.relative_path}/chats/${roomId}`);
  };
  // Escape closes the window, unless something inside used it (autocomplete, a reply, an edit).
  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    if (e.key !== 'Escape' || e.defaultPrevented) return;
    e.preventDefault();
    close();
  };
  const label = t('modules:chat.window', title);
  return (
    <section className="chat-window card shadow" aria-label={label} data-testid="chat-window" data-roomid={roomId} onKeyDown={onKeyDown}>
      <header className="chat-window-header card-header d-flex align-items-center gap-1 py-1 pe-1">
        <Icon name="chat" />
        <h2 className="h6 mb-0 flex-grow-1 text-truncate" title={title} data-testid="chat-window-title">{title}</h2>
        <button type="button" className="btn btn-sm btn-link text-reset" onClick={() => toggleDocked(rt, roomId)} aria-label={t('modules:chat.minimize')} title={t('modules:chat.minimize')} data-testid="chat-window-minimize">
          <Icon name="chevron-down" />
        </button>
        <button type="button" className="btn btn-sm btn-link text-reset" onClick={full} aria-label={t('modules:chat.open-full-page')} title={t('modules:chat.open-full-page')} data-testid="chat-window-full">
          <Icon name="maximize" />
        </button>
        <button type="button" className="btn btn-sm btn-link text-reset" onClick={close} aria-label={t('modules:chat.close')} title={t('modules:chat.close')} data-testid="chat-window-close">
          <Icon name="x" />
        </button>
      </header>
      <div className="chat-window-body">
        {error ? (
          <div className="p-3 small text-danger" role="alert">{error}</div>
        ) : data ? (
          <Suspense fallback={<div className="p-3 small text-body-secondary">{t('global:loading')}</div>}>
            <Room data={data} variant="window" onLeft={close} />
          </Suspense>
        ) : (
          <div className="p-3 small text-body-secondary">{t('global:loading')}</div>
        )}
      </div>
    </section>
  );
}
