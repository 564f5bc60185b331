// Server render only (imported by entry-server.tsx, never by the browser bundle).
import type { ReactElement } from 'react';
import { renderToString } from 'react-dom/server';
import type { Fragments } from '../app/fragments';
import { memberOf } from '../app/hooks';
import { RuntimeContext, type Runtime } from '../app/runtime';

/**
 * One bounded cache: least recently used first out, bounded by its size in characters (keys and
 * values). With `idleMs`, an entry not read for that long is dropped too (see FRAMES).
 */
class Pool<V> {
  readonly cache = new Map<string, V>();
  /** When each entry was last kept or read (only with idleMs). */
  private readonly used = new Map<string, number>();
  private sweptAt = 0;
  chars = 0;
  hits = 0;
  misses = 0;

  constructor(
    readonly max: number,
    private readonly sizeOf: (value: V) => number,
    readonly idleMs = 0,
  ) {}

  get(key: string): V | undefined {
    const value = this.cache.get(key);
    if (value === undefined) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    if (this.idleMs) this.used.set(key, Date.now());
    // Most recently used last: the first key is the one to drop. Only while the pool is near
    // full, when the order decides what goes: moving an entry makes the Map grow and rebuild
    // its table (garbage on every hit of a busy page).
    if (this.chars > this.max * 0.75) {
      this.cache.delete(key);
      this.cache.set(key, value);
    }
    return value;
  }

  set(key: string, value: V): void {
    const old = this.cache.get(key);
    if (old !== undefined) this.drop(key, old);
    this.cache.set(key, value);
    this.chars += key.length + this.sizeOf(value);
    if (this.idleMs) {
      const now = Date.now();
      this.used.set(key, now);
      // At most one walk per half idle time: a miss of a busy page costs no walk of the rest.
      if (now - this.sweptAt >= this.idleMs / 2) {
        this.sweptAt = now;
        for (const [k, at] of this.used) if (now - at >= this.idleMs) this.drop(k, this.cache.get(k)!);
      }
    }
    for (const [k, v] of this.cache) {
      if (this.chars <= this.max) break;
      this.drop(k, v);
    }
  }

  private drop(key: string, value: V): void {
    this.cache.delete(key);
    this.used.delete(key);
    this.chars -= key.length + this.sizeOf(value);
  }

  clear(): void {
    this.cache.clear();
    this.used.clear();
    this.chars = 0;
  }
}

/**
 * A page's markup around its holes (ssr/frames.ts): `pieces` has one more entry than `holes`,
 * the page being `pieces[0] + inside(holes[0]) + pieces[1] + …`. The pieces are kept encoded
 * (UTF-8), as the server sends them: a topic page's 45 KB are then encoded once per frame,
 * not per reader.
 */
export interface Frame {
  pieces: Uint8Array[];
  holes: string[];
}

const htmlSize = (html: string) => html.length;
/**
 * The fragment caches behind `serverCached` (app/fragments.ts): fragments readers share (post
 * cards, topic and category rows), 8 M characters (8–16 MB, some 1,500 post cards); a
 * member's own (their sidebar and bottom bar, `own`), 2 M apart, so that many members loading
 * pages never push the shared cards out; pages' frames (ssr/frames.ts), 4 MB, some hundred
 * topic pages.
 */
const SHARED = new Pool<string>(8_000_000, htmlSize);
const OWN = new Pool<string>(2_000_000, htmlSize);
/**
 * How long a frame is kept unread. A frame's key names the page's shared parts by identity
 * (frames.ts, and the server's page-json.ts), and the server rebuilds those parts as new
 * objects at least every 5 s (their caches' TTL: topics' ListCache, categories' rows, members'
 * parts) or at a write: from then on no page can have the key, and the frame would sit in the
 * pool until 4 MB of newer ones pushed it out. A page's parts expire at different moments, so
 * a read page gets a new key each time any one of them is rebuilt: after the bench's topic page
 * (its guest and member read windows) the pool held 78 frames, 2.2 MB, most of it bytes outside
 * V8's heap, in malloc. Twice the parts' TTL: a live frame is read far more often.
 */
const FRAME_IDLE_MS = 10_000;
const FRAMES = new Pool<Frame>(4_000_000, (f) => f.pieces.reduce((n, p) => n + p.byteLength, 0), FRAME_IDLE_MS);
const poolOf = (own: boolean | undefined): Pool<string> => (own ? OWN : SHARED);

/** Empties the caches (the translations changed). */
export function clearFragments(): void {
  for (const pool of [SHARED, OWN, FRAMES]) pool.clear();
}

/** What the caches hold and how often they were read from, since the process started. */
export function fragmentStats(): Record<'shared' | 'own' | 'frames', { entries: number; chars: number; hits: number; misses: number }> {
  const stats = <V,>(p: Pool<V>) => ({ entries: p.cache.size, chars: p.chars, hits: p.hits, misses: p.misses });
  return { shared: stats(SHARED), own: stats(OWN), frames: stats(FRAMES) };
}

/** A page's frame from the cache. */
export function cachedFrame(key: string): Frame | undefined {
  return FRAMES.get(key);
}

/** Keeps a page's frame for the next page with the same key. */
export function keepFrame(key: string, frame: Frame): void {
  FRAMES.set(key, frame);
}

/** The mark a frame's render writes where a hole's inside goes (no markup or JSON holds a NUL). */
export function holeMark(name: string): string {
  return `\u0000${name}\u0000`;
}

interface Pending {
  key: string;
  tag: string;
  element: ReactElement;
  own: boolean | undefined;
}

/** What every fragment's markup reads around it (see Fragments.context). */
export function fragmentContext(rt: Runtime, lang: string): string {
  const user = memberOf(rt.page.get().page);
  const { config } = rt;
  return JSON.stringify([lang, config.relative_path, config.asset_base_url, config.timeagoCutoff ?? null, !!user, user?.settings?.timezone ?? null]);
}

/** A hole of the page being rendered, by name: where its inside is cached. */
export interface HoleRef {
  key: string;
  own: boolean | undefined;
}

/**
 * The fragments of one page render; `fill()` renders the ones it missed, after the page. With
 * `holes`, the page is rendered as a frame: each hole (app/fragments.ts `serverHole`) writes its
 * mark, and `holes` records where its inside is cached.
 */
export function pageFragments(rt: Runtime, lang: string, holes?: Map<string, HoleRef>): Fragments & { fill(): void } {
  const pending: Pending[] = [];
  const fragments: Fragments & { fill(): void } = {
    context: fragmentContext(rt, lang),
    get(key, own) {
      return poolOf(own).get(key);
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
        if (inside !== null) poolOf(own).set(key, inside);
      }
    },
  };
  if (holes) {
    fragments.hole = (name, key, tag, element, own) => {
      holes.set(name, { key, own });
      if (poolOf(own).get(key) === undefined) fragments.later(key, tag, element, own);
      return holeMark(name);
    };
  }
  return fragments;
}

/** The inside of a hole whose key `ref` names, from the cache. */
export function holeInside(ref: HoleRef): string | undefined {
  return poolOf(ref.own).get(ref.key);
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
