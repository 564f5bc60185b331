import type { Readable } from 'node:stream';
import type { ObjectInfo } from '../../storage/index.js';
import { EXPORT_TYPES, type ExportState, type ExportType } from '../../../shared/schemas/account-data.js';
import type { AppContext } from '../../context.js';
import { forbidden, notAuthorised, notFound } from '../../http/errors.js';
import type { Viewer } from '../privileges/service.js';
import { presentUserObj } from '../users/presenter.js';
import { csvRow } from '../../http/csv.js';
import { zipFiles } from './formats.js';

/** What exports use of the application. */
export type ExportsDeps = Pick<
  AppContext,
  'config' | 'db' | 'groups' | 'hooks' | 'jobs' | 'log' | 'notifications' | 'posts' | 'settings' | 'storage' | 'topics' | 'uploads' | 'users'
>;

/** The job that writes one export (payload: uid and type). */
export const EXPORT_JOB = 'exports.make';
/** The hourly job that removes expired exports. */
export const EXPORT_CLEAN_JOB = 'exports.clean';

const HOUR = 3600_000;
const PAGE = 500;
const EXTENSION: Record<ExportType, string> = { profile: 'json', posts: 'csv', uploads: 'zip' };
const MIME: Record<ExportType, string> = { profile: 'application/json; charset=utf-8', posts: 'text/csv; charset=utf-8', uploads: 'application/zip' };

/** True for a type NodeBB names. */
export function isExportType(type: string): type is ExportType {
  return (EXPORT_TYPES as readonly string[]).includes(type);
}

/**
 * Members' data exports: asked for through the API, written by a job into the file store
 * under `exports/<uid>/` (the data dir or a bucket, never a public folder), downloaded by the
 * member or an admin, removed when they expire.
 */
export class ExportsService {
  constructor(private readonly ctx: ExportsDeps) {
    ctx.jobs.define<{ uid: number; type: ExportType }>(EXPORT_JOB, async ({ payload }) => this.make(payload.uid, payload.type), {
      leaseMs: 30 * 60_000,
      maxAttempts: 3,
    });
    ctx.jobs.define(EXPORT_CLEAN_JOB, async () => void (await this.clean()), { every: HOUR, leaseMs: 10 * 60_000 });
    // A deleted member's exports go with the account, not at the next clean-up.
    ctx.hooks.action('action:user.delete', 'exports', async ({ uid }) => this.removeAll(uid));
  }

  private file(uid: number, type: ExportType): string {
    return `exports/${uid}/${type}.${EXTENSION[type]}`;
  }

  private pendingMark(uid: number, type: ExportType): string {
    return `exports/${uid}/${type}.pending`;
  }

  /** Removes every file of a member's exports. */
  private async removeAll(uid: number): Promise<void> {
    const keys: string[] = [];
    for await (const o of this.ctx.storage.list(`exports/${uid}/`)) keys.push(o.key);
    for (const key of keys) await this.ctx.storage.delete(key);
  }

  /** The member themself or an admin; anyone else is refused. */
  private async assertOwner(viewer: Viewer, uid: number): Promise<void> {
    if (viewer.uid <= 0) throw notAuthorised();
    if (viewer.uid !== uid && !viewer.isAdmin) throw forbidden();
    if (!(await this.ctx.users.get(uid))) throw notFound('error:no-user');
  }

  /** Queues an export (once: asking again while one is pending queues nothing more). */
  async request(viewer: Viewer, uid: number, type: ExportType): Promise<void> {
    await this.assertOwner(viewer, uid);
    const mark = this.pendingMark(uid, type);
    if (await this.ctx.storage.stat(mark)) return;
    await this.ctx.storage.put(mark, Buffer.from(String(viewer.uid)));
    await this.ctx.jobs.enqueue(EXPORT_JOB, { uid, type });
  }

  /** The ready file of an export (its size, time and type), or 404; `open` also gives its bytes as a stream. */
  async download(viewer: Viewer, uid: number, type: ExportType, open = false): Promise<{ stream: Readable | null; size: number; mtime: number; mime: string; name: string }> {
    await this.assertOwner(viewer, uid);
    const key = this.file(uid, type);
    const st: ObjectInfo & { stream?: Readable } | null = open ? await this.ctx.storage.open(key) : await this.ctx.storage.stat(key);
    if (!st) throw notFound('error:no-export');
    const user = (await this.ctx.users.get(uid))!;
    return { stream: st.stream ?? null, size: st.size, mtime: st.mtime, mime: MIME[type], name: `${user.userslug}_${type}.${EXTENSION[type]}` };
  }

