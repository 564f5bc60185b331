import { mapCategory, mapPost, mapTopic, Notes, WATCH_STATES, type CategoryImport, type PostImport, type TopicImport } from './map.js';
import { replaceChildren, upsert, withoutSearchTriggers } from './store.js';
import type { NodebbSource } from './source.js';
import { rewriteLinks } from './uploads.js';
import { ids, known, num, setRefs, write, type Phase } from './phase.js';
import { privilegeRows } from './forum-phase.js';

const categories: Phase = {
  name: 'categories',
  set: 'categories:cid',
  async run(deps, src, page, dryRun) {
    const notes = new Notes();
    const cids = ids(page);
    const hashes = await src.hashes(cids.map((c) => `category:${c}`));
    const rows = cids.map((c, i) => mapCategory(c, hashes[i]!, notes)).filter((r): r is CategoryImport => r !== null);
    const got = rows.map((r) => r.cid);
    const privileges: { cid: number; privilege: string; subject: string }[] = [];
    for (const cid of got) privileges.push(...(await privilegeRows(src, cid)));
    const watchSets = await src.zsets(got.map((c) => `cid:${c}:uid:watch:state`));
    const isKnown = await known(
      deps,
      src,
      dryRun,
      'users',
      watchSets.flat().map(([u]) => Number(u)),
    );
    const watches = got.flatMap((cid, i) =>
      watchSets[i]!.filter(([u, s]) => isKnown(Number(u)) && WATCH_STATES[String(s)]).map(([u, s]) => ({
        cid,
        uid: Number(u),
        state: WATCH_STATES[String(s)]!,
      })),
    );
    await write(deps, dryRun, async (w) => {
      await upsert(w, 'categories', rows, ['cid']);
      await replaceChildren(w, 'privileges', 'cid', got, privileges, ['cid', 'privilege', 'subject']);
      await replaceChildren(w, 'category_watches', 'cid', got, watches, ['cid', 'uid']);
    });
    return { count: rows.length, notes: notes.list };
  },
};

const topics: Phase = {
  name: 'topics',
  set: 'topics:tid',
  async run(deps, src, page, dryRun) {
    const notes = new Notes();
    const tids = ids(page);
    const hashes = await src.hashes(tids.map((t) => `topic:${t}`));
    const cidOk = await known(
      deps,
      src,
      dryRun,
      'categories',
      hashes.map((h) => num(h?.cid)),
    );
    const tagSets = await src.sets(tids.map((t) => `topic:${t}:tags`));
    const followers = await src.sets(tids.map((t) => `tid:${t}:followers`));
    const ignorers = await src.sets(tids.map((t) => `tid:${t}:ignorers`));
    const uidOk = await known(deps, src, dryRun, 'users', [...hashes.map((h) => num(h?.uid)), ...followers.flat().map(Number), ...ignorers.flat().map(Number)]);
    const rows: TopicImport[] = [];
    const tags: { tid: number; tag: string }[] = [];
    const follows: { tid: number; uid: number; state: string }[] = [];
    for (let i = 0; i < tids.length; i++) {
      const row = mapTopic(tids[i]!, hashes[i]!, notes, { cid: cidOk, uid: uidOk });
      if (!row) continue;
      rows.push(row);
      // NodeBB 4 keeps a topic's tags in its hash ("a,b"); older ones in topic:<tid>:tags.
      const words = [...(hashes[i]!.tags ?? '').split(','), ...tagSets[i]!];
      for (const tag of new Set(words.map((t) => t.trim().toLowerCase().slice(0, 255)).filter(Boolean))) tags.push({ tid: row.tid, tag });
      const seen = new Set<number>();
      for (const [list, state] of [
        [ignorers[i]!, 'ignore'],
        [followers[i]!, 'follow'],
      ] as const) {
        for (const u of list.map(Number)) {
          if (!uidOk(u) || seen.has(u)) continue;
          seen.add(u);
          follows.push({ tid: row.tid, uid: u, state });
        }
      }
    }
    const got = rows.map((r) => r.tid);
    // The timeline (pin, lock, move, delete…): topic:<tid>:events lists topicEvent:<id> by time.
    const eventSets = await src.zsets(got.map((t) => `topic:${t}:events`));
    const eventHashes = await src.hashes(eventSets.flat().map(([id]) => `topicEvent:${id}`));
    let ei = 0;
    const events = got.flatMap((tid, i) =>
      eventSets[i]!.flatMap(([id, at]) => {
        const h = eventHashes[ei++];
        if (!h?.type) return [];
        const { type, uid, id: _id, timestamp: _t, ...rest } = h;
        return [{ id: Number(id), tid, type: type.slice(0, 64), uid: Number(uid) || 0, data: JSON.stringify(rest), created: Math.trunc(at) }];
      }),
    );
    await write(deps, dryRun, async (w) => {
      await upsert(w, 'topics', rows, ['tid']);
      await replaceChildren(
        w,
        'topic_events',
        'tid',
        got,
        events.filter((e) => Number.isInteger(e.id) && e.id > 0),
        ['id'],
      );
      await upsert(
        w,
        'tags',
        [...new Set(tags.map((t) => t.tag))].map((tag) => ({ tag })),
        ['tag'],
      );
      await replaceChildren(w, 'topic_tags', 'tid', got, tags, ['tid', 'tag']);
      await replaceChildren(w, 'topic_follows', 'tid', got, follows, ['tid', 'uid']);
    });
    return { count: rows.length, notes: notes.list };
  },
};

