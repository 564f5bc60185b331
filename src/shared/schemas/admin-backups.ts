import type { PageBase } from '../types.js';

/** One archive in the store's `backups/` folder. */
export interface BackupEntry {
  name: string;
  size: number;
  sizeHumanReadable: string;
  /** ms since the epoch. */
  mtime: number;
  /** How it came: made on request, on the schedule, uploaded, or by `palaver backup`. */
  kind: 'manual' | 'scheduled' | 'uploaded' | 'cli';
}

/** What a backup or restore in progress (or the last one) reports; every process reads it from the file store. */
export interface BackupStatus {
  op: 'backup' | 'restore' | null;
  state: 'idle' | 'queued' | 'running' | 'done' | 'failed';
  name: string;
  started: number;
  finished: number;
  /** The step: verify (restore's check), tables, files, migrate, done. */
  phase: string;
  table: string;
  /** Rows (or files) done and in all, of every table. */
  done: number;
  total: number;
  bytes: number;
  /** A failure's translation key and parameters. */
  error: { key: string; params: (string | number)[] } | null;
}

/** GET /api/admin/advanced/backups. */
export interface AdminBackupsPage extends PageBase {
  backups: BackupEntry[];
  status: BackupStatus;
  /** Where files and backups are kept (the data dir's path or the bucket), and which database. */
  storage: { kind: 'disk' | 's3'; where: string; database: 'sqlite' | 'postgres' };
  schedule: { backupSchedule: 'off' | 'daily' | 'weekly'; backupKeep: number };
  /** What an admin types to confirm a restore. */
  siteTitle: string;
}
