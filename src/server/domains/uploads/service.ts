import type { AppContext } from '../../context.js';
import { AppError, badRequest, forbidden, notAuthorised, notFound } from '../../http/errors.js';
import type { Viewer } from '../privileges/service.js';
import { isImageName, PICTURE_EXTENSIONS, PICTURE_SIZE, processFile, squarePicture, type ProcessedFile, type UploadLimits } from './process.js';
import { StoredUploads, type UploadStorage } from './storage.js';
import * as store from './store.js';
import type { UploadRow } from './store.js';
import { TopicThumbs, type ThumbView } from './thumbs.js';

export { relativeUploadPath, type ThumbView } from './thumbs.js';

/** What the uploads service uses of the application. */
export type UploadsDeps = Pick<AppContext, 'actions' | 'config' | 'db' | 'groups' | 'log' | 'postQueue' | 'posts' | 'privileges' | 'settings' | 'storage' | 'topics' | 'users'>;

/** A file as the request gave it. */
export interface IncomingFile {
  name: string;
  bytes: Buffer;
}

/** An upload as the member's list and the API show it. */
export interface UploadView {
  id: number;
  name: string;
  url: string;
  path: string;
  mime: string;
  size: number;
  width: number;
  height: number;
  thumb: string;
  isImage: boolean;
  timestamp: number;
  timestampISO: string;
}

/** The most files one request may carry. */
export const MAX_FILES = 10;
/** How long an upload may stay unused before the clean-up job removes it (a draft may take a day to post). */
export const ORPHAN_GRACE_MS = 24 * 3600_000;
/** The clean-up job's name; it runs hourly. */
export const CLEAN_JOB = 'uploads.clean';
const CLEAN_BATCH = 200;

/** The stored paths an uploads URL in some text names (`…/assets/uploads/files/ab/cd/<hash>.png`). */
export function pathsIn(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(/\/assets\/uploads\/((?:files|thumbs)\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}\.[a-z0-9]{1,8})/g)) out.add(m[1]!);
  return [...out];
}

/**
 * Members' uploaded files: checking and re-encoding them (process.ts), storing them under
 * content-hashed names (storage.ts), the member's list, topic thumbnails, where each file is
 * used (`upload_refs`, kept by listeners.ts) and the hourly removal of files nothing uses.
 */
export class UploadsService {
  readonly storage: UploadStorage;
  private readonly topicThumbs: TopicThumbs;

  constructor(
    private readonly ctx: UploadsDeps,
    storage?: UploadStorage,
  ) {
    this.storage = storage ?? new StoredUploads(ctx.storage, ctx.config.relativePath);
    this.topicThumbs = new TopicThumbs(ctx, this.storage);
  }

  /** The upload settings in force. */
  async limits(): Promise<UploadLimits> {
    const s = await this.ctx.settings.get();
    return { maximumFileSize: s.maximumFileSize, allowedFileExtensions: s.allowedFileExtensions, resizeImageWidth: s.resizeImageWidth, maximumImagePixels: s.maximumImagePixels };
  }

  /**
   * What a member's picture may be, as NodeBB's account pages say it: the size limit (KiB, the
   * upload limit), the side it is cropped to, and the image extensions accepted (".png, .jpg…").
   */
  pictureRules(s: { maximumFileSize: number }): { maximumProfileImageSize: number; profileImageDimension: number; allowedProfileImageExtensions: string } {
    return { maximumProfileImageSize: s.maximumFileSize, profileImageDimension: PICTURE_SIZE, allowedProfileImageExtensions: PICTURE_EXTENSIONS.map((e) => `.${e}`).join(', ') };
  }

  /** The 413 for a file over the size limit. */
  tooBig(limitKiB: number): AppError {
    return new AppError('error:file-too-big', 413, [limitKiB]);
  }

  /** Refuses guests and members without either upload privilege before the body is read. */
  async assertMayUpload(viewer: Viewer): Promise<void> {
    if (viewer.uid <= 0) throw notAuthorised();
    if (!(await this.ctx.privileges.can(viewer, 'upload:post:image')) && !(await this.ctx.privileges.can(viewer, 'upload:post:file'))) throw forbidden();
  }

