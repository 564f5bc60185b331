import { describe, expect, it } from 'vitest';
import { beginsWith, carryBeginning, pageJsonAndKey, pageJsonPieces, scriptSafe } from './page-json.js';

/** A page's JSON text, from its pieces joined. */
const jsonText = (value: object) => Buffer.concat(pageJsonPieces(value)).toString();

/** A page shaped like a topic page: shared (frozen) post views among per-request values. */
const guest = Object.freeze({ uid: 0, username: '[[global:guest]]' });
function page(posts: object[]) {
  return {
    title: 'A <b>topic</b>',
    skipped: undefined,
    fn: () => 1,
    when: new Date(0),
    loggedInUser: guest,
    posts,
    mixed: [1, undefined, 'two', Object.freeze({ n: 3 }), Object.freeze([4]), null],
    nested: { posts },
    empty: [],
  };
}

const post = (pid: number, content: string) => Object.freeze({ pid, content, user: { uid: 1, username: 'ann' }, upvoted: false });

describe("a page's JSON with shared parts encoded once", () => {
  const posts = [post(1, '<p>one\u2028line</p>'), { pid: 2, content: 'per reader', bookmarked: true }, post(3, '<p>three</p>')];

  it('is the bytes of JSON.stringify, and safe in a script element when asked', () => {
    const value = page(posts);
    expect(jsonText(value)).toBe(JSON.stringify(value));
    const script = Buffer.concat(pageJsonPieces(value, true)).toString();
    expect(script).toBe(scriptSafe(JSON.stringify(value)));
    expect(script).not.toMatch(/[<\u2028\u2029]/);
    expect(JSON.parse(script)).toEqual(JSON.parse(JSON.stringify(value)));
  });

  it('is the bytes of JSON.stringify for pages that start, end or are made only of skipped, shared or odd keys', () => {
    const shapes: object[] = [
      {},
      { skipped: undefined, fn: () => 1 },
      { skipped: undefined, user: guest },
      { user: guest, skipped: undefined },
      { user: guest, posts, after: undefined },
      JSON.parse('{"__proto__": {"x": 1}, "a": 2}') as object,
      { a: 1, user: guest, b: undefined, c: 'three', d: guest },
    ];
    for (const value of shapes) {
      expect(jsonText(value)).toBe(JSON.stringify(value));
      expect(Buffer.concat(pageJsonPieces(value, true)).toString()).toBe(scriptSafe(JSON.stringify(value)));
    }
  });

  it("reuses a frozen object's bytes for every page that shows it, and makes new ones for a new object", () => {
    const first = pageJsonPieces(page(posts));
    const second = pageJsonPieces(page([...posts]));
    // The frozen user and posts are the same buffers in both; the rest is made per page.
    const shared = first.filter((b) => second.includes(b));
    expect(shared.map((b) => b.toString())).toEqual([JSON.stringify(guest), JSON.stringify(posts[0]), JSON.stringify(posts[2])]);
    const changed = [post(1, '<p>edited</p>'), ...posts.slice(1)];
    const after = jsonText(page(changed));
    expect(after).toBe(JSON.stringify(page(changed)));
    expect(after).toContain('edited');
  });

  it("keys the server render's frame by everything but the member's own fields, shared objects by identity", () => {
    const member = (uid: number, token: string) => ({
      loggedInUser: Object.freeze({ uid, username: `m${uid}` }),
      unreadChatCount: uid,
      _header: { tags: { link: [{ rel: 'alternate', href: `/recent.rss?uid=${uid}&token=${token}` }] } },
      jsonLd: { headline: 'A <b>topic</b>' },
    });
    const view = (p: object[], extra: object) => ({ title: 'A <b>topic</b>', ...extra, posts: p, tid: 7, skipped: undefined });
    const a = pageJsonAndKey(view(posts, member(1, 'x')), true);
    const b = pageJsonAndKey(view(posts, member(2, 'y')), true);
    for (const [value, made] of [[view(posts, member(1, 'x')), a], [view(posts, member(2, 'y')), b]] as const) {
      expect(Buffer.concat(made.pieces).toString()).toBe(scriptSafe(JSON.stringify(value)));
    }
    expect(a.key).toBe(b.key);
    expect(a.key).not.toMatch(/m1|token|unreadChatCount|_header|jsonLd/);
    expect(a.key).toContain('"tid":7');
    // Another post view (a reader's own vote) or another value is another key.
    expect(pageJsonAndKey(view([posts[0]!, posts[1]!, post(3, '<p>three</p>')], member(1, 'x')), true).key).not.toBe(a.key);
    expect(pageJsonAndKey({ ...view(posts, member(1, 'x')), tid: 8 }, true).key).not.toBe(a.key);
    // The same frozen views in another array: the same key.
    expect(pageJsonAndKey(view([...posts], member(3, 'z')), true).key).toBe(a.key);
  });

  it("encodes a frozen list (a page's shared breadcrumbs or tags) once, as one piece, keyed by identity", () => {
    const crumbs = Object.freeze([Object.freeze({ text: 'Home', url: '/' }), Object.freeze({ text: 'A <b>topic</b>' })]);
    const view = (extra: object) => ({ tid: 7, breadcrumbs: crumbs, ...extra });
    const a = pageJsonAndKey(view({ n: 1 }), true);
    const b = pageJsonAndKey(view({ n: 1 }), true);
    expect(Buffer.concat(a.pieces).toString()).toBe(scriptSafe(JSON.stringify(view({ n: 1 }))));
    expect(b.pieces.filter((piece) => a.pieces.includes(piece)).map((piece) => piece.toString())).toEqual([scriptSafe(JSON.stringify(crumbs))]);
    expect(a.key).toBe(b.key);
    expect(a.key).not.toContain('Home');
    // The same content in another (unfrozen) list is written out, and keyed by it.
    const copy = pageJsonAndKey(view({ n: 1, breadcrumbs: crumbs.map((c) => ({ ...c })) }), true);
    expect(Buffer.concat(copy.pieces).toString()).toBe(Buffer.concat(a.pieces).toString());
    expect(copy.key).not.toBe(a.key);
  });

  it("takes the text of a shared object's fields a page begins with, made once, and checks it still holds", () => {
    const topic = Object.freeze({ tid: 7, title: 'A <b>topic</b>', skipped: undefined, slug: '7/a-topic' });
    const page = (extra: object) => beginsWith(Object.assign({}, topic, extra), topic);
    const a = page({ posts, isFollowing: true });
    const made = pageJsonAndKey(a, true);
    expect(Buffer.concat(made.pieces).toString()).toBe(scriptSafe(JSON.stringify(a)));
    // The topic's fields are one piece, the same buffer for the next reader.
    const next = pageJsonAndKey(page({ posts, isFollowing: true }), true);
    expect(next.pieces.filter((b) => made.pieces.includes(b)).map((b) => b.toString())).toContain(scriptSafe(JSON.stringify(topic).slice(1, -1)));
    expect(next.key).toBe(made.key);
    // A page that changed one of the fields, or put them in another order, is written as usual.
    const changed = page({ title: 'Changed' });
    expect(jsonText(changed)).toBe(JSON.stringify(changed));
    expect(pageJsonAndKey(changed, true).key).not.toBe(pageJsonAndKey(page({}), true).key);
    const reordered = beginsWith({ slug: '7/a-topic', tid: 7, title: 'A <b>topic</b>' }, topic);
    expect(jsonText(reordered)).toBe(JSON.stringify(reordered));
    // Carried to a copy (the router's page object).
    const copy = { ...a };
    carryBeginning(a, copy);
    expect(jsonText(copy)).toBe(JSON.stringify(copy));
    expect(pageJsonAndKey(copy, true).key).toBe(made.key);
  });
});
