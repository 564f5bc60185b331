import type { Teaser, TopicSummary } from '../../../shared/types.js';
import type { AppContext } from '../../context.js';
import type { Writer } from '../../core/action.js';
import type { Queryable } from '../../db/index.js';
import type { Viewer } from '../privileges/service.js';
import { createTopic, prepareTopic, type CreateOptions, type NewTopic } from './create.js';
import { bumpTopic, markRead, setFollowState, setRead } from './follow.js';
import { categoryTeasers, ListCache, listTopics } from './list.js';
import type { Cache } from '../../core/cache.js';
import { categoryTag, GROUPS, topicTag, userTag } from '../../core/tags.js';
import type { TopicPart } from './topic-page.js';
import { deleteTopic, purgeCategoryContent, purgeTopic, restoreTopic, setLocked, setPinned, setTopicTags } from './moderate.js';
import { defineScheduleJob, publishScheduled } from './schedule.js';
import { isEditor } from './tools/editors.js';
import { recordEvent, type TopicEventData, type TopicEventType } from './tools/events.js';
import { defineUnpinJob } from './tools/pin.js';
import * as store from './store.js';
import type { TopicRow } from './store.js';
import { purgeTopicsOf } from './member-content.js';

/** What the topics service uses of the application: its explicit dependencies. */
export type TopicsDeps = Pick<AppContext, 'actions' | 'categories' | 'config' | 'db' | 'hooks' | 'jobs' | 'limiter' | 'log' | 'posts' | 'privileges' | 'settings' | 'tags' | 'topics' | 'users' | 'views'>;

/** What the topic tools and the service use besides: the audit log, the caches and the change bus. */
export type TopicToolsDeps = TopicsDeps & Pick<AppContext, 'cacheRegistry' | 'changes' | 'events' | 'writes'>;

export interface TopicListOptions {
  /** Only topics in these categories (already filtered to what the viewer may read). */
  cids: number[];
  sort: 'recent' | 'popular' | 'top' | 'category';
  page: number;
  perPage: number;
  /** Only topics with posts the viewer has not read (members). */
  unreadOnly?: boolean;
  /** With unreadOnly: only topics in these categories (those the member watches or tracks) or that the member follows. */
  watchedCids?: number[];
  /** Only topics with a post since this time (a digest's last send): such a list is built each time. */
  since?: number;
  /**
   * Only topics with a post in the last this many ms (popular/top terms: day, week, month).
   * The window ends when the list is built: a list shared for a few seconds keeps its window.
   */
  within?: number;
  /** Only topics carrying this tag. */
  tag?: string;
}

/**
 * Topics. CONTRACT used by other domains (keep these signatures): list, teasers,
 * purgeCategoryContent. The rules live in one file per action; this class only routes to them.
 */
export class TopicsService {
  private readonly lists: ListCache;
  /** The parts of topic pages every reader sees alike (topic-page.ts), for a few seconds. */
  readonly topicParts: Cache<string, TopicPart>;
  /** Topic rows for topic pages, with the parts (frozen: readers share them). */
  readonly topicRows: Cache<string, Readonly<TopicRow>>;
  /** Each topic's number of posts (its page count), with the parts. */
  readonly topicCounts: Cache<string, number>;
  /**
   * Category teasers (each category's latest post), per set of categories: three statements
   * on every member's home, categories and category page, the same for all who may read the
   * same categories.
   */
  private readonly teaserSets: Cache<string, ReadonlyMap<number, Teaser>>;

