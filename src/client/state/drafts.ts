/** Drafts kept in localStorage (spec §3: save id, optional title, text, timestamp). */

export type DraftAction = 'topics.post' | 'posts.reply' | 'posts.edit';

export interface Draft {
  save_id: string;
  action: DraftAction;
  title?: string;
  text: string;
  timestamp: number;
  cid?: number;
  tid?: number;
  pid?: number;
  toPid?: number;
  tags?: string[];
}

/** The subset of the Storage API drafts need (so tests can pass a Map-backed object). */
export interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** Storage key of a member's drafts (uid 0 for guests). */
export function draftsKey(uid: number): string {
  return `palaver:drafts:${Math.max(uid, 0)}`;
}

/** The save id of a composer: one draft per new topic in a category, reply to a topic, or edit. */
export function saveId(uid: number, action: DraftAction, id: number): string {
  return `draft:${Math.max(uid, 0)}:${action}:${id}`;
}

/** A member's drafts, newest first; corrupt storage reads as none. */
export function listDrafts(store: KeyValueStore, uid: number): Draft[] {
  try {
    const raw = store.getItem(draftsKey(uid));
    const list = raw ? (JSON.parse(raw) as Draft[]) : [];
    return Array.isArray(list) ? list.sort((a, b) => b.timestamp - a.timestamp) : [];
  } catch {
    return [];
  }
}

/** Saves (or replaces) a draft; an empty draft is removed instead. */
export function saveDraft(store: KeyValueStore, uid: number, draft: Draft): Draft[] {
  const rest = listDrafts(store, uid).filter((d) => d.save_id !== draft.save_id);
  const list = draft.text.trim() || draft.title?.trim() ? [draft, ...rest] : rest;
  store.setItem(draftsKey(uid), JSON.stringify(list));
  return list;
}

/** Removes a draft by save id. */
export function removeDraft(store: KeyValueStore, uid: number, id: string): Draft[] {
  const list = listDrafts(store, uid).filter((d) => d.save_id !== id);
  store.setItem(draftsKey(uid), JSON.stringify(list));
  return list;
}

/** Moves guest drafts to the member who just logged in (spec §4). */
export function migrateGuestDrafts(store: KeyValueStore, uid: number): Draft[] {
  if (uid <= 0) return listDrafts(store, 0);
  const guest = listDrafts(store, 0);
  if (!guest.length) return listDrafts(store, uid);
  let list = listDrafts(store, uid);
  for (const d of guest) {
    const moved = { ...d, save_id: d.save_id.replace(/^draft:0:/, `draft:${uid}:`) };
    list = saveDraft(store, uid, moved);
  }
  store.removeItem(draftsKey(0));
  return list;
}
