import { slugify } from '../../../shared/slug.js';
import type { NbHash } from './source.js';

/** A record the import skipped or changed, with why: the summary file lists each. */
export interface Note {
  entity: string;
  id: string;
  action: 'skipped' | 'altered';
  reason: string;
}

/** Collects notes for one batch. */
export class Notes {
  readonly list: Note[] = [];
  skip(entity: string, id: string | number, reason: string): null {
    this.list.push({ entity, id: String(id), action: 'skipped', reason });
    return null;
  }
  alter(entity: string, id: string | number, reason: string): void {
    this.list.push({ entity, id: String(id), action: 'altered', reason });
  }
}

const int = (v: string | undefined, d = 0): number => {
  const n = Number(v);
  return Number.isFinite(n) ? Math.trunc(n) : d;
};
const flag = (v: string | undefined): number => (v === '1' || v === 'true' ? 1 : 0);
/** A timestamp in ms (NodeBB's are), 0 when missing or out of a Date's range. */
const ts = (v: string | undefined): number => {
  const n = int(v);
  return n > 0 && n < 8.64e15 ? n : 0;
};
/** Text bounded to `max` characters (noted when cut); NUL, which PostgreSQL cannot store, removed. */
export function text(v: string | undefined, max: number, notes: Notes, entity: string, id: number | string, field: string): string {
  let s = (v ?? '').replaceAll('\u0000', '');
  if (s.length > max) {
    notes.alter(entity, id, `${field} cut from ${s.length} to ${max} characters`);
    s = s.slice(0, max);
  }
  return s;
}
/** NodeBB's "<id>/<slug>" slug without its id. */
export const bareSlug = (slug: string | undefined, fallback: string): string => (slug ?? '').replace(/^\d+\//, '') || slugify(fallback) || 'topic';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** NodeBB's bcrypt hash, marked when it is over the SHA-512 hex of the password (passwordShaWrapped). */
export function passwordHash(h: NbHash): string | null {
  const p = h.password;
  if (!p || !/^\$2[aby]\$\d\d\$/.test(p)) return null;
  return h['password:shaWrapped'] === '1' || h.passwordShaWrapped === '1' ? `sha512:${p}` : p;
}

/** A member's row from `user:<uid>`, or null (skipped) when it cannot be one. */
export function mapUser(uid: number, h: NbHash | null, notes: Notes, ban?: NbHash | null) {
  if (!h) return notes.skip('user', uid, 'users:joindate lists it but user:<uid> is missing');
  const username = text(h.username, 100, notes, 'user', uid, 'username').trim();
  if (!username) return notes.skip('user', uid, 'no username');
  const userslug = h.userslug?.trim() || slugify(username) || `user-${uid}`;
  let email: string | null = (h.email ?? '').trim() || null;
  if (email && !EMAIL.test(email)) {
    notes.alter('user', uid, `invalid email "${email.slice(0, 100)}" dropped`);
    email = null;
  }
  const banned = flag(h.banned);
  const expire = ts(h['banned:expire']);
  return {
    uid,
    username,
    userslug,
    email,
    email_confirmed: email ? flag(h['email:confirmed']) : 0,
    password_hash: passwordHash(h),
    fullname: text(h.fullname, 255, notes, 'user', uid, 'fullname'),
    picture: h.uploadedpicture || h.picture || '',
    about: text(h.aboutme, 5000, notes, 'user', uid, 'aboutme'),
    status: ['online', 'away', 'dnd', 'offline'].includes(h.status ?? '') ? h.status! : 'online',
    reputation: int(h.reputation),
    joindate: ts(h.joindate) || Date.now(),
    lastonline: ts(h.lastonline),
    lastposttime: ts(h.lastposttime),
    banned,
    banned_until: banned ? expire : 0,
    ban_reason: banned ? text(ban?.reason, 500, notes, 'user', uid, 'ban reason') : '',
    deleted: 0,
    cover_url: h['cover:url'] ?? '',
    cover_position: h['cover:position'] ?? '',
    website: text(h.website, 255, notes, 'user', uid, 'website'),
    location: text(h.location, 255, notes, 'user', uid, 'location'),
    birthday: text(h.birthday, 32, notes, 'user', uid, 'birthday'),
    signature: text(h.signature, 1000, notes, 'user', uid, 'signature'),
  };
}
export type UserImport = NonNullable<ReturnType<typeof mapUser>>;

/** A category's row from `category:<cid>`. */
export function mapCategory(cid: number, h: NbHash | null, notes: Notes) {
  if (!h) return notes.skip('category', cid, 'categories:cid lists it but category:<cid> is missing');
  const name = text(h.name, 255, notes, 'category', cid, 'name') || `Category ${cid}`;
  return {
    cid,
    parent_cid: int(h.parentCid),
    name,
    // NodeBB 4's handle (ActivityPub); older forums have none: the cid keeps it unique.
    handle: (h.handle && slugify(h.handle) === h.handle ? h.handle : `${slugify(name) || 'category'}-${cid}`).slice(0, 100),
    slug: `${cid}/${bareSlug(h.slug, name)}`,
    description: text(h.description, 5000, notes, 'category', cid, 'description'),
    icon: h.icon ?? '',
    bg_color: h.bgColor ?? '',
    color: h.color ?? '',
    position: int(h.order, cid),
    disabled: flag(h.disabled),
    link: h.link ?? '',
    created: ts(h.timestamp) || Date.now(),
    min_tags: h.minTags ? int(h.minTags) : null,
    max_tags: h.maxTags ? int(h.maxTags) : null,
    post_queue: flag(h.postQueue),
  };
}
export type CategoryImport = NonNullable<ReturnType<typeof mapCategory>>;

/** A topic's row from `topic:<tid>`; `known` tells whether its category and author came in. */
export function mapTopic(tid: number, h: NbHash | null, notes: Notes, known: { cid(cid: number): boolean; uid(uid: number): boolean }) {
  if (!h) return notes.skip('topic', tid, 'topics:tid lists it but topic:<tid> is missing');
  const cid = int(h.cid);
  if (!known.cid(cid)) return notes.skip('topic', tid, `its category ${cid} is missing`);
  let uid = int(h.uid);
  if (uid > 0 && !known.uid(uid)) {
    notes.alter('topic', tid, `author ${uid} is missing: shown as a guest`);
    uid = 0;
  }
  const title = text(h.title, 255, notes, 'topic', tid, 'title') || `Topic ${tid}`;
  const created = ts(h.timestamp) || Date.now();
  return {
    tid,
    cid,
    uid,
    title,
    slug: bareSlug(h.slug, title),
    main_pid: int(h.mainPid),
    teaser_pid: int(h.teaserPid),
    view_count: int(h.viewcount),
    created,
    last_post_time: ts(h.lastposttime) || created,
    locked: flag(h.locked),
    pinned: flag(h.pinned),
    pin_expiry: ts(h.pinExpiry),
    deleted: flag(h.deleted),
    deleter_uid: int(h.deleterUid),
    scheduled: created > Date.now() ? 1 : 0,
  };
}
export type TopicImport = NonNullable<ReturnType<typeof mapTopic>>;

/** A post's row (content not yet rendered) from `post:<pid>`. */
export function mapPost(pid: number, h: NbHash | null, notes: Notes, known: { tid(tid: number): boolean; uid(uid: number): boolean }, maxLength: number) {
  if (!h) return notes.skip('post', pid, 'posts:pid lists it but post:<pid> is missing');
  const tid = int(h.tid);
  if (!known.tid(tid)) return notes.skip('post', pid, `its topic ${tid} is missing`);
  let uid = int(h.uid);
  if (uid > 0 && !known.uid(uid)) {
    notes.alter('post', pid, `author ${uid} is missing: shown as a guest`);
    uid = 0;
  }
  return {
    pid,
    tid,
    uid,
    to_pid: int(h.toPid),
    content: text(h.content, maxLength, notes, 'post', pid, 'content'),
    created: ts(h.timestamp) || Date.now(),
    edited: ts(h.edited),
    editor_uid: int(h.editor),
    deleted: flag(h.deleted),
    deleter_uid: int(h.deleterUid),
    ip: (h.ip ?? '').slice(0, 64),
  };
}
export type PostImport = NonNullable<ReturnType<typeof mapPost>>;

/** A chat room's row from `chat:room:<roomId>`; `memberUids` are its members now. */
export function mapRoom(roomId: number, h: NbHash | null, notes: Notes, memberUids: number[], ownerUids: number[]) {
  if (!h) return notes.skip('chat room', roomId, 'chat:rooms lists it but chat:room:<roomId> is missing');
  // NodeBB 4 keeps owners in chat:room:<roomId>:owners (the first is the creator); older ones in the hash.
  const owner = int(h.owner) || ownerUids[0] || memberUids[0] || 0;
  const name = text(h.roomName, 255, notes, 'chat room', roomId, 'name');
  const isPublic = flag(h.public);
  const all = [...new Set([owner, ...memberUids])].filter((u) => u > 0).sort((a, b) => a - b);
  const created = ts(h.timestamp) || Date.now();
  let groups = '[]';
  try {
    const g = JSON.parse(h.groups || '[]') as unknown;
    if (Array.isArray(g)) groups = JSON.stringify(g.filter((x) => typeof x === 'string'));
  } catch {
    notes.alter('chat room', roomId, 'groups were not a JSON list: dropped');
  }
  return {
    room_id: roomId,
    owner,
    name,
    public: isPublic,
    groups,
    // A two-member private room with no name is a direct conversation, as Palaver makes them.
    dm_key: !isPublic && !name && all.length === 2 ? all.join(':') : null,
    created,
    last_activity: created,
  };
}
export type RoomImport = NonNullable<ReturnType<typeof mapRoom>>;

/** A chat message's row from `message:<mid>`. */
export function mapMessage(mid: number, roomId: number, h: NbHash | null, notes: Notes, known: { uid(uid: number): boolean }, maxLength: number) {
  if (!h) return notes.skip('chat message', mid, `chat:room:${roomId}:mids lists it but message:<mid> is missing`);
  const uid = int(h.fromuid);
  if (!known.uid(uid)) return notes.skip('chat message', mid, `its author ${uid} is missing`);
  return {
    mid,
    room_id: roomId,
    uid,
    content: text(h.content, maxLength, notes, 'chat message', mid, 'content'),
    system: flag(h.system),
    created: ts(h.timestamp) || Date.now(),
    edited: ts(h.edited),
    deleted: flag(h.deleted),
    pinned: flag(h.pinned),
    to_mid: int(h.toMid) || null,
    ip: (h.ip ?? '').slice(0, 64),
  };
}
export type MessageImport = NonNullable<ReturnType<typeof mapMessage>>;

/** NodeBB's category watch states by number (categories.watchStates). */
export const WATCH_STATES: Record<string, string> = { '1': 'ignoring', '2': 'notwatching', '3': 'tracking', '4': 'watching' };