  /**
   * Checks, re-encodes and stores the files, then records them, all or nothing: every file is
   * checked before anything is written, and a failed write removes the files it stored.
   */
  async upload(viewer: Viewer, files: IncomingFile[]): Promise<UploadRow[]> {
    if (viewer.uid <= 0) throw notAuthorised();
    if (!files.length) throw badRequest('error:no-upload');
    if (files.length > MAX_FILES) throw badRequest('error:too-many-files', MAX_FILES);
    const limits = await this.limits();
    const processed: ProcessedFile[] = [];
    for (const f of files) {
      if (f.bytes.length > limits.maximumFileSize * 1024) throw this.tooBig(limits.maximumFileSize);
      await this.ctx.privileges.assert(viewer, isImageName(f.name) ? 'upload:post:image' : 'upload:post:file');
      processed.push(await processFile(f.name, f.bytes, limits));
    }
    const written: string[] = [];
    try {
      for (const p of processed) {
        for (const [name, bytes] of [[p.path, p.bytes], ...(p.thumb ? [[p.thumb.path, p.thumb.bytes]] : [])] as [string, Buffer][]) {
          if (await this.storage.has(name)) continue;
          await this.storage.put(name, bytes);
          written.push(name);
        }
      }
      const now = Date.now();
      return await this.ctx.actions.run('uploads.upload', async (w) => {
        const rows: UploadRow[] = [];
        for (const p of processed) {
          rows.push(await store.insert(w, { uid: viewer.uid, path: p.path, name: p.name, mime: p.mime, size: p.bytes.length, width: p.width, height: p.height, thumb: p.thumb?.path ?? '', created: now }));
        }
        return rows;
      });
    } catch (err) {
      // Only files this request created, and only when no row (another member's) names them.
      for (const name of written) {
        if ((await store.anyByPath(this.ctx.db, name.replace(/^thumbs\/(.*)\.webp$/, 'files/$1'))) === undefined) await this.storage.delete(name).catch(() => undefined);
      }
      throw err;
    }
  }

  /** How an upload row is shown. */
  present(row: UploadRow): UploadView {
    return {
      id: row.id,
      name: row.name,
      url: this.storage.url(row.path),
      path: row.path,
      mime: row.mime,
      size: row.size,
      width: row.width,
      height: row.height,
      thumb: row.thumb ? this.storage.url(row.thumb) : '',
      isImage: row.mime.startsWith('image/'),
      timestamp: Number(row.created),
      timestampISO: new Date(Number(row.created)).toISOString(),
    };
  }

  /** A member's uploads, newest first, one page. */
  async ofMember(uid: number, page: number, perPage: number): Promise<{ uploads: UploadView[]; count: number }> {
    const [rows, count] = await Promise.all([store.ofMember(this.ctx.db, uid, (page - 1) * perPage, perPage), store.countOfMember(this.ctx.db, uid)]);
    return { uploads: rows.map((r) => this.present(r)), count };
  }

  /** The viewer's own uploads (or, for an admin, any member's). */
  async list(viewer: Viewer, uid: number, page: number, perPage: number): Promise<{ uploads: UploadView[]; count: number }> {
    if (viewer.uid <= 0) throw notAuthorised();
    if (uid !== viewer.uid && !viewer.isAdmin) throw forbidden();
    return this.ofMember(uid, page, perPage);
  }

  /** Deletes one of the viewer's uploads (admins: anyone's); the file goes when no other member's row names it. */
  async remove(viewer: Viewer, id: number): Promise<void> {
    if (viewer.uid <= 0) throw notAuthorised();
    const row = await store.byId(this.ctx.db, id);
    if (!row) throw notFound('error:no-such-upload');
    if (row.uid !== viewer.uid && !viewer.isAdmin) throw forbidden();
    await this.forget(row);
  }

  /** Deletes a row and, when it was the last one naming the file, the file and its thumbnail. */
  private async forget(row: UploadRow): Promise<void> {
    const last = await this.ctx.actions.run('uploads.remove', async (w) => {
      await store.remove(w, row.id);
      return (await store.rowsOfPath(w.tx, row.path)) === 0;
    });
    if (!last) return;
    await this.storage.delete(row.path);
    if (row.thumb) await this.storage.delete(row.thumb);
  }

