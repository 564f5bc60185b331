import type { Insertable } from 'kysely';
import type { PostObject } from '../../../shared/schemas/post.js';
import type { PostView, TopicPostSort, UserProfilePage } from '../../../shared/types.js';
import type { AppContext } from '../../context.js';
import type { Writer } from '../../core/action.js';
import type { Queryable } from '../../db/index.js';
import type { PostsTable } from '../../db/schema.js';
import { enforce } from '../../http/ratelimit.js';
import type { Viewer } from '../privileges/service.js';
import { member } from '../topics/access.js';
import { deleteVersion, restoreVersion } from './diffs.js';
import { editPost, type PostEdit } from './edit.js';
import { postDiffs, postObjects, postVersion, rawPost, recentByUser, viewPost } from './read.js';
import { defineReply, type NewReply } from './reply.js';
import { render } from './rules.js';
import { deletePost, forgetTopicPosts, purgePost, restorePost } from './state.js';
import * as store from './store.js';
import { loadSelection } from './access.js';
import { movePostRows, postsOfTopic } from './tools/move.js';
import type { PostRow } from './store.js';
import type { TopicRow } from '../topics/store.js';
import { bookmark, vote } from './votes.js';
import { forgetVotesOf, postsOf, purgeRepliesOf } from './member-content.js';

/** What the posts service uses of the application: its explicit dependencies. */
export type PostsDeps = Pick<AppContext, 'actions' | 'categories' | 'config' | 'db' | 'hooks' | 'jobs' | 'limiter' | 'log' | 'posts' | 'privileges' | 'settings' | 'tags' | 'topics' | 'users' | 'views'>;

// Previews render markdown on every keystroke pause; this bounds what one member can ask for.
const PREVIEWS_PER_MINUTE = 120;

/** Posts. The rules live in one file per action; this class only routes to them. */
export class PostsService {
  private readonly replyAction: ReturnType<typeof defineReply>;

  constructor(private readonly ctx: PostsDeps) {
    this.replyAction = defineReply(ctx);
  }

  /** A member's latest posts that the viewer may read. */
  async recentByUser(viewer: Viewer, uid: number, limit: number): Promise<UserProfilePage['posts']> {
    return recentByUser(this.ctx, viewer, { uid }, limit);
  }

  /**
   * A member's newest visible posts in the given categories, as rows with their topic's title
   * and slug and their index in the topic (a profile's shared part presents them once for all
   * readers who may read the same categories).
   */
  async recentRowsOf(uid: number, cids: number[], limit: number) {
    return store.recentByUser(this.ctx.db, { uid }, cids, limit);
  }

  /** The newest posts of a group's members that the viewer may read (the group page's latest posts). */
  async recentByGroup(viewer: Viewer, group: string, limit: number): Promise<UserProfilePage['posts']> {
    return recentByUser(this.ctx, viewer, { group }, limit);
  }

  /** Readable posts as NodeBB's PostObject, in the order given (one query per kind). */
  async objects(viewer: Viewer, pids: number[]): Promise<PostObject[]> {
    return postObjects(this.ctx, viewer, pids);
  }

  /** One post row, or null. */
  async get(pid: number): Promise<PostRow | null> {
    return (await store.byPid(this.ctx.db, pid)) ?? null;
  }

  /** Several post rows keyed by pid (one query). */
  async getMany(pids: number[]): Promise<Map<number, PostRow>> {
    return new Map((await store.byPids(this.ctx.db, pids)).map((p) => [p.pid, p]));
  }

  /** The pid of one of the member's posts written or edited since `since` that contains `needle`, or null (the uploads clean-up's last check). */
  async memberPostMentioning(uid: number, since: number, needle: string): Promise<number | null> {
    return store.memberPostMentioning(this.ctx.db, uid, since, needle);
  }

  /** A page of a topic's posts in reading order. */
  async pageOfTopic(tid: number, offset: number, limit: number): Promise<PostRow[]> {
    return store.pageOfTopic(this.ctx.db, tid, offset, limit);
  }

  /** A page of a topic in a member's order: the main post first, then the replies sorted (see store.sortedPageOfTopic). */
  async sortedPageOfTopic(tid: number, mainPid: number, sort: TopicPostSort, offset: number, limit: number): Promise<{ rows: PostRow[]; index: Map<number, number> }> {
    return store.sortedPageOfTopic(this.ctx.db, tid, mainPid, sort, offset, limit);
  }

  /** Where the post at a time-order index stands in a member's order (to find its page). */
  async sortedPositionOf(tid: number, mainPid: number, sort: TopicPostSort, index: number, total: number): Promise<number> {
    return store.sortedPositionOf(this.ctx.db, tid, mainPid, sort, index, total);
  }

  /** How many posts (deleted included) a topic holds. */
  async countInTopic(tid: number): Promise<number> {
    return store.countInTopic(this.ctx.db, tid);
  }

  /** Inserts a post inside the caller's action (a new topic's main post). */
  async insert(w: Writer, row: Insertable<PostsTable>): Promise<PostRow> {
    return store.insertPost(w, row);
  }

