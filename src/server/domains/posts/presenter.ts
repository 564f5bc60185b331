import type { PostObject, PostSummary } from '../../../shared/schemas/post.js';
import type { PostView, Teaser, UserSummary } from '../../../shared/types.js';
import type { TopicRow } from '../../hooks/types.js';
import { escapeTitle } from '../../http/render.js';
import type { Viewer } from '../privileges/service.js';
import { presentUser } from '../users/presenter.js';
import type { UserBrief } from '../users/store.js';
import * as store from './store.js';
import type { Marks, PostRow } from './store.js';
import type { BatchPart } from '../../db/prepared.js';
import { Variants } from '../../cache/page-cache.js';
import type { PostsDeps } from './service.js';

const iso = (ms: number) => new Date(ms).toISOString();

export interface PresentOptions {
  /** The 0-based position of each post in its topic. */
  index: (post: PostRow) => number;
  /** Whether the viewer may see a deleted post's content. */
  viewDeleted: (post: PostRow) => boolean;
  /** Whether the viewer gets edit, delete and moderator tools on a post (computed once for the page). */
  tools?: (post: PostRow) => { edit: boolean; delete: boolean; moderate: boolean };
}

/** Presents posts for page data and the API, loading authors, votes and bookmarks in batches. */
export async function presentPosts(ctx: PostsDeps, viewer: Viewer, rows: PostRow[], opts: PresentOptions): Promise<PostView[]> {
  return overlayPosts(ctx, viewer, rows, await presentSharedPosts(ctx, rows, opts.index), opts);
}

/**
 * The part of each post's view that is the same for every reader (authors with their badges,
 * counts, the HTML), with the reader's own fields false. It holds a deleted post's HTML:
 * only overlayPosts, which blanks it for readers who may not see it, hands it out. The topic
 * page cache (topic-page.ts) shares these objects between readers; nothing changes them.
 */
export async function presentSharedPosts(ctx: PostsDeps, rows: PostRow[], index: (post: PostRow) => number): Promise<PostView[]> {
  const users = await ctx.users.briefs([...rows.map((p) => p.uid), ...rows.map((p) => p.editor_uid)]);
  // Every author's group badges for the page in one lookup (the groups domain fills the filter), never one per post.
  const { badges } = await ctx.hooks.runFilter('filter:users.badges', { uids: rows.map((p) => p.uid), badges: new Map() });
  return rows.map((p) => ({
    pid: p.pid,
    tid: p.tid,
    uid: p.uid,
    toPid: p.to_pid,
    index: index(p),
    content: p.content_html,
    timestamp: Number(p.created),
    timestampISO: iso(Number(p.created)),
    edited: Number(p.edited),
    editedISO: p.edited ? iso(Number(p.edited)) : '',
    editor: p.editor_uid ? presentUser(users.get(p.editor_uid), p.editor_uid) : null,
    deleted: p.deleted,
    deleterUid: p.deleter_uid,
    upvotes: p.upvotes,
    downvotes: p.downvotes,
    votes: p.upvotes - p.downvotes,
    bookmarks: p.bookmarks,
    bookmarked: false,
    upvoted: false,
    downvoted: false,
    selfPost: false,
    display_edit_tools: false,
    display_delete_tools: false,
    display_moderator_tools: false,
    user: { ...presentUser(users.get(p.uid), p.uid), selectedGroups: badges.get(p.uid) ?? [] },
  }));
}

/**
 * The viewer's votes and bookmarks among some posts, as a part of a batched read (db/prepared.ts
 * runBatch) whose result overlayPosts takes as `marks`: the topic page reads them together with
 * the topic's read and follow state, in one round trip.
 */
export function viewerMarks(viewer: Viewer, rows: PostRow[]): BatchPart<Marks> {
  return store.marksPart(viewer.uid, rows.map((p) => p.pid));
}

/** The viewers' versions of the topic page cache's shared post views (see overlayPosts). */
const variants = new Variants<PostView>();

/**
 * Each post's view for this viewer: the shared part with their votes, bookmarks and tools (in
 * batches), a deleted post's content blanked unless they may see it, and the authors they
 * blocked marked. New top-level objects; the nested ones (user, editor) stay shared.
 *
 * `reuse` (the topic page, whose shared views are cached): a viewer's version of a post
 * depends only on the shared view and nine flags, so readers alike get the same frozen
 * object, made once per variant. Most readers of a post see it alike, and the server render
 * then keys its cached card by the object (the card's JSON is made once, not per reader).
 */
export async function overlayPosts(ctx: PostsDeps, viewer: Viewer, rows: PostRow[], shared: PostView[], opts: Omit<PresentOptions, 'index'> & { reuse?: boolean; marks?: Marks }): Promise<PostView[]> {
  const pids = rows.map((p) => p.pid);
  const [{ votes, bookmarked }, blocked] = await Promise.all([
    opts.marks ?? store.marksOf(ctx.db, viewer.uid, pids),
    // The page's authors the viewer blocked (one query for the page): their posts show collapsed.
    viewer.uid > 0 && rows.length ? ctx.users.blockedAmong(viewer.uid, rows.map((p) => p.uid)) : new Set<number>(),
  ]);
  return rows.map((p, i) => {
    const hidden = p.deleted === 1 && !opts.viewDeleted(p);
    const tools = opts.tools?.(p) ?? { edit: false, delete: false, moderate: false };
    const vote = votes.get(p.pid) ?? 0;
    const flags = {
      bookmarked: bookmarked.has(p.pid),
      upvoted: vote > 0,
      downvoted: vote < 0,
      selfPost: viewer.uid > 0 && viewer.uid === p.uid,
      display_edit_tools: tools.edit,
      display_delete_tools: tools.delete,
      display_moderator_tools: tools.moderate,
    };
    const isBlocked = blocked.has(p.uid);
    const make = (): PostView => ({ ...shared[i]!, content: hidden ? '' : p.content_html, ...flags, ...(isBlocked ? { blocked: true } : {}) });
    return opts.reuse ? variants.of(shared[i]!, [hidden, isBlocked, ...Object.values(flags)], make) : make();
  });
}

