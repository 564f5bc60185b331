import type { CategoryRef, PostView } from '../../../shared/types.js';
import type { AppContext } from '../../context.js';
import { deepFreeze } from '../../cache/page-cache.js';
import type { Cache, CacheRegistry } from '../../core/cache.js';
import { ANY_MEMBER_ROW, CONTENT, GROUPS, MEMBER_ROWS, memberRowTag, PRIVILEGES, type Tag } from '../../core/tags.js';
import { runBatch } from '../../db/prepared.js';
import { overlayPosts, presentSharedPosts, viewerMarks } from '../posts/presenter.js';
import type { PostRow } from '../posts/store.js';
import type { Viewer } from '../privileges/service.js';
import type { ProfileGroupViews } from '../groups/service.js';
import { escapeTitle } from '../../http/render.js';
import { PROFILE_EXCERPT_CHARS } from '../../../shared/profile.js';
import { teaserText } from '../../../shared/text.js';
import { postList, type ListedPost, type PostListKind } from './lists.js';
import { presentUser } from './presenter.js';
import { followPart, type UserRow } from './store.js';

/*
 * The parts of members' profile pages and of the members list that do not depend on who reads
 * them (issue 18), built once and shared for a few seconds, as the topic lists and topic pages
 * are (topics/list.ts, topics/topic-page.ts): the member's row, their groups, custom field
 * values and about text; a profile's latest and best posts and a page of a member's post
 * lists, presented once per set of readable categories; a page of the members list. Each
 * reader's votes, bookmarks and follow state are laid over them in one statement.
 */

const TTL_MS = 5000;

/** What a profile shows every reader alike beside the member's row. */
export interface ProfilePart {
  groups: ProfileGroupViews;
  /** The member's values of the admin-defined fields, by key. */
  values: ReadonlyMap<string, string>;
  aboutHtml: string;
}

type TopicRef = { tid: number; title: string; slug: string };

/** A profile's latest posts and best posts as every reader who may read the same categories sees them. */
export interface ProfilePostsPart {
  /** The latest posts, then the best ones. */
  rows: PostRow[];
  shared: PostView[];
  /** How many of `rows` are latest posts. */
  latest: number;
  topics: TopicRef[];
}

/** A page of a member's post list (posts, best, upvoted…) as every reader who may read the same categories sees it. */
export interface PostListPart {
  rows: ListedPost[];
  shared: PostView[];
  /** Each post's topic, category, whether it is the topic's first post and its excerpt (frozen). */
  extras: { topic: TopicRef; category: CategoryRef; isMainPost: boolean; excerpt: string }[];
  count: number;
}

/** What the members list shows of a member. */
export type ListedUserView = ReturnType<typeof presentUser> & { joindate: number; joindateISO: string };

/** A page of the members list (frozen) and the number of members. */
export interface DirectoryPart {
  users: readonly ListedUserView[];
  count: number;
}

/** What a member's own parts are built from: their row (any column) and their groups. */
const memberTags = (uid: number): Tag[] => [memberRowTag(uid), MEMBER_ROWS, GROUPS];
/** The uid a part's key names at `at` (keys are `|`-separated). */
const uidIn = (key: string, at: number): number => Number(key.split('|')[at]);

/**
 * The shared parts, per process (core/cache.ts). A member's row and profile drop with a write
 * of their row or their custom fields (`member-row:<uid>`, whichever code path writes it) and
 * with any change of groups; their post lists also with any content change (a post, a vote, an
 * edit, another author's new name) or grant; a page of the members list with any member's row.
 * TTL_MS as the safety net.
 */
export class MemberParts {
  /** Members' rows by slug (null: no such member), frozen. */
  readonly rows: Cache<string, Readonly<UserRow> | null>;
  /** Profiles' groups, custom values and about text, by uid. */
  readonly profiles: Cache<string, ProfilePart>;
  /** Profiles' posts, by uid and readable categories. */
  readonly profilePosts: Cache<string, ProfilePostsPart>;
  /** Pages of members' post lists, by list, uid, readable categories and slice. */
  readonly postLists: Cache<string, PostListPart>;
  /** Pages of the members list, by order and slice. */
  readonly directory: Cache<string, DirectoryPart>;

  constructor(registry: CacheRegistry) {
    const ttlMs = TTL_MS;
    this.rows = registry.create({
      name: 'member-rows',
      keeps: "a member's row as profiles show it, by slug (or that no member has the slug)",
      droppedBy: "a write of the member's row (member-row:<uid>); for no member, a write of any",
      ttlMs,
      max: 2000,
      tags: (_slug, row) => (row ? [memberRowTag(row.uid), MEMBER_ROWS] : [ANY_MEMBER_ROW, MEMBER_ROWS]),
    });
    this.profiles = registry.create({
      name: 'member-profiles',
      keeps: "a profile's groups, custom field values and about text, by uid",
      droppedBy: "a write of the member's row or custom fields (member-row:<uid>), any change of groups",
      ttlMs,
      max: 1000,
      tags: (key) => memberTags(uidIn(key, 0)),
    });
    this.profilePosts = registry.create({
      name: 'member-profile-posts',
      keeps: "a profile's latest and best posts, by uid and readable categories",
      droppedBy: "any content change or grant, a write of the member's row, any change of groups",
      ttlMs,
      max: 1000,
      tags: (key) => [...memberTags(uidIn(key, 0)), CONTENT, PRIVILEGES],
    });
    this.postLists = registry.create({
      name: 'member-post-lists',
      keeps: "a page of a member's post list (posts, best, upvoted, bookmarks…), by list, uid, readable categories and slice",
      droppedBy: "any content change or grant, a write of the member's row, any change of groups",
      ttlMs,
      max: 1000,
      tags: (key) => [...memberTags(uidIn(key, 1)), CONTENT, PRIVILEGES],
    });
    this.directory = registry.create({
      name: 'member-directory',
      keeps: 'a page of the members list, by order and slice',
      droppedBy: "a write of any member's row, any change of groups",
      ttlMs,
      max: 200,
      tags: () => [ANY_MEMBER_ROW, MEMBER_ROWS, GROUPS],
    });
  }
}

