// Server render only (imported by entry-server.tsx, never by the browser bundle).
import { SHELL_ONLY_FIELDS } from '../../shared/ssr';
import type { ClientConfig, PageBase } from '../../shared/types';
import { standIn } from '../app/fragments';
import type { Runtime } from '../app/runtime';
import { shellKey, shellOwn, type ShellBar } from '../components/shell-key';
import { cachedFrame, fragmentContext, holeInside, keepFrame, pageFragments, type Frame, type HoleRef } from './fragments';

/**
 * A page's frame: the markup of the whole app but for its holes, the two bars, which show the
 * member's own name, avatar, status and counts (components/shell-key.ts). Every member who is
 * given the same page data but for who they are gets the same frame, and a page is then its
 * frame with their bars put in: no React at all, where rendering the app around its cached
 * cards and bars still cost 0.3 ms of a topic page, more than the rest of the request.
 *
 * The key is made of what the render reads, taken from the data itself rather than listed by
 * hand: the language; the client config but for the CSRF token and the uid (no component reads
 * either); the page data but for what only the bars and the document's head read
 * (`SHELL_ONLY_FIELDS`, src/shared/ssr.ts); and of the member, only whether there is one, their roles and their
 * settings. A frozen object in the page data (a shared post view or topic summary: the server
 * never changes one, see src/server/http/page-json.ts) stands in the key by its identity, so a
 * topic page's key is a few kilobytes, not the JSON of its posts.
 *
 * Only the templates in `FRAMED` are framed: their components read no more of the member than
 * that (the account pages, chats and the like show the member's own data). Adding a template
 * here means checking every component it renders. `tests/e2e/server-render.test.ts` renders
 * every reader's pages with and without the caches and compares them.
 */
const FRAMED = new Set(['categories', 'category', 'topic', 'recent', 'popular', 'top', 'unread', 'tag', 'tags']);

const ids = new WeakMap<object, number>();
let lastId = 0;
const isFrozenObject = (v: unknown): v is object => typeof v === 'object' && v !== null && Object.isFrozen(v);

/** A frozen object's stand-in: a number of its own, after a NUL (which no JSON text holds). */
function identity(value: object): string {
  let id = ids.get(value);
  if (id === undefined) ids.set(value, (id = ++lastId));
  return `\u0000${id}`;
}

/** A value of the page data in the key: its JSON, with frozen objects (or such elements of an array) by identity. */
function keyPart(value: unknown): string {
  if (isFrozenObject(value)) return identity(value);
  if (Array.isArray(value) && value.some(isFrozenObject)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += `${i ? ',' : ''}${isFrozenObject(value[i]) ? identity(value[i] as object) : (JSON.stringify(value[i]) ?? 'null')}`;
    return `${out}]`;
  }
  return JSON.stringify(value) ?? '';
}

/**
 * The config's part of a key (here and the document head's): a short stand-in for its JSON (the same JSON, the same
 * stand-in; numbers never reused), kept per config object when it is frozen (the server reuses
 * a member's), so a frame's key holds and hashes a few characters instead of 3 KB.
 */
const configParts = new WeakMap<ClientConfig, string>();
export function configPart(config: ClientConfig): string {
  let part = configParts.get(config);
  if (part === undefined) {
    // The CSRF token and the uid are the member's; no component reads them.
    const { csrf_token: _token, uid: _uid, ...shared } = config;
    part = standIn(JSON.stringify(shared));
    if (Object.isFrozen(config)) configParts.set(config, part);
  }
  return part;
}

/** The member's part of the key: only whether there is one, their roles and settings; kept per frozen member object (the server reuses a member's). */
const memberParts = new WeakMap<object, string>();
function memberPart(user: PageBase['loggedInUser']): string {
  if (!user || user.uid <= 0 || !('settings' in user) || !user.settings) return '-';
  let part = memberParts.get(user);
  if (part === undefined) {
    // By a short stand-in for the JSON, as the config's: members alike share it.
    part = standIn(JSON.stringify([user.isAdmin, user.isGlobalMod, user.settings]));
    if (Object.isFrozen(user)) memberParts.set(user, part);
  }
  return part;
}

