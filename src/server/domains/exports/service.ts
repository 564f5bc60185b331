import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { EXPORT_TYPES, type ExportState, type ExportType } from '../../../shared/schemas/account-data.js';
import type { AppContext } from '../../context.js';
import { forbidden, notAuthorised, notFound } from '../../http/errors.js';
import type { Viewer } from '../privileges/service.js';
import { presentUserObj } from '../users/presenter.js';
import { csvRow, zipFiles } from './formats.js';

/** What exports use of the application. */
export type ExportsDeps = Pick<
  AppContext,
  'config' | 'db' | 'groups' | 'hooks' | 'jobs' | 'log' | 'notifications' | 'posts' | 'settings' | 'topics' | 'uploads' | 'users'
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
 * Members' data exports: asked for through the API, written by a job into the data directory
 * (never a public folder), downloaded by the member or an admin, removed when they expire.
 */
export class ExportsService {
  private readonly dir: string;

  constructor(private readonly ctx: ExportsDeps) {
    this.dir = path.join(ctx.config.dataDir, 'exports');
    ctx.jobs.define<{ uid: number; type: ExportType }>(EXPORT_JOB, async ({ payload }) => this.make(payload.uid, payload.type), {
      leaseMs: 30 * 60_000,
      maxAttempts: 3,
    });
    ctx.jobs.define(EXPORT_CLEAN_JOB, async () => void (await this.clean()), { every: HOUR, leaseMs: 10 * 60_000 });
    // A deleted member's exports go with the account, not at the next clean-up.
    ctx.hooks.action('action:user.delete', 'exports', async ({ uid }) => rm(path.join(this.dir, String(uid)), { recursive: true, force: true }));
  }

  private file(uid: number, type: ExportType): string {
    return path.join(this.dir, String(uid), `${type}.${EXTENSION[type]}`);
  }

  private pendingMark(uid: number, type: ExportType): string {
    return path.join(this.dir, String(uid), `${type}.pending`);
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
    if (await exists(mark)) return;
    await mkdir(path.dirname(mark), { recursive: true });
    await writeFile(mark, String(viewer.uid));
    await this.ctx.jobs.enqueue(EXPORT_JOB, { uid, type });
  }

  /** The ready file of an export (its path, size, time and type), or 404. */
  async download(viewer: Viewer, uid: number, type: ExportType): Promise<{ file: string; size: number; mtime: number; mime: string; name: string }> {
    await this.assertOwner(viewer, uid);
    const file = this.file(uid, type);
    const st = await stat(file).catch(() => null);
    if (!st) throw notFound('error:no-export');
    const user = (await this.ctx.users.get(uid))!;
    return { file, size: st.size, mtime: st.mtimeMs, mime: MIME[type], name: `${user.userslug}_${type}.${EXTENSION[type]}` };
  }

  /** Each export's state for the member's data page. */
  async states(uid: number): Promise<ExportState[]> {
    return Promise.all(
      EXPORT_TYPES.map(async (type) => {
        const st = await stat(this.file(uid, type)).catch(() => null);
        return { type, timestamp: st ? Math.floor(st.mtimeMs) : 0, size: st?.size ?? 0, pending: await exists(this.pendingMark(uid, type)) };
      }),
    );
  }

  /** The job: writes the file (through a temporary name, so a download never sees half a file) and tells the member. */
  async make(uid: number, type: ExportType): Promise<void> {
    const user = await this.ctx.users.get(uid);
    const mark = this.pendingMark(uid, type);
    if (!user) {
      await rm(path.join(this.dir, String(uid)), { recursive: true, force: true });
      return;
    }
    const bytes = type === 'profile' ? await this.profile(uid) : type === 'posts' ? await this.postsCsv(uid) : await this.uploadsZip(uid);
    const file = this.file(uid, type);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(`${file}.tmp`, bytes);
    await rename(`${file}.tmp`, file);
    await rm(mark, { force: true });
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

  /** Removes exports older than the expiry setting, and folders of members who are gone; returns how many files went. */
  async clean(now = Date.now()): Promise<number> {
    const maxAge = (await this.ctx.settings.get()).exportExpiryDays * 24 * HOUR;
    const folders = await readdir(this.dir).catch(() => [] as string[]);
    let removed = 0;
    for (const folder of folders) {
      const dir = path.join(this.dir, folder);
      for (const name of await readdir(dir).catch(() => [] as string[])) {
        if (name.endsWith('.pending')) continue;
        const st = await stat(path.join(dir, name)).catch(() => null);
        if (st && now - st.mtimeMs > maxAge) {
          await rm(path.join(dir, name), { force: true });
          removed++;
        }
      }
      if (!(await this.ctx.users.get(Number(folder)))) await rm(dir, { recursive: true, force: true });
    }
    return removed;
  }
}

async function exists(file: string): Promise<boolean> {
  return !!(await stat(file).catch(() => null));
}
