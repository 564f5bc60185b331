// Server render only (imported by entry-server.tsx, never by the browser bundle).
import type { ReactElement } from 'react';
import { renderToString } from 'react-dom/server';
import type { Fragments } from '../app/fragments';
import { memberOf } from '../app/hooks';
import { RuntimeContext, type Runtime } from '../app/runtime';

/**
 * The fragment cache behind `serverCached` (app/fragments.ts): least recently used first out,
 * bounded by its size in characters (keys and HTML), 8 M (8–16 MB), some 1,500 post cards.
 */
const MAX_CHARS = 8_000_000;
const cache = new Map<string, string>();
let chars = 0;

/** Empties the cache (the translations changed). */
export function clearFragments(): void {
  cache.clear();
  chars = 0;
}

function remember(key: string, html: string): void {
  const old = cache.get(key);
  if (old !== undefined) {
    cache.delete(key);
    chars -= key.length + old.length;
  }
  cache.set(key, html);
  chars += key.length + html.length;
  for (const [k, v] of cache) {
    if (chars <= MAX_CHARS) break;
    cache.delete(k);
    chars -= k.length + v.length;
  }
}

interface Pending {
  key: string;
  tag: string;
  element: ReactElement;
}

/** The fragments of one page render; `fill()` renders the ones it missed, after the page. */
export function pageFragments(rt: Runtime, lang: string): Fragments & { fill(): void } {
  const user = memberOf(rt.page.get().page);
  const { config } = rt;
  const pending: Pending[] = [];
  return {
    context: JSON.stringify([lang, config.relative_path, config.asset_base_url, config.timeagoCutoff ?? null, !!user, user?.settings?.timezone ?? null]),
    get(key) {
      const html = cache.get(key);
      if (html !== undefined) {
        // Most recently used last: the first key is the one to drop.
        cache.delete(key);
        cache.set(key, html);
      }
      return html;
    },
    later(key, tag, element) {
      pending.push({ key, tag, element });
    },
    fill() {
      for (const { key, tag, element } of pending) {
        let inside: string | null = null;
        try {
          inside = renderInside(rt, tag, element);
        } catch {
          // Rendered alone it failed (it rendered in the page): it is simply not cached.
        }
        if (inside !== null) remember(key, inside);
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
