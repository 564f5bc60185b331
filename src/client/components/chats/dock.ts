/**
 * The floating chat windows docked bottom-right (desktop widths): which rooms are open, in
 * what order, and which are minimised to chips. One store per runtime (tab); the windows live
 * in the layout, so they stay open across in-page navigation.
 */
import type { Runtime } from '../../app/runtime';
import { createStore, type Store } from '../../state/store';

/** Windows shown open side by side; opening one more minimises the oldest open one. */
export const MAX_OPEN_WINDOWS = 3;
/** Windows kept at all (open ones and chips); beyond that the oldest chip closes. */
export const MAX_DOCKED = 8;
/** The width from which rooms open in a floating window (Bootstrap's lg breakpoint). */
export const DOCK_MEDIA = '(min-width: 992px)';

export interface DockedRoom {
  roomId: number;
  minimised: boolean;
}

export interface DockState {
  /** Oldest first; the newest is shown rightmost. */
  rooms: DockedRoom[];
}

const stores = new WeakMap<object, Store<DockState>>();

export function dockOf(rt: object): Store<DockState> {
  let s = stores.get(rt);
  if (!s) {
    s = createStore<DockState>({ rooms: [] });
    stores.set(rt, s);
  }
  return s;
}

/** At most MAX_OPEN_WINDOWS open (the oldest open ones become chips) and MAX_DOCKED in all. */
export function limitDock(rooms: DockedRoom[]): DockedRoom[] {
  let open = rooms.filter((r) => !r.minimised).length;
  let out = rooms.map((r) => {
    if (open > MAX_OPEN_WINDOWS && !r.minimised) {
      open -= 1;
      return { ...r, minimised: true };
    }
    return r;
  });
  while (out.length > MAX_DOCKED) {
    const i = out.findIndex((r) => r.minimised);
    out = out.filter((_, k) => k !== (i < 0 ? 0 : i));
  }
  return out;
}

/** Opens a room in a window (or brings its window back from a chip), as the newest. */
export function openDocked(rt: object, roomId: number): void {
  dockOf(rt).set((s) => ({ rooms: limitDock([...s.rooms.filter((r) => r.roomId !== roomId), { roomId, minimised: false }]) }));
}

export function closeDocked(rt: object, roomId: number): void {
  dockOf(rt).set((s) => ({ rooms: s.rooms.filter((r) => r.roomId !== roomId) }));
}

/** Minimises a window to a chip, or opens a chip again (as the newest window). */
export function toggleDocked(rt: object, roomId: number): void {
  const room = dockOf(rt).get().rooms.find((r) => r.roomId === roomId);
  if (!room) return;
  if (room.minimised) openDocked(rt, roomId);
  else dockOf(rt).set((s) => ({ rooms: s.rooms.map((r) => (r.roomId === roomId ? { ...r, minimised: true } : r)) }));
}

/** Where a tab keeps its docked rooms, per member: they come back after a reload, not in another tab or account. */
export const dockKey = (uid: number) => `palaver:chat-dock:${uid}`;

/** The docked rooms a reload left in this tab's storage (anything unreadable counts as none). */
export function loadDock(storage: Pick<Storage, 'getItem'>, uid: number): DockedRoom[] {
  try {
    const raw: unknown = JSON.parse(storage.getItem(dockKey(uid)) ?? '[]');
    if (!Array.isArray(raw)) return [];
    const rooms = raw
      .filter((r): r is DockedRoom => !!r && Number.isSafeInteger((r as DockedRoom).roomId) && (r as DockedRoom).roomId > 0)
      .map((r) => ({ roomId: r.roomId, minimised: r.minimised === true }));
    return limitDock(rooms.filter((r, i) => rooms.findIndex((o) => o.roomId === r.roomId) === i));
  } catch {
    return [];
  }
}

/** Keeps the docked rooms in this tab's storage (nothing kept once the last one closes). */
export function saveDock(storage: Pick<Storage, 'setItem' | 'removeItem'>, uid: number, rooms: DockedRoom[]): void {
  try {
    if (rooms.length) storage.setItem(dockKey(uid), JSON.stringify(rooms));
    else storage.removeItem(dockKey(uid));
  } catch {
    // Storage full or refused (private mode): the windows just do not come back after a reload.
  }
}

/** Whether rooms open in a floating window here: a desktop-wide browser window. */
export function dockAvailable(): boolean {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia(DOCK_MEDIA).matches;
}

/**
 * Opens a room where it belongs: a floating window on desktop widths (unless the chats page
 * is shown, which has the room beside its list), the room's page otherwise.
 */
export function openChat(rt: Runtime, roomId: number): void {
  const onChatsPage = rt.page.get().page.template?.name === 'chats';
  if (dockAvailable() && !onChatsPage) openDocked(rt, roomId);
  else rt.navigate(`${rt.config.relative_path}/chats/${roomId}`);
}