  constructor(private readonly ctx: TopicToolsDeps) {
    defineScheduleJob(ctx);
    defineUnpinJob(ctx);
    const registry = ctx.cacheRegistry;
    const ttlMs = ListCache.TTL_MS;
    this.lists = new ListCache(registry);
    const tidOf = (key: string) => Number(key.split('|')[0]);
    this.topicParts = registry.create({
      name: 'topic-pages',
      keeps: "a page of a topic as every reader sees it: its posts with their authors and badges, category, tags, thumbnails, timeline events, editors",
      droppedBy: "a change of the topic (its posts, votes, tags, thumbnails, events), its category, one of its posts' authors, or any group membership (badges)",
      ttlMs,
      max: 500,
      tags: (key, part) => [topicTag(tidOf(key)), categoryTag(part.category.cid), GROUPS, ...part.rows.map((p) => userTag(p.uid)), ...part.events.map((e) => userTag(e.uid))],
    });
    this.topicRows = registry.create({ name: 'topic-rows', keeps: "a topic's row, frozen, for topic pages", droppedBy: 'a change of the topic', ttlMs, max: 2000, tags: (tid) => [topicTag(Number(tid))] });
    this.topicCounts = registry.create({ name: 'topic-post-counts', keeps: "a topic's number of posts (its pages)", droppedBy: 'a change of the topic', ttlMs, max: 2000, tags: (tid) => [topicTag(Number(tid))] });
    this.teaserSets = registry.create({
      name: 'category-teasers',
      keeps: "each category's latest post, per set of categories",
      droppedBy: "a change of one of the categories (a topic or reply there), of a teaser's topic (an edit), or of a teaser's author",
      ttlMs,
      max: 200,
      tags: (key, teasers) => [...key.split(',').filter(Boolean).map((c) => categoryTag(Number(c))), ...[...teasers.values()].flatMap((t) => [topicTag(t.tid), userTag(t.uid)])],
    });
    // Until the users domain names what it changes (issue 51), its hooks stand for it: what
    // others see of a member. Group membership (badges) is named GROUPS by the groups domain.
    for (const name of ['action:user.update', 'action:user.delete', 'action:user.banned', 'action:user.unbanned'] as const) {
      ctx.hooks.action(name, 'topic-caches', (data) => ctx.changes.publish([userTag('user' in data ? data.user.uid : data.uid)]), { inline: true });
    }
    // Thumbnails are the uploads domain's rows (issue 51, cluster B names them next).
    ctx.hooks.action('action:topic.thumbs', 'topic-caches', ({ tid }) => ctx.changes.publish([topicTag(tid)]), { inline: true });
  }

  /** A page of topic summaries, and the total count, for list pages. */
  async list(viewer: Viewer, opts: TopicListOptions): Promise<{ topics: TopicSummary[]; count: number }> {
    return listTopics(this.ctx, viewer, opts, this.lists);
  }

  /** The latest post of each category (for the categories page), keyed by cid. */
  async teasers(viewer: Viewer, cids: number[]): Promise<ReadonlyMap<number, Teaser>> {
    void viewer; // the caller passes only categories the viewer may read
    const key = [...new Set(cids)].sort((a, b) => a - b).join(',');
    return this.teaserSets.get(key, () => categoryTeasers(this.ctx, cids));
  }

  /** Purges every topic a member started, in the caller's action (account deletion); the purged topics. */
  async purgeTopicsOf(w: Writer, uid: number): Promise<TopicRow[]> {
    return purgeTopicsOf(this.ctx, w, uid);
  }

  /** Purges every topic of a category (before the category is deleted). */
  async purgeCategoryContent(cid: number): Promise<void> {
    return purgeCategoryContent(this.ctx, cid);
  }

  /** How many topics a category holds, in any state (a category with topics is not deleted without a choice). */
  async countInCategory(cid: number): Promise<number> {
    return store.countOfCategory(this.ctx.db, cid);
  }

  /** Moves every topic of a category to another, inside the caller's action (counters are the caller's). */
  async moveCategoryContent(w: Writer, fromCid: number, toCid: number): Promise<number> {
    return store.moveCategoryTopics(w, fromCid, toCid);
  }

  /** Creates a topic and its main post (`fromQueue`: a queued topic a moderator accepted). */
  async create(viewer: Viewer, data: NewTopic, ip = '', opts: CreateOptions = {}) {
    return createTopic(this.ctx, viewer, data, ip, opts);
  }

  /** Checks a new topic as create would, without writing it (the post queue stores it then). */
  async check(viewer: Viewer, data: NewTopic, opts: CreateOptions = {}): Promise<void> {
    await prepareTopic(this.ctx, viewer, data, opts);
  }

  /** Publishes a scheduled topic now (the job does this at its time); null when it was not scheduled. */
  async publishScheduled(tid: number): Promise<TopicRow | null> {
    return publishScheduled(this.ctx, tid);
  }

  /** One topic row, or null. */
  async get(tid: number, db: Queryable = this.ctx.db): Promise<TopicRow | null> {
    return (await store.byTid(db, tid)) ?? null;
  }

  /** Several topic rows keyed by tid. */
  async getMany(tids: number[]): Promise<Map<number, TopicRow>> {
    return new Map((await store.byTids(this.ctx.db, tids)).map((t) => [t.tid, t]));
  }

  /** Locks or unlocks a topic. */
  async lock(viewer: Viewer, tid: number, locked: boolean) {
    return setLocked(this.ctx, viewer, tid, locked);
  }

  /** Pins or unpins a topic (a pin may expire at a future time). */
  async pin(viewer: Viewer, tid: number, pinned: boolean, expiry = 0) {
    return setPinned(this.ctx, viewer, tid, pinned, expiry);
  }

