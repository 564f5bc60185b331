import type { TagRef } from '../../../shared/types.js';
import type { ForumSettings } from '../../../shared/constants.js';
import { cleanUpTag } from '../../../shared/validation.js';
import { deepFreeze } from '../../cache/page-cache.js';
import type { Cache } from '../../core/cache.js';
import { TAGS } from '../../core/tags.js';
import type { AppContext } from '../../context.js';
import type { Writer } from '../../core/action.js';
import type { Queryable } from '../../db/index.js';
import { badRequest, notAuthorised, notFound } from '../../http/errors.js';
import { presentTag } from './presenter.js';
import * as store from './store.js';

/** What the tags service uses of the application: its explicit dependencies. */
export type TagsDeps = Pick<AppContext, 'actions' | 'cacheRegistry' | 'db' | 'hooks' | 'categories' | 'events' | 'settings' | 'topics' | 'writes'>;

/** How long the most used tags are kept (top), at most: a write of the tags table drops them at once. */
const TOP_TTL_MS = 5000;

/** Tags: cleaning and limits, links to topics, and per-tag topic counts (of topics not deleted). */
export class TagsService {
  /**
   * The most used tags, by length of the list (the tags page's). Every reader sees the same
   * list, yet each member's /tags read it again: on PostgreSQL a statement planned for every
   * request (a `select *` runs unnamed), some 0.4 ms of the database's CPU. Frozen: the page's
   * JSON encodes each tag once (http/page-json.ts). Dropped by any change of tags or their
   * counts, in every process.
   */
  private readonly tops: Cache<string, TagRef[]>;

  constructor(private readonly ctx: TagsDeps) {
    this.tops = ctx.cacheRegistry.create({ name: 'top-tags', keeps: 'the most used tags, per length of the list (the tags page)', droppedBy: 'a change of tags or their counts', ttlMs: TOP_TTL_MS, max: 20, tags: () => [TAGS] });
  }

  /**
   * Cleans and checks a topic's tags against the forum's limits; returns the unique cleaned
   * tags or throws the spec's key (not-enough-tags, too-many-tags, tag-too-short, tag-too-long).
   */
  validate(raw: unknown[], s: ForumSettings): string[] {
    const tags: string[] = [];
    for (const value of raw) {
      if (typeof value !== 'string') throw badRequest('error:invalid-data');
      // Cleaned without the cut first, so an over-long tag is refused rather than silently shortened.
      const uncut = cleanUpTag(value, Number.MAX_SAFE_INTEGER);
      // A tag given as blank is ignored; one that only cleaning emptied (e.g. "!!!") is refused.
      if (!uncut) {
        if (value.trim()) throw badRequest('error:invalid-tag');
        continue;
      }
      if (uncut.length > s.maximumTagLength) throw badRequest('error:tag-too-long', s.maximumTagLength);
      const tag = cleanUpTag(value, s.maximumTagLength);
      if (tag.length < s.minimumTagLength) throw badRequest('error:tag-too-short', s.minimumTagLength);
      if (!tags.includes(tag)) tags.push(tag);
    }
    if (tags.length < s.minimumTagsPerTopic) throw badRequest('error:not-enough-tags', s.minimumTagsPerTopic);
    if (tags.length > s.maximumTagsPerTopic) throw badRequest('error:too-many-tags', s.maximumTagsPerTopic);
    return tags;
  }

  /**
   * The category's own rules on cleaned tags: its whitelist (error:tag-not-allowed) and its
   * minimum and maximum, which narrow the forum's (checked by `validate`): a null follows them.
   */
  async checkForCategory(tags: string[], cid: number, s: ForumSettings): Promise<void> {
    const category = await this.ctx.categories.get(cid);
    if (!category) return;
    const whitelist = category.tag_whitelist ? category.tag_whitelist.split(',') : [];
    const refused = whitelist.length ? tags.find((t) => !whitelist.includes(t)) : undefined;
    if (refused !== undefined) throw badRequest('error:tag-not-allowed', refused);
    const min = category.min_tags ?? s.minimumTagsPerTopic;
    const max = category.max_tags ?? s.maximumTagsPerTopic;
    if (tags.length < min) throw badRequest('error:not-enough-tags', min);
    if (tags.length > max) throw badRequest('error:too-many-tags', max);
  }

