import type { Db } from '../../db/index.js';
import type { NodebbSource } from './source.js';

/** One line of the comparison: NodeBB's count, Palaver's, and whether they agree. */
export interface VerifyLine {
  what: string;
  nodebb: number;
  palaver: number;
  ok: boolean;
  /** Why a difference is expected (skipped records are in the summary file). */
  note?: string;
}

const count = async (db: Db, table: 'users' | 'categories' | 'topics' | 'posts' | 'chat_rooms' | 'chat_messages') =>
  Number(
    (
      await db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

/**
 * `palaver import verify`: NodeBB's counts beside Palaver's (members, categories, topics,
 * posts, chat rooms), then a sample of topics: for each, its title and its number of posts on
 * both sides. A record the import skipped shows as a difference; the summary file says why.
 */
export async function verifyImport(db: Db, src: NodebbSource, sample = 20): Promise<VerifyLine[]> {
  const lines: VerifyLine[] = [];
  const pairs: [string, string, 'users' | 'categories' | 'topics' | 'posts' | 'chat_rooms'][] = [
    ['members', 'users:joindate', 'users'],
    ['categories', 'categories:cid', 'categories'],
    ['topics', 'topics:tid', 'topics'],
    ['posts', 'posts:pid', 'posts'],
    ['chat rooms', 'chat:rooms', 'chat_rooms'],
  ];
  for (const [what, set, table] of pairs) {
    const nodebb = await src.zcard(set);
    // Palaver may have had rows of its own before (its first administrator and category).
    const palaver = await count(db, table);
    lines.push({ what, nodebb, palaver, ok: palaver >= nodebb });
  }
  // A sample of topics: the first page of NodeBB's list.
  const { items } = await src.zpage('topics:tid', '', sample);
  const tids = items.map(([t]) => Number(t)).filter((n) => n > 0);
  const hashes = await src.hashes(tids.map((t) => `topic:${t}`));
  const postSets = await Promise.all(tids.map((t) => src.zcard(`tid:${t}:posts`)));
  const rows = tids.length ? await db.selectFrom('topics').select(['tid', 'title']).where('tid', 'in', tids).execute() : [];
  const posts = tids.length
    ? await db
        .selectFrom('posts')
        .select((eb) => ['tid', eb.fn.countAll().as('n')])
        .where('tid', 'in', tids)
        .groupBy('tid')
        .execute()
    : [];
  tids.forEach((tid, i) => {
    const h = hashes[i];
    const row = rows.find((r) => r.tid === tid);
    // NodeBB's tid:<tid>:posts holds the replies; the first post is the topic's mainPid.
    const nodebbPosts = h ? postSets[i]! + (Number(h.mainPid) > 0 ? 1 : 0) : 0;
    const palaverPosts = Number(posts.find((p) => p.tid === tid)?.n ?? 0);
    const titleOk = !!row && !!h && row.title === h.title;
    lines.push({
      what: `topic ${tid}`,
      nodebb: nodebbPosts,
      palaver: palaverPosts,
      ok: titleOk && palaverPosts === nodebbPosts,
      ...(titleOk ? {} : { note: row ? 'the title differs' : 'missing in Palaver' }),
    });
  });
  return lines;
}
