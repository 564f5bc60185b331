import { sql } from 'kysely';
import type { Writer } from '../../core/action.js';
import { ALL } from '../../core/tags.js';
import type { Dialect, Queryable } from '../../db/index.js';

/** Most parameters one statement takes here (SQLite allows 32,766, PostgreSQL 65,535). */
const MAX_PARAMS = 30_000;

/**
 * Inserts rows, or updates those whose key is there already (a second import of the same forum
 * updates rather than duplicates): one statement per slice of rows, never one per row.
 */
export async function upsert(w: Writer, table: string, rows: Record<string, unknown>[], keys: string[]): Promise<void> {
  if (!rows.length) return;
  const cols = Object.keys(rows[0]!);
  const update = cols.filter((c) => !keys.includes(c));
  const per = Math.max(1, Math.floor(MAX_PARAMS / cols.length));
  for (let i = 0; i < rows.length; i += per) {
    const q = w.tx.insertInto(table as never).values(rows.slice(i, i + per) as never);
    await (
      update.length
        ? q.onConflict((oc) => oc.columns(keys as never).doUpdateSet(Object.fromEntries(update.map((c) => [c, sql.ref(`excluded.${c}`)])) as never))
        : q.onConflict((oc) => oc.columns(keys as never).doNothing())
    ).execute();
  }
}

/**
 * Runs `fn` with the search index's per-row triggers on posts off, inside the batch's own
 * transaction (SQLite and PostgreSQL both take the schema change back on rollback, so a crash
 * cannot leave them off): each row's index update costs many times its insert (the trigram
 * index above all), and the rebuild queued at the end (store.rebuild's caller) indexes every
 * post in one pass instead.
 */
export async function withoutSearchTriggers(w: Writer, dialect: Dialect, fn: () => Promise<void>): Promise<void> {
  if (dialect === 'postgres') {
    const { rows } = await sql<{
      n: number;
    }>`SELECT count(*)::int AS n FROM pg_trigger WHERE tgname = 'search_posts_sync' AND tgrelid = 'posts'::regclass`.execute(w.tx);
    if (!rows[0]?.n) return fn();
    await sql`ALTER TABLE posts DISABLE TRIGGER search_posts_sync`.execute(w.tx);
    await fn();
    await sql`ALTER TABLE posts ENABLE TRIGGER search_posts_sync`.execute(w.tx);
    return;
  }
  const { rows } = await sql<{
    name: string;
    sql: string;
  }>`SELECT name, sql FROM sqlite_schema WHERE type = 'trigger' AND tbl_name = 'posts' AND name IN ('search_posts_ai', 'search_posts_au')`.execute(w.tx);
  for (const t of rows) await sql.raw(`DROP TRIGGER ${t.name}`).execute(w.tx);
  await fn();
  for (const t of rows) await sql.raw(t.sql).execute(w.tx);
}

/** Replaces the rows of `table` whose `parent` column is one of `ids` by `rows`. */
export async function replaceChildren(
  w: Writer,
  table: string,
  parent: string,
  ids: (number | string)[],
  rows: Record<string, unknown>[],
  keys: string[],
): Promise<void> {
  if (!ids.length) return;
  for (let i = 0; i < ids.length; i += 5000)
    await w.tx
      .deleteFrom(table as never)
      .where(parent as never, 'in', ids.slice(i, i + 5000) as never)
      .execute();
  await upsert(w, table, rows, keys);
}

/** Which of these ids are rows of `table` (by its `column`). */
export async function present(
  db: Queryable,
  table: 'users' | 'categories' | 'topics' | 'posts' | 'chat_rooms' | 'groups',
  column: string,
  ids: (number | string)[],
): Promise<Set<string>> {
  const out = new Set<string>();
  for (let i = 0; i < ids.length; i += 5000) {
    const rows = (await db
      .selectFrom(table as never)
      .select(`${column} as id` as never)
      .where(column as never, 'in', ids.slice(i, i + 5000) as never)
      .execute()) as { id: number | string }[];
    for (const r of rows) out.add(String(r.id));
  }
  return out;
}

/** Which dm_keys are taken by rooms other than these. */
export async function takenDmKeys(db: Queryable, keys: string[], roomIds: number[]): Promise<Set<string>> {
  if (!keys.length) return new Set();
  const rows = await db.selectFrom('chat_rooms').select(['dm_key', 'room_id']).where('dm_key', 'in', keys).execute();
  return new Set(rows.filter((r) => !roomIds.includes(r.room_id)).map((r) => r.dm_key!));
}