/** A post's permalink under the forum's path, as NodeBB's `url` fields give it. */
export function postUrl(ctx: PostsDeps, pid: number): string {
  return `${ctx.config.relativePath}/post/${pid}`;
}

/** A topic's latest post as NodeBB's TeaserObject, for lists. */
export function presentTeaser(ctx: PostsDeps, post: PostRow, index: number, author: UserBrief | undefined): Teaser {
  const u = presentUser(author, post.uid) as UserSummary;
  return {
    pid: post.pid,
    url: postUrl(ctx, post.pid),
    uid: post.uid,
    timestamp: Number(post.created),
    tid: post.tid,
    content: post.content_html,
    sourceContent: null,
    timestampISO: iso(Number(post.created)),
    user: { uid: u.uid, username: u.username, displayname: u.displayname, isLocal: true, userslug: u.userslug, picture: u.picture, 'icon:text': u['icon:text'], 'icon:bgColor': u['icon:bgColor'] },
    index,
  };
}

/** What NodeBB's PostObject needs beside the post: its topic, category row and reply count. */
export interface PostObjectContext {
  topic: TopicRow;
  category: { cid: number; name: string; icon: string; slug: string; parent_cid: number; bg_color: string; color: string } | null;
  author: UserBrief | undefined;
  replies: number;
  /** Whether the viewer may see a deleted post's content. */
  viewDeleted: boolean;
}

/** A post as NodeBB's PostObject (what reply and edit answer). */
export function presentPostObject(ctx: PostsDeps, p: PostRow, c: PostObjectContext): PostObject {
  const u = presentUser(c.author, p.uid);
  const t = c.topic;
  return {
    pid: p.pid,
    tid: p.tid,
    toPid: p.to_pid > 0 ? p.to_pid : null,
    url: postUrl(ctx, p.pid),
    content: p.deleted === 1 && !c.viewDeleted ? '' : p.content_html,
    sourceContent: null,
    uid: p.uid,
    timestamp: Number(p.created),
    deleted: p.deleted === 1,
    upvotes: p.upvotes,
    downvotes: p.downvotes,
    votes: p.upvotes - p.downvotes,
    timestampISO: iso(Number(p.created)),
    user: { uid: u.uid, isLocal: true, username: u.username, displayname: u.displayname, userslug: u.userslug, picture: u.picture, status: u.status, 'icon:text': u['icon:text'], 'icon:bgColor': u['icon:bgColor'] },
    topic: {
      uid: t.uid,
      tid: t.tid,
      cid: t.cid,
      title: escapeTitle(t.title),
      titleRaw: t.title,
      slug: `${t.tid}/${t.slug}`,
      deleted: t.deleted,
      scheduled: t.scheduled === 1,
      timestamp: Number(t.created),
      timestampISO: iso(Number(t.created)),
      postcount: t.post_count,
      mainPid: t.main_pid,
      teaserPid: t.teaser_pid > 0 ? t.teaser_pid : null,
      isMainPost: t.main_pid === p.pid,
    },
    category: {
      cid: c.category?.cid ?? t.cid,
      name: c.category?.name ?? '',
      icon: c.category?.icon ?? '',
      slug: c.category?.slug ?? '',
      parentCid: c.category?.parent_cid ?? 0,
      bgColor: c.category?.bg_color ?? '',
      color: c.category?.color ?? '',
      // No category images in Palaver: NodeBB's values for a category without one.
      backgroundImage: null,
      imageClass: 'cover',
    },
    isMainPost: t.main_pid === p.pid,
    replies: c.replies,
  };
}

/** A post's own fields as GET /api/v3/posts/{pid} answers them (NodeBB: flags 0/1, no author object). */
export function presentPostSummary(p: PostRow, c: { vote: number; replies: number; viewDeleted: boolean; flagId: number }): PostSummary {
  return {
    pid: p.pid,
    uid: p.uid,
    tid: p.tid,
    content: p.deleted === 1 && !c.viewDeleted ? '' : p.content_html,
    timestamp: Number(p.created),
    flagId: c.flagId,
    deleted: p.deleted,
    upvotes: p.upvotes,
    downvotes: p.downvotes,
    deleterUid: p.deleter_uid,
    edited: Number(p.edited),
    replies: c.replies,
    bookmarks: p.bookmarks,
    votes: p.upvotes - p.downvotes,
    timestampISO: iso(Number(p.created)),
    editedISO: p.edited ? iso(Number(p.edited)) : '',
    upvoted: c.vote > 0,
    downvoted: c.vote < 0,
    attachments: [],
    sourceContent: null,
  };
}

/** Plain text of rendered HTML, for meta descriptions. */
export function plainText(html: string, max = 255): string {
  const text = html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(amp|lt|gt|quot|#39);/g, (_m, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e]!)
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