  // ---- topic thumbnails (thumbs.ts) ----

  /** A topic's thumbnails (readers of the topic only); unless `thumbsOnly`, the images uploaded into its main post follow (NodeBB's GET …/thumbs). */
  async thumbs(viewer: Viewer, tid: number, thumbsOnly = false): Promise<ThumbView[]> {
    return this.topicThumbs.list(viewer, tid, thumbsOnly);
  }

  /** Thumbnails of many topics for lists: the chosen ones, else the first image of the topic's main post. */
  async thumbsFor(tids: number[]): Promise<Map<number, ThumbView[]>> {
    return this.topicThumbs.forTopics(tids);
  }

  /** Records the first image of a topic's main post (the topic's thumbnail when none is chosen). */
  async setFirstImage(tid: number, content: string): Promise<void> {
    const first = pathsIn(content).find((p) => /^files\/.*\.(png|jpg|gif|webp)$/.test(p));
    await this.ctx.actions.run('uploads.firstImage', (w) => store.setRefs(w, 'topic-first', tid, first ? [first] : []));
  }

  /** Uploads images and makes them the topic's thumbnails (NodeBB's POST …/thumbs). */
  async uploadThumbs(viewer: Viewer, tid: number, files: IncomingFile[]): Promise<UploadRow[]> {
    return this.topicThumbs.upload(viewer, tid, files, (f) => this.upload(viewer, f));
  }

  /** Makes one of the viewer's uploaded images (by its path) a thumbnail of the topic. */
  async chooseThumb(viewer: Viewer, tid: number, upPath: string): Promise<ThumbView[]> {
    return this.topicThumbs.choose(viewer, tid, upPath);
  }

  /** Moves a thumbnail to a new place (NodeBB's PUT …/thumbs/order). */
  async orderThumb(viewer: Viewer, tid: number, upPath: string, order: number): Promise<ThumbView[]> {
    return this.topicThumbs.order(viewer, tid, upPath, order);
  }

  /** Removes a thumbnail from the topic (the file stays the member's upload until the clean-up job finds it unused). */
  async removeThumb(viewer: Viewer, tid: number, upPath: string): Promise<ThumbView[]> {
    return this.topicThumbs.remove(viewer, tid, upPath);
  }

  // ---- profile pictures ----

  /**
   * A member's new profile picture (the member themself or an admin): one image, checked and
   * re-encoded like any upload (pixel limit, metadata dropped), cropped square to 512 px,
   * stored as the member's upload, then set as their picture through the users service (whose
   * `action:user.update` records the picture's reference; the old picture's file becomes unused).
   */
  async uploadPicture(viewer: Viewer, uid: number, files: IncomingFile[]): Promise<UploadRow> {
    return this.memberImage(viewer, uid, files, squarePicture, (url) => this.ctx.users.update(viewer, uid, { picture: url }));
  }

  /**
   * A member's new cover photo (the member themself or an admin): one image, checked and
   * re-encoded like any upload (scaled to the forum's image width), stored as the member's
   * upload, then set through the users service, whose `action:user.update` records its reference.
   */
  async uploadCover(viewer: Viewer, uid: number, files: IncomingFile[]): Promise<UploadRow> {
    return this.memberImage(viewer, uid, files, async (p) => p, (url) => this.ctx.users.setCover(viewer, uid, { url, position: '50% 50%' }));
  }

  /**
   * A group's new cover photo (its owners and admins): one image, checked and re-encoded like a
   * member's cover, stored as the uploader's upload, then set through the groups service, whose
   * `action:group.cover` records its reference (the group's old cover becomes unused).
   */
  async uploadGroupCover(viewer: Viewer, slug: string, files: IncomingFile[]): Promise<UploadRow> {
    const g = await this.ctx.groups.manageable(viewer, slug);
    return this.storeImage(viewer.uid, files, async (p) => p, (url) => this.ctx.groups.setCover(viewer, g.slug, { url }));
  }

