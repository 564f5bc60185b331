import type { PostObject, PostSummary } from '../../../shared/schemas/post.js';
import type { PostView, UserProfilePage } from '../../../shared/types.js';
import { forbidden, notFound } from '../../http/errors.js';
import type { Viewer } from '../privileges/service.js';
import type { PostRow, TopicRow } from '../../hooks/types.js';
import { canViewDeleted } from '../topics/access.js';
import { escapeTitle } from '../../http/render.js';
import { presentUser } from '../users/presenter.js';
import { loadReadablePost, postTools } from './access.js';
import { presentPostObject, presentPostSummary, presentPosts } from './presenter.js';
import * as store from './store.js';
import type { PostsDeps } from './service.js';

/** One post as the API shows it, with its index; a deleted post's content only to those who may see it. */
export async function viewPost(ctx: PostsDeps, viewer: Viewer, pid: number): Promise<PostView> {
  const { post, topic } = await loadReadablePost(ctx, viewer, pid);
  const [index, viewDeleted, tools] = await Promise.all([store.indexOf(ctx.db, post), canViewDeleted(ctx, viewer, topic.cid), postTools(ctx, viewer, topic)]);
  const [view] = await presentPosts(ctx, viewer, [post], { index: () => index, viewDeleted: () => viewDeleted, tools });
  return view!;
}

/** GET /api/v3/posts/{pid}/index: a readable post's 0-based position in its topic. */
export async function postIndex(ctx: PostsDeps, viewer: Viewer, pid: number): Promise<number> {
  const { post } = await loadReadablePost(ctx, viewer, pid);
  return store.indexOf(ctx.db, post);
}

/** GET /api/v3/posts/{pid}/summary: a readable post as NodeBB's PostObject (its author, topic and category). */
export async function postFullSummary(ctx: PostsDeps, viewer: Viewer, pid: number): Promise<PostObject> {
  const { post, topic } = await loadReadablePost(ctx, viewer, pid);
  return postObject(ctx, viewer, post, topic);
}

/**
 * GET /api/v3/posts/{pid}/replies: the posts of its topic that answer a readable post, as the
 * topic page shows them; deleted ones only to those who may see deleted posts. Batched: the
 * authors, marks and positions of all of them in one statement each.
 */
export async function postReplies(ctx: PostsDeps, viewer: Viewer, pid: number): Promise<PostView[]> {
  const { topic } = await loadReadablePost(ctx, viewer, pid);
  const [all, viewDeleted, tools] = await Promise.all([store.repliesTo(ctx.db, topic.tid, pid), canViewDeleted(ctx, viewer, topic.cid), postTools(ctx, viewer, topic)]);
  const rows = all.filter((p) => p.deleted === 0 || viewDeleted || p.uid === viewer.uid);
  const index = await store.indexesIn(ctx.db, topic.tid, rows.map((p) => p.pid));
  return presentPosts(ctx, viewer, rows, { index: (p) => index.get(p.pid) ?? 0, viewDeleted: (p) => viewDeleted || p.uid === viewer.uid, tools });
}

/** The flags service's one call a post summary makes (its open flag for the viewer). */
interface FlagIds {
  openFlagId(viewer: Viewer, pid: number, cid: number): Promise<number>;
}

/** GET /api/v3/posts/{pid}: a readable post's own fields as NodeBB answers them. */
export async function postSummary(ctx: PostsDeps & { flags: FlagIds }, viewer: Viewer, pid: number): Promise<PostSummary> {
  const { post, topic } = await loadReadablePost(ctx, viewer, pid);
  const [vote, replies, viewDeleted, flagId] = await Promise.all([store.voteOf(ctx.db, viewer.uid, pid), store.replyCounts(ctx.db, [pid]), canViewDeleted(ctx, viewer, topic.cid), ctx.flags.openFlagId(viewer, pid, topic.cid)]);
  return presentPostSummary(post, { vote, replies: replies.get(pid) ?? 0, viewDeleted, flagId });
}

