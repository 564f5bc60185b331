import { senderToken } from '../notifications/presenter.js';
import { Notes, text } from './map.js';
import { ids, known, num, write, type Phase } from './phase.js';
import type { NbHash } from './source.js';
import { upsert } from './store.js';

/** NodeBB's stored text `[[ns:key, a, b]]` as its key and parameters (NodeBB escapes commas in them as &#44;). */
export function parseBody(body: string): { key: string; params: string[] } | null {
  const m = /^\[\[([a-z0-9_-]+:[a-z0-9_.-]+)((?:, ?[^,]*)*)\]\]$/i.exec(body.trim());
  if (!m) return null;
  const params = m[2]
    ? m[2]
        .slice(1)
        .split(',')
        .map((p) => p.trim().replaceAll('&#44;', ','))
    : [];
  return { key: m[1]!, params };
}

/**
 * NodeBB's notification texts and Palaver's: Palaver's key, and its parameters after the
 * senders' names (which Palaver puts in as they are today) from NodeBB's parameters and hash.
 * A text not here is left out (noted).
 */
const BODIES: Record<string, (p: string[], h: NbHash) => [string, string[]]> = {
  'notifications:user-posted-to': (p) => ['notifications:user-posted-to', p.slice(1)],
  'notifications:user-posted-topic': (p) => ['notifications:user-posted-topic', p.slice(1)],
  'notifications:upvoted-your-post-in': (p) => ['notifications:upvoted-your-post-in', p.slice(1)],
  'notifications:user-mentioned-you-in': (p) => ['notifications:user-mentioned-you-in', p.slice(1)],
  'notifications:user-started-following-you': () => ['notifications:user-started-following-you', []],
  'notifications:user-edited-post': (p) => ['notifications:moderator-edited-post', p.slice(1)],
  'notifications:user-flagged-post-in': () => ['notifications:user-flagged-post', []],
  'notifications:user-flagged-user': () => ['notifications:user-flagged-user', []],
  // A direct message names its sender only (Palaver's room name of a conversation is the sender's name); a room, its name.
  'notifications:new-message-from': (p) => ['notifications:new-message-in', [p[0] ?? '']],
  'notifications:new-message-in': (p) => ['notifications:new-message-in', [p[0] ?? '']],
  'groups:request.notification-title': (_p, h) => ['notifications:group-request-membership', [/^group:(.+):uid:\d+:request$/.exec(h.nid ?? '')?.[1] ?? '']],
  'notifications:invited-to-group': (p) => ['notifications:invited-to-group', p.slice(1)],
};

/** The subject Palaver files a notification under, from what NodeBB's hash names. */
function subjectOf(h: NbHash, from: number): { type: string; id: number } {
  if (num(h.pid) > 0) return { type: 'post', id: num(h.pid) };
  const room = /^\/chats\/(\d+)/.exec(h.path ?? '');
  if (room) return { type: 'chat', id: Number(room[1]) };
  const flag = /^\/flags\/(\d+)/.exec(h.path ?? '');
  if (flag) return { type: 'flag', id: Number(flag[1]) };
  if (num(h.tid) > 0) return { type: 'topic', id: num(h.tid) };
  return { type: 'user', id: from };
}

/**
 * Members' notifications (uid:<uid>:notifications:unread and :read → notifications:<nid>; NodeBB
 * keeps them a month). NodeBB merges those with the same mergeId when it shows them; Palaver
 * stores them merged: one row per member and mergeId, with its senders newest first, the newest
 * one's text and time, unread while one of them is.
 */
