// Server render only (imported by entry-server.tsx, never by the browser bundle).
import { renderToString } from 'react-dom/server';
import type { PageBase, PostView, TopicPage } from '../../shared/types';
import { PostCard } from '../components/Post';
import { RuntimeContext, type Runtime } from '../app/runtime';
import { templateName } from '../pages/registry';

/**
 * The inside of posts' <article> elements, rendered once and reused while nothing it shows has
 * changed. A member's topic page used to spend ~40 µs of React per post, over half its render;
 * most readers see a post's card exactly as the reader before them did (their own vote,
 * bookmark or authorship aside, which are in the key).
 *
 * The key is everything a card's markup is made of:
 * - the post's fields (its content compared apart: the stored text, usually the same string);
 * - what the card reads around it: the language, `relative_path`, `asset_base_url`,
 *   `timeagoCutoff`, whether a member is reading and their time zone, and the topic's id,
 *   slug, lock and privileges.
 * A new input to `PostCard` (or to what it renders) must join `contextKey`. The test
 * `post-cards.test.tsx` renders pages with and without this cache and compares them.
 *
 * In the browser the card is hydrated by `PostCard` itself: the HTML is what it renders.
 */
const MAX_ENTRIES = 1000;

interface Entry {
  content: string;
  html: string;
}

const cache = new Map<string, Entry>();

/** Empties the cache (the translations changed). */
export function clearPostCards(): void {
  cache.clear();
}

function contextKey(rt: Runtime, topic: TopicPage): string {
  const user = topic.loggedInUser;
  const member = !!user?.settings && user.uid > 0;
  const { config } = rt;
  return JSON.stringify([
    rt.i18n.language,
    config.relative_path,
    config.asset_base_url,
    config.timeagoCutoff ?? null,
    member,
    member ? (user.settings?.timezone ?? null) : null,
    topic.tid,
    topic.slug,
    topic.locked,
    topic.mainPid,
    topic.privileges ?? null,
  ]);
}

const OPEN = '<article';
const CLOSE = '</article>';

/** A card's inside, from a render of the card alone; null when its outside is not one <article>. */
function renderInside(rt: Runtime, post: PostView, topic: TopicPage): string | null {
  const html = renderToString(
    <RuntimeContext.Provider value={rt}>
      <PostCard post={post} topic={topic} onChange={noop} />
    </RuntimeContext.Provider>,
  );
  // React escapes `>` in attribute values, so the opening tag ends at the first `>`.
  const start = html.indexOf('>') + 1;
  if (!html.startsWith(OPEN) || !html.endsWith(CLOSE) || start === 0) return null;
  return html.slice(start, html.length - CLOSE.length);
}

function noop(): void {}

/**
 * Prepares the cards of a topic page's posts for `rt.prerendered`, from the cache or rendered now.
 * A folded post (its author is blocked) is left to the page's own render.
 */
export function prerenderPostCards(rt: Runtime, page: PageBase): void {
  if (templateName(page) !== 'topic') return;
  const topic = page as TopicPage;
  if (!Array.isArray(topic.posts) || topic.posts.length === 0) return;
  const context = contextKey(rt, topic);
  const prepared = new Map<object, string>();
  for (const post of topic.posts) {
    if (post.blocked || typeof post.content !== 'string') continue;
    const { content, ...rest } = post;
    const key = context + JSON.stringify(rest);
    let entry = cache.get(key);
    if (entry && entry.content !== content) entry = undefined;
    if (entry) {
      // Most recently used last: the first key is the one to drop.
      cache.delete(key);
      cache.set(key, entry);
    } else {
      const html = renderInside(rt, post, topic);
      if (html === null) continue;
      entry = { content, html };
      cache.set(key, entry);
      if (cache.size > MAX_ENTRIES) cache.delete(cache.keys().next().value!);
    }
    prepared.set(post, entry.html);
  }
  if (prepared.size) rt.prerendered = prepared;
}