/**
 * A post's earlier versions from NodeBB's history (post:<pid>:diffs lists the edits' times,
 * newest first; diff:<pid>.<time> holds a patch from the version after the edit back to the
 * one before, its editor and the title before). Palaver keeps each replaced version with who
 * wrote it and when. A patch that no longer applies ends that post's history (noted).
 */
async function editHistory(src: NodebbSource, rows: PostImport[], notes: Notes) {
  const out: { pid: number; uid: number; content: string; title: string | null; edited: number }[] = [];
  const edited = rows.filter((r) => r.edited > 0);
  const lists = await src.lists(edited.map((r) => `post:${r.pid}:diffs`));
  const keys = edited.flatMap((r, i) => lists[i]!.map((t) => `diff:${r.pid}.${t}`));
  if (!keys.length) return out;
  const diffs = await src.hashes(keys);
  const { applyPatch } = await import('diff');
  let k = 0;
  edited.forEach((r, i) => {
    const times = lists[i]!.map(Number);
    let content = r.content;
    const versions: { content: string; title: string | null; editor: number }[] = [];
    let broken = false;
    for (const _t of times) {
      const d = diffs[k++];
      if (broken || !d?.patch) continue;
      const before = applyPatch(content, d.patch);
      if (before === false) {
        notes.alter('post', r.pid, 'an edit history patch did not apply: the earlier versions are left out');
        broken = true;
        continue;
      }
      // An edit that kept the title stores none: the version had the title of the one after it.
      versions.push({ content: before, title: d.title ?? versions[versions.length - 1]?.title ?? null, editor: Number(d.uid) || 0 });
      content = before;
    }
    // versions[j] is the content before the j-th newest edit, written at the edit before it (or at creation).
    versions.forEach((v, j) => {
      const writtenAt = j + 1 < times.length ? times[j + 1]! : r.created;
      const writer = j + 1 < versions.length ? versions[j + 1]!.editor || r.uid : r.uid;
      out.push({ pid: r.pid, uid: writer, content: v.content, title: v.title, edited: writtenAt });
    });
  });
  return out;
}

const posts: Phase = {
  name: 'posts',
  set: 'posts:pid',
  async run(deps, src, page, dryRun, state) {
    const notes = new Notes();
    const pids = ids(page);
    const s = await deps.settings.get();
    const hashes = await src.hashes(pids.map((p) => `post:${p}`));
    const up = await src.sets(pids.map((p) => `pid:${p}:upvote`));
    const down = await src.sets(pids.map((p) => `pid:${p}:downvote`));
    const marked = await src.sets(pids.map((p) => `pid:${p}:users_bookmarked`));
    const tidOk = await known(
      deps,
      src,
      dryRun,
      'topics',
      hashes.map((h) => num(h?.tid)),
    );
    const uidOk = await known(deps, src, dryRun, 'users', [
      ...hashes.map((h) => num(h?.uid)),
      ...up.flat().map(Number),
      ...down.flat().map(Number),
      ...marked.flat().map(Number),
    ]);
    const rows: (PostImport & { content_html: string })[] = [];
    const refs: { id: number; used: string[] }[] = [];
    const votes: { pid: number; uid: number; value: number; created: number }[] = [];
    const bookmarks: { pid: number; uid: number; created: number }[] = [];
    for (let i = 0; i < pids.length; i++) {
      const mapped = mapPost(pids[i]!, hashes[i]!, notes, { tid: tidOk, uid: uidOk }, Math.max(s.maximumPostLength, 65_000));
      if (!mapped) continue;
      // Links to NodeBB's uploads lead to their copies.
      const linked = rewriteLinks(mapped.content, state.uploads);
      const p = { ...mapped, content: linked.text };
      refs.push({ id: p.pid, used: linked.used });
      // Rendered by Palaver's own pipeline (markdown, mentions, emoji; sanitised), as a new post is.
      const html = (await deps.hooks.runFilter('filter:parse.post', { content: p.content, html: '', kind: 'post', uid: p.uid })).html;
      rows.push({ ...p, content_html: html });
      const voted = new Set<number>();
      for (const [list, value] of [
        [up[i]!, 1],
        [down[i]!, -1],
      ] as const) {
        for (const u of list.map(Number)) {
          if (!uidOk(u) || voted.has(u)) continue;
          voted.add(u);
          votes.push({ pid: p.pid, uid: u, value, created: p.created });
        }
      }
      for (const u of new Set(marked[i]!.map(Number))) if (uidOk(u)) bookmarks.push({ pid: p.pid, uid: u, created: p.created });
    }
    // When each vote and bookmark was made: the member's own sorted sets (uid:<uid>:upvote… pid → time).
    const when = await src.scores([
      ...votes.map((v): [string, string] => [`uid:${v.uid}:${v.value > 0 ? 'upvote' : 'downvote'}`, String(v.pid)]),
      ...bookmarks.map((b): [string, string] => [`uid:${b.uid}:bookmarks`, String(b.pid)]),
    ]);
    votes.forEach((v, i) => (v.created = Math.trunc(when[i] ?? v.created)));
    bookmarks.forEach((b, i) => (b.created = Math.trunc(when[votes.length + i] ?? b.created)));
    const got = rows.map((r) => r.pid);
    const edits = await editHistory(src, rows, notes);
    await write(deps, dryRun, async (w) => {
      await withoutSearchTriggers(w, deps.dialect, () => upsert(w, 'posts', rows, ['pid']));
      await replaceChildren(w, 'post_edits', 'pid', got, [], ['id']);
      for (let i = 0; i < edits.length; i += 2000)
        await w.tx
          .insertInto('post_edits')
          .values(edits.slice(i, i + 2000))
          .execute();
      await setRefs(w, 'post', refs);
      await replaceChildren(w, 'votes', 'pid', got, votes, ['pid', 'uid']);
      await replaceChildren(w, 'bookmarks', 'pid', got, bookmarks, ['pid', 'uid']);
    });
    return { count: rows.length, notes: notes.list };
  },
};

