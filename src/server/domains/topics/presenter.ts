import type { TopicFields, TopicSlim, TopicUser } from '../../../shared/schemas/topic.js';
import type { CategoryRef, TopicSummary, UserSummary } from '../../../shared/types.js';
import { escapeTitle } from '../../http/render.js';
import type { Viewer } from '../privileges/service.js';
import type { TopicThumb } from '../../hooks/types.js';
import { presentTeaser } from '../posts/presenter.js';
import { bannedUntilReadable, presentUser } from '../users/presenter.js';
import type { UserBrief } from '../users/store.js';
import type { TopicRow } from './store.js';
import * as store from './store.js';
import type { TopicsDeps } from './service.js';
import { Variants } from '../../cache/page-cache.js';

const iso = (ms: number) => new Date(ms).toISOString();

/** The public slug of a topic, `tid/slug`, as links use it. */
export function topicSlug(t: Pick<TopicRow, 'tid' | 'slug'>): string {
  return `${t.tid}/${t.slug}`;
}

/** A category reference for a cid that is missing (deleted meanwhile). */
export function missingCategory(cid: number): CategoryRef {
  return { cid, name: '', slug: '', icon: '', backgroundImage: null, imageClass: null, bgColor: '', color: '', disabled: 0 };
}

/** The topic fields a row gives, as NodeBB names them (flags 0/1); shared by lists, the topic page and live events. */
export function topicFields(t: TopicRow): TopicFields {
  return {
    tid: t.tid,
    uid: t.uid,
    cid: t.cid,
    title: escapeTitle(t.title),
    // Palaver titles are always written by their author.
    generatedTitle: 0,
    slug: topicSlug(t),
    mainPid: t.main_pid,
    postcount: t.post_count,
    viewcount: t.view_count,
    // NodeBB's rule: a topic whose timestamp is still to come is scheduled. Thumbnails are filled by their own presenter.
    scheduled: Number(t.created) > Date.now(),
    deleted: t.deleted,
    deleterUid: t.deleter_uid,
    titleRaw: t.title,
    locked: t.locked,
    pinned: t.pinned,
    timestamp: Number(t.created),
    timestampISO: iso(Number(t.created)),
    lastposttime: Number(t.last_post_time),
    lastposttimeISO: iso(Number(t.last_post_time)),
    pinExpiry: Number(t.pin_expiry ?? 0),
    pinExpiryISO: Number(t.pin_expiry ?? 0) > 0 ? iso(Number(t.pin_expiry)) : '',
    upvotes: t.upvotes,
    downvotes: t.downvotes,
    votes: t.upvotes - t.downvotes,
    teaserPid: t.teaser_pid > 0 ? t.teaser_pid : null,
    thumbs: [],
    numThumbs: 0,
  };
}

/** NodeBB's TopicObjectSlim of each topic: the row's fields plus poster and follower counts, one query each for all. */
export async function presentSlim(ctx: TopicsDeps, rows: TopicRow[]): Promise<TopicSlim[]> {
  const tids = rows.map((t) => t.tid);
  const [posters, followers, thumbs] = await Promise.all([store.posterCounts(ctx.db, tids), store.followerCounts(ctx.db, tids), topicThumbs(ctx, tids)]);
  return rows.map((t) => {
    const list = thumbs.get(t.tid) ?? [];
    return { ...topicFields(t), thumbs: list, numThumbs: list.length, postercount: posters.get(t.tid) ?? 0, followercount: followers.get(t.tid) ?? 0 };
  });
}

/** The topics' thumbnails, one query for all (filled by the uploads domain's filter). */
export async function topicThumbs(ctx: Pick<TopicsDeps, 'hooks'>, tids: number[]): Promise<Map<number, TopicThumb[]>> {
  if (!tids.length || !ctx.hooks.has('filter:topics.thumbs')) return new Map();
  return (await ctx.hooks.runFilter('filter:topics.thumbs', { tids, thumbs: new Map() })).thumbs;
}

/** A topic's author as NodeBB's TopicObject lists it. */
export function topicUser(summary: UserSummary, row: UserBrief | undefined): TopicUser {
  const until = summary.banned ? Number(row?.banned_until ?? 0) : 0;
  return {
    uid: summary.uid,
    isLocal: true,
    username: summary.username,
    displayname: summary.displayname,
    fullname: summary.fullname,
    userslug: summary.userslug,
    reputation: summary.reputation,
    postcount: summary.postcount,
    picture: summary.picture,
    status: summary.status,
    'icon:text': summary['icon:text'],
    'icon:bgColor': summary['icon:bgColor'],
    banned: summary.banned,
    banned_until: until,
    banned_until_readable: bannedUntilReadable(summary.banned, until),
  };
}