  /**
   * One image of a member's own (picture or cover): checked and re-encoded like any upload,
   * `shape`d, stored as the member's upload, then `set` by its URL; the file is removed again
   * when that fails and nothing else uses it.
   */
  private async memberImage(
    viewer: Viewer,
    uid: number,
    files: IncomingFile[],
    shape: (p: ProcessedFile) => Promise<ProcessedFile>,
    set: (url: string) => Promise<unknown>,
  ): Promise<UploadRow> {
    if (viewer.uid <= 0) throw notAuthorised();
    if (viewer.uid !== uid && !viewer.isAdmin) throw forbidden();
    if (!(await this.ctx.users.get(uid))) throw notFound('error:no-user');
    return this.storeImage(uid, files, shape, set);
  }

  /** The checks, re-encoding and storing of one image as `uid`'s upload, then `set` by its URL (the file goes again when that fails and nothing else uses it). */
  private async storeImage(uid: number, files: IncomingFile[], shape: (p: ProcessedFile) => Promise<ProcessedFile>, set: (url: string) => Promise<unknown>): Promise<UploadRow> {
    const file = files[0];
    if (!file) throw badRequest('error:no-upload');
    if (files.length > 1) throw badRequest('error:too-many-files', 1);
    const limits = await this.limits();
    if (file.bytes.length > limits.maximumFileSize * 1024) throw this.tooBig(limits.maximumFileSize);
    if (!isImageName(file.name)) throw badRequest('error:invalid-image');
    const p = await processFile(file.name, file.bytes, limits);
    if (!p.isImage || !p.width) throw badRequest('error:invalid-image');
    const image = await shape(p);
    const written = !(await this.storage.has(image.path));
    if (written) await this.storage.put(image.path, image.bytes);
    try {
      const row = await this.ctx.actions.run('uploads.image', (w) =>
        store.insert(w, { uid, path: image.path, name: image.name, mime: image.mime, size: image.bytes.length, width: image.width, height: image.height, thumb: '', created: Date.now() }),
      );
      await set(this.storage.url(row.path));
      return row;
    } catch (err) {
      if (written && (await store.anyByPath(this.ctx.db, image.path)) === undefined) await this.storage.delete(image.path).catch(() => undefined);
      throw err;
    }
  }

  // ---- references and clean-up ----

  /**
   * Records which stored files a text (a post, a chat message, a picture URL) uses. `fresh`:
   * the text is new (a message just sent), so nothing to replace; a text without files then
   * costs no query.
   */
  async setRefs(kind: 'post' | 'chat' | 'picture' | 'cover' | 'brand' | 'group-cover', refId: number, text: string, opts: { fresh?: boolean } = {}): Promise<void> {
    const paths = pathsIn(text);
    if (opts.fresh && !paths.length) return;
    await this.ctx.actions.run('uploads.refs', (w) => (opts.fresh ? store.addRefs(w, kind, refId, paths) : store.setRefs(w, kind, refId, paths)));
  }

  /**
   * Removes uploads nothing has used for the grace period: no reference (post, chat message,
   * profile picture) and no topic thumbnail; before deleting, the member's posts written or
   * edited since the upload are searched once more (a reference a lost listener missed).
   * Returns how many rows were removed.
   */
  async clean(now = Date.now()): Promise<number> {
    let removed = 0;
    const rows = await store.orphans(this.ctx.db, now - ORPHAN_GRACE_MS, CLEAN_BATCH);
    // A post waiting in the queue names its files only in its queued text: one query for the batch.
    const queued = await this.ctx.postQueue.mentioned(rows.map((r) => r.path));
    for (const row of rows) {
      if (queued.has(row.path)) continue;
      const pid = await this.ctx.posts.memberPostMentioning(row.uid, Number(row.created), row.path);
      if (pid !== null) {
        await this.ctx.actions.run('uploads.refs', (w) => store.addRef(w, 'post', pid, row.path));
        continue;
      }
      await this.forget(row);
      removed += 1;
    }
    if (removed) this.ctx.log.info({ removed }, 'unused uploads removed');
    return removed;
  }
}

/** Parts of the account pages' batched read (users/account-fields.ts). */
export { uploadCountPart } from './store.js';
