import { randomBytes } from 'node:crypto';
import { PassThrough, type Readable } from 'node:stream';
import type { BackupEntry, BackupStatus } from '../../../shared/schemas/admin-backups.js';
import { ALL } from '../../core/tags.js';
import type { AppContext } from '../../context.js';
import { AppError, badRequest, notFound } from '../../http/errors.js';
import type { Viewer } from '../privileges/service.js';
import { BackupError } from './format.js';
import type { Progress } from './writer.js';

/** What backups use of the application. */
export type BackupsDeps = Pick<AppContext, 'changes' | 'config' | 'events' | 'jobs' | 'log' | 'settings' | 'storage'>;

/** The job that makes one backup (the admin page's button), the one that restores one, and the schedule's tick. */
export const CREATE_JOB = 'backups.create';
export const RESTORE_JOB = 'backups.restore';
export const SCHEDULE_JOB = 'backups.schedule';

const HOUR = 3600_000;
const DAY = 24 * HOUR;
/** A scheduled backup is due this much before its period is over (the tick runs every 10 minutes). */
const SLACK = 15 * 60_000;
const STATUS_KEY = 'backups/status/current.json';
/** An archive's name in the store: made here, or checked when it comes from a request. */
export const BACKUP_NAME = /^palaver-\d{8}-\d{6}-[0-9a-f]{4}-(manual|scheduled|uploaded|cli)\.tar\.gz$/;

const IDLE: BackupStatus = { op: null, state: 'idle', name: '', started: 0, finished: 0, phase: '', table: '', done: 0, total: 0, bytes: 0, error: null };

/** A size as people read it (KB, MB, GB with one decimal). */
function humanSize(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let n = bytes;
  let u = 0;
  while (n >= 1024 && u < units.length - 1) {
    n /= 1024;
    u++;
  }
  return `${u ? n.toFixed(1) : n} ${units[u]}`;
}

/** A new archive's name: when and how it was made. */
export function backupName(kind: BackupEntry['kind'], now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `palaver-${stamp}-${randomBytes(2).toString('hex')}-${kind}.tar.gz`;
}

/** A failure as the admin page shows it: its translation key, or the generic one (the cause goes to the log). */
function errorOf(err: unknown): { key: string; params: (string | number)[] } {
  if (err instanceof BackupError || err instanceof AppError) return { key: err.key, params: (err.params ?? []) as (string | number)[] };
  return { key: 'error:backup-failed', params: [] };
}

/**
 * Backups kept in the file store (`backups/…`, the data dir or the bucket): made on request
 * or on the admin's schedule (leased jobs: once across processes), listed, downloaded,
 * uploaded, deleted, and restored over the running forum behind maintenance mode. Progress
 * lives in the store too (`backups/status/current.json`), so every process (and the admin
 * page after the restore replaced its session) can read it.
 */
export class BackupsService {
  private lastStatusWrite = 0;
  private status: BackupStatus = IDLE;

  constructor(private readonly ctx: BackupsDeps) {
    ctx.jobs.define<{ kind: BackupEntry['kind'] }>(CREATE_JOB, async ({ payload }) => void (await this.create(payload.kind)), {
      leaseMs: 6 * HOUR,
      maxAttempts: 1,
    });
    ctx.jobs.define<{ name: string; uid: number }>(RESTORE_JOB, async ({ payload }) => this.restoreNow(payload.name, payload.uid), {
      leaseMs: 6 * HOUR,
      maxAttempts: 1,
    });
    ctx.jobs.define(SCHEDULE_JOB, async () => void (await this.tick()), { every: 10 * 60_000, leaseMs: 6 * HOUR });
  }

  private key(name: string): string {
    if (!BACKUP_NAME.test(name)) throw notFound('error:no-backup');
    return `backups/${name}`;
  }