/**
 * Presents topics for lists as NodeBB's TopicObject, loading authors, categories, teasers,
 * tags, counts and the viewer's read and follow state in one batched query each (never one
 * per topic).
 */
export async function presentTopics(ctx: TopicsDeps, viewer: Viewer, rows: TopicRow[]): Promise<TopicSummary[]> {
  return overlayTopics(ctx, viewer, rows, await presentSharedTopics(ctx, rows));
}

/**
 * The part of each topic's summary that is the same for every reader: the viewer's own
 * fields (isOwner, ignored, followed, unread) are false. Shared between readers by the list
 * cache (list.ts): nothing changes these objects after they are made.
 */
export async function presentSharedTopics(ctx: TopicsDeps, rows: TopicRow[]): Promise<TopicSummary[]> {
  if (!rows.length) return [];
  const tids = rows.map((t) => t.tid);
  const [slims, teasers, categories, tags] = await Promise.all([
    presentSlim(ctx, rows),
    ctx.posts.getMany(rows.map((t) => t.teaser_pid).filter((p) => p > 0)),
    ctx.categories.refs([...new Set(rows.map((t) => t.cid))]),
    ctx.tags.forTopics(tids),
  ]);
  const users = await ctx.users.briefs([...rows.map((t) => t.uid), ...[...teasers.values()].map((p) => p.uid)]);
  return rows.map((t, i) => {
    const teaser = teasers.get(t.teaser_pid);
    return {
      ...slims[i]!,
      category: categories.get(t.cid) ?? missingCategory(t.cid),
      user: topicUser(presentUser(users.get(t.uid), t.uid), users.get(t.uid)),
      teaser: teaser && !teaser.deleted ? presentTeaser(ctx, teaser, Math.max(0, t.post_count - 1), users.get(teaser.uid)) : null,
      tags: tags.get(t.tid) ?? [],
      isOwner: false,
      ignored: false,
      followed: false,
      unread: false,
      bookmark: null,
      unreplied: t.post_count <= 1,
      icons: [],
    };
  });
}

/** The viewers' versions of the list cache's shared summaries (see overlayTopics). */
const variants = new Variants<TopicSummary>();

/**
 * Each topic's summary for this viewer: the shared part with the viewer's own fields, read in
 * one batched statement (read times and follow states). New top-level objects; the nested ones
 * (user, category, teaser, tags) stay shared.
 *
 * `reuse` (lists from the list cache, whose shared summaries never change): readers alike get
 * the same frozen object per topic, made once per variant of their four flags (see Variants).
 */
export async function overlayTopics(ctx: TopicsDeps, viewer: Viewer, rows: TopicRow[], shared: TopicSummary[], reuse = false): Promise<TopicSummary[]> {
  if (!rows.length) return [];
  if (viewer.uid <= 0) return shared.map((t) => (reuse ? variants.of(t, [], () => ({ ...t })) : { ...t }));
  const tids = rows.map((t) => t.tid);
  const { reads, follows } = await store.readerStates(ctx.db, viewer.uid, tids);
  return rows.map((t, i) => {
    const read = reads.get(t.tid);
    const follow = follows.get(t.tid);
    const flags = {
      isOwner: viewer.uid === t.uid,
      ignored: follow === 'ignore',
      followed: follow === 'follow',
      unread: read === undefined || read < Number(t.last_post_time),
    };
    return viewerTopic(shared[i]!, flags, reuse);
  });
}

/** The viewer's own fields of a topic summary (see overlayTopics). */
export interface ViewerTopicFlags {
  isOwner: boolean;
  ignored: boolean;
  followed: boolean;
  unread: boolean;
}

/**
 * A shared summary with the viewer's flags: with `reuse` (the summary is a cached, shared one)
 * the same frozen object for every viewer with these flags (Variants), else a new object.
 */
export function viewerTopic(shared: TopicSummary, flags: ViewerTopicFlags, reuse: boolean): TopicSummary {
  const make = () => ({ ...shared, ...flags });
  return reuse ? variants.of(shared, [flags.isOwner, flags.ignored, flags.followed, flags.unread], make) : make();
}