/** A second pass over the members, once topics are in: whom they follow and block, which topics they read, the tags they follow, the files they uploaded. */
const memberState: Phase = {
  name: 'member-state',
  set: 'users:joindate',
  async run(deps, src, page, dryRun, state) {
    const uids = ids(page);
    const following = await src.zsets(uids.map((u) => `following:${u}`));
    const reads = await src.zsets(uids.map((u) => `uid:${u}:tids_read`));
    const uidOk = await known(deps, src, dryRun, 'users', [...uids, ...following.flat().map(([u]) => Number(u))]);
    const tidOk = await known(
      deps,
      src,
      dryRun,
      'topics',
      reads.flat().map(([t]) => Number(t)),
    );
    const here = uids.filter(uidOk);
    const follows = uids.flatMap((uid, i) =>
      uidOk(uid)
        ? following[i]!.filter(([f]) => uidOk(Number(f)) && Number(f) !== uid).map(([f, t]) => ({ uid, followee: Number(f), created: Math.trunc(t) }))
        : [],
    );
    const blocked = await src.zsets(uids.map((u) => `uid:${u}:blocked_uids`));
    const blockOk = await known(
      deps,
      src,
      dryRun,
      'users',
      blocked.flat().map(([b]) => Number(b)),
    );
    const blocks = uids.flatMap((uid, i) =>
      uidOk(uid)
        ? blocked[i]!.filter(([b]) => blockOk(Number(b)) && Number(b) !== uid).map(([b, t]) => ({ uid, blocked_uid: Number(b), created: Math.trunc(t) }))
        : [],
    );
    const readRows = uids.flatMap((uid, i) =>
      uidOk(uid) ? reads[i]!.filter(([t]) => tidOk(Number(t))).map(([t, at]) => ({ uid, tid: Number(t), read_at: Math.trunc(at) })) : [],
    );
    // Followed tags (uid:<uid>:followed_tags: tag → time).
    const tagLists = await src.zsets(here.map((u) => `uid:${u}:followed_tags`));
    const tagRows = here.flatMap((uid, i) => tagLists[i]!.filter(([t]) => t && t.length <= 255).map(([tag, t]) => ({ tag, uid, created: Math.trunc(t) })));
    // Who uploaded which file (uid:<uid>:uploads: NodeBB's path → time), for the files --uploads copied.
    const uploadLists = state.uploads.size ? await src.zsets(here.map((u) => `uid:${u}:uploads`)) : [];
    const owned = here.flatMap((uid, i) =>
      (uploadLists[i] ?? []).flatMap(([p, t]) => {
        const name = state.uploads.get(p.replace(/^\/+/, '').replace(/^(?:assets\/)?uploads\//, ''));
        return name ? [{ uid, path: name, created: Math.trunc(t) }] : [];
      }),
    );
    await write(deps, dryRun, async (w) => {
      await replaceChildren(w, 'tag_follows', 'uid', here, tagRows, ['tag', 'uid']);
      for (const o of owned) await w.tx.updateTable('uploads').set({ uid: o.uid, created: o.created }).where('path', '=', o.path).execute();
      await replaceChildren(w, 'user_follows', 'uid', here, follows, ['uid', 'followee']);
      await replaceChildren(w, 'topic_reads', 'uid', here, readRows, ['uid', 'tid']);
      await replaceChildren(w, 'user_blocks', 'uid', here, blocks, ['uid', 'blocked_uid']);
    });
    return { count: here.length, notes: [] };
  },
};

/** Categories, topics, posts and what members did with them. */
export const CONTENT_PHASES: Phase[] = [categories, topics, posts, memberState];