/**
 * Everything the import did not copy but derives: counters of topics, posts, categories,
 * members, tags and rooms, chat message positions, and (PostgreSQL) identity sequences past
 * the highest id. Then every cache drops (ALL).
 */
export async function rebuild(w: Writer, dialect: Dialect): Promise<void> {
  const run = (q: ReturnType<typeof sql>) => q.execute(w.tx);
  // Posts: votes and bookmarks from their rows.
  await run(sql`UPDATE posts SET
    upvotes = (SELECT count(*) FROM votes v WHERE v.pid = posts.pid AND v.value > 0),
    downvotes = (SELECT count(*) FROM votes v WHERE v.pid = posts.pid AND v.value < 0),
    bookmarks = (SELECT count(*) FROM bookmarks b WHERE b.pid = posts.pid)`);
  // Topics: visible posts, first and latest post, and the first post's votes.
  await run(sql`UPDATE topics SET
    post_count = (SELECT count(*) FROM posts p WHERE p.tid = topics.tid AND p.deleted = 0),
    main_pid = coalesce((SELECT min(p.pid) FROM posts p WHERE p.tid = topics.tid), main_pid),
    teaser_pid = coalesce((SELECT p.pid FROM posts p WHERE p.tid = topics.tid AND p.deleted = 0 ORDER BY p.created DESC, p.pid DESC LIMIT 1), 0),
    last_post_time = coalesce((SELECT max(p.created) FROM posts p WHERE p.tid = topics.tid AND p.deleted = 0), created)`);
  await run(sql`UPDATE topics SET
    upvotes = coalesce((SELECT p.upvotes FROM posts p WHERE p.pid = topics.main_pid), 0),
    downvotes = coalesce((SELECT p.downvotes FROM posts p WHERE p.pid = topics.main_pid), 0)`);
  await run(sql`UPDATE categories SET
    topic_count = (SELECT count(*) FROM topics t WHERE t.cid = categories.cid AND t.deleted = 0),
    post_count = coalesce((SELECT sum(t.post_count) FROM topics t WHERE t.cid = categories.cid AND t.deleted = 0), 0)`);
  await run(sql`UPDATE users SET
    postcount = (SELECT count(*) FROM posts p WHERE p.uid = users.uid AND p.deleted = 0),
    topiccount = (SELECT count(*) FROM topics t WHERE t.uid = users.uid AND t.deleted = 0),
    follower_count = (SELECT count(*) FROM user_follows f WHERE f.followee = users.uid),
    following_count = (SELECT count(*) FROM user_follows f WHERE f.uid = users.uid)`);
  await run(sql`UPDATE tags SET topic_count = (SELECT count(*) FROM topic_tags tt JOIN topics t ON t.tid = tt.tid WHERE tt.tag = tags.tag AND t.deleted = 0)`);
  await run(sql`UPDATE groups SET member_count = (SELECT count(*) FROM group_members m WHERE m.group_name = groups.name)`);
  // Chat messages get their dense position in the room (by time, then id); negative first so no two rows share one meanwhile.
  await run(sql`UPDATE chat_messages SET idx = -mid WHERE idx >= 0`);
  await run(
    sql`UPDATE chat_messages SET idx = (SELECT n FROM (SELECT m.mid, row_number() OVER (PARTITION BY m.room_id ORDER BY m.created, m.mid) - 1 AS n FROM chat_messages m) r WHERE r.mid = chat_messages.mid)`,
  );
  await run(sql`UPDATE chat_rooms SET
    message_count = (SELECT count(*) FROM chat_messages m WHERE m.room_id = chat_rooms.room_id),
    last_mid = coalesce((SELECT max(m.mid) FROM chat_messages m WHERE m.room_id = chat_rooms.room_id), 0),
    last_activity = coalesce((SELECT max(m.created) FROM chat_messages m WHERE m.room_id = chat_rooms.room_id), created),
    user_count = (SELECT count(*) FROM chat_room_members c WHERE c.room_id = chat_rooms.room_id)`);
  if (dialect === 'postgres') {
    for (const [t, c] of [
      ['users', 'uid'],
      ['categories', 'cid'],
      ['topics', 'tid'],
      ['posts', 'pid'],
      ['chat_rooms', 'room_id'],
      ['chat_messages', 'mid'],
    ] as const) {
      await run(sql`SELECT setval(pg_get_serial_sequence(${t}, ${c}), coalesce((SELECT max(${sql.ref(c)}) FROM ${sql.table(t)}), 0) + 1, false)`);
    }
  }
  w.changed(ALL);
}