/** A post as NodeBB's PostObject, from rows the caller already holds (a reply or an edit just made). */
export async function postObject(ctx: PostsDeps, viewer: Viewer, post: PostRow, topic: TopicRow): Promise<PostObject> {
  const [category, author, replies, viewDeleted] = await Promise.all([
    ctx.categories.get(topic.cid),
    ctx.users.get(post.uid),
    store.replyCounts(ctx.db, [post.pid]),
    canViewDeleted(ctx, viewer, topic.cid),
  ]);
  return presentPostObject(ctx, post, { topic, category, author: author ?? undefined, replies: replies.get(post.pid) ?? 0, viewDeleted: viewDeleted || post.uid === viewer.uid });
}

/**
 * Posts as NodeBB's PostObject in the order given (search results and other post lists),
 * read in one query per kind, never per post. The caller has already kept to posts the
 * viewer may read; deleted content shows as empty.
 */
export async function postObjects(ctx: PostsDeps, viewer: Viewer, pids: number[]): Promise<PostObject[]> {
  if (!pids.length) return [];
  const posts = await store.byPids(ctx.db, pids);
  const tids = [...new Set(posts.map((p) => p.tid))];
  const [topics, authors, replies, categories] = await Promise.all([
    ctx.topics.getMany(tids),
    ctx.users.getMany([...new Set(posts.map((p) => p.uid))]),
    store.replyCounts(ctx.db, pids),
    ctx.categories.list(viewer),
  ]);
  const byCid = new Map(categories.map((c) => [c.cid, c]));
  const byPid = new Map(posts.map((p) => [p.pid, p]));
  return pids.flatMap((pid) => {
    const post = byPid.get(pid);
    const topic = post && topics.get(post.tid);
    if (!post || !topic) return [];
    return [presentPostObject(ctx, post, { topic, category: byCid.get(topic.cid) ?? null, author: authors.get(post.uid), replies: replies.get(pid) ?? 0, viewDeleted: false })];
  });
}

/** How many of a category's newest posts GET /api/v3/categories/{cid}/posts answers. */
const CATEGORY_POSTS = 20;

/**
 * GET /api/v3/categories/{cid}/posts: the newest visible posts of a category the viewer may
 * read (404 otherwise), as NodeBB's PostObject, batched (postObjects).
 */
export async function categoryPosts(ctx: PostsDeps, viewer: Viewer, cid: number): Promise<PostObject[]> {
  await ctx.categories.readable(viewer, cid);
  if (!(await ctx.privileges.guardian(viewer)).can('topics:read', cid)) return [];
  return postObjects(ctx, viewer, await store.recentPidsIn(ctx.db, [cid], CATEGORY_POSTS));
}

/** NodeBB's terms of /api/recent/posts/{term}: how far back each reaches. */
const RECENT_TERMS: Record<string, number> = { day: 86_400_000, week: 7 * 86_400_000, month: 30 * 86_400_000, alltime: Number.POSITIVE_INFINITY };

/**
 * GET /api/recent/posts/{term}: the newest visible posts of the categories the viewer may read,
 * made within the term (day, week, month; anything else: all time), as NodeBB's PostObject.
 */
export async function recentPosts(ctx: PostsDeps, viewer: Viewer, term: string): Promise<PostObject[]> {
  const reach = RECENT_TERMS[term] ?? RECENT_TERMS.alltime!;
  const since = Number.isFinite(reach) ? Date.now() - reach : 0;
  const cids = await ctx.categories.readableCids(viewer);
  return postObjects(ctx, viewer, await store.recentPidsIn(ctx.db, cids, CATEGORY_POSTS, since));
}

/** A post just written by the viewer, presented from the rows the write returned (no re-read). */
export async function presentWritten(ctx: PostsDeps, viewer: Viewer, written: { post: PostRow; topic: TopicRow; index: number }): Promise<PostView> {
  const tools = await postTools(ctx, viewer, written.topic);
  const [view] = await presentPosts(ctx, viewer, [written.post], { index: () => written.index, viewDeleted: () => true, tools });
  return view!;
}

