import type { AppContext } from '../../context.js';
import { badRequest, forbidden, notFound } from '../../http/errors.js';
import type { Viewer } from '../privileges/service.js';
import * as store from './store.js';
import type { QueuedRow } from './store.js';
import type { UserRow } from '../users/store.js';

/** What the post queue uses of the application: its explicit dependencies. */
export type PostQueueDeps = Pick<AppContext, 'actions' | 'categories' | 'db' | 'posts' | 'privileges' | 'settings' | 'topics' | 'users'>;

type NewTopic = Parameters<AppContext['topics']['create']>[1];
type NewReply = Parameters<AppContext['posts']['reply']>[2];

/** A moderator's change to a queued post (NodeBB's PUT /posts/queue/{id}). */
export interface QueueEdit {
  content?: string;
  title?: string;
  cid?: number;
}

/** The tags a queued topic carries (stored as JSON). */
export function tagsOf(row: QueuedRow): string[] {
  try {
    const tags = JSON.parse(row.tags) as unknown;
    return Array.isArray(tags) ? tags.filter((t): t is string => typeof t === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * The post queue: new members' topics and replies wait here for a moderator of their category,
 * who edits, accepts (the post then goes through the normal create path as its author) or
 * rejects them; the author is told either way (action:post.queueNotice).
 */
export class PostQueueService {
  constructor(private readonly ctx: PostQueueDeps) {}

  /**
   * True when a post by this viewer in this category must wait (NodeBB's rules): the queue is
   * on, the category takes part, the viewer neither moderates it nor belongs to an exempt
   * group, and their reputation or post count is below the thresholds.
   */
  async shouldQueue(viewer: Viewer, cid: number): Promise<boolean> {
    const s = await this.ctx.settings.get();
    if (!s.postQueue || viewer.uid <= 0) return false;
    const category = await this.ctx.categories.get(cid);
    if (!category || category.post_queue !== 1) return false;
    if (await this.ctx.privileges.isModerator(viewer, cid)) return false;
    const user = await this.ctx.users.ofViewer(viewer);
    return !!user && (await this.appliesTo(viewer, user));
  }

  /** True when this member's posts wait in the queue in the categories that take part (the composer's notice). */
  async appliesTo(viewer: Viewer, user: Pick<UserRow, 'reputation' | 'postcount'>): Promise<boolean> {
    const s = await this.ctx.settings.get();
    if (!s.postQueue || viewer.uid <= 0 || viewer.isAdmin || viewer.isGlobalMod) return false;
    const exempt = s.groupsExemptFromPostQueue.split(',').map((g) => g.trim()).filter(Boolean);
    if (viewer.groups.some((g) => exempt.includes(g))) return false;
    return user.reputation < s.postQueueReputationThreshold || user.postcount < s.postQueuePostCountThreshold;
  }

  /** A new topic: checked as the create path checks it, then queued or created. */
  async submitTopic(viewer: Viewer, data: NewTopic, ip: string) {
    if (Number.isInteger(data.cid) && (await this.shouldQueue(viewer, data.cid))) {
      await this.ctx.topics.check(viewer, data);
      const row = await this.enqueue({ uid: viewer.uid, type: 'topic', cid: data.cid, title: data.title as string, content: data.content as string, tags: JSON.stringify(data.tags ?? []), timestamp: data.timestamp ?? 0, ip, created: Date.now() });
      return { queued: true as const, id: row.id, type: 'topic' as const };
    }
    return { queued: false as const, ...(await this.ctx.topics.create(viewer, data, ip)) };
  }

  /** A reply: checked as the reply path checks it, then queued or written. */
  async submitReply(viewer: Viewer, tid: number, data: NewReply, ip: string) {
    const topic = viewer.uid > 0 ? await this.ctx.topics.get(tid) : null;
    if (topic && (await this.shouldQueue(viewer, topic.cid))) {
      await this.ctx.posts.checkReply(viewer, tid, data);
      const row = await this.enqueue({ uid: viewer.uid, type: 'reply', cid: topic.cid, tid, to_pid: data.toPid ?? 0, title: topic.title, content: data.content as string, ip, created: Date.now() });
      return { queued: true as const, id: row.id, type: 'reply' as const };
    }
    return { queued: false as const, ...(await this.ctx.posts.reply(viewer, tid, data, ip)) };
  }

  private async enqueue(row: Parameters<typeof store.insert>[1]): Promise<QueuedRow> {
    return this.ctx.actions.run('postqueue.enqueue', async (w) => {
      const q = await store.insert(w, row);
      await w.fire('action:post.queued', { id: q.id, uid: q.uid, cid: q.cid, tid: q.tid, title: q.title });
      return q;
    });
  }

  /**
   * The queue as the viewer may see it: moderators see the posts of the categories they
   * moderate (global moderators and admins all), a member sees only their own. `canEdit`
   * holds the cids the viewer moderates (null: every one).
   */
  async list(viewer: Viewer, opts: { page: number; perPage: number; id?: number }): Promise<{ rows: QueuedRow[]; count: number; moderated: number[] | null }> {
    if (viewer.uid <= 0) throw forbidden();
    const moderated = await this.moderatedCids(viewer);
    const offset = (opts.page - 1) * opts.perPage;
    if (moderated === null || moderated.length) {
      const result = await store.list(this.ctx.db, moderated, offset, opts.perPage, opts.id);
      // A moderator's own queued posts elsewhere are not mixed in: the page is their work list.
      return { ...result, moderated };
    }
    const own = await store.ofUser(this.ctx.db, viewer.uid, 100);
    const rows = own.filter((r) => opts.id === undefined || r.id === opts.id);
    return { rows: rows.slice(offset, offset + opts.perPage), count: rows.length, moderated: [] };
  }

  /** The categories with queued posts the viewer moderates (null: global moderators and admins, all). */
  async moderatedCids(viewer: Viewer): Promise<number[] | null> {
    if (viewer.isAdmin || viewer.isGlobalMod) return null;
    const cids = await store.cidsInQueue(this.ctx.db);
    const out: number[] = [];
    for (const cid of cids) if (await this.ctx.privileges.isModerator(viewer, cid)) out.push(cid);
    return out;
  }

  /** A member's own posts waiting in the queue (the composer's notice, their post-queue page). */
  async pendingOf(viewer: Viewer): Promise<number> {
    if (viewer.uid <= 0) return 0;
    return (await store.ofUser(this.ctx.db, viewer.uid, 100)).length;
  }

  /** Which of these strings (uploaded files' paths) a post waiting in the queue mentions: the uploads clean-up keeps those files. One query. */
  async mentioned(needles: string[]): Promise<Set<string>> {
    return store.mentioned(this.ctx.db, needles);
  }

  private async loadModerated(viewer: Viewer, id: number): Promise<QueuedRow> {
    const row = Number.isInteger(id) && id > 0 ? await store.byId(this.ctx.db, id) : undefined;
    // Queued posts of categories the viewer does not moderate answer like missing ones.
    if (!row) throw notFound('error:no-queued-post');
    if (!(await this.ctx.privileges.isModerator(viewer, row.cid))) throw forbidden();
    return row;
  }

  /** Edits a queued post's content, title (topics) or category (topics), checked as its author's post would be. */
  async edit(viewer: Viewer, id: number, data: QueueEdit): Promise<QueuedRow> {
    const row = await this.loadModerated(viewer, id);
    const cid = row.type === 'topic' && data.cid !== undefined ? data.cid : row.cid;
    if (cid !== row.cid && !(await this.ctx.privileges.isModerator(viewer, cid))) throw forbidden();
    const title = row.type === 'topic' && data.title !== undefined ? data.title : row.title;
    const content = data.content ?? row.content;
    const author = await this.ctx.privileges.viewer(row.uid);
    if (row.type === 'topic') await this.ctx.topics.check(author, { cid, title, content, tags: tagsOf(row) }, { fromQueue: true });
    else await this.ctx.posts.checkReply(author, row.tid, { content, toPid: row.to_pid }, { fromQueue: true });
    await this.ctx.actions.run('postqueue.edit', (w) => store.update(w, id, { cid, title, content }));
    return { ...row, cid, title, content };
  }

  /**
   * Accepts a queued post: taken from the queue (one of two concurrent accepts gets it), written
   * through the normal create path as its author, and its author told, in one transaction: a
   * failure or a crash anywhere leaves it queued, never lost nor posted without its notice.
   */
  async accept(viewer: Viewer, id: number): Promise<{ type: string; tid: number; pid: number }> {
    await this.loadModerated(viewer, id);
    return this.ctx.actions.run('postqueue.accept', async (w) => {
      const row = await store.take(w, id);
      if (!row) throw notFound('error:no-queued-post');
      const author = await this.ctx.privileges.viewer(row.uid);
      let result: { type: string; tid: number; pid: number };
      if (row.type === 'topic') {
        const data = { cid: row.cid, title: row.title, content: row.content, tags: tagsOf(row), ...(row.timestamp > Date.now() ? { timestamp: Number(row.timestamp) } : {}) };
        const { topic, post } = await this.ctx.topics.create(author, data, row.ip, { fromQueue: true });
        result = { type: 'topic', tid: topic.tid, pid: post.pid };
      } else {
        const { post } = await this.ctx.posts.reply(author, row.tid, { content: row.content, toPid: row.to_pid }, row.ip, { fromQueue: true });
        result = { type: 'reply', tid: row.tid, pid: post.pid };
      }
      await w.fire('action:post.queueNotice', { id, uid: row.uid, by: viewer.uid, kind: 'accepted', title: row.title, message: '', path: `/post/${result.pid}` });
      await w.fire('action:post.queueHandled', { id, cid: row.cid, waiting: await store.countInCategory(w.tx, row.cid) });
      return result;
    });
  }

  /** Rejects (removes) a queued post; its author is told, with the moderator's reason when given. */
  async reject(viewer: Viewer, id: number, reason = ''): Promise<void> {
    await this.loadModerated(viewer, id);
    // Taken and its author's notice written in one transaction: neither happens without the other.
    await this.ctx.actions.run('postqueue.reject', async (w) => {
      const row = await store.take(w, id);
      if (!row) throw notFound('error:no-queued-post');
      await w.fire('action:post.queueNotice', { id, uid: row.uid, by: viewer.uid, kind: 'rejected', title: row.title, message: reason, path: row.type === 'reply' ? `/topic/${row.tid}` : `/category/${row.cid}` });
      await w.fire('action:post.queueHandled', { id, cid: row.cid, waiting: await store.countInCategory(w.tx, row.cid) });
    });
  }

  /** Sends the author of a queued post a message from the moderator (NodeBB's POST /posts/queue/{id}/notify). */
  async notify(viewer: Viewer, id: number, message: string): Promise<void> {
    const row = await this.loadModerated(viewer, id);
    if (!message.trim()) throw badRequest('error:invalid-data');
    await this.ctx.actions.run('postqueue.notify', (w) => w.fire('action:post.queueNotice', { id, uid: row.uid, by: viewer.uid, kind: 'notify', title: row.title, message, path: '/post-queue' }));
  }
}