  /** Every archive, newest first. */
  async list(): Promise<BackupEntry[]> {
    const out: BackupEntry[] = [];
    for await (const o of this.ctx.storage.list('backups/')) {
      const name = o.key.slice('backups/'.length);
      const m = BACKUP_NAME.exec(name);
      if (m) out.push({ name, size: o.size, sizeHumanReadable: humanSize(o.size), mtime: o.mtime, kind: m[1] as BackupEntry['kind'] });
    }
    return out.sort((a, b) => (a.name < b.name ? 1 : a.name > b.name ? -1 : 0));
  }

  /** The last or current backup's or restore's progress. */
  async progress(): Promise<BackupStatus> {
    const raw = await this.ctx.storage.get(STATUS_KEY).catch(() => null);
    if (!raw) return IDLE;
    try {
      return { ...IDLE, ...(JSON.parse(raw.toString('utf8')) as Partial<BackupStatus>) };
    } catch {
      return IDLE;
    }
  }

  private async report(status: Partial<BackupStatus>, force = false): Promise<void> {
    this.status = { ...this.status, ...status };
    const now = Date.now();
    if (!force && now - this.lastStatusWrite < 500) return;
    this.lastStatusWrite = now;
    await this.ctx.storage.put(STATUS_KEY, Buffer.from(JSON.stringify(this.status)), { contentType: 'application/json' });
  }

  private onProgress = (p: Progress) => {
    void this.report({
      phase: p.phase,
      table: p.table ?? '',
      done: p.phase === 'files' ? p.done : p.allDone,
      total: p.phase === 'files' ? p.total : p.allTotal,
      bytes: p.bytes,
    }).catch((err: unknown) => this.ctx.log.warn({ err }, 'backup status not written'));
  };

  private async assertIdle(): Promise<void> {
    const s = await this.progress();
    // A run whose process died leaves 'running' behind: after a day it no longer blocks.
    if ((s.state === 'running' || s.state === 'queued') && Date.now() - s.started < DAY) throw new AppError('error:backup-busy', 409);
  }

  /** Queues a backup (the admin page's button); its job writes the archive. */
  async request(viewer: Viewer, ip = ''): Promise<BackupStatus> {
    await this.assertIdle();
    this.status = { ...IDLE, op: 'backup', state: 'queued', started: Date.now() };
    await this.report({}, true);
    await this.ctx.jobs.enqueue(CREATE_JOB, { kind: 'manual' });
    await this.ctx.events.log('backup-create', viewer.uid, {}, ip);
    return this.status;
  }

  /** Makes a backup now into the store; returns its name. */
  async create(kind: BackupEntry['kind']): Promise<string> {
    const name = backupName(kind);
    this.status = { ...IDLE, op: 'backup', state: 'running', name, started: Date.now() };
    await this.report({}, true);
    const body = new PassThrough();
    // Both stores show an object only once it is whole (a rename on disk, a completed upload on S3).
    const stored = this.ctx.storage.put(`backups/${name}`, body, { contentType: 'application/gzip' });
    try {
      const { backup } = await import('./run.js');
      const made = backup(this.ctx.config, this.ctx.storage, body, this.onProgress);
      made.catch(() => undefined);
      await Promise.all([made, stored]);
      await this.report({ state: 'done', finished: Date.now(), phase: 'done' }, true);
      this.ctx.log.info({ name }, 'backup made');
      return name;
    } catch (err) {
      body.destroy();
      await stored.catch(() => undefined);
      await this.ctx.storage.delete(`backups/${name}`).catch(() => undefined);
      await this.report({ state: 'failed', finished: Date.now(), error: errorOf(err) }, true);
      this.ctx.log.error({ err }, 'backup failed');
      throw err;
    }
  }

  /** An archive's bytes for download, or 404. */
  async open(name: string): Promise<{ stream: Readable; size: number }> {
    const opened = await this.ctx.storage.open(this.key(name));
    if (!opened) throw notFound('error:no-backup');
    return opened;
  }

  /** Deletes an archive. */
  async remove(viewer: Viewer, name: string, ip = ''): Promise<void> {
    const key = this.key(name);
    if (!(await this.ctx.storage.stat(key))) throw notFound('error:no-backup');
    await this.ctx.storage.delete(key);
    await this.ctx.events.log('backup-delete', viewer.uid, { name }, ip);
  }