  /** Soft-deletes a topic. */
  async delete(viewer: Viewer, tid: number) {
    return deleteTopic(this.ctx, viewer, tid);
  }

  /** Restores a deleted topic. */
  async restore(viewer: Viewer, tid: number) {
    return restoreTopic(this.ctx, viewer, tid);
  }

  /** Purges a topic for ever. */
  async purge(viewer: Viewer, tid: number) {
    return purgeTopic(this.ctx, viewer, tid);
  }

  /** Replaces a topic's tags, adds some, or removes some (or all, with null). */
  async setTags(viewer: Viewer, tid: number, tags: unknown[] | null, mode: 'set' | 'add' | 'remove' = 'set') {
    return setTopicTags(this.ctx, viewer, tid, tags, mode);
  }

  /** Marks a topic read or unread for the viewer (PUT/DELETE /topics/{tid}/read). */
  async setRead(viewer: Viewer, tid: number, read: boolean) {
    return setRead(this.ctx, viewer, tid, read);
  }

  /** Marks a topic unread for every member (moderators: PUT /topics/{tid}/bump). */
  async bump(viewer: Viewer, tid: number) {
    return bumpTopic(this.ctx, viewer, tid);
  }

  /** Sets the viewer's watch state of a topic. */
  async follow(viewer: Viewer, tid: number, state: 'follow' | 'ignore' | null) {
    return setFollowState(this.ctx, viewer, tid, state);
  }

  /** The members following a topic (who hear about its replies). */
  /** Of these members, those who ignore the topic. */
  async ignorersAmong(tid: number, uids: readonly number[]): Promise<Set<number>> {
    return uids.length ? store.ignorersAmong(this.ctx.db, tid, uids) : new Set();
  }

  async followers(tid: number): Promise<number[]> {
    return store.followers(this.ctx.db, tid);
  }

  /** Records a member's read of a topic (guests: nothing). */
  async markRead(viewer: Viewer, tid: number, lastPostTime?: number, known?: { readAt: number | undefined }) {
    return markRead(this.ctx, viewer, tid, lastPostTime, known);
  }

  /** Adds to a topic's post count inside a content action. */
  async bumpPostCount(w: Writer, tid: number, by: number): Promise<void> {
    await store.bumpPostCount(w, tid, by);
  }

  /** Counts a new reply, makes it the teaser and returns the topic, inside the reply's action. */
  async recordReply(w: Writer, tid: number, pid: number, created: number): Promise<TopicRow | undefined> {
    return store.recordReply(w, tid, pid, created);
  }

  /** Adds to a topic's vote counters (they mirror its main post's) inside an action. */
  async bumpVotes(w: Writer, tid: number, up: number, down: number): Promise<void> {
    await store.bumpVotes(w, tid, up, down);
  }

  /** Points a topic's teaser and last post time at its newest visible post. */
  async refreshTeaser(w: Writer, tid: number): Promise<void> {
    const topic = await store.byTid(w.tx, tid);
    if (!topic) return;
    const latest = await this.ctx.posts.latestVisible(w.tx, tid);
    await store.updateTopic(w, tid, {
      teaser_pid: latest?.pid ?? topic.main_pid,
      last_post_time: latest ? latest.created : topic.created,
    });
  }

  /** Records a timeline event and its audit-log entry inside a tool's action (post tools call it). */
  async recordEvent(w: Writer, tid: number, type: TopicEventType, uid: number, data: TopicEventData = {}, ip = ''): Promise<void> {
    return recordEvent(this.ctx, w, tid, type, uid, data, ip);
  }

  /** Gives a topic to another starter inside a change-owner's action (its main post changed hands). */
  async setOwner(w: Writer, tid: number, uid: number): Promise<void> {
    await store.updateTopic(w, tid, { uid });
  }

  /** Whether a member is one of the topic's editors (may edit its first post). */
  async isEditor(tid: number, uid: number): Promise<boolean> {
    return isEditor(this.ctx, tid, uid);
  }

  /** Changes a topic's title (and slug) inside an edit's action. */
  async setTitle(w: Writer, tid: number, title: string, slug: string): Promise<void> {
    await store.updateTopic(w, tid, { title, slug });
  }

  /** Follows a topic for a member inside an action (auto-follow on create or reply). */
  async followIn(w: Writer, uid: number, tid: number): Promise<void> {
    await store.setFollowState(w, uid, tid, 'follow');
  }

  /** Records a read inside an action (a member's own post counts as read). */
  async markReadIn(w: Writer, uid: number, tid: number, at: number): Promise<void> {
    if (uid > 0) await store.markRead(w, uid, tid, at);
  }
}
