import { Type } from 'typebox';
import { defineAction, type Caller, type Writer } from '../../core/action.js';
import { quotedPids } from '../../../shared/quotes.js';
import { badRequest } from '../../http/errors.js';
import type { Viewer } from '../privileges/service.js';
import { loadTopic } from '../topics/access.js';
import type { TopicRow } from '../topics/store.js';
import { userSettings } from '../users/presenter.js';
import { checkContent, checkFlood, render } from './rules.js';
import * as store from './store.js';
import type { PostRow } from './store.js';
import type { PostsDeps } from './service.js';

/** At most this many quoted posts are looked up in one reply. */
const MAX_QUOTES = 20;

export interface NewReply {
  content: unknown;
  toPid?: number;
}

/** Who replies: the member, from where, and whether a moderator is accepting their queued reply (no flood check then). */
export interface ReplyCaller extends Caller {
  viewer: Viewer;
  ip: string;
  fromQueue?: boolean;
}

/** The reply's input: its topic, its markdown (checked against the forum's lengths in `load`), the post it answers. */
const ReplyInput = Type.Object({
  tid: Type.Integer({ minimum: 1 }),
  content: Type.Unknown(),
  toPid: Type.Optional(Type.Integer({ minimum: 0 })),
});

/** What a reply has read and made before its transaction. */
interface Loaded {
  topic: TopicRow;
  toPid: number;
  content: string;
  html: string;
  follow: boolean;
  /** The authors of the posts of this topic the reply quotes (they hear of it: action:post.quote). */
  quoted: number[];
}

/**
 * A reply to a topic, as its own specification: the input; the topic (404 when missing) and,
 * when it answers a post, that post in the same topic; the guardian's decision (may reply
 * there, locked and deleted topics for moderators only) and flood control; the content through
 * the filter hooks and rendered, outside the transaction; then one transaction holding the post
 * and every counter, and the hook whose durable listeners (notifications, mentions) run from
 * the outbox. docs/architecture.md follows it from the route to the notification e-mail.
 */
export function defineReply(ctx: PostsDeps) {
  return defineAction(ctx.actions, {
    name: 'post.reply',
    input: ReplyInput,
    async load(input): Promise<Loaded> {
      const s = await ctx.settings.get();
      checkContent(input.content, s);
      const topic = await loadTopic(ctx, input.tid);
      const toPid = input.toPid ?? 0;
      if (toPid > 0) {
        const target = await store.byPid(ctx.db, toPid);
        if (!target || target.tid !== topic.tid) throw badRequest('error:invalid-pid');
      }
      return { topic, toPid, content: input.content as string, html: '', follow: false, quoted: [] };
    },
    async policy({ topic }, caller: ReplyCaller) {
      (await ctx.privileges.guardian(caller.viewer)).assertReply(topic);
      if (!caller.fromQueue) await checkFlood(ctx, caller.viewer, topic.cid);
    },
    async prepare(loaded, caller) {
      const { viewer } = caller;
      const filtered = await ctx.hooks.runFilter('filter:post.create', { uid: viewer.uid, tid: loaded.topic.tid, content: loaded.content, toPid: loaded.toPid });
      const content = checkContent(filtered.content, await ctx.settings.get());
      const author = await ctx.users.ofViewer(viewer);
      return { ...loaded, content, html: await render(ctx, content, viewer.uid), follow: author ? userSettings(author).followTopicsOnReply : false, quoted: await quotedAuthors(ctx, content, loaded.topic.tid) };
    },
    write: (w, loaded, _input, caller) => writeReply(ctx, w, caller, loaded),
  });
}

/** The authors of the posts the markdown quotes, of those in this topic (the composer's Quote), each once. */
async function quotedAuthors(ctx: PostsDeps, content: string, tid: number): Promise<number[]> {
  const pids = quotedPids(content).slice(0, MAX_QUOTES);
  if (!pids.length) return [];
  const posts = await store.byPids(ctx.db, pids);
  return [...new Set(posts.filter((q) => q.tid === tid && q.uid > 0).map((q) => q.uid))];
}

/** The reply's rows: the post, the topic's counters and teaser, the category's and author's counters, the author's follow and read marks. */
async function writeReply(ctx: PostsDeps, w: Writer, caller: ReplyCaller, p: Loaded): Promise<{ post: PostRow; topic: TopicRow; index: number }> {
  const { topic } = p;
  const uid = caller.viewer.uid;
  // Later than the topic's last post, so the reply is its newest even within one millisecond.
  const now = Math.max(Date.now(), Number(topic.last_post_time) + 1);
  const post = await store.insertPost(w, { tid: topic.tid, uid, to_pid: p.toPid, content: p.content, content_html: p.html, created: now, ip: caller.ip });
  // Written after the topic's last post, the reply becomes its teaser (unless a later one committed first).
  const updated = (await ctx.topics.recordReply(w, topic.tid, post.pid, now)) ?? topic;
  // A reply inside a deleted topic (moderators only) is not counted by its category.
  if (topic.deleted !== 1) await ctx.categories.bumpCounters(w, topic.cid, 0, 1);
  await ctx.users.recordPost(w, uid, now);
  if (p.follow) await ctx.topics.followIn(w, uid, topic.tid);
  await ctx.topics.markReadIn(w, uid, topic.tid, now);
  const index = await store.indexOf(w.tx, post);
  await w.fire('action:post.save', { post, topic: updated, uid });
  // Durable with the reply: the notifications domain tells each quoted author once (key quote:<pid>),
  // never the author themselves, nor a member who blocked them or may not read the topic.
  if (p.quoted.length) await w.fire('action:post.quote', { post, topic: updated, uid, uids: p.quoted });
  return { post, topic: updated, index };
}
