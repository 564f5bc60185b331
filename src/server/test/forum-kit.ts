import { afterAll, beforeAll } from 'vitest';
import { makeCategory } from '../domains/topics/testing.js';
import { startTestForum, type TestForum, type TestMember } from './harness.js';

/** What a test file's forum holds once its `beforeAll` has run. */
export interface ForumKitBase {
  /** The forum, started before the file's tests and closed after them. */
  readonly forum: TestForum;
  /** An administrator, signed in. */
  readonly admin: TestMember;
  /** The category made for the file (`category` option); 0 when none was asked for. */
  readonly cid: number;
}

export type ForumKit<N extends string> = ForumKitBase & { readonly [K in N]: TestMember };

/**
 * One forum for a test file, with the accounts and the category most files start from:
 *
 * ```ts
 * const t = useForum({ category: 'Post reads', members: ['alice', 'bob'] });
 * it('…', async () => { await t.alice.client.get(`/api/category/${t.cid}`); });
 * ```
 *
 * It registers the file's `beforeAll` (start, administrator, category, members, in that order)
 * and `afterAll` (close). Its fields are read inside tests and hooks, never at the top of the
 * file (they are set once `beforeAll` has run). `startTestForum` remains for files that need
 * their own start (a second process, a special environment before the start).
 */
export function useForum<const N extends string = never>(
  opts: { category?: string; members?: readonly N[]; start?: Parameters<typeof startTestForum>[0] } = {},
): ForumKit<N> {
  const held: { forum?: TestForum; admin?: TestMember; cid: number; members: Map<string, TestMember> } = { cid: 0, members: new Map() };
  beforeAll(async () => {
    held.forum = await startTestForum(opts.start);
    held.admin = await held.forum.member({ admin: true });
    if (opts.category) held.cid = await makeCategory(held.forum.ctx, opts.category);
    for (const name of opts.members ?? []) held.members.set(name, await held.forum.member());
  });
  afterAll(async () => {
    await held.forum?.close();
  });
  const started = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`useForum: ${what} is read before the file's beforeAll ran`);
    return value;
  };
  const kit: ForumKitBase = {
    get forum() {
      return started(held.forum, 'forum');
    },
    get admin() {
      return started(held.admin, 'admin');
    },
    get cid() {
      return held.cid;
    },
  };
  for (const name of opts.members ?? []) {
    Object.defineProperty(kit, name, { enumerable: true, get: () => started(held.members.get(name), name) });
  }
  return kit as ForumKit<N>;
}
