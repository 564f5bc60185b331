import type { AppContext } from '../../context.js';
import type { Writer } from '../../core/action.js';
import { badRequest, forbidden, notAuthorised, notFound } from '../../http/errors.js';
import type { Viewer } from '../privileges/service.js';
import { isImageName } from './process.js';
import { STORED_NAME, type UploadStorage } from './storage.js';
import * as store from './store.js';
import type { ThumbRow, UploadRow } from './store.js';

/** A topic thumbnail as NodeBB shows it (id: the topic). */
export interface ThumbView {
  id: number;
  name: string;
  path: string;
  url: string;
}

/** What topic thumbnails use of the application. */
export type ThumbsDeps = Pick<AppContext, 'actions' | 'db' | 'posts' | 'privileges' | 'settings' | 'topics'>;

/** The posts using a file looked at when deciding whether a topic uses it (a file pasted into more posts is rare). */
const USED_IN_TOPIC_SCAN = 500;

/** The stored path ('files/ab/cd/<hash>.png') of a path or URL a client sent, or null. */
export function relativeUploadPath(raw: string): string | null {
  const rel = raw.replace(/^.*\/assets\/uploads\//, '').replace(/^\/+/, '');
  return STORED_NAME.test(rel) ? rel : null;
}

/**
 * Topic thumbnails: chosen by the topic's author or its moderators among their uploads (or the
 * images of the topic's posts), ordered and removed; lists show the chosen ones, else the first
 * image of the topic's main post.
 */
export class TopicThumbs {
  constructor(
    private readonly ctx: ThumbsDeps,
    private readonly storage: UploadStorage,
  ) {}

  private async editableTopic(viewer: Viewer, tid: number) {
    if (viewer.uid <= 0) throw notAuthorised();
    const topic = await this.ctx.topics.get(tid);
    if (!topic || (topic.deleted && !viewer.isAdmin)) throw notFound('error:no-topic');
    const own = topic.uid === viewer.uid && (await this.ctx.privileges.can(viewer, 'posts:edit', topic.cid));
    if (!own && !viewer.isAdmin && !(await this.ctx.privileges.isModerator(viewer, topic.cid))) throw forbidden();
    return topic;
  }

  private thumbView(t: ThumbRow): ThumbView {
    return { id: t.tid, name: t.name, path: t.path, url: this.storage.url(t.path) };
  }

  /** A topic's thumbnails (readers of the topic only); unless `thumbsOnly`, the images uploaded into its main post follow (NodeBB's GET …/thumbs). */
  async list(viewer: Viewer, tid: number, thumbsOnly = false): Promise<ThumbView[]> {
    const topic = await this.ctx.topics.get(tid);
    if (!topic || !(await this.ctx.privileges.can(viewer, 'topics:read', topic.cid))) throw notFound('error:no-topic');
    const chosen = (await store.thumbsOf(this.ctx.db, tid)).map((t) => this.thumbView(t));
    if (thumbsOnly) return chosen;
    const seen = new Set(chosen.map((t) => t.path));
    const more = (await store.postImages(this.ctx.db, topic.main_pid)).filter((i) => !seen.has(i.path));
    return [...chosen, ...more.map((i) => this.thumbView({ tid, path: i.path, name: i.name, sort: 0 }))];
  }

  /**
   * Thumbnails of many topics for lists: the chosen ones, else the first image of the topic's
   * main post. Two queries for the whole list.
   */
  async forTopics(tids: number[]): Promise<Map<number, ThumbView[]>> {
    const [rows, firsts] = await Promise.all([store.thumbsOfMany(this.ctx.db, tids), store.firstImages(this.ctx.db, tids)]);
    const out = new Map([...rows].map(([tid, list]) => [tid, list.map((t) => this.thumbView(t))]));
    for (const [tid, first] of firsts) if (!out.has(tid)) out.set(tid, [this.thumbView({ tid, path: first.path, name: first.name, sort: 0 })]);
    return out;
  }

  /** Uploads images and makes them the topic's thumbnails (NodeBB's POST …/thumbs). */
  async upload<F extends { name: string }>(viewer: Viewer, tid: number, files: F[], upload: (files: F[]) => Promise<UploadRow[]>): Promise<UploadRow[]> {
    await this.editableTopic(viewer, tid);
    if (!(await this.ctx.settings.get()).allowTopicsThumbnail) throw forbidden('error:topic-thumbnails-are-disabled');
    if (files.some((f) => !isImageName(f.name))) throw badRequest('error:invalid-image');
    const rows = await upload(files);
    await this.ctx.actions.run('uploads.addThumbs', async (w) => {
      for (const r of rows) await store.addThumb(w, tid, r.path, r.name);
      await this.thumbsChanged(w, tid, viewer.uid);
    });
    return rows;
  }

  /** Makes one of the viewer's uploaded images (by its path) a thumbnail of the topic. */
  async choose(viewer: Viewer, tid: number, upPath: string): Promise<ThumbView[]> {
    await this.editableTopic(viewer, tid);
    const rel = relativeUploadPath(upPath);
    const row = rel ? await store.anyByPath(this.ctx.db, rel) : undefined;
    if (!row || !row.mime.startsWith('image/') || (row.uid !== viewer.uid && !viewer.isAdmin && !(await this.usedInTopic(tid, rel!)))) throw notFound('error:no-such-upload');
    await this.ctx.actions.run('uploads.chooseThumb', async (w) => {
      await store.addThumb(w, tid, row.path, row.name);
      await this.thumbsChanged(w, tid, viewer.uid);
    });
    return (await store.thumbsOf(this.ctx.db, tid)).map((t) => this.thumbView(t));
  }

  /** Announces a change of the topic's thumbnails (the store named its tag: topic pages and lists drop what they hold). */
  private async thumbsChanged(w: Writer, tid: number, uid: number): Promise<void> {
    await w.fire('action:topic.thumbs', { tid, uid });
  }

  /** Whether a post of the topic uses the stored file: its references are ours, its posts the posts domain's. */
  private async usedInTopic(tid: number, rel: string): Promise<boolean> {
    const pids = await store.refIdsOfPath(this.ctx.db, 'post', rel, USED_IN_TOPIC_SCAN);
    const posts = await this.ctx.posts.getMany(pids);
    return [...posts.values()].some((p) => p.tid === tid);
  }

  /** Moves a thumbnail to a new place (NodeBB's PUT …/thumbs/order). */
  async order(viewer: Viewer, tid: number, upPath: string, order: number): Promise<ThumbView[]> {
    await this.editableTopic(viewer, tid);
    const rel = relativeUploadPath(upPath);
    if (!rel) throw notFound('error:no-thumb');
    const moved = await this.ctx.actions.run('uploads.orderThumb', async (w) => {
      if (!(await store.orderThumb(w, tid, rel, order))) return false;
      await this.thumbsChanged(w, tid, viewer.uid);
      return true;
    });
    if (!moved) throw notFound('error:no-thumb');
    return (await store.thumbsOf(this.ctx.db, tid)).map((t) => this.thumbView(t));
  }

  /** Removes a thumbnail from the topic (the file stays the member's upload until the clean-up job finds it unused). */
  async remove(viewer: Viewer, tid: number, upPath: string): Promise<ThumbView[]> {
    await this.editableTopic(viewer, tid);
    const rel = relativeUploadPath(upPath);
    if (!rel) throw notFound('error:no-thumb');
    const removed = await this.ctx.actions.run('uploads.removeThumb', async (w) => {
      if (!(await store.removeThumb(w, tid, rel))) return false;
      await this.thumbsChanged(w, tid, viewer.uid);
      return true;
    });
    if (!removed) throw notFound('error:no-thumb');
    return (await store.thumbsOf(this.ctx.db, tid)).map((t) => this.thumbView(t));
  }
}