  /** Each export's state for the member's data page. */
  async states(uid: number): Promise<ExportState[]> {
    return Promise.all(
      EXPORT_TYPES.map(async (type) => {
        const [st, pending] = await Promise.all([this.ctx.storage.stat(this.file(uid, type)), this.ctx.storage.stat(this.pendingMark(uid, type))]);
        return { type, timestamp: st ? Math.floor(st.mtime) : 0, size: st?.size ?? 0, pending: pending !== null };
      }),
    );
  }

  /** The job: writes the file (the store never shows half of one) and tells the member. */
  async make(uid: number, type: ExportType): Promise<void> {
    const user = await this.ctx.users.get(uid);
    const mark = this.pendingMark(uid, type);
    if (!user) {
      await this.removeAll(uid);
      return;
    }
    const bytes = type === 'profile' ? await this.profile(uid) : type === 'posts' ? await this.postsCsv(uid) : await this.uploadsZip(uid);
    await this.ctx.storage.put(this.file(uid, type), Buffer.from(bytes), { contentType: MIME[type] });
    await this.ctx.storage.delete(mark);
    await this.ctx.notifications.notify({
      type: 'data-export',
      mergeKey: `data-export:${type}`,
      subject: { type: 'user', id: uid },
      from: 0,
      path: `/user/${user.userslug}/data`,
      bodyKey: 'notifications:data-export-ready',
      // Parameters are shown as plain text (escaped): the type's own name.
      params: [type],
      uids: [uid],
    });
  }

  private async profile(uid: number): Promise<Uint8Array> {
    const row = (await this.ctx.users.get(uid))!;
    const blocked = await this.ctx.users.getMany(await this.ctx.users.blockedBy(uid));
    let settings: unknown = {};
    try {
      settings = JSON.parse(row.settings || '{}');
    } catch {
      // A row that is not JSON: nothing chosen.
    }
    const data = {
      exported: new Date().toISOString(),
      // The member's own view of themself: their email included.
      user: { ...presentUserObj(row, { uid, isAdmin: false }), about: row.about },
      settings,
      groups: await this.ctx.groups.groupsOf(uid),
      blocked: [...blocked.values()].map((u) => ({ uid: u.uid, username: u.username })),
    };
    return Buffer.from(JSON.stringify(data, null, 2));
  }

  private async postsCsv(uid: number): Promise<Uint8Array> {
    const parts = [csvRow(['pid', 'tid', 'topic', 'timestamp', 'edited', 'deleted', 'upvotes', 'downvotes', 'content'])];
    for (let after = 0; ;) {
      const rows = await this.ctx.posts.allOf(uid, after, PAGE);
      const topics = await this.ctx.topics.getMany([...new Set(rows.map((p) => p.tid))]);
      for (const p of rows) {
        const edited = Number(p.edited);
        parts.push(
          csvRow([
            p.pid,
            p.tid,
            topics.get(p.tid)?.title ?? '',
            new Date(Number(p.created)).toISOString(),
            edited ? new Date(edited).toISOString() : '',
            p.deleted,
            p.upvotes,
            p.downvotes,
            p.content,
          ]),
        );
      }
      if (rows.length < PAGE) break;
      after = rows[rows.length - 1]!.pid;
    }
    return Buffer.from(parts.join(''));
  }

  private async uploadsZip(uid: number): Promise<Uint8Array> {
    const files: { name: string; bytes: Uint8Array }[] = [];
    for (let page = 1; ; page++) {
      const { uploads } = await this.ctx.uploads.ofMember(uid, page, PAGE);
      for (const u of uploads) {
        const bytes = await this.ctx.uploads.storage.get(u.path);
        if (bytes) files.push({ name: u.name, bytes });
      }
      if (uploads.length < PAGE) break;
    }
    return zipFiles(files);
  }

  /** Removes exports older than the expiry setting, and those of members who are gone; returns how many files went. */
  async clean(now = Date.now()): Promise<number> {
    const maxAge = (await this.ctx.settings.get()).exportExpiryDays * 24 * HOUR;
    const gone = new Map<number, boolean>();
    let removed = 0;
    const keys: { key: string; mtime: number }[] = [];
    for await (const o of this.ctx.storage.list('exports/')) keys.push(o);
    for (const { key, mtime } of keys) {
      const uid = Number(key.split('/')[1]);
      if (!gone.has(uid)) gone.set(uid, !Number.isInteger(uid) || !(await this.ctx.users.get(uid)));
      if (gone.get(uid)) {
        await this.ctx.storage.delete(key);
        continue;
      }
      if (key.endsWith('.pending') || now - mtime <= maxAge) continue;
      await this.ctx.storage.delete(key);
      removed++;
    }
    return removed;
  }
}
