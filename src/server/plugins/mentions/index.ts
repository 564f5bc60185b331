import { quotedPids } from '../../../shared/quotes.js';
import type { PostRow, TopicRow } from '../../hooks/types.js';
import type { Plugin, PluginServices } from '../index.js';
import { linkedMentions, linkMentions, mentionedSlugs } from './parse.js';
import * as store from './store.js';

/** At most this many distinct names are looked up in one post (the rest stay plain text). */
export const MAX_MENTIONS = 50;

/** Links `@member` and `@group` in rendered HTML: only names that exist, one query each kind. */
export async function renderMentions(services: Pick<PluginServices, 'db'>, html: string, relativePath: string): Promise<string> {
  if (!html.includes('@')) return html;
  const slugs = mentionedSlugs(html).slice(0, MAX_MENTIONS);
  if (!slugs.length) return html;
  const [users, groups] = await Promise.all([store.usersBySlugs(services.db, slugs), store.groupsBySlugs(services.db, slugs)]);
  const links = new Map<string, { href: string; kind: 'user' | 'group' }>();
  for (const g of groups) links.set(g.slug.toLowerCase(), { href: `${relativePath}/groups/${encodeURIComponent(g.slug)}`, kind: 'group' });
  // A member's name wins over a group's of the same slug.
  for (const u of users) links.set(u.userslug.toLowerCase(), { href: `${relativePath}/user/${encodeURIComponent(u.userslug)}`, kind: 'user' });
  return linkMentions(html, links);
}

/** The members a rendered post mentions (directly or through a group). */
async function mentionedUids(services: PluginServices, html: string): Promise<Set<number>> {
  const { users, groups } = linkedMentions(html);
  const [rows, groupRows] = await Promise.all([store.usersBySlugs(services.db, users), store.groupsBySlugs(services.db, groups)]);
  const uids = new Set(rows.map((r) => r.uid));
  for (const uid of await store.membersOf(services.db, groupRows.map((g) => g.name))) uids.add(uid);
  return uids;
}

/**
 * Of the members, those who may read the topic's category (topics:read), the author left out,
 * and those who blocked the author (they hear nothing from them).
 */
async function readers(services: PluginServices, uids: Iterable<number>, topic: TopicRow, author: number): Promise<number[]> {
  const candidates = [...uids].filter((uid) => uid !== author && uid > 0);
  if (!candidates.length) return [];
  const blockers = await services.users.blockersAmong(candidates, author);
  const out: number[] = [];
  for (const uid of candidates) {
    if (blockers.has(uid)) continue;
    const viewer = await services.privileges.viewer(uid);
    if (await services.privileges.can(viewer, 'topics:read', topic.cid)) out.push(uid);
  }
  return out;
}

/**
 * Built-in mentions plugin: links `@name` in posts (filter:parse.post, after markdown) and
 * fires action:post.mention for the members a new post, or an edit newly, mentions who may
 * read it; the notifications domain turns that into notifications.
 */
const mentions: Plugin = {
  id: 'mentions',
  init({ hooks, config, services }) {
    hooks.filter('filter:parse.post', 'mentions', async (data) => (data.kind === 'post' ? { ...data, html: await renderMentions(services, data.html, config.relativePath) } : data));

    // The post as it is now (the hook's copy may be stale when the outbox runs it late): a post
    // deleted since tells nobody, and only the names it still has count.
    const tell = async (written: PostRow, topic: TopicRow, uid: number, before: Set<number>) => {
      // A post written with no mention has none to tell (an edit adding one is its own event).
      if (!written.content_html.includes('plugin-mentions-')) return;
      const post = await store.currentPost(services.db, written.pid);
      if (!post || post.deleted === 1 || !post.content_html.includes('plugin-mentions-')) return;
      const now = await mentionedUids(services, post.content_html);
      // A quoted author hears of the quote (action:post.quote), not of the "@name said in" header too.
      const quoted = await store.authorsOf(services.db, quotedPids(post.content).slice(0, MAX_MENTIONS), post.tid);
      const uids = await readers(services, [...now].filter((u) => !before.has(u) && !quoted.has(u)), topic, post.uid);
      if (uids.length) await hooks.fire('action:post.mention', { post, topic, uid, uids });
    };

    // Durable (run from the outbox, after commit, retried): a crash after the post is written
    // loses no mention. Run twice, it fires action:post.mention twice, and the notifications
    // domain tells each reader of a post's mention once (its receipts, key `mention:<pid>`).
    hooks.action('action:post.save', 'mentions', async ({ post, topic, uid }) => tell(post, topic, uid, new Set()), { durable: true });
    hooks.action('action:topic.save', 'mentions', async ({ post, topic, uid }) => tell(post, topic, uid, new Set()), { durable: true });
    hooks.action('action:post.edit', 'mentions', async ({ post, topic, uid }) => {
      // Only mentions the edit added: the previous version is the latest row of post_edits.
      const old = await store.previousContent(services.db, post.pid);
      const oldHtml = old === null ? '' : (await hooks.runFilter('filter:parse.post', { content: old, html: '', kind: 'post', uid: post.uid })).html;
      await tell(post, topic, uid, await mentionedUids(services, oldHtml));
    }, { durable: true });
  },
};

export default mentions;
