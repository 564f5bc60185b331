// Server render only (imported by entry-server.tsx, never by the browser bundle).
import type { ReactElement } from 'react';
import { renderToString } from 'react-dom/server';
import type { Fragments } from '../app/fragments';
import { memberOf } from '../app/hooks';
import { RuntimeContext, type Runtime } from '../app/runtime';

/** One bounded cache: least recently used first out, bounded by its size in characters (keys and HTML). */
interface Pool {
  readonly max: number;
  readonly cache: Map<string, string>;
  chars: number;
}

/**
 * The fragment caches behind `serverCached` (app/fragments.ts): fragments readers share (post
 * cards, topic and category rows), 8 M characters (8–16 MB, some 1,500 post cards); a
 * member's own (their sidebar and bottom bar, `own`), 2 M apart, so that many members loading
 * pages never push the shared cards out.
 */
const POOLS: Record<'shared' | 'own', Pool> = {
  shared: { max: 8_000_000, cache: new Map(), chars: 0 },
  own: { max: 2_000_000, cache: new Map(), chars: 0 },
};
const poolOf = (own: boolean | undefined): Pool => (own ? POOLS.own : POOLS.shared);

/** Empties the caches (the translations changed). */
export function clearFragments(): void {
  for (const pool of Object.values(POOLS)) {
    pool.cache.clear();
    pool.chars = 0;
  }
}

function remember(pool: Pool, key: string, html: string): void {
  const { cache } = pool;
  const old = cache.get(key);
  if (old !== undefined) {
    cache.delete(key);
    pool.chars -= key.length + old.length;
  }
  cache.set(key, html);
  pool.chars += key.length + html.length;
  for (const [k, v] of cache) {
    if (pool.chars <= pool.max) break;
    cache.delete(k);
    pool.chars -= k.length + v.length;
  }
}

interface Pending {
  key: string;
  tag: string;
  element: ReactElement;
  own: boolean | undefined;
}

/** The fragments of one page render; `fill()` renders the ones it missed, after the page. */
export function pageFragments(rt: Runtime, lang: string): Fragments & { fill(): void } {
  const user = memberOf(rt.page.get().page);
  const { config } = rt;
  const pending: Pending[] = [];
  return {
    context: JSON.stringify([lang, config.relative_path, config.asset_base_url, config.timeagoCutoff ?? null, !!user, user?.settings?.timezone ?? null]),
    get(key, own) {
      const { cache } = poolOf(own);
      const html = cache.get(key);
      if (html !== undefined) {
        // Most recently used last: the first key is the one to drop.
        cache.delete(key);
        cache.set(key, html);
      }
      return html;
    },
    later(key, tag, element, own) {
      pending.push({ key, tag, element, own });
    },
    fill() {
      for (const { key, tag, element, own } of pending) {
        let inside: string | null = null;
        try {
          inside = renderInside(rt, tag, element);
        } catch {
          // Rendered alone it failed (it rendered in the page): it is simply not cached.
        }
        if (inside !== null) remember(poolOf(own), key, inside);
      }
    },
  };
}

/** An element's inside, from a render of it alone; null when its outside is not one `tag` element. */
function renderInside(rt: Runtime, tag: string, element: ReactElement): string | null {
  const html = renderToString(<RuntimeContext.Provider value={rt}>{element}</RuntimeContext.Provider>);
  const close = `</${tag}>`;
  // React escapes `>` in attribute values, so the opening tag ends at the first `>`.
  const start = html.indexOf('>') + 1;
  if (!html.startsWith(`<${tag} `) || !html.endsWith(close) || start === 0) return null;
  return html.slice(start, html.length - close.length);
}
