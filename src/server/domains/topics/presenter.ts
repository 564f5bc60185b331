import type { CategoryRef, TopicSummary } from '../../../shared/types.js';
import type { AppContext } from '../../context.js';
import { escapeHtml } from '../../http/render.js';
import type { Viewer } from '../privileges/service.js';
import { presentTeaser } from '../posts/presenter.js';
import { presentUser } from '../users/presenter.js';
import type { TopicRow } from './store.js';
import * as store from './store.js';

const iso = (ms: number) => new Date(ms).toISOString();

/** A title safe to put in HTML; brackets escaped too, so a title never reads as a [[translation]] token. */
export function escapeTitle(raw: string): string {
  return escapeHtml(raw).replace(/\[/g, '&#91;').replace(/\]/g, '&#93;');
}

/** The public slug of a topic, `tid/slug`, as links use it. */
export function topicSlug(t: Pick<TopicRow, 'tid' | 'slug'>): string {
  return `${t.tid}/${t.slug}`;
}

/** A category reference for a cid that is missing (deleted meanwhile). */
export function missingCategory(cid: number): CategoryRef {
  return { cid, name: '', slug: '', icon: '', backgroundImage: null, imageClass: null, bgColor: '', color: '', disabled: 0 };
}

/** The topic fields shared by list entries, the topic page and API answers. */
export function topicFields(t: TopicRow) {
  return {
    tid: t.tid,
    cid: t.cid,
    uid: t.uid,
    title: escapeTitle(t.title),
    titleRaw: t.title,
    slug: topicSlug(t),
    mainPid: t.main_pid,
    timestamp: Number(t.created),
    timestampISO: iso(Number(t.created)),
    lastposttime: Number(t.last_post_time),
    lastposttimeISO: iso(Number(t.last_post_time)),
    postcount: t.post_count,
    viewcount: t.view_count,
    votes: t.upvotes - t.downvotes,
    upvotes: t.upvotes,
    downvotes: t.downvotes,
    locked: t.locked === 1,
    pinned: t.pinned === 1,
    deleted: t.deleted === 1,
  };
}

/**
 * Presents topics for lists, loading authors, categories, teasers, tags and read state in
 * one batched query each (never one per topic).
 */
export async function presentTopics(ctx: AppContext, viewer: Viewer, rows: TopicRow[]): Promise<TopicSummary[]> {
  if (!rows.length) return [];
  const tids = rows.map((t) => t.tid);
  const [teasers, categories, tags, reads] = await Promise.all([
    ctx.posts.getMany(rows.map((t) => t.teaser_pid).filter((p) => p > 0)),
    ctx.categories.refs([...new Set(rows.map((t) => t.cid))]),
    ctx.tags.forTopics(tids),
    store.readTimes(ctx.db, viewer.uid, tids),
  ]);
  const users = await ctx.users.getMany([...rows.map((t) => t.uid), ...[...teasers.values()].map((p) => p.uid)]);
  return rows.map((t) => {
    const teaser = teasers.get(t.teaser_pid);
    const read = reads.get(t.tid);
    return {
      ...topicFields(t),
      unread: viewer.uid > 0 && (read === undefined || read < Number(t.last_post_time)),
      user: presentUser(users.get(t.uid), t.uid),
      category: categories.get(t.cid) ?? missingCategory(t.cid),
      teaser: teaser && !teaser.deleted ? presentTeaser(teaser, Math.max(0, t.post_count - 1), users.get(teaser.uid)) : null,
      tags: tags.get(t.tid) ?? [],
    };
  });
}
