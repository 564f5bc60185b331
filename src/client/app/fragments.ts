import { createElement, type ReactElement } from 'react';
import type { Runtime } from './runtime';

/**
 * Server render only: the inside of repeated elements (a post's card, a topic's row, a
 * category's row), rendered once and reused while nothing they show has changed. Each such
 * element cost 20–40 µs of React per page; most readers see them exactly as the reader before
 * them did. The implementation (a bounded cache) is in `ssr/fragments.tsx`; in the browser
 * `rt.fragments` is undefined and everything renders as usual, which is also how the browser
 * hydrates the cached HTML: it is the markup the component renders.
 */
export interface Fragments {
  /**
   * What every fragment's markup reads around it, as a key prefix: the language,
   * `relative_path`, `asset_base_url`, `timeagoCutoff`, whether a member reads and their time zone.
   */
  readonly context: string;
  /** The inside of the element `key` names, or undefined (`own`: in the cache of members' own fragments). */
  get(key: string, own?: boolean): string | undefined;
  /** Renders `element` (a `tag` element) on its own after the page, to serve `key` next time. */
  later(key: string, tag: string, element: ReactElement, own?: boolean): void;
  /**
   * Set while the server renders a page's frame (ssr/frames.ts): the markup of the page with a
   * mark where each hole's inside goes, the holes being the parts that show one member's own
   * state (the sidebar and the bottom bar). Returns the mark; the hole's inside comes from the
   * cache under `key`, or is rendered on its own after the page.
   */
  hole?(name: string, key: string, tag: string, element: ReactElement, own?: boolean): string;
}

const standIns = new Map<string, string>();
let lastStandIn = 0;

/**
 * Server render: a short stand-in for a JSON text in a cache key (the same text, the same
 * stand-in; numbers never reused, so a text seen again after the table was emptied gets a new
 * one: a miss, never a wrong hit). A key then holds and hashes a few characters instead of
 * the config's 3 KB, the navigation's 1 KB or a member's settings.
 */
export function standIn(json: string): string {
  let id = standIns.get(json);
  if (id === undefined) {
    if (standIns.size >= 3000) standIns.clear();
    standIns.set(json, (id = `\u0000${++lastStandIn}`));
  }
  return id;
}

/**
 * `element` (which renders one `tag` element with `attrs`), or in the server render the same
 * element written from the fragment cache. `key()` must name everything the element's markup
 * is made of besides `Fragments.context`: the component, its props and what else it reads (a
 * topic's privileges…). `tests/e2e/server-render.test.ts` renders pages with and without the
 * cache and compares them. `own`: the element shows one member's own state (their name,
 * counts), kept in a smaller cache of its own so that it never pushes out what readers share.
 */
export function serverCached(rt: Runtime, tag: string, attrs: Record<string, unknown>, key: () => string, element: ReactElement, own?: boolean): ReactElement {
  const fragments = rt.fragments;
  if (!fragments) return element;
  return fromCache(fragments, fragments.context + key(), tag, attrs, element, own);
}

/**
 * `serverCached` for a hole of the page's frame (ssr/frames.ts): the element `name` (a `tag`
 * element with `attrs`) showing one member's own state. While the server renders a frame, it
 * writes the hole's mark, which the frame's reader fills from the cache under the same key.
 */
export function serverHole(rt: Runtime, name: string, tag: string, attrs: Record<string, unknown>, key: () => string, element: ReactElement, own?: boolean): ReactElement {
  const fragments = rt.fragments;
  if (!fragments?.hole) return serverCached(rt, tag, attrs, key, element, own);
  return createElement(tag, { ...attrs, dangerouslySetInnerHTML: { __html: fragments.hole(name, fragments.context + key(), tag, element, own) } });
}

function fromCache(fragments: Fragments, key: string, tag: string, attrs: Record<string, unknown>, element: ReactElement, own?: boolean): ReactElement {
  const html = fragments.get(key, own);
  if (html === undefined) {
    fragments.later(key, tag, element, own);
    return element;
  }
  return createElement(tag, { ...attrs, dangerouslySetInnerHTML: { __html: html } });
}

/** Whole keys made so far, per shown object and key head (see serverCachedOf). */
const keysOf = new WeakMap<object, Map<string, string>>();

/**
 * `serverCached` for an element whose markup is made of `shown` (an object the server shares
 * between readers and never changes: a topic page's post views, the category tree; see
 * posts/presenter.ts overlayPosts and categories/service.ts) and of what `prefix` names. Its
 * key (the head, then `shown`'s JSON) is made once per object and head, and is the same string
 * each time, so the cache's lookup neither stringifies the card's HTML nor hashes a new
 * string per reader. Objects made per request are never changed after the render starts and
 * are collected with their keys.
 */
export function serverCachedOf(rt: Runtime, tag: string, attrs: Record<string, unknown>, prefix: string, shown: object, element: ReactElement): ReactElement {
  const fragments = rt.fragments;
  if (!fragments) return element;
  const head = fragments.context + prefix;
  let byHead = keysOf.get(shown);
  if (!byHead) keysOf.set(shown, (byHead = new Map()));
  let key = byHead.get(head);
  if (key === undefined) {
    key = head + JSON.stringify(shown);
    byHead.set(head, key);
  }
  return fromCache(fragments, key, tag, attrs, element);
}