  /** Stores an uploaded archive (checked when it is restored, before anything is written); returns its entry. */
  async upload(viewer: Viewer, body: Readable, ip = ''): Promise<BackupEntry> {
    const name = backupName('uploaded');
    await this.ctx.storage.put(`backups/${name}`, body, { contentType: 'application/gzip' });
    await this.ctx.events.log('backup-upload', viewer.uid, { name }, ip);
    return (await this.list()).find((b) => b.name === name)!;
  }

  /**
   * Queues a restore of an archive over this forum. The admin confirms by typing the forum's
   * title; the job puts the forum in maintenance mode while it runs.
   */
  async requestRestore(viewer: Viewer, name: string, confirm: string, ip = ''): Promise<BackupStatus> {
    const key = this.key(name);
    const { siteTitle } = await this.ctx.settings.get();
    if (confirm.trim() !== siteTitle.trim()) throw badRequest('error:backup-confirm-title');
    if (!(await this.ctx.storage.stat(key))) throw notFound('error:no-backup');
    await this.assertIdle();
    this.status = { ...IDLE, op: 'restore', state: 'queued', name, started: Date.now() };
    await this.report({}, true);
    await this.ctx.events.log('backup-restore', viewer.uid, { name }, ip);
    await this.ctx.jobs.enqueue(RESTORE_JOB, { name, uid: viewer.uid });
    return this.status;
  }

  /** The restore job: maintenance mode on, the archive restored over the database, every cache dropped. */
  async restoreNow(name: string, uid: number): Promise<void> {
    const key = this.key(name);
    this.status = { ...IDLE, op: 'restore', state: 'running', name, started: Date.now(), phase: 'verify' };
    await this.report({}, true);
    const wasInMaintenance = (await this.ctx.settings.get()).maintenanceMode;
    let maintenanceOn = false;
    try {
      // Loaded with the first backup or restore, not at start-up (tar, the restore's migrator).
      const { restore } = await import('./run.js');
      await restore(this.ctx.config, async () => (await this.ctx.storage.open(key))?.stream ?? Promise.reject(notFound('error:no-backup')), {
        replace: true,
        files: this.ctx.storage,
        onProgress: this.onProgress,
        beforeWrite: async () => {
          if (!wasInMaintenance) await this.ctx.settings.set({ maintenanceMode: true });
          maintenanceOn = true;
        },
      });
      // The database is another one now: whatever any process kept of the old one goes.
      this.ctx.changes.publish([ALL]);
      await this.report({ state: 'done', finished: Date.now(), phase: 'done' }, true);
      this.ctx.log.warn({ name, uid }, 'backup restored: the forum is now the archive’s');
    } catch (err) {
      // The old forum is intact (the restore rolled back): out of maintenance as it was before.
      if (maintenanceOn && !wasInMaintenance) await this.ctx.settings.set({ maintenanceMode: false }).catch(() => undefined);
      await this.report({ state: 'failed', finished: Date.now(), error: errorOf(err) }, true);
      this.ctx.log.error({ err, name }, 'restore failed; the forum is unchanged');
      throw err;
    }
  }

  /** The schedule's tick: a backup when the newest scheduled one is a period old, then only the newest `backupKeep` kept. Returns the new archive's name, if any. */
  async tick(now = Date.now()): Promise<string | null> {
    const { backupSchedule, backupKeep } = await this.ctx.settings.get();
    if (backupSchedule === 'off') return null;
    const period = backupSchedule === 'daily' ? DAY : 7 * DAY;
    const scheduled = (await this.list()).filter((b) => b.kind === 'scheduled');
    if (scheduled.length && now - scheduled[0]!.mtime < period - SLACK) return null;
    const name = await this.create('scheduled');
    const keep = (await this.list()).filter((b) => b.kind === 'scheduled');
    for (const old of keep.slice(backupKeep)) await this.ctx.storage.delete(`backups/${old.name}`);
    return name;
  }
}