/** A post's markdown as written (for the composer's edit and quote). */
export async function rawPost(ctx: PostsDeps, viewer: Viewer, pid: number): Promise<{ content: string }> {
  const { post, topic } = await loadReadablePost(ctx, viewer, pid);
  if (post.deleted === 1 && !(await canViewDeleted(ctx, viewer, topic.cid))) throw notFound('error:no-post');
  return { content: post.content };
}

/** Every version of a post the viewer may see the history of (posts:history), newest first: the current one, then each previous one. */
export async function postVersions(ctx: PostsDeps, viewer: Viewer, pid: number) {
  const { post, topic } = await loadReadablePost(ctx, viewer, pid);
  if (!(await ctx.privileges.can(viewer, 'posts:history', topic.cid))) throw forbidden();
  if (post.deleted === 1 && !(await canViewDeleted(ctx, viewer, topic.cid))) throw notFound('error:no-post');
  const edits = await store.editsOf(ctx.db, pid);
  const isMain = topic.main_pid === pid;
  const current = { timestamp: Number(post.edited) || Number(post.created), uid: post.editor_uid || post.uid, content: post.content, title: isMain ? topic.title : null };
  const versions = [current, ...edits.map((e) => ({ timestamp: Number(e.edited), uid: e.uid, content: e.content, title: e.title }))];
  return { post, topic, versions };
}

/** A post's edit history: each version's time and editor (NodeBB's GET /posts/{pid}/diffs). */
export async function postDiffs(ctx: PostsDeps, viewer: Viewer, pid: number) {
  const { post, topic, versions } = await postVersions(ctx, viewer, pid);
  const users = await ctx.users.getMany(versions.map((v) => v.uid));
  const tools = (await postTools(ctx, viewer, topic))(post);
  return {
    uid: post.uid,
    pid,
    timestamps: versions.map((v) => String(v.timestamp)),
    revisions: versions.map((v) => ({
      timestamp: String(v.timestamp),
      uid: v.uid,
      username: presentUser(users.get(v.uid), v.uid).username,
      // The main post's versions carry the topic's title as it was: a title change shows in the history.
      ...(v.title !== null ? { title: v.title } : {}),
    })),
    editable: tools.edit,
    // Deleting a version from the history is for moderators (deleteVersion).
    deletable: await ctx.privileges.isModerator(viewer, topic.cid),
  };
}

/**
 * The post as it read at `since` (NodeBB's GET /posts/{pid}/diffs/{since}): the newest version
 * written at or before that time, or the first one. Old versions are kept as written, so this
 * rare read renders the one it shows.
 */
export async function postVersion(ctx: PostsDeps, viewer: Viewer, pid: number, since: number): Promise<PostObject> {
  const { post, topic, versions } = await postVersions(ctx, viewer, pid);
  const version = versions.find((v) => v.timestamp <= since) ?? versions[versions.length - 1]!;
  const html = version === versions[0] ? post.content_html : (await ctx.hooks.runFilter('filter:parse.post', { content: version.content, html: '', kind: 'post', uid: post.uid })).html;
  const shown = { ...post, content: version.content, content_html: html };
  return postObject(ctx, viewer, shown, version.title !== null ? { ...topic, title: version.title } : topic);
}

/** A member's latest posts that the viewer may read, for the profile page. */
export async function recentByUser(ctx: PostsDeps, viewer: Viewer, by: { uid: number } | { group: string }, limit: number): Promise<UserProfilePage['posts']> {
  const cids = await ctx.categories.readableCids(viewer);
  const rows = await store.recentByUser(ctx.db, by, cids, limit);
  const views = await presentPosts(ctx, viewer, rows, { index: (p) => Number((p as (typeof rows)[number]).post_index ?? 0), viewDeleted: () => false });
  return views.map((v, i) => ({ ...v, topic: { tid: rows[i]!.tid, title: escapeTitle(rows[i]!.topic_title), slug: `${rows[i]!.tid}/${rows[i]!.topic_slug}` } }));
}