/**
 * The key of a page's frame, or null when its template is not framed (see FRAMED). `pageKey`:
 * the page data's JSON as the server made it for the page (everything but `loggedInUser`,
 * frozen objects by stand-ins: src/server/http/page-json.ts pageJsonAndKey), taken as the
 * page's part instead of making it here.
 */
export function frameKey(page: PageBase, config: ClientConfig, lang: string, pageKey?: string): string | null {
  if (!FRAMED.has(page.template?.name)) return null;
  let key = `${lang}\u0001${configPart(config)}\u0001${memberPart(page.loggedInUser)}`;
  // (No JSON text holds a raw control character: the parts, cut by them, never run into each other.)
  if (pageKey !== undefined) return `${key}\u0002${pageKey}`;
  // Plain values (no frozen object in them) go into the key a run at a time, as one JSON text:
  // a topic page has some sixty, and one call is cheaper than sixty.
  let run: Record<string, unknown> | null = null;
  for (const name of Object.keys(page)) {
    if (SHELL_ONLY_FIELDS.has(name)) continue;
    const value = (page as unknown as Record<string, unknown>)[name];
    if (value === undefined || typeof value === 'function') continue;
    if (isFrozenObject(value) || (Array.isArray(value) && value.some(isFrozenObject))) {
      if (run) key += `\u0001${JSON.stringify(run)}`;
      run = null;
      key += `\u0001${name}\u0002${keyPart(value)}`;
    } else (run ??= Object.create(null) as Record<string, unknown>)[name] = value;
  }
  if (run) key += `\u0001${JSON.stringify(run)}`;
  return key;
}

/** A part of a page's markup: text, or text already encoded (UTF-8) as the server sends it. */
export type AppPart = string | Uint8Array;

const utf8 = new TextEncoder();

/**
 * The page from its cached frame with this member's bars, else rendered (by `render`) as a
 * frame, kept, and filled. Null when it cannot be (a bar's markup could not be cached): the
 * caller renders the page as usual.
 */
export function renderFramed(rt: Runtime, lang: string, key: string, render: () => string): AppPart[] | null {
  const frame = cachedFrame(key);
  if (frame) {
    const context = fragmentContext(rt, lang);
    const filled = fill(frame, (name) => holeInside({ key: context + shellKey(rt, name as ShellBar), own: shellOwn(rt) }));
    if (filled !== null) return filled;
  }
  const holes = new Map<string, HoleRef>();
  const fragments = pageFragments(rt, lang, holes);
  rt.fragments = fragments;
  const marked = render();
  // The bars (and cards) this render missed, rendered on their own and cached.
  fragments.fill();
  const made = splitMarks(marked);
  if (!made || new Set(made.holes).size !== made.holes.length || made.holes.some((name) => !holes.has(name))) return null;
  const page = fill(made, (name) => holeInside(holes.get(name)!));
  if (page !== null) keepFrame(key, made);
  return page;
}

/** A frame's render cut at its holes' marks (ssr/fragments.ts holeMark: a name between NULs); null if a mark is cut short. */
function splitMarks(html: string): Frame | null {
  const frame: Frame = { pieces: [], holes: [] };
  let at = 0;
  for (let open = html.indexOf('\u0000'); open !== -1; open = html.indexOf('\u0000', at)) {
    const close = html.indexOf('\u0000', open + 1);
    if (close === -1) return null;
    frame.pieces.push(utf8.encode(html.slice(at, open)));
    frame.holes.push(html.slice(open + 1, close));
    at = close + 1;
  }
  frame.pieces.push(utf8.encode(html.slice(at)));
  return frame;
}

/** A frame's parts with each hole's inside put in; null when one is not in the cache. */
function fill(frame: Frame, inside: (name: string) => string | undefined): AppPart[] | null {
  const parts: AppPart[] = [frame.pieces[0]!];
  for (let i = 0; i < frame.holes.length; i++) {
    const part = inside(frame.holes[i]!);
    if (part === undefined) return null;
    parts.push(part, frame.pieces[i + 1]!);
  }
  return parts;
}