  /** The newest post of a topic that is not deleted. */
  async latestVisible(db: Queryable, tid: number): Promise<PostRow | undefined> {
    return store.latestVisible(db, tid);
  }

  /** Moves posts of one topic into another inside a topic tool's action (counts and teasers follow). */
  async moveRows(w: Writer, posts: PostRow[], from: TopicRow, to: TopicRow): Promise<void> {
    return movePostRows(this.ctx, w, posts, from, to);
  }

  /** Every post of a topic, oldest first, inside a topic tool's transaction (a merge moves them all). */
  async allOfTopicIn(db: Queryable, tid: number): Promise<PostRow[]> {
    return postsOfTopic(db, tid);
  }

  /** The posts a moderator selected in one topic, oldest first, and that topic (the tools' checks). */
  async selection(viewer: Viewer, pids: number[]): Promise<{ posts: PostRow[]; from: TopicRow }> {
    return loadSelection(this.ctx, viewer, pids);
  }

  /** Takes back the counters of a topic's posts inside a purge's action. */
  async forgetTopicPosts(w: Writer, tid: number): Promise<void> {
    return forgetTopicPosts(this.ctx, w, tid);
  }

  /** Purges a member's replies and takes back their votes and bookmarks, in the caller's action (account deletion); the purged replies. */
  async purgeContentOf(w: Writer, uid: number): Promise<PostRow[]> {
    await forgetVotesOf(this.ctx, w, uid);
    return purgeRepliesOf(this.ctx, w, uid);
  }

  /** A page of all a member's posts, deleted ones too, oldest first after `afterPid` (for their own data export). */
  async allOf(uid: number, afterPid: number, limit: number): Promise<PostRow[]> {
    return postsOf(this.ctx.db, uid, afterPid, limit);
  }

  /** Replies to a topic (`fromQueue`: a queued reply a moderator accepted). */
  async reply(viewer: Viewer, tid: number, data: NewReply, ip = '', opts: { fromQueue?: boolean } = {}) {
    return this.replyAction({ uid: viewer.uid, viewer, ip, fromQueue: opts.fromQueue }, { tid, content: data.content, toPid: data.toPid });
  }

  /** Checks a reply as reply would, without writing it (the post queue stores it then); the topic it goes to. */
  async checkReply(viewer: Viewer, tid: number, data: NewReply, opts: { fromQueue?: boolean } = {}): Promise<TopicRow> {
    const checked = (await this.replyAction.check({ uid: viewer.uid, viewer, ip: '', fromQueue: opts.fromQueue }, { tid, content: data.content, toPid: data.toPid })) as { topic: TopicRow };
    return checked.topic;
  }

  /** Edits a post. */
  async edit(viewer: Viewer, pid: number, data: PostEdit) {
    return editPost(this.ctx, viewer, pid, data);
  }

  /** Soft-deletes a post. */
  async delete(viewer: Viewer, pid: number) {
    return deletePost(this.ctx, viewer, pid);
  }

  /** Restores a deleted post. */
  async restore(viewer: Viewer, pid: number) {
    return restorePost(this.ctx, viewer, pid);
  }

  /** Purges a post for ever. */
  async purge(viewer: Viewer, pid: number) {
    return purgePost(this.ctx, viewer, pid);
  }

  /** Votes on a post (+1, -1, or 0 to withdraw). */
  async vote(viewer: Viewer, pid: number, delta: number) {
    return vote(this.ctx, viewer, pid, delta);
  }

  /** Bookmarks or unbookmarks a post. */
  async bookmark(viewer: Viewer, pid: number, on: boolean) {
    return bookmark(this.ctx, viewer, pid, on);
  }

  /** One post as the API shows it. */
  async view(viewer: Viewer, pid: number): Promise<PostView> {
    return viewPost(this.ctx, viewer, pid);
  }

  /** A post's markdown as written. */
  async raw(viewer: Viewer, pid: number) {
    return rawPost(this.ctx, viewer, pid);
  }

  /** A post's edit history. */
  async diffs(viewer: Viewer, pid: number) {
    return postDiffs(this.ctx, viewer, pid);
  }

  /** The post as it read at a time in its edit history. */
  async version(viewer: Viewer, pid: number, since: number) {
    return postVersion(this.ctx, viewer, pid, since);
  }

  /** Restores the version written at or before `since`, recorded as a new edit. */
  async restoreVersion(viewer: Viewer, pid: number, since: number) {
    return restoreVersion(this.ctx, viewer, pid, since);
  }

  /** Deletes one previous version from the history (moderators); the history that remains. */
  async deleteVersion(viewer: Viewer, pid: number, timestamp: number) {
    return deleteVersion(this.ctx, viewer, pid, timestamp);
  }

  /** Renders a composer preview through the same filter posts use (members only, rate-limited). */
  async preview(viewer: Viewer, content: string): Promise<{ html: string }> {
    member(viewer);
    await enforce(this.ctx.limiter, `preview:${viewer.uid}`, PREVIEWS_PER_MINUTE, 60);
    return { html: await render(this.ctx, content, viewer.uid) };
  }
}