  /** Replaces a topic's tags inside the caller's transaction, keeping counts right. */
  async setForTopic(w: Writer, tid: number, tags: string[], topicDeleted: boolean): Promise<void> {
    const old = await store.tagNamesOf(w.tx, tid);
    const removed = old.filter((t) => !tags.includes(t));
    const added = tags.filter((t) => !old.includes(t));
    await store.removeTopicTags(w, tid, removed);
    await store.addTopicTags(w, tid, added);
    if (!topicDeleted) {
      await store.bumpTagCounts(w, removed, -1);
      await store.bumpTagCounts(w, added, 1);
    }
  }

  /** Moves a topic's tag counts when it is deleted (-1) or restored (+1). */
  async topicVisibility(w: Writer, tid: number, delta: 1 | -1): Promise<void> {
    await store.bumpTagCounts(w, await store.tagNamesOf(w.tx, tid), delta);
  }

  /** The tag names of one topic. */
  async namesOf(tid: number, db: Queryable = this.ctx.db): Promise<string[]> {
    return store.tagNamesOf(db, tid);
  }

  /** The presented tags of many topics in one query, keyed by tid. */
  async forTopics(tids: number[]): Promise<Map<number, TagRef[]>> {
    const rows = await store.tagsOfTopics(this.ctx.db, tids);
    return new Map([...rows].map(([tid, list]) => [tid, list.map((t) => presentTag(t.tag, t.count))]));
  }

  /** One tag with its topic count, or null. */
  async get(tag: string): Promise<TagRef | null> {
    const row = await store.byTag(this.ctx.db, tag);
    return row ? presentTag(row.tag, row.topic_count) : null;
  }

  /** A member follows (on) or stops following a tag that exists (NodeBB: no-tag otherwise). */
  async follow(uid: number, rawTag: string, on: boolean): Promise<void> {
    if (uid <= 0) throw notAuthorised();
    const tag = cleanUpTag(rawTag, Number.MAX_SAFE_INTEGER);
    if (!tag || !(await store.byTag(this.ctx.db, tag))) throw notFound('error:no-tag');
    await this.ctx.actions.run('tag.follow', async (w) => {
      await store.setFollow(w, uid, tag, on, Date.now());
      await w.fire('action:tag.follow', { uid, tag, following: on });
    });
  }

  /** True when the member follows the tag (false for guests). */
  async isFollowing(uid: number, tag: string): Promise<boolean> {
    return store.isFollowing(this.ctx.db, uid, tag);
  }

  /** The members following any of the tags, each once (they hear of new topics carrying them). */
  async followers(tags: string[]): Promise<number[]> {
    return store.followersOf(this.ctx.db, tags);
  }

  /**
   * Tag suggestions for the composer's tag input: used tags starting with the cleaned query,
   * or, in a category with a whitelist, the whitelisted ones that match (NodeBB's autocompleteTags).
   */
  async autocomplete(query: string, cid = 0, limit = 10): Promise<string[]> {
    const q = cleanUpTag(query, Number.MAX_SAFE_INTEGER);
    const category = cid > 0 ? await this.ctx.categories.get(cid) : null;
    const whitelist = category?.tag_whitelist ? category.tag_whitelist.split(',') : [];
    if (whitelist.length) return whitelist.filter((t) => t.startsWith(q)).slice(0, limit);
    if (!q) return [];
    return store.tagsStartingWith(this.ctx.db, q, limit);
  }

  /** The most used tags. */
  async top(limit = 100): Promise<TagRef[]> {
    return this.tops.get(String(limit), async () => deepFreeze((await store.topTags(this.ctx.db, limit)).map((r) => presentTag(r.tag, r.topic_count))));
  }

  /** Used tags containing the text, most used first (search's in=tags and the tags page filter). */
  async search(text: string, limit = 50): Promise<TagRef[]> {
    return (await store.tagsContaining(this.ctx.db, text, limit)).map((r) => presentTag(r.tag, Number(r.topic_count)));
  }

  /** A page of tids carrying the tag in the given categories, with the total. */
  async topicIds(tag: string, cids: number[], page: number, perPage: number): Promise<{ tids: number[]; count: number }> {
    return store.topicsWithTag(this.ctx.db, tag, cids, (page - 1) * perPage, perPage);
  }
}