const notifications: Phase = {
  name: 'notifications',
  set: 'users:joindate',
  async run(deps, src, page, dryRun) {
    const notes = new Notes();
    const uids = ids(page);
    const uidOk = await known(deps, src, dryRun, 'users', uids);
    const here = uids.filter(uidOk);
    const lists = await src.zsets(here.flatMap((u) => [`uid:${u}:notifications:unread`, `uid:${u}:notifications:read`]));
    const nids = [...new Set(lists.flat().map(([n]) => n))];
    const hashes = new Map((await src.hashes(nids.map((n) => `notifications:${n}`))).map((h, i) => [nids[i]!, h]));
    const rows: Record<string, string | number>[] = [];
    here.forEach((uid, i) => {
      const merged = new Map<string, { h: NbHash; nid: string; read: boolean; senders: number[]; created: number }>();
      const all = [...lists[2 * i]!.map(([n, t]) => [n, t, false] as const), ...lists[2 * i + 1]!.map(([n, t]) => [n, t, true] as const)].sort(
        (a, b) => b[1] - a[1],
      );
      for (const [nid, t, read] of all) {
        const h = hashes.get(nid);
        if (!h) continue; // pruned by NodeBB: its member's list still names it
        const key = h.mergeId || nid;
        const from = num(h.from);
        const m = merged.get(key);
        if (m) {
          if (from > 0 && !m.senders.includes(from)) m.senders.push(from);
          m.read &&= read;
          continue;
        }
        merged.set(key, { h, nid, read, senders: from > 0 ? [from] : [], created: Math.trunc(num(h.datetime) || t) });
      }
      for (const [key, m] of merged) {
        const body = parseBody(m.h.bodyShort ?? '');
        const mapped = body && BODIES[body.key]?.(body.params, m.h);
        if (!mapped) {
          notes.skip('notification', `${uid}:${m.nid}`, `a text Palaver has no equivalent of (${(m.h.bodyShort ?? '').slice(0, 60)})`);
          continue;
        }
        const from = num(m.h.from);
        const subject = subjectOf(m.h, from);
        rows.push({
          uid,
          type: (m.h.type || 'notification').slice(0, 50),
          merge_key: `nodebb:${key}`.slice(0, 255),
          subject_type: subject.type,
          subject_id: subject.id,
          from_uid: from,
          from_uids: m.senders.length
            ? `,${m.senders
                .slice(0, 20)
                .map((s) => senderToken(s).slice(1))
                .join('')}`
            : ',',
          from_count: m.senders.length,
          path: (m.h.path ?? '').slice(0, 500),
          body_key: mapped[0],
          body_params: JSON.stringify(mapped[1].map((p) => text(p, 500, notes, 'notification', m.nid, 'parameter'))),
          pid: num(m.h.pid),
          tid: num(m.h.tid),
          cid: num(m.h.cid),
          importance: num(m.h.importance) || 5,
          read: m.read ? 1 : 0,
          created: m.created,
        });
      }
    });
    await write(deps, dryRun, (w) => upsert(w, 'notifications', rows, ['uid', 'merge_key']));
    return { count: rows.length, notes: notes.list };
  },
};

/** Posts waiting for a moderator (post:queue → post:queue:<id>, its `data` a JSON of the post). */
const postQueue: Phase = {
  name: 'post-queue',
  set: 'post:queue',
  async run(deps, src, page, dryRun) {
    const notes = new Notes();
    const hashes = await src.hashes(page.map(([id]) => `post:queue:${id}`));
    const items: { id: string; uid: number; type: string; data: Record<string, unknown>; created: number }[] = [];
    page.forEach(([id, t], i) => {
      const h = hashes[i];
      if (!h) return void notes.skip('queued post', id, 'post:queue lists it but post:queue:<id> is missing');
      if (h.type !== 'topic' && h.type !== 'reply') return void notes.skip('queued post', id, `a ${h.type} Palaver's queue does not hold`);
      let data: Record<string, unknown> = {};
      try {
        data = JSON.parse(h.data ?? '{}') as Record<string, unknown>;
      } catch {
        return void notes.skip('queued post', id, 'its data is not JSON');
      }
      items.push({ id, uid: num(h.uid), type: h.type, data, created: Math.trunc(t) });
    });
    const s = (v: unknown) => (v === undefined || v === null ? '' : String(v));
    const uidOk = await known(
      deps,
      src,
      dryRun,
      'users',
      items.map((q) => q.uid),
    );
    const tidOk = await known(
      deps,
      src,
      dryRun,
      'topics',
      items.map((q) => num(s(q.data.tid))),
    );
    // A reply's category is its topic's.
    const topics = await src.hashes(items.filter((q) => q.type === 'reply').map((q) => `topic:${num(s(q.data.tid))}`));
    let ti = 0;
    const rows: Record<string, string | number>[] = [];
    for (const q of items) {
      const tid = num(s(q.data.tid));
      const cid = q.type === 'reply' ? num(topics[ti++]?.cid) : num(s(q.data.cid));
      if (!uidOk(q.uid)) notes.skip('queued post', q.id, `its member ${q.uid} is missing`);
      else if (q.type === 'reply' && !tidOk(tid)) notes.skip('queued post', q.id, `its topic ${tid} is missing`);
      else {
        rows.push({
          uid: q.uid,
          type: q.type,
          cid,
          tid: q.type === 'reply' ? tid : 0,
          to_pid: num(s(q.data.toPid)),
          title: text(s(q.data.title), 255, notes, 'queued post', q.id, 'title'),
          content: text(s(q.data.sourceContent ?? q.data.content), 65_000, notes, 'queued post', q.id, 'content'),
          tags: JSON.stringify(Array.isArray(q.data.tags) ? q.data.tags.map(String) : []),
          timestamp: num(s(q.data.timestamp)) > q.created ? num(s(q.data.timestamp)) : 0,
          ip: s(q.data.ip).slice(0, 64),
          created: q.created,
        });
      }
    }
    // No id of NodeBB's fits Palaver's: a queued post is known again by its member and time (a re-run replaces it).
    await write(deps, dryRun, async (w) => {
      for (const r of rows)
        await w.tx
          .deleteFrom('post_queue')
          .where('uid', '=', r.uid as number)
          .where('created', '=', r.created as number)
          .execute();
      if (rows.length)
        await w.tx
          .insertInto('post_queue')
          .values(rows as never)
          .execute();
    });
    return { count: rows.length, notes: notes.list };
  },
};

/** The phases after the main ones (members, topics, posts and chats are in by then). */
export const LATER_PHASES: Phase[] = [notifications, postQueue];
