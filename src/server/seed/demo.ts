import { randomBytes } from 'node:crypto';
import type { AppContext } from '../context.js';
import type { Viewer } from '../domains/privileges/service.js';
import { SYSTEM } from '../setup.js';
import { CATEGORIES, MEMBERS, REPLIES, TOPICS } from './demo-content.js';

/** A member acting through the seed, exempt from flood control like an integration. */
async function actAs(ctx: AppContext, uid: number): Promise<Viewer> {
  return { ...(await ctx.privileges.viewer(uid)), master: true };
}

/** Deterministic pick, so two seeds of a new forum look alike. */
function pick<T>(list: readonly T[], n: number): T {
  return list[n % list.length]!;
}

/**
 * Fills a forum with believable categories, members, topics, replies and votes, through
 * the services (so counters and rendering are what real use produces).
 */
export async function seedDemo(ctx: AppContext): Promise<string> {
  const existing = await ctx.categories.count();
  const cids: number[] = [];
  // Setup's first category may share a demo category's name: fill it rather than repeat it.
  const byName = new Map((await ctx.categories.list(SYSTEM)).map((c) => [c.name, c.cid]));
  for (const c of CATEGORIES) {
    cids.push(byName.get(c.name) ?? (await ctx.categories.create(SYSTEM, c)).cid);
  }
  const uids: number[] = [];
  for (const m of MEMBERS) {
    const found = await ctx.users.byUsername(m.username);
    if (found) {
      uids.push(found.uid);
      continue;
    }
    // Demo members get random passwords nobody knows: they exist to be read, not used.
    const user = await ctx.users.create({ username: m.username, email: `${m.username.toLowerCase()}@demo.invalid`, password: `${randomBytes(12).toString('base64url')}-Aa1!` });
    await ctx.users.update(SYSTEM, user.uid, { fullname: m.fullname, about: m.about });
    uids.push(user.uid);
  }
  let topics = 0;
  let replies = 0;
  let votes = 0;
  for (const [i, t] of TOPICS.entries()) {
    const author = await actAs(ctx, pick(uids, i * 7 + 3));
    const created = await ctx.topics.create(author, { cid: cids[t.category]!, title: t.title, content: t.content, tags: t.tags });
    topics += 1;
    const tid = created.topic.tid;
    const replyCount = 2 + ((i * 5) % 7);
    for (let r = 0; r < replyCount; r++) {
      const replier = await actAs(ctx, pick(uids, i * 3 + r * 5 + 1));
      const { post } = await ctx.posts.reply(replier, tid, { content: pick(REPLIES, i * 11 + r * 3) });
      replies += 1;
      // A few votes from other members on each reply, never from its author.
      for (let v = 1; v <= (i + r) % 4; v++) {
        const voter = pick(uids, i + r + v * 2);
        if (voter === replier.uid) continue;
        await ctx.posts.vote(await actAs(ctx, voter), post.pid, (i + v) % 5 === 0 ? -1 : 1);
        votes += 1;
      }
    }
  }
  return `Seeded ${cids.length} categories (${existing} existed before), ${uids.length} members, ${topics} topics, ${replies} replies and ${votes} votes.`;
}