type Ctx = AppContext;

/** The profile's shared part for a member's row (see ProfilePart). */
export async function profilePart(ctx: Pick<AppContext, 'groups' | 'users'>, row: UserRow): Promise<ProfilePart> {
  const [groups, values, aboutHtml] = await Promise.all([ctx.groups.profileViews(row.uid), ctx.users.customValues(row.uid), ctx.users.aboutHtml(row)]);
  return { groups, values, aboutHtml };
}

/** How many latest posts and best posts a profile shows. */
const LATEST = 10;
const BEST = 3;

/** A profile's latest and best posts among the categories, presented for every reader (see ProfilePostsPart). */
export async function profilePostsPart(ctx: Ctx, uid: number, cids: number[]): Promise<ProfilePostsPart> {
  const [latest, best] = await Promise.all([ctx.posts.recentRowsOf(uid, cids, LATEST), postList(ctx.db, 'best', uid, cids, 0, BEST, false)]);
  const rows: (PostRow & { post_index: number | null; topic_title: string; topic_slug: string })[] = [...latest, ...best.rows];
  return {
    rows,
    shared: await presentSharedPosts(ctx, rows, (p) => Number((p as (typeof rows)[number]).post_index ?? 0)),
    latest: latest.length,
    topics: rows.map((r) => deepFreeze({ tid: r.tid, title: escapeTitle(r.topic_title), slug: `${r.tid}/${r.topic_slug}` })),
  };
}

/** A page of a member's post list, presented for every reader (see PostListPart). */
export async function postListPart(ctx: Ctx, kind: PostListKind, uid: number, cids: number[], offset: number, limit: number): Promise<PostListPart> {
  const { rows, count } = await postList(ctx.db, kind, uid, cids, offset, limit);
  const [shared, categories] = await Promise.all([presentSharedPosts(ctx, rows, (p) => (p as ListedPost).post_index), ctx.categories.refs(rows.map((r) => r.topic_cid))]);
  return {
    rows,
    shared,
    extras: rows.map((r, i) =>
      deepFreeze({
        topic: { tid: r.tid, title: escapeTitle(r.topic_title), slug: `${r.tid}/${r.topic_slug}` },
        category: { ...categories.get(r.topic_cid)! },
        isMainPost: r.post_index === 0,
        // Made once with the page's part (shared by its readers), from the HTML already rendered.
        excerpt: postExcerpt(shared[i]!.content),
      }),
    ),
    count,
  };
}

/**
 * A post's excerpt for the profile's lists: its rendered HTML as plain text without the posts it
 * quotes (their words are another member's), cut at PROFILE_EXCERPT_CHARS.
 */
export function postExcerpt(html: string): string {
  // Inline tags go without a space ("*brief*." stays "brief."); block tags become spaces.
  const text = (h: string) => teaserText(h.replace(/<\/?(?:a|abbr|b|code|del|em|i|ins|kbd|mark|s|small|span|strong|sub|sup|u)\b[^>]*>/gi, ''), PROFILE_EXCERPT_CHARS);
  // A post that is only a quote keeps the quote's words rather than showing nothing.
  return text(html.replace(/<blockquote[\s\S]*?<\/blockquote>/gi, ' ')) || text(html);
}

/** A number for each shared object a key names (see idsOf). */
const ids = new WeakMap<object, number>();
let lastId = 0;

/** The objects' identities as text, for a key of values made from them (SharedValues). */
export function idsOf(objects: readonly object[]): string {
  let out = '';
  for (const o of objects) {
    let id = ids.get(o);
    if (id === undefined) ids.set(o, (id = ++lastId));
    out += `${id},`;
  }
  return out;
}

/** The reader's versions of shared post views with their extra fields, by version (frozen: made once). */
const withExtras = new WeakMap<PostView, object>();

/** `view` with `extras` after its fields, made once per (frozen, shared) view. */
function extended<E extends object>(view: PostView, extras: E): PostView & E {
  let out = withExtras.get(view) as (PostView & E) | undefined;
  if (!out) withExtras.set(view, (out = Object.freeze({ ...view, ...extras })));
  return out;
}

/**
 * The profile's posts for this reader, and whether they follow the member: their votes and
 * bookmarks among the posts and their follow in one statement; readers alike get the same
 * frozen post views (see overlayPosts).
 */
export async function overlayProfile(ctx: Ctx, viewer: Viewer, uid: number, part: ProfilePostsPart) {
  const [marks, isFollowing] = await runBatch(ctx.db, [viewerMarks(viewer, part.rows), followPart(viewer.uid, uid)]);
  const views = await overlayPosts(ctx, viewer, part.rows, part.shared, { viewDeleted: () => false, reuse: true, marks });
  const posts = views.map((v, i) => extended(v, { topic: part.topics[i]! }));
  return { posts: posts.slice(0, part.latest), best: posts.slice(part.latest), isFollowing };
}

/** A page of a member's post list for this reader (their votes and bookmarks in one statement). */
export async function overlayPostList(ctx: Ctx, viewer: Viewer, part: PostListPart) {
  const views = await overlayPosts(ctx, viewer, part.rows, part.shared, { viewDeleted: () => false, reuse: true });
  return views.map((v, i) => extended(v, part.extras[i]!));
}
